import { z } from 'zod';
import { headerActor } from '../auth.ts';
import type { Actor } from '../auth.ts';
import {
  V2,
  appendCopies,
  chartIdsFrom,
  copyChart,
  isMigrated,
  isShared,
  listFor,
  liveDashboard,
  newDashboard,
  requireCharts,
  requireFlag,
  rolePermissions,
  visibleTo,
} from '../dashboards.ts';
import type { Viewer } from '../dashboards.ts';
import {
  invalid,
  notFound,
  sharedReadOnly,
  tenantNotMigrated,
  withoutOrganization,
} from '../errors.ts';
import { parse } from '../http.ts';
import type { Req, Router } from '../http.ts';
import type { WriteKind } from '../permissions.ts';
import { AnyBody, Credentials, Uuid } from '../schemas.ts';
import type { Account, Application, Dashboard, ProjectUser, Store } from '../store.ts';
import { isoSeconds } from '../util.ts';

/**
 * §4.16: v2 applications and dashboards. An API key acts on the shared templates; a project-user
 * token (or a tenant token the migration mapped) acts in that user's own space.
 */

export const LOOKUP_PATH = '/v2/api/lookup/dashboards/:dashboardId';

type Caller =
  { kind: 'shared'; account: Account } | { kind: 'user'; account: Account; user: ProjectUser };

const Named = z.looseObject({ ...Credentials, name: z.string().min(1) });
const CloneBody = z.looseObject({ ...Credentials, name: z.string().min(1).optional() });
const Charts = z.looseObject({ ...Credentials, charts: z.array(z.unknown()).min(1) });
const Append = z.looseObject({ ...Credentials, sourceDashboardId: Uuid });

async function callerOf(store: Store, req: Req): Promise<Caller> {
  const actor: Actor = await headerActor(store, req, { apiKey: true, tenant: true, user: true });
  if (actor.kind === 'api-key') return { kind: 'shared', account: actor.account };
  if (actor.kind === 'user') return { kind: 'user', account: actor.account, user: actor.user };
  const userId = actor.tenant.projectUserId;
  const user = userId ? actor.account.users.get(userId) : undefined;
  if (!isMigrated(actor.account) || !user) throw tenantNotMigrated();
  return { kind: 'user', account: actor.account, user };
}

function viewerOf(caller: Caller): Viewer {
  return caller.kind === 'user' ? { kind: 'user', userId: caller.user.id } : { kind: 'shared' };
}

