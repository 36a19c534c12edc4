import { hookNotFound, withHookAccount } from './account.ts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { tenantProjectUserId } from '../../spec/machines/identity.ts';
import { Uuid } from '../../spec/schemas/common.ts';
import {
  CreateChartBody,
  CreateDashboardBody,
  CreateWorkspaceBody,
  type HookName,
} from '../../spec/schemas/hooks.ts';
import type { ReferenceContext } from '../context.ts';
import { errDone, okDone, route } from '../http/route.ts';
import type { Done } from '../done.ts';
import type { AccountRecord } from '../store/store.ts';

/** The content hooks this file serves (spec/hooks.openapi.yaml, tag content). */
export const DASHBOARD_HOOKS: readonly HookName[] = [
  'workspaces',
  'dashboards',
  'charts',
  'dashboard-charts',
  'migration',
];

const WorkspacePath = z.object({ organizationId: Uuid, workspaceId: Uuid });
const DashboardPath = z.object({ organizationId: Uuid, dashboardId: Uuid });
const AccountOnly = z.object({ organizationId: Uuid });

/**
 * Workspaces, shared dashboards and their charts, which the document leaves to the host: made
 * with the host's authority (an API key's, §5 rule 7), through the dashboards machine.
 */
export function dashboardHookRoutes(
  app: FastifyInstance,
  ctx: ReferenceContext,
  prefix: string,
): void {
  const { store } = ctx;
  const withAccount = <T>(organizationId: string, fn: (a: AccountRecord) => Done<T>) =>
    withHookAccount(store, organizationId, fn);
  const host = { actor: { kind: 'api-key' }, via: 'hook' } as const;

  // A workspace and its primary dashboard (§2.8: a workspace is listed with one).
  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/workspaces`,
    auth: 'none',
    params: AccountOnly,
    body: CreateWorkspaceBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const made = store.dashboards(a, {
          type: 'createWorkspace',
          workspaceId: ctx.ids.uuid(),
          name: body.name,
          projectId: body.projectId ?? null,
          teamId: body.teamId ?? null,
        });
        if (!made.ok) return made;
        const { workspace } = made.value;
        const primary = store.dashboards(a, {
          type: 'createDashboard',
          dashboardId: ctx.ids.uuid(),
          workspaceId: workspace.workspaceId,
          name: body.dashboardName ?? body.name,
          ...host,
        });
        if (!primary.ok) return primary;
        return okDone({
          workspaceId: workspace.workspaceId,
          name: workspace.name,
          dashboardId: primary.value.dashboard.dashboardId,
        });
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/workspaces/:workspaceId/dashboards`,
    auth: 'none',
    params: WorkspacePath,
    body: CreateDashboardBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const done = store.dashboards(a, {
          type: 'createDashboard',
          dashboardId: ctx.ids.uuid(),
          workspaceId: params.workspaceId,
          name: body.name,
          controls: body.controls ?? [],
          ...host,
        });
        if (!done.ok) return done;
        const d = done.value.dashboard;
        return okDone({
          dashboardId: d.dashboardId,
          name: d.name,
          workspaceId: d.workspaceId,
          controls: d.controls,
        });
      }),
  });

  // A chart, placed at the end of a shared dashboard's layout.
  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/dashboards/:dashboardId/charts`,
    auth: 'none',
    params: DashboardPath,
    body: CreateChartBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        if (a.dashboards.dashboards[params.dashboardId] === undefined) {
          return errDone(hookNotFound('dashboard', 'dashboardId'));
        }
        const chartId = ctx.ids.uuid();
        const made = store.dashboards(a, {
          type: 'createChart',
          chartId,
          name: body.name,
          config: body.chartConfig ?? { title: body.name },
        });
        if (!made.ok) return made;
        const placed = store.dashboards(a, {
          type: 'addCharts',
          dashboardId: params.dashboardId,
          chartIds: [chartId],
          ...host,
        });
        if (!placed.ok) return placed;
        return okDone({ chartId, name: body.name, dashboardId: params.dashboardId });
      }),
  });

  // Read-only: a layout, for the suites' read-backs (the v1 list's members beyond §2.8's are
  // a decision a target need not share). After finalize a v1 id names the dashboard it became.
  route(app, ctx, {
    method: 'GET',
    url: `${prefix}/accounts/:organizationId/dashboards/:dashboardId/charts`,
    auth: 'none',
    params: DashboardPath,
    handle: ({ params }) =>
      withAccount(params.organizationId, (a) => {
        const id =
          a.migration.phase === 'after'
            ? (a.migration.v2IdOf[params.dashboardId] ?? params.dashboardId)
            : params.dashboardId;
        const d = a.dashboards.dashboards[id];
        if (d === undefined) return errDone(hookNotFound('dashboard', 'dashboardId'));
        const { charts } = a.dashboards;
        return okDone({
          dashboardId: params.dashboardId,
          chartIds: d.chartIds,
          charts: d.chartIds.flatMap((chartId) => {
            const chart = charts[chartId];
            return chart === undefined
              ? []
              : [{ chartId, name: chart.name, chartConfig: chart.config }];
          }),
        });
      }),
  });

  // §3 last row, §9: finalizing is the service team's act, not an API call (decision
  // states.migration.finalize-hook). It migrates this account only; each tenant becomes the
  // project user the identity machine derives for it (decision tenants.migration.mapping).
  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/migration/finalize`,
    auth: 'none',
    params: AccountOnly,
    handle: ({ params }) =>
      withAccount(params.organizationId, (a) => {
        const tenants = Object.values(a.identity.tenants).map((tenant) => ({
          tenantId: tenant.tenantId,
          projectUserId: tenantProjectUserId(a.organizationId, tenant.tenantId),
        }));
        const done = store.finalize(a, tenants);
        if (!done.ok) return done;
        const { migration } = done.value;
        return okDone({
          finalizedAt: migration.finalizedAt,
          applications: Object.values(migration.applications),
        });
      }),
  });
}
