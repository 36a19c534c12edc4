import { describe, expect, it } from 'vitest';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  type Actor,
  type DashboardsCommand,
  type DashboardsState,
} from './dashboards.ts';
import { applyIdentity, emptyIdentity } from './identity.ts';
import {
  applyMigration,
  BEFORE_FINALIZE,
  mapTenantUsers,
  migratedWrite,
  tenantsProjectIdFor,
  withTenantMapped,
} from './migration.ts';

const NOW = Date.parse('2026-05-01T08:00:00Z');
const W = '00000000-0000-4000-8000-00000000aa01';
const D = '00000000-0000-4000-8000-00000000dd01';
const C = '00000000-0000-4000-8000-00000000cc01';
const TENANT = 'tenant-key-1';
const MAPPED_USER = '00000000-0000-4000-8000-00000000ee01';
const key: Actor = { kind: 'api-key' };
const tenant: Actor = { kind: 'tenant', tenantId: TENANT, permissions: { removeChart: true } };

function run(state: DashboardsState, ...commands: DashboardsCommand[]): DashboardsState {
  let s = state;
  commands.forEach((c, i) => {
    const done = applyDashboards(s, c, NOW + i);
    if (!done.ok) throw new Error(`${c.type}: ${done.error.code}`);
    s = done.state;
  });
  return s;
}

function v1World(): DashboardsState {
  return run(
    emptyDashboards(),
    { type: 'createWorkspace', workspaceId: W, name: 'Ops' },
    { type: 'createChart', chartId: C, name: 'Tickets', config: { sqlOverride: 'select 1' } },
    {
      type: 'createDashboard',
      dashboardId: D,
      workspaceId: W,
      name: 'Ops board',
      chartIds: [C],
      actor: key,
      via: 'hook',
    },
    // The tenant's first edit makes the tenant's own copy (§2.2 rule 3).
    { type: 'removeCharts', dashboardId: D, chartIds: [C], actor: tenant, via: 'v1' },
  );
}

function finalize(v1: DashboardsState) {
  const done = applyMigration(
    BEFORE_FINALIZE,
    {
      type: 'finalize',
      dashboards: v1,
      tenants: [{ tenantId: TENANT, projectUserId: MAPPED_USER }],
    },
    NOW + 1000,
  );
  if (!done.ok) throw new Error(done.error.code);
  return done.result;
}