function appsFor(caller: Caller): Application[] {
  return [...caller.account.applications.values()]
    .filter(
      (a) =>
        caller.kind === 'shared' || a.projectId === null || a.projectId === caller.user.projectId,
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

function appOf(caller: Caller, id: string): Application {
  if (!Uuid.safeParse(id).success)
    throw invalid('applicationId must be a UUID.', { field: 'applicationId' });
  const app = appsFor(caller).find((a) => a.id === id);
  if (!app) throw notFound('application', 'applicationId');
  return app;
}

function dashboardIn(caller: Caller, app: Application, id: string, field: string): Dashboard {
  if (!Uuid.safeParse(id).success) throw invalid(`${field} must be a UUID.`, { field });
  const d = liveDashboard(caller.account, id);
  if (!d || d.generation !== 2 || d.containerId !== app.id) throw notFound('dashboard', field);
  if (caller.kind === 'shared' ? !isShared(d) : !visibleTo(d, viewerOf(caller)))
    throw notFound('dashboard', field);
  return d;
}

function view(d: Dashboard): Record<string, unknown> {
  return {
    id: d.id,
    name: d.name,
    applicationId: d.containerId,
    legacyDashboardId: d.legacyDashboardId,
    kind: d.ownerProjectUserId === null ? 'template' : 'dashboard',
    ownerProjectUserId: d.ownerProjectUserId,
    chartIds: [...d.chartIds],
    controls: d.controls,
    createdAt: isoSeconds(d.createdAt),
  };
}

/** The checks before a user writes: a space to write in, its own dashboard, the flag. */
function userMayWrite(caller: Caller, kind: WriteKind, target: Dashboard | null): void {
  if (caller.kind !== 'user') return;
  if (!caller.user.projectOrganizationId) throw withoutOrganization(caller.user.id);
  if (target && isShared(target)) throw sharedReadOnly(target.id);
  requireFlag(rolePermissions(caller.account, caller.user), kind);
}

function body(req: Req): Record<string, unknown> {
  return parse(AnyBody, req.body ?? {});
}

export function registerV2Routes(router: Router, store: Store): void {
  router.add('GET', '/v2/api/applications', async (req) => {
    const caller = await callerOf(store, req);
    return {
      data: {
        applications: appsFor(caller).map((a) => ({
          applicationId: a.id,
          name: a.name,
          defaultDashboardId: a.defaultDashboardId,
          legacyWorkspaceId: a.legacyWorkspaceId,
        })),
      },
    };
  });

  router.add('GET', '/v2/api/applications/:applicationId/dashboards', async (req) => {
    const caller = await callerOf(store, req);
    const app = appOf(caller, req.params.applicationId ?? '');
    return {
      data: {
        applicationId: app.id,
        dashboards: listFor(caller.account, app.id, 2, viewerOf(caller)).map(view),
      },
    };
  });

  router.add('POST', '/v2/api/applications/:applicationId/dashboards', async (req) => {
    const raw = body(req);
    const caller = await callerOf(store, req);
    const app = appOf(caller, req.params.applicationId ?? '');
    const input = parse(Named, raw);
    userMayWrite(caller, 'create', null);
    const d = newDashboard(
      caller.account,
      {
        generation: 2,
        containerId: app.id,
        name: input.name,
        ownerProjectUserId: caller.kind === 'user' ? caller.user.id : null,
      },
      store.now(caller.account),
    );
    return { status: 201, data: view(d) };
  });

  router.add(
    'POST',
    '/v2/api/applications/:applicationId/dashboards/:dashboardId/clone',
    async (req) => {
      const raw = body(req);
      const caller = await callerOf(store, req);
      const app = appOf(caller, req.params.applicationId ?? '');
      const source = dashboardIn(caller, app, req.params.dashboardId ?? '', 'dashboardId');
      const input = parse(CloneBody, raw);
      userMayWrite(caller, 'clone', null);
      const account = caller.account;
      const d = newDashboard(
        account,
        {
          generation: 2,
          containerId: app.id,
          name: input.name ?? `${source.name} (Copy)`,
          chartIds: source.chartIds.flatMap((id) => {
            const chart = account.charts.get(id);
            return chart ? [copyChart(account, chart).id] : [];
          }),
          controls: structuredClone(source.controls),
          ownerProjectUserId: caller.kind === 'user' ? caller.user.id : null,
        },
        store.now(account),
      );
      return { status: 201, data: view(d) };
    },
  );

  router.add(
    'POST',
    '/v2/api/applications/:applicationId/dashboards/:dashboardId/charts',
    async (req) => {
      const raw = body(req);
      const caller = await callerOf(store, req);
      const app = appOf(caller, req.params.applicationId ?? '');
      const d = dashboardIn(caller, app, req.params.dashboardId ?? '', 'dashboardId');
      const input = parse(Charts, raw);
      const ids = chartIdsFrom(input.charts);
      if (!ids)
        throw invalid('charts must list chart ids (strings, or objects with chartId).', {
          field: 'charts',
        });
      requireCharts(caller.account, ids, 'charts');
      userMayWrite(caller, 'addCharts', d);
      for (const id of ids) if (!d.chartIds.includes(id)) d.chartIds.push(id);
      return { data: view(d) };
    },
  );

  router.add(
    'DELETE',
    '/v2/api/applications/:applicationId/dashboards/:dashboardId/charts/:chartId',
    async (req) => {
      const caller = await callerOf(store, req);
      const app = appOf(caller, req.params.applicationId ?? '');
      const d = dashboardIn(caller, app, req.params.dashboardId ?? '', 'dashboardId');
      const chartId = req.params.chartId ?? '';
      if (!Uuid.safeParse(chartId).success)
        throw invalid('chartId must be a UUID.', { field: 'chartId' });
      if (!d.chartIds.includes(chartId)) throw notFound('chart', 'chartId');
      userMayWrite(caller, 'removeCharts', d);
      d.chartIds = d.chartIds.filter((id) => id !== chartId);
      return { data: view(d) };
    },
  );

  router.add(
    'POST',
    '/v2/api/applications/:applicationId/dashboards/:dashboardId/append-charts',
    async (req) => {
      const raw = body(req);
      const caller = await callerOf(store, req);
      const app = appOf(caller, req.params.applicationId ?? '');
      const d = dashboardIn(caller, app, req.params.dashboardId ?? '', 'dashboardId');
      const input = parse(Append, raw);
      const source = liveDashboard(caller.account, input.sourceDashboardId);
      if (!source || source.generation !== 2 || !visibleTo(source, viewerOf(caller)))
        throw notFound('dashboard', 'sourceDashboardId');
      userMayWrite(caller, 'appendCharts', d);
      appendCopies(caller.account, d, source);
      return { data: view(d) };
    },
  );

  router.add('GET', LOOKUP_PATH, async (req) => {
    const caller = await callerOf(store, req);
    const id = req.params.dashboardId ?? '';
    if (!Uuid.safeParse(id).success)
      throw invalid('dashboardId must be a UUID.', { field: 'dashboardId' });
    const d = liveDashboard(caller.account, id);
    if (!d || d.generation !== 2 || !visibleTo(d, viewerOf(caller)))
      throw notFound('dashboard', 'dashboardId');
    if (caller.kind === 'user') appOf(caller, d.containerId);
    return { data: { applicationId: d.containerId, dashboardId: d.id } };
  });
}

export { V2 };
