import { z } from 'zod';
import { headerActor, queryKeyActor } from '../auth.ts';
import type { Actor } from '../auth.ts';
import {
  appendCopies,
  applicationOfWorkspace,
  chartIdsFrom,
  copyChart,
  copyForEdit,
  isMigrated,
  isShared,
  listFor,
  liveDashboard,
  newDashboard,
  refuseIfMigrated,
  requireCharts,
  requireFlag,
  rolePermissions,
  visibleTo,
} from '../dashboards.ts';
import type { Viewer } from '../dashboards.ts';
import { invalid, notFound, unauthorized } from '../errors.ts';
import { parse } from '../http.ts';
import type { Req, Router } from '../http.ts';
import type { WriteKind } from '../permissions.ts';
import { AnyBody, Credentials, Uuid } from '../schemas.ts';
import type { Account, Chart, Dashboard, Store } from '../store.ts';
import { isUuid, newId } from '../util.ts';

/** §4.10–§4.14 and the v1 calls §4.16 and §9 name, with this service's own paths for the unnamed ones. */

export const V1_PATHS = {
  create: '/v1/api/workspace/dashboards',
  addCharts: '/v1/api/dashboard/add-charts',
  listDashboards: '/v1/api/workspaces/:workspaceId/dashboards',
  layout: '/v1/api/dashboard/:dashboardId/layout',
} as const;

/** v1 writes take an API key or a tenant JWT (§5 rule 4); a project-user token is refused after the 410 check. */
const WRITE = { apiKey: true, tenant: true, user: true };

function v1Writer(actor: Actor): void {
  if (actor.kind === 'user')
    throw unauthorized(
      'token-not-accepted',
      'v1 dashboard writes take an API key or a tenant token.',
    );
}
const READ = { apiKey: true, tenant: true, user: true };

const Clone = z.looseObject({
  ...Credentials,
  sourceDashboardId: Uuid,
  connectionId: z.string().optional(),
  targetWorkspaceId: Uuid.optional(),
  name: z.string().min(1).optional(),
});
const AppendFrom = z.looseObject({
  ...Credentials,
  sourceDashboardId: Uuid,
  targetDashboardId: Uuid,
  connectionId: z.string().optional(),
});
const RemoveCharts = z.looseObject({
  ...Credentials,
  dashboardId: Uuid,
  chartIds: z.array(Uuid).min(1),
  connectionId: z.string().optional(),
});
const Create = z.looseObject({ ...Credentials, workspaceId: Uuid, name: z.string().min(1) });
const AddCharts = z.looseObject({
  ...Credentials,
  targetDashboardId: Uuid,
  charts: z.array(z.unknown()).min(1),
});
const SaveFromChat = z.looseObject({
  ...Credentials,
  chartConfig: z.record(z.string(), z.unknown()),
  connectionId: Uuid.optional(),
  sql: z.string().optional(),
  agentId: Uuid.optional(),
  name: z.string().min(1).optional(),
  thumbnail: z.string().optional(),
});

export function viewerOf(actor: Actor): Viewer {
  if (actor.kind === 'tenant') return { kind: 'tenant', tenantId: actor.tenant.id };
  if (actor.kind === 'user') return { kind: 'user', userId: actor.user.id };
  return { kind: 'shared' };
}

function permissionsOf(actor: Actor) {
  if (actor.kind === 'tenant') return actor.tenant.permissions;
  if (actor.kind === 'user') return rolePermissions(actor.account, actor.user);
  return null;
}

function checkFlag(actor: Actor, kind: WriteKind): void {
  if (actor.kind !== 'api-key') requireFlag(permissionsOf(actor), kind);
}

function v1Dashboard(account: Account, id: string, viewer: Viewer, field: string): Dashboard {
  const d = account.dashboards.get(id);
  if (!d || d.generation !== 1 || !visibleTo(d, viewer)) throw notFound('dashboard', field);
  return d;
}

/** Where a viewer's edit of a dashboard lands: its own copy when the dashboard is shared. */
function editTarget(store: Store, account: Account, viewer: Viewer, d: Dashboard) {
  if (viewer.kind === 'shared' || !isShared(d)) return { current: d, commit: () => d };
  const copy = [...account.dashboards.values()].find(
    (x) =>
      x.replacesId === d.id && x.tenantId === (viewer.kind === 'tenant' ? viewer.tenantId : null),
  );
  return { current: copy ?? d, commit: () => copy ?? copyForEdit(store, account, d, viewer) };
}

function body(req: Req): Record<string, unknown> {
  return parse(AnyBody, req.body ?? {});
}

function v1Item(account: Account, d: Dashboard, workspaceId: string): Record<string, unknown> {
  const owner = d.ownerProjectUserId ? account.users.get(d.ownerProjectUserId) : undefined;
  return {
    id: d.generation === 2 ? (d.legacyDashboardId ?? d.id) : d.id,
    tenantId: d.generation === 2 ? (owner?.tenantId ?? null) : d.tenantId,
    ownerProjectUserId: d.ownerProjectUserId,
    title: d.name,
    workspace: workspaceId,
    layout: [...d.chartIds],
  };
}

