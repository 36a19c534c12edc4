import { forbidden, migrated, notFound } from './errors.ts';
import { effective, WRITE_FLAG } from './permissions.ts';
import type { Permissions, WriteKind } from './permissions.ts';
import { nextSeq } from './store.ts';
import type {
  Account,
  Application,
  Chart,
  Dashboard,
  FilterControl,
  ProjectUser,
  Role,
  Store,
  Tenant,
  Workspace,
} from './store.ts';
import { newId } from './util.ts';

/** Dashboards of both generations: visibility, users' copies, layout edits and the migration. */

export type Viewer =
  { kind: 'shared' } | { kind: 'tenant'; tenantId: string } | { kind: 'user'; userId: string };

export function isShared(d: Dashboard): boolean {
  return d.tenantId === null && d.ownerProjectUserId === null;
}

export function ownedBy(d: Dashboard, viewer: Viewer): boolean {
  if (viewer.kind === 'tenant') return d.tenantId === viewer.tenantId;
  if (viewer.kind === 'user') return d.ownerProjectUserId === viewer.userId;
  return false;
}

export function visibleTo(d: Dashboard, viewer: Viewer): boolean {
  return viewer.kind === 'shared' || isShared(d) || ownedBy(d, viewer);
}

export function isMigrated(account: Account): boolean {
  return account.migration !== null;
}

/** The dashboard an id names now: before finalize a v1 one; after it, the v2 one (a v1 id maps on). */
export function liveDashboard(account: Account, id: string): Dashboard | null {
  const direct = account.dashboards.get(id);
  if (!isMigrated(account)) return direct && direct.generation === 1 ? direct : null;
  if (direct && direct.generation === 2) return direct;
  for (const d of account.dashboards.values())
    if (d.generation === 2 && d.legacyDashboardId === id) return d;
  return null;
}

/** One entry per dashboard: a viewer's copy stands in the place of the shared one it replaces. */
export function listFor(
  account: Account,
  containerId: string,
  generation: 1 | 2,
  viewer: Viewer,
): Dashboard[] {
  const all = [...account.dashboards.values()]
    .filter((d) => d.generation === generation && d.containerId === containerId)
    .sort((a, b) => a.seq - b.seq);
  const shared = all.filter(isShared);
  if (viewer.kind === 'shared') return shared;
  const own = all.filter((d) => ownedBy(d, viewer));
  const out: Dashboard[] = [];
  for (const d of shared) out.push(own.find((o) => o.replacesId === d.id) ?? d);
  for (const d of own)
    if (d.replacesId === null || !shared.some((s) => s.id === d.replacesId)) out.push(d);
  return out;
}

export function newDashboard(
  account: Account,
  init: Pick<Dashboard, 'generation' | 'containerId' | 'name'> & Partial<Dashboard>,
  now: number,
): Dashboard {
  const d: Dashboard = {
    id: newId(),
    chartIds: [],
    controls: [],
    tenantId: null,
    ownerProjectUserId: null,
    replacesId: null,
    legacyDashboardId: null,
    createdAt: now,
    seq: nextSeq(account),
    ...init,
  };
  account.dashboards.set(d.id, d);
  return d;
}

export function copyChart(account: Account, chart: Chart): Chart {
  const copy: Chart = { ...structuredClone(chart), id: newId() };
  account.charts.set(copy.id, copy);
  return copy;
}

/** A viewer's own copy of a shared dashboard, made on its first edit. */
export function copyForEdit(
  store: Store,
  account: Account,
  shared: Dashboard,
  viewer: Viewer,
): Dashboard {
  for (const d of account.dashboards.values())
    if (d.replacesId === shared.id && ownedBy(d, viewer)) return d;
  return newDashboard(
    account,
    {
      generation: shared.generation,
      containerId: shared.containerId,
      name: shared.name,
      chartIds: [...shared.chartIds],
      controls: structuredClone(shared.controls),
      tenantId: viewer.kind === 'tenant' ? viewer.tenantId : null,
      ownerProjectUserId: viewer.kind === 'user' ? viewer.userId : null,
      replacesId: shared.id,
    },
    store.now(account),
  );
}

export function requireFlag(permissions: Permissions | null, kind: WriteKind): void {
  const flag = WRITE_FLAG[kind];
  if (!effective(permissions)[flag])
    throw forbidden(`Your role does not allow this change (it needs ${flag}).`, { missing: flag });
}

export function rolePermissions(account: Account, user: ProjectUser): Permissions | null {
  const role: Role | undefined = user.userRoleId ? account.roles.get(user.userRoleId) : undefined;
  return role?.permissions ?? null;
}

/** Chart ids from a `charts` member: ids, or objects carrying `chartId` or `id`. */
export function chartIdsFrom(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'object' && item !== null) {
      const rec = item as Record<string, unknown>;
      const id = rec.chartId ?? rec.id;
      if (typeof id !== 'string') return null;
      out.push(id);
    } else return null;
  }
  return out;
}