describe('migration machine', () => {
  it('turns the workspace into an application keeping its id as legacyWorkspaceId', () => {
    const { migration } = finalize(v1World());
    if (migration.phase !== 'after') throw new Error('not finalized');
    const apps = Object.values(migration.applications);
    expect(apps).toHaveLength(1);
    expect(apps[0]?.legacyWorkspaceId).toBe(W);
    expect(apps[0]?.name).toBe('Ops');
    expect(apps[0]?.applicationId).not.toBe(W);
    expect(apps[0]?.defaultDashboardId).toBe(migration.v2IdOf[D]);
  });

  it("makes the shared dashboard a template and the tenant's copy a dashboard of the mapped user", () => {
    const { migration, dashboards } = finalize(v1World());
    if (migration.phase !== 'after') throw new Error('not finalized');
    const v2 = Object.values(dashboards.dashboards);
    expect(v2).toHaveLength(2);
    const template = v2.find((d) => d.ownerProjectUserId === null);
    const own = v2.find((d) => d.ownerProjectUserId !== null);
    expect(template && migration.legacyIdOf[template.dashboardId]).toBe(D);
    expect(own?.ownerProjectUserId).toBe(MAPPED_USER);
    expect(own?.tenantId).toBeNull();
    expect(own?.chartIds).toEqual([]);
    expect(template?.chartIds).toEqual([C]);
    // The mapped user still sees one entry per dashboard: the copy in place of the template.
    const mapped: Actor = {
      kind: 'project-user',
      userId: MAPPED_USER,
      permissions: null,
      projectOrganizationId: 'o',
    };
    const appId = template?.workspaceId ?? '';
    expect(dashboardsFor(dashboards, appId, mapped).map((d) => d.dashboardId)).toEqual([
      own?.dashboardId,
    ]);
  });

  it('freezes the v1 view as it was at finalize', () => {
    const v1 = v1World();
    const { migration } = finalize(v1);
    expect(migration.phase === 'after' && migration.frozen).toBe(v1);
  });

  it('answers every v1 write with MIGRATED_TO_V2 naming the v2 endpoint, before never', () => {
    expect(migratedWrite(BEFORE_FINALIZE, 'clone', { dashboardId: D })).toBeUndefined();
    const { migration } = finalize(v1World());
    const error = migratedWrite(migration, 'clone', { dashboardId: D });
    expect(error?.code).toBe('MIGRATED_TO_V2');
    expect(error?.details?.['replacement']).toBe(
      'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    );
    const endpoint = String(error?.details?.['v2Endpoint']);
    expect(endpoint).toMatch(
      /^POST \/v2\/api\/applications\/[0-9a-f-]{36}\/dashboards\/[0-9a-f-]{36}\/clone$/,
    );
    for (const write of ['create', 'addCharts', 'appendCharts', 'removeCharts'] as const) {
      expect(String(migratedWrite(migration, write)?.details?.['v2Endpoint'])).toMatch(
        /\/v2\/api\/applications\//,
      );
    }
  });

  it('refuses a second finalize', () => {
    const { migration } = finalize(v1World());
    const again = applyMigration(
      migration,
      { type: 'finalize', dashboards: emptyDashboards(), tenants: [] },
      NOW,
    );
    expect(again.ok ? 'ok' : again.error.code).toBe('CONFLICT');
  });
});

describe('tenant users (decision migration.tenant-users)', () => {
  const ORG = '00000000-0000-4000-8000-0000000000a1';
  const USER = '00000000-0000-4000-8000-00000000ee02';

  function withTenant(permissions: Record<string, boolean>) {
    const done = applyIdentity(
      emptyIdentity(ORG),
      {
        type: 'registerTenant',
        newTenantId: TENANT,
        identity: 'key:t1',
        name: 'Acme',
        permissions,
      },
      NOW,
    );
    if (!done.ok) throw new Error(done.error.code);
    return done.state;
  }

  it('makes each mapped tenant a project user with its own role and project organization', () => {
    const done = mapTenantUsers(
      withTenant({ addChart: true }),
      [{ tenantId: TENANT, projectUserId: USER }],
      NOW,
    );
    if (!done.ok) throw new Error(done.error.code);
    const user = done.state.users[USER];
    expect(user?.projectId).toBe(tenantsProjectIdFor(ORG));
    expect(user?.name).toBe('Acme');
    expect(user?.projectOrganizationId).not.toBeNull();
    const role = done.state.roles[user?.userRoleId ?? ''];
    expect(role?.permissions).toEqual({ addChart: true });
    expect(done.result).toEqual([USER]);
  });

  it('mapping again updates the role to the tenant permissions and keeps one user', () => {
    const first = mapTenantUsers(
      withTenant({ addChart: true }),
      [{ tenantId: TENANT, projectUserId: USER }],
      NOW,
    );
    if (!first.ok) throw new Error(first.error.code);
    const changed = applyIdentity(
      first.state,
      {
        type: 'registerTenant',
        newTenantId: 'ignored',
        identity: 'key:t1',
        permissions: { readOnly: true },
      },
      NOW + 1,
    );
    if (!changed.ok) throw new Error(changed.error.code);
    const again = mapTenantUsers(
      changed.state,
      [{ tenantId: TENANT, projectUserId: USER }],
      NOW + 2,
    );
    if (!again.ok) throw new Error(again.error.code);
    const user = again.state.users[USER];
    expect(again.state.roles[user?.userRoleId ?? '']?.permissions).toEqual({ readOnly: true });
    expect(Object.keys(again.state.users)).toEqual([USER]);
  });

  it('skips a tenant the account does not hold', () => {
    const done = mapTenantUsers(
      emptyIdentity(ORG),
      [{ tenantId: 'nobody', projectUserId: USER }],
      NOW,
    );
    expect(done.ok && done.result).toEqual([]);
  });

  it('a tenant mapped after finalize joins the mapping; before finalize nothing is mapped', () => {
    expect(withTenantMapped(BEFORE_FINALIZE, TENANT, USER)).toBe(BEFORE_FINALIZE);
    const after = applyMigration(
      BEFORE_FINALIZE,
      { type: 'finalize', dashboards: v1World(), tenants: [] },
      NOW,
    );
    if (!after.ok) throw new Error(after.error.code);
    const mapped = withTenantMapped(after.state, TENANT, USER);
    expect(mapped.phase === 'after' && mapped.projectUserOf[TENANT]).toBe(USER);
  });
});
