import type { FastifyInstance } from 'fastify';
import { specError } from '../../spec/errors.ts';
import {
  connectionRefusal,
  dashboardsFor,
  type DashboardRecord,
  type DashboardResult,
  type WriteKind,
} from '../../spec/machines/dashboards.ts';
import { migratedWrite } from '../../spec/machines/migration.ts';
import { saveFromChatBody, savedChartName } from '../charts/save.ts';
import {
  AppendChartsFromBody,
  CloneDashboardBody,
  ListWorkspaceDashboardsQuery,
  ListWorkspacesQuery,
  RemoveChartsBody,
  V1AddChartsBody,
  V1CreateDashboardBody,
} from '../../spec/schemas/dashboard.ts';
import type { Done } from '../done.ts';
import { chartSaver, v1Writer } from '../store/actors.ts';
import type { AccountRecord } from '../store/store.ts';
import type { Carrier } from './auth.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, errDone, okDone, route } from './route.ts';

/**
 * §4.10–§4.14 and the v1 calls §4.16 and §9 name: workspaces, dashboards and charts through v1.
 * Handlers parse, call the dashboards machine through the store, render (STYLE 4).
 */

/**
 * §5: the dashboard writes read the `authorization` header (an API key, or a tenant JWT where
 * rule 4 allows one); their bodies also list `apiKey` (decision dashboards.v1-writes.credentials).
 */
const V1_WRITE: readonly Carrier[] = ['header', 'bearer-token', 'body-key'];
/** Decision: the v1 list of a workspace's dashboards takes an API key in the query or a tenant JWT. */
const V1_LIST: readonly Carrier[] = ['bearer-token', 'query-key'];

/** §7, §9: after finalize every v1 write answers 410 naming its v2 replacement. */
function migrated(
  account: AccountRecord,
  write: WriteKind,
  ids: { workspaceId?: string; dashboardId?: string },
): Done<never> | undefined {
  const gone = migratedWrite(account.migration, write, ids);
  return gone === undefined ? undefined : errDone(gone);
}

/** The v1 id a dashboard had (§9: v1 ids where one exists), or its own id. */
const v1IdOf = (account: AccountRecord, dashboardId: string): string =>
  account.migration.phase === 'after'
    ? (account.migration.legacyIdOf[dashboardId] ?? dashboardId)
    : dashboardId;

/** The v1 workspace an application came from, or the workspace's own id. */
function v1WorkspaceOf(account: AccountRecord, workspaceId: string): string {
  if (account.migration.phase !== 'after') return workspaceId;
  return account.migration.applications[workspaceId]?.legacyWorkspaceId ?? workspaceId;
}

/** The live workspace (an application after finalize) a v1 workspace id names. */
function liveWorkspaceOf(account: AccountRecord, workspaceId: string): string {
  if (account.migration.phase !== 'after') return workspaceId;
  return account.migration.applicationOf[workspaceId] ?? workspaceId;
}

function dashboardOf(done: Done<DashboardResult>): Done<DashboardRecord> {
  return done.ok ? okDone(done.value.dashboard) : done;
}

/** Decision: a layout edit answers the dashboard that holds the edit and its chart ids. */
const layout = (d: DashboardRecord) => ({ dashboardId: d.dashboardId, chartIds: d.chartIds });

/** Decision dashboards.v1-record.fields: a v1 dashboard as the v1 list shows it. */
function v1Item(account: AccountRecord, d: DashboardRecord) {
  const { charts } = account.dashboards;
  return {
    id: v1IdOf(account, d.dashboardId),
    name: d.name,
    workspaceId: v1WorkspaceOf(account, d.workspaceId),
    tenantId: d.tenantId,
    ownerProjectUserId: d.ownerProjectUserId,
    chartIds: d.chartIds,
    charts: d.chartIds.flatMap((chartId) => {
      const chart = charts[chartId];
      return chart === undefined ? [] : [{ chartId, name: chart.name, chartConfig: chart.config }];
    }),
  };
}