export function requireCharts(account: Account, ids: string[], field: string): void {
  for (const id of ids) if (!account.charts.has(id)) throw notFound('chart', field);
}

export function appendCopies(account: Account, target: Dashboard, source: Dashboard): string[] {
  const added: string[] = [];
  for (const id of source.chartIds) {
    const chart = account.charts.get(id);
    if (!chart) continue;
    added.push(copyChart(account, chart).id);
  }
  target.chartIds.push(...added);
  return added;
}

export const V2 = {
  create: 'POST /v2/api/applications/{applicationId}/dashboards',
  clone: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
  addCharts: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts',
  removeChart:
    'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
  appendCharts: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
  lookup: 'GET /v2/api/lookup/dashboards/{dashboardId}',
} as const;

export function refuseIfMigrated(account: Account, endpoint: keyof typeof V2): void {
  if (isMigrated(account)) throw migrated(V2[endpoint], { lookup: V2.lookup });
}

// ---- the migration ----

function defaultProject(store: Store, account: Account): string {
  const first = [...account.projects.values()].sort(
    (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
  )[0];
  if (first) return first.id;
  const id = newId();
  account.projects.set(id, { id, name: 'Migrated tenants', createdAt: store.now(account) });
  return id;
}

/** Makes the project user (with its organization and role) a tenant becomes in v2. */
export function mapTenant(store: Store, account: Account, tenant: Tenant): ProjectUser {
  const existing = tenant.projectUserId ? account.users.get(tenant.projectUserId) : undefined;
  if (existing) return existing;
  const now = store.now(account);
  const projectId = defaultProject(store, account);
  const orgId = newId();
  account.organizations.set(orgId, {
    id: orgId,
    projectId,
    externalId: `tenant:${tenant.id}`,
    name: tenant.name,
    properties: { ...tenant.columns },
  });
  const roleId = newId();
  account.roles.set(roleId, {
    id: roleId,
    name: `Tenant ${tenant.name}`,
    projectId,
    permissions: { ...tenant.permissions },
    createdAt: now,
    updatedAt: now,
  });
  const user: ProjectUser = {
    id: newId(),
    projectId,
    name: tenant.name,
    properties: { ...tenant.metadata, ...tenant.columns },
    userRoleId: roleId,
    projectOrganizationId: orgId,
    tenantId: tenant.id,
  };
  account.users.set(user.id, user);
  store.userIndex.set(user.id, account.id);
  tenant.projectUserId = user.id;
  return user;
}

/** Turns a workspace into an application with v2 copies of its v1 dashboards. */
export function migrateWorkspace(store: Store, account: Account, ws: Workspace): Application {
  const now = store.now(account);
  const appId = newId();
  const v1 = [...account.dashboards.values()]
    .filter((d) => d.generation === 1 && d.containerId === ws.id)
    .sort((a, b) => a.seq - b.seq);
  const map = new Map<string, Dashboard>();
  for (const d of v1) {
    const owner = d.tenantId ? account.tenants.get(d.tenantId) : undefined;
    const ownerUser = owner ? mapTenant(store, account, owner).id : d.ownerProjectUserId;
    map.set(
      d.id,
      newDashboard(
        account,
        {
          generation: 2,
          containerId: appId,
          name: d.name,
          chartIds: [...d.chartIds],
          controls: structuredClone(d.controls),
          ownerProjectUserId: ownerUser,
          legacyDashboardId: d.id,
        },
        now,
      ),
    );
  }
  for (const d of v1)
    if (d.replacesId) {
      const v2 = map.get(d.id) as Dashboard;
      v2.replacesId = map.get(d.replacesId)?.id ?? null;
    }
  const primary = map.get(ws.primaryDashboardId);
  const app: Application = {
    id: appId,
    name: ws.name,
    legacyWorkspaceId: ws.id,
    defaultDashboardId:
      primary?.id ??
      newDashboard(account, { generation: 2, containerId: appId, name: ws.name }, now).id,
    projectId: ws.projectId,
    teamId: ws.teamId,
  };
  account.applications.set(app.id, app);
  return app;
}

export function finalizeMigration(store: Store, account: Account): void {
  if (account.migration) return;
  for (const tenant of [...account.tenants.values()].sort((a, b) => a.id.localeCompare(b.id)))
    mapTenant(store, account, tenant);
  const workspaces = [...account.workspaces.values()].sort(
    (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
  );
  for (const ws of workspaces) migrateWorkspace(store, account, ws);
  account.migration = { finalizedAt: store.now(account) };
}

export function applicationOfWorkspace(account: Account, workspaceId: string): Application | null {
  for (const app of account.applications.values())
    if (app.legacyWorkspaceId === workspaceId) return app;
  return null;
}

export function controlsValid(controls: FilterControl[]): boolean {
  return new Set(controls.map((c) => c.controlKey)).size === controls.length;
}