export function registerV1Routes(router: Router, store: Store): void {
  router.add('POST', '/v1/api/dashboard/clone', async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, WRITE);
    const account = actor.account;
    refuseIfMigrated(account, 'clone');
    v1Writer(actor);
    const input = parse(Clone, raw);
    const viewer = viewerOf(actor);
    const source = v1Dashboard(account, input.sourceDashboardId, viewer, 'sourceDashboardId');
    const workspaceId = input.targetWorkspaceId ?? source.containerId;
    if (!account.workspaces.has(workspaceId)) throw notFound('workspace', 'targetWorkspaceId');
    checkFlag(actor, 'clone');
    const name = input.name ?? `${source.name} (Copy)`;
    const chartIds = source.chartIds.flatMap((id) => {
      const chart = account.charts.get(id);
      return chart ? [copyChart(account, chart).id] : [];
    });
    const copy = newDashboard(
      account,
      {
        generation: 1,
        containerId: workspaceId,
        name,
        chartIds,
        controls: structuredClone(source.controls),
        tenantId: viewer.kind === 'tenant' ? viewer.tenantId : null,
      },
      store.now(account),
    );
    return { data: { dashboardId: copy.id, name: copy.name } };
  });

  router.add('POST', '/v1/api/dashboard/append-charts-from', async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, WRITE);
    const account = actor.account;
    refuseIfMigrated(account, 'appendCharts');
    v1Writer(actor);
    const input = parse(AppendFrom, raw);
    const viewer = viewerOf(actor);
    const source = v1Dashboard(account, input.sourceDashboardId, viewer, 'sourceDashboardId');
    const target = v1Dashboard(account, input.targetDashboardId, viewer, 'targetDashboardId');
    checkFlag(actor, 'appendCharts');
    const sourceNow = editTarget(store, account, viewer, source).current;
    const edited = editTarget(store, account, viewer, target).commit();
    const appended = appendCopies(account, edited, sourceNow);
    return {
      data: { dashboardId: edited.id, chartIds: [...edited.chartIds], appendedChartIds: appended },
    };
  });

  router.add('POST', '/v1/api/dashboard/remove-charts', async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, WRITE);
    const account = actor.account;
    refuseIfMigrated(account, 'removeChart');
    v1Writer(actor);
    const input = parse(RemoveCharts, raw);
    const viewer = viewerOf(actor);
    const d = v1Dashboard(account, input.dashboardId, viewer, 'dashboardId');
    const target = editTarget(store, account, viewer, d);
    for (const id of input.chartIds)
      if (!target.current.chartIds.includes(id)) throw notFound('chart', 'chartIds');
    checkFlag(actor, 'removeCharts');
    const edited = target.commit();
    const drop = new Set(input.chartIds);
    edited.chartIds = edited.chartIds.filter((id) => !drop.has(id));
    return {
      data: { dashboardId: edited.id, chartIds: [...edited.chartIds], removedChartIds: [...drop] },
    };
  });

  router.add('POST', V1_PATHS.create, async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, WRITE);
    const account = actor.account;
    refuseIfMigrated(account, 'create');
    v1Writer(actor);
    const input = parse(Create, raw);
    if (!account.workspaces.has(input.workspaceId)) throw notFound('workspace', 'workspaceId');
    checkFlag(actor, 'create');
    const viewer = viewerOf(actor);
    const d = newDashboard(
      account,
      {
        generation: 1,
        containerId: input.workspaceId,
        name: input.name,
        tenantId: viewer.kind === 'tenant' ? viewer.tenantId : null,
      },
      store.now(account),
    );
    return { status: 201, data: { dashboardId: d.id, name: d.name, workspaceId: d.containerId } };
  });

  router.add('POST', V1_PATHS.addCharts, async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, WRITE);
    const account = actor.account;
    refuseIfMigrated(account, 'addCharts');
    v1Writer(actor);
    const input = parse(AddCharts, raw);
    const ids = chartIdsFrom(input.charts);
    if (!ids)
      throw invalid('charts must list chart ids (strings, or objects with chartId).', {
        field: 'charts',
      });
    const viewer = viewerOf(actor);
    const d = v1Dashboard(account, input.targetDashboardId, viewer, 'targetDashboardId');
    requireCharts(account, ids, 'charts');
    checkFlag(actor, 'addCharts');
    const edited = editTarget(store, account, viewer, d).commit();
    for (const id of ids) if (!edited.chartIds.includes(id)) edited.chartIds.push(id);
    return { data: { dashboardId: edited.id, chartIds: [...edited.chartIds] } };
  });

  router.add('GET', '/v1/api/dashboard/list-workspaces', async (req) => {
    const actor = await listActor(req);
    if (actor.kind !== 'api-key')
      throw unauthorized('api-key-required', 'list-workspaces needs an API key.');
    const account = actor.account;
    const team = req.query.team_id;
    const project = req.query.project_id;
    if (project !== undefined && !isUuid(project))
      throw invalid('project_id must be a UUID.', { field: 'project_id' });
    const keep = (p: string | null, t: string | null) =>
      (team === undefined || t === team) && (project === undefined || p === project);
    const workspaces = [...account.workspaces.values()].sort(
      (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
    );
    const items: Record<string, unknown>[] = [];
    for (const ws of workspaces) {
      if (!keep(ws.projectId, ws.teamId)) continue;
      if (isMigrated(account)) {
        const app = applicationOfWorkspace(account, ws.id);
        if (!app) continue;
        const primary = account.dashboards.get(app.defaultDashboardId);
        items.push({
          workspace_id: ws.id,
          workspace_name: app.name,
          dashboard_id: primary ? (primary.legacyDashboardId ?? primary.id) : null,
          dashboard_name: primary?.name ?? null,
          team_id: app.teamId,
          project_id: app.projectId,
          application_id: app.id,
        });
      } else {
        const primary = account.dashboards.get(ws.primaryDashboardId);
        items.push({
          workspace_id: ws.id,
          workspace_name: ws.name,
          dashboard_id: ws.primaryDashboardId,
          dashboard_name: primary?.name ?? null,
          team_id: ws.teamId,
          project_id: ws.projectId,
        });
      }
    }
    return { data: { workspaces: items } };
  });

  async function listActor(req: Req): Promise<Actor> {
    if (req.query.apiKey !== undefined) return queryKeyActor(store, req);
    return headerActor(store, req, READ);
  }

  router.add('GET', V1_PATHS.listDashboards, async (req) => {
    const actor = await listActor(req);
    const account = actor.account;
    const fromPath = req.params.workspaceId;
    const workspaceId = isUuid(fromPath) ? fromPath : req.query.workspaceId;
    if (!isUuid(workspaceId))
      throw invalid('workspaceId must be a UUID.', { field: 'workspaceId' });
    let viewer = viewerOf(actor);
    if (!isMigrated(account)) {
      if (!account.workspaces.has(workspaceId)) throw notFound('workspace', 'workspaceId');
      const list = listFor(account, workspaceId, 1, viewer);
      return {
        data: { workspaceId, dashboards: list.map((d) => v1Item(account, d, workspaceId)) },
      };
    }
    const app =
      applicationOfWorkspace(account, workspaceId) ??
      [...account.applications.values()].find((a) => a.id === workspaceId) ??
      null;
    if (!app) throw notFound('workspace', 'workspaceId');
    if (actor.kind === 'tenant') {
      const userId = actor.tenant.projectUserId;
      viewer = userId ? { kind: 'user', userId } : viewer;
    }
    const list = listFor(account, app.id, 2, viewer);
    return {
      data: {
        workspaceId: app.legacyWorkspaceId,
        dashboards: list.map((d) => v1Item(account, d, app.legacyWorkspaceId)),
      },
    };
  });

  router.add('GET', V1_PATHS.layout, async (req) => {
    const actor = await listActor(req);
    const account = actor.account;
    const id = req.params.dashboardId ?? '';
    if (!isUuid(id)) throw invalid('dashboardId must be a UUID.', { field: 'dashboardId' });
    let viewer = viewerOf(actor);
    if (actor.kind === 'tenant' && isMigrated(account) && actor.tenant.projectUserId)
      viewer = { kind: 'user', userId: actor.tenant.projectUserId };
    const d = liveDashboard(account, id);
    if (!d || !visibleTo(d, viewer)) throw notFound('dashboard', 'dashboardId');
    return { data: { dashboardId: id, name: d.name, chartIds: [...d.chartIds] } };
  });

  router.add('POST', '/v1/api/chart/save-from-chat', async (req) => {
    const raw = body(req);
    const actor = await headerActor(store, req, { apiKey: true, tenant: true, user: true });
    const account = actor.account;
    const input = parse(SaveFromChat, raw);
    if (input.connectionId !== undefined && !account.connections.has(input.connectionId))
      throw notFound('connection', 'connectionId');
    const agent = input.agentId === undefined ? undefined : account.agents.get(input.agentId);
    if (input.agentId !== undefined && !agent) throw notFound('agent', 'agentId');
    const title = input.chartConfig.title;
    const chart: Chart = {
      id: newId(),
      name: input.name ?? (typeof title === 'string' && title !== '' ? title : 'Chart from chat'),
      chartConfig: structuredClone(input.chartConfig),
      connectionId: input.connectionId ?? agent?.connectionId ?? null,
      agentId: input.agentId ?? null,
      sql: input.sql ?? null,
      thumbnail: input.thumbnail ?? null,
    };
    account.charts.set(chart.id, chart);
    return { data: { chartId: chart.id, name: chart.name } };
  });
}