export function dashboardRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  const { store } = ctx;

  // §4.10
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/dashboard/clone',
    auth: V1_WRITE,
    body: CloneDashboardBody,
    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal), 'clone');
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'clone', { dashboardId: body.sourceDashboardId });
      if (gone !== undefined) return gone;
      const done = dashboardOf(
        store.dashboards(who.value.account, {
          type: 'clone',
          sourceDashboardId: body.sourceDashboardId,
          newDashboardId: ctx.ids.uuid(),
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.targetWorkspaceId === undefined
            ? {}
            : { targetWorkspaceId: body.targetWorkspaceId }),
          actor: who.value.actor,
          via: 'v1',
        }),
      );
      return done.ok
        ? okDone({ dashboardId: done.value.dashboardId, name: done.value.name })
        : done;
    },
  });

  // §4.11
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/dashboard/append-charts-from',
    auth: V1_WRITE,
    body: AppendChartsFromBody,
    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'appendCharts', {
        dashboardId: body.targetDashboardId,
      });
      if (gone !== undefined) return gone;
      const done = dashboardOf(
        store.dashboards(who.value.account, {
          type: 'appendCharts',
          sourceDashboardId: body.sourceDashboardId,
          targetDashboardId: body.targetDashboardId,
          batchId: ctx.ids.uuid(),
          actor: who.value.actor,
          via: 'v1',
        }),
      );
      return done.ok ? okDone(layout(done.value)) : done;
    },
  });

  // §4.12
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/dashboard/remove-charts',
    auth: V1_WRITE,
    body: RemoveChartsBody,
    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'removeCharts', { dashboardId: body.dashboardId });
      if (gone !== undefined) return gone;
      const done = dashboardOf(
        store.dashboards(who.value.account, {
          type: 'removeCharts',
          dashboardId: body.dashboardId,
          chartIds: body.chartIds,
          actor: who.value.actor,
          via: 'v1',
        }),
      );
      return done.ok ? okDone(layout(done.value)) : done;
    },
  });

  // §4.16 names the v1 create; its path is decided (dashboards.v1-shapes.not-shown).
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/dashboard/create',
    auth: V1_WRITE,
    body: V1CreateDashboardBody,
    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'create', { workspaceId: body.workspaceId });
      if (gone !== undefined) return gone;
      const done = dashboardOf(
        store.dashboards(who.value.account, {
          type: 'createDashboard',
          dashboardId: ctx.ids.uuid(),
          workspaceId: body.workspaceId,
          name: body.name,
          actor: who.value.actor,
          via: 'v1',
        }),
      );
      if (!done.ok) return done;
      const d = done.value;
      return okDone({ dashboardId: d.dashboardId, name: d.name, workspaceId: d.workspaceId });
    },
  });

  // §4.16 names the v1 add-charts; its path is decided (dashboards.v1-shapes.not-shown).
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/dashboard/add-charts',
    auth: V1_WRITE,
    body: V1AddChartsBody,
    handle: ({ principal, body }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'addCharts', {
        dashboardId: body.targetDashboardId,
      });
      if (gone !== undefined) return gone;
      const done = dashboardOf(
        store.dashboards(who.value.account, {
          type: 'addCharts',
          dashboardId: body.targetDashboardId,
          chartIds: body.charts,
          actor: who.value.actor,
          via: 'v1',
        }),
      );
      return done.ok ? okDone(layout(done.value)) : done;
    },
  });

  // §4.13: an API key only (§5 rule 4), in the query (§5 table).
  route(app, ctx, {
    method: 'GET',
    url: '/v1/api/dashboard/list-workspaces',
    auth: ['query-key'],
    query: ListWorkspacesQuery,
    handle: ({ principal, query }) => {
      const { account } = caller(principal);
      const { workspaces, dashboards } = account.dashboards;
      // Decision workspaces.list.filter-names: teamId and projectId, both exact matches.
      const items = Object.values(workspaces)
        .filter((w) => query.teamId === undefined || w.teamId === query.teamId)
        .filter((w) => query.projectId === undefined || w.projectId === query.projectId)
        .sort(
          (a, b) =>
            a.createdAt.localeCompare(b.createdAt) || a.workspaceId.localeCompare(b.workspaceId),
        )
        .map((w) => {
          const primary =
            w.primaryDashboardId === null ? undefined : dashboards[w.primaryDashboardId];
          // §4.13, §9: after finalize the applications, keyed by the v1 workspace and v1 ids.
          return {
            workspace_id: v1WorkspaceOf(account, w.workspaceId),
            dashboard_id: primary === undefined ? null : v1IdOf(account, primary.dashboardId),
            dashboard_name: primary?.name ?? null,
            name: w.name,
            projectId: w.projectId,
            teamId: w.teamId,
          };
        });
      return okDone({ workspaces: items });
    },
  });

  // §9 names list-workspace-dashboards; path and shape are decided (dashboards.v1-shapes.not-shown).
  route(app, ctx, {
    method: 'GET',
    url: '/v1/api/dashboard/list-workspace-dashboards',
    auth: V1_LIST,
    query: ListWorkspaceDashboardsQuery,
    handle: ({ principal, query }) => {
      const who = v1Writer(caller(principal));
      if (!who.ok) return who;
      const { account, actor } = who.value;
      const workspaceId = liveWorkspaceOf(account, query.workspaceId);
      if (account.dashboards.workspaces[workspaceId] === undefined) {
        return errDone(
          specError('NOT_FOUND', 'no workspace with that id here', {
            resource: 'workspace',
            field: 'workspaceId',
          }),
        );
      }
      // §2.8: a user's copy takes the shared dashboard's place, one entry per dashboard.
      const seen = dashboardsFor(account.dashboards, workspaceId, actor, 'v1');
      return okDone({ dashboards: seen.map((d) => v1Item(account, d)) });
    },
  });

  // §4.14: any of the three credentials of §5 rule 4.
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/chart/save-from-chat',
    auth: V1_WRITE,
    body: saveFromChatBody(ctx.settings.saveFromChatRequired),
    handle: ({ principal, body, req }) => {
      const { account } = caller(principal);
      const saver = chartSaver(caller(principal));
      // §2.6, §4.14: kept exactly as sent, sqlOverride included: the body as it arrived, not
      // the parsed copy (validation passed; parsing may drop or reorder what it does not know).
      const raw = (req.body as { chartConfig: Record<string, unknown> }).chartConfig;
      const done = store.dashboards(account, {
        type: 'createChart',
        chartId: ctx.ids.uuid(),
        name: savedChartName(body.name, raw),
        config: raw,
        ...(saver.ok ? { actor: saver.value.actor } : {}),
      });
      if (!done.ok) return done;
      // The connection the chart's SQL reads, for its rows (reference/charts/rows.ts).
      ctx.store.rememberChartConnection(account, done.value.chart.chartId, body.connectionId);
      return okDone({ chartId: done.value.chart.chartId, name: done.value.chart.name });
    },
  });
}
