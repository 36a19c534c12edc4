import { describe, expect, it } from 'vitest';
import {
  applyDashboards,
  copyIdFor,
  dashboardsFor,
  emptyDashboards,
  type Actor,
  type DashboardsCommand,
  type DashboardsState,
  resolveFor,
  type WriteKind,
} from './dashboards.ts';
import { derivedUuid } from './derived-id.ts';
import {
  applyIdentity,
  emptyIdentity,
  type IdentityCommand,
  type IdentityState,
} from './identity.ts';
import { iso } from './machine.ts';
import {
  applyMigration,
  BEFORE_FINALIZE,
  mapTenantUsers,
  migratedWrite,
  tenantsProjectIdFor,
  withTenantMapped,
  type MigrationState,
} from './migration.ts';
import { drop } from './table.ts';

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

function finalize(
  v1: DashboardsState,
  tenants: readonly { tenantId: string; projectUserId: string }[] = [
    { tenantId: TENANT, projectUserId: MAPPED_USER },
  ],
) {
  const done = applyMigration(
    BEFORE_FINALIZE,
    { type: 'finalize', dashboards: v1, tenants },
    NOW + 1000,
  );
  if (!done.ok) throw new Error(done.error.code);
  return done.result;
}

function after(state: MigrationState) {
  if (state.phase !== 'after') throw new Error('not finalized');
  return state;
}

/** The id the dashboards machine gave the tenant's copy of D in v1World (§2.2 rule 3). */
const TENANT_COPY = copyIdFor(D, tenant);

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

  it('refuses a second finalize, saying in its details that the account is already after it', () => {
    const { migration } = finalize(v1World());
    const again = applyMigration(
      migration,
      { type: 'finalize', dashboards: emptyDashboards(), tenants: [] },
      NOW,
    );
    if (again.ok) throw new Error('a second finalize was accepted');
    // Decision states.migration.one-way: finalize happens once. §7: the envelope's message is
    // required, so the refusal says something; details name the phase the account is in.
    expect(again.error.code).toBe('CONFLICT');
    expect(again.error.message).not.toBe('');
    expect(again.error.details).toEqual({ phase: 'after' });
  });
});

describe('ids after finalize (§9: old ids kept as legacy ids beside the new ones)', () => {
  const PU = '00000000-0000-4000-8000-00000000ee03';
  const projectUser: Actor = {
    kind: 'project-user',
    userId: PU,
    permissions: { removeChart: true },
    projectOrganizationId: '00000000-0000-4000-8000-0000000000b1',
  };

  it('derives each application id and v2 dashboard id from the v1 id it replaces', () => {
    const m = after(finalize(v1World()).migration);
    // Finalize stays pure (derived-id.ts): a new id is a function of the v1 id it replaces,
    // in a namespace of its kind, so the same account finalizes to the same ids every time
    // and a workspace's application never shares an id with a dashboard made from that UUID.
    const application = derivedUuid('eac-application', W);
    const v2 = derivedUuid('eac-v2-dashboard', D);
    expect(Object.keys(m.applications)).toEqual([application]);
    expect(m.applicationOf[W]).toBe(application);
    expect(m.v2IdOf[D]).toBe(v2);
    // §9: legacyDashboardId of the v2 dashboard is the v1 id.
    expect(m.legacyIdOf[v2]).toBe(D);
  });

  it("keeps a project user's copy theirs, under the copy id keyed by the template's v2 id", () => {
    // Not a copy the reference's v1 routes make (they take an API key or a tenant JWT), but
    // one the dashboards machine makes: finalize keeps whatever owner a dashboard has.
    const v1 = run(v1World(), {
      type: 'removeCharts',
      dashboardId: D,
      chartIds: [C],
      actor: projectUser,
      via: 'v1',
    });
    const { migration, dashboards } = finalize(v1);
    const m = after(migration);
    const template = m.v2IdOf[D] ?? '';
    const v1Copy = copyIdFor(D, projectUser);
    // The dashboards machine finds a user's copy of a shared dashboard by copyIdFor(shared id,
    // user) (one copy per user, §2.8): after finalize the shared id is the v2 one.
    expect(m.v2IdOf[v1Copy]).toBe(copyIdFor(template, projectUser));
    const seen = resolveFor(dashboards, template, projectUser);
    expect(seen?.dashboardId).toBe(m.v2IdOf[v1Copy]);
    expect(seen?.ownerProjectUserId).toBe(PU);
    expect(seen?.copyOf).toBe(template);
    expect(seen?.chartIds).toEqual([]);
    expect(m.legacyIdOf[seen?.dashboardId ?? '']).toBe(v1Copy);
  });

  it("gives the copy of a tenant the finalize does not map an id derived from the copy's own v1 id", () => {
    const m = after(finalize(v1World(), []).migration);
    // No project user to key it to, so the one-copy-per-user id cannot apply: the copy is
    // named like any other dashboard, from its v1 id.
    expect(m.v2IdOf[TENANT_COPY]).toBe(derivedUuid('eac-v2-dashboard', TENANT_COPY));
    expect(m.legacyIdOf[derivedUuid('eac-v2-dashboard', TENANT_COPY)]).toBe(TENANT_COPY);
  });

  it('gives a copy whose shared dashboard is missing an id of its own and no template', () => {
    // Not a state the dashboards machine makes (it deletes nothing), but finalize must not
    // key a copy to a template it has no v2 id for.
    const v1 = v1World();
    const { migration, dashboards } = finalize({ ...v1, dashboards: drop(v1.dashboards, D) });
    const m = after(migration);
    const id = derivedUuid('eac-v2-dashboard', TENANT_COPY);
    expect(m.v2IdOf[TENANT_COPY]).toBe(id);
    expect(dashboards.dashboards[id]?.ownerProjectUserId).toBe(MAPPED_USER);
    expect(dashboards.dashboards[id]?.copyOf).toBeNull();
  });

  it('fills in the 410 endpoint with the v2 ids the given v1 ids map to, and only those', () => {
    const { migration } = finalize(v1World());
    const m = after(migration);
    const app = m.applicationOf[W] ?? '';
    const template = m.v2IdOf[D] ?? '';
    const copy = m.v2IdOf[TENANT_COPY] ?? '';
    const endpoint = (write: WriteKind, ids?: { workspaceId?: string; dashboardId?: string }) =>
      migratedWrite(migration, write, ids)?.details?.['v2Endpoint'];
    // Decision errors.migrated-to-v2.details: a v1 id that maps to a v2 one is filled in;
    // where none was given or it maps to nothing, the placeholder stays.
    expect(endpoint('create', { workspaceId: W })).toBe(
      `POST /v2/api/applications/${app}/dashboards`,
    );
    expect(endpoint('create')).toBe('POST /v2/api/applications/{applicationId}/dashboards');
    expect(endpoint('addCharts', { workspaceId: W })).toBe(
      `POST /v2/api/applications/${app}/dashboards/{dashboardId}/charts`,
    );
    expect(endpoint('clone', { dashboardId: '00000000-0000-4000-8000-00000000dd99' })).toBe(
      'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    );
    // A dashboard alone names its application through the workspace it had at finalize.
    expect(endpoint('removeCharts', { dashboardId: D })).toBe(
      `DELETE /v2/api/applications/${app}/dashboards/${template}/charts/{chartId}`,
    );
    // The tenant's copy (§2.2 rule 3) is a dashboard of its own in v2.
    expect(endpoint('appendCharts', { dashboardId: TENANT_COPY })).toBe(
      `POST /v2/api/applications/${app}/dashboards/${copy}/append-charts`,
    );
  });

  it('names the filled-in endpoint in the message too, and when the account was migrated', () => {
    const { migration } = finalize(v1World());
    const error = migratedWrite(migration, 'clone', { dashboardId: D });
    const endpoint = String(error?.details?.['v2Endpoint']);
    expect(endpoint).not.toContain('{');
    // Decision errors.migrated-to-v2.details: the message names the endpoint as well.
    expect(error?.message).toContain(endpoint);
    expect(error?.details?.['migratedAt']).toBe(iso(NOW + 1000));
  });
});

describe('tenant users (decision migration.tenant-users)', () => {
  const ORG = '00000000-0000-4000-8000-0000000000a1';
  const USER = '00000000-0000-4000-8000-00000000ee02';

  function apply(state: IdentityState, ...commands: IdentityCommand[]): IdentityState {
    let s = state;
    for (const c of commands) {
      const done = applyIdentity(s, c, NOW);
      if (!done.ok) throw new Error(`${c.type}: ${done.error.code}`);
      s = done.state;
    }
    return s;
  }

  function withTenant(permissions: Record<string, boolean>, name: string | null = 'Acme') {
    return apply(emptyIdentity(ORG), {
      type: 'registerTenant',
      newTenantId: TENANT,
      identity: 'key:t1',
      ...(name === null ? {} : { name }),
      permissions,
    });
  }

  function mapped(identity: IdentityState, at = NOW) {
    const done = mapTenantUsers(identity, [{ tenantId: TENANT, projectUserId: USER }], at);
    if (!done.ok) throw new Error(done.error.code);
    return done;
  }

  it('puts the tenant users in one project, each with a role and an organization of its own', () => {
    const { state } = mapped(withTenant({ addChart: true }));
    // The ids are derived from the account (and the tenant), so mapping again, or a tenant
    // registered after finalize, finds the same project, role and organization.
    const projectId = derivedUuid('eac-migrated-tenants', ORG);
    const roleId = derivedUuid('eac-tenant-role', ORG, TENANT);
    const organizationId = derivedUuid('eac-tenant-organization', ORG, TENANT);
    expect(tenantsProjectIdFor(ORG)).toBe(projectId);
    // Decision migration.tenant-users: one 'Migrated tenants' project.
    expect(state.projects[projectId]).toEqual({ projectId, name: 'Migrated tenants' });
    expect(state.roles[roleId]).toMatchObject({
      project_id: projectId,
      name: 'Acme',
      permissions: { addChart: true },
    });
    // ... and a project organization of its own, externalId tenant:<tenantId>.
    expect(state.organizations[organizationId]).toMatchObject({
      projectId,
      externalId: `tenant:${TENANT}`,
      name: 'Acme',
    });
    expect(state.users[USER]).toMatchObject({
      projectId,
      name: 'Acme',
      userRoleId: roleId,
      projectOrganizationId: organizationId,
    });
  });

  it('names the user and organization of a tenant registered without a name after its id', () => {
    const { state } = mapped(withTenant({ addChart: true }, null));
    // §8: an organization's name has at least one character (and so does a user's on
    // update); the tenant id is what the account knows a nameless tenant by.
    expect(state.users[USER]?.name).toBe(`Tenant ${TENANT}`);
    const organizationId = state.users[USER]?.projectOrganizationId ?? '';
    expect(state.organizations[organizationId]?.name).toBe(`Tenant ${TENANT}`);
  });

  it('uses the project already there under that id and leaves it as it is', () => {
    const projectId = tenantsProjectIdFor(ORG);
    const held = apply(withTenant({ addChart: true }), {
      type: 'createProject',
      projectId,
      name: 'Former tenants',
    });
    const { state } = mapped(held);
    expect(state.projects[projectId]).toEqual({ projectId, name: 'Former tenants' });
    expect(state.users[USER]?.projectId).toBe(projectId);
  });

  it('refuses, mapping no one, when the project user id is a user of another project', () => {
    const elsewhere = '00000000-0000-4000-8000-0000000000c1';
    const taken = apply(
      withTenant({ addChart: true }),
      { type: 'createProject', projectId: elsewhere, name: 'Elsewhere' },
      { type: 'registerUser', projectId: elsewhere, userId: USER, name: 'Someone' },
    );
    // Decision users.register.user-id-conflict: a userId names one user of the account; the mapping
    // takes over no one.
    const done = mapTenantUsers(taken, [{ tenantId: TENANT, projectUserId: USER }], NOW);
    expect(done.ok ? done.result : done.error).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'userId' },
    });
  });

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
    expect(done.result.map((u) => u.id)).toEqual([USER]);
    expect(done.result[0]).toBe(user);
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
    const role = again.state.roles[user?.userRoleId ?? ''];
    expect(role?.permissions).toEqual({ readOnly: true });
    // The same role updated (§3: permissions replaced), not a new one made in its place.
    expect(role?.created_at).toBe(iso(NOW));
    expect(role?.updated_at).toBe(iso(NOW + 2));
    expect(Object.keys(again.state.users)).toEqual([USER]);
  });

  it('under the other rule, places tenants in one shared organization, on a role per permission set', () => {
    const OTHER = '00000000-0000-4000-8000-00000000ee03';
    const USER3 = '00000000-0000-4000-8000-00000000ee04';
    const tenants = apply(
      withTenant({ addChart: true }),
      {
        type: 'registerTenant',
        newTenantId: 'tenant-key-2',
        identity: 'key:t2',
        name: 'Beta',
        permissions: { addChart: true },
      },
      {
        type: 'registerTenant',
        newTenantId: 'tenant-key-3',
        identity: 'key:t3',
        name: 'Gamma',
        permissions: { readOnly: true },
      },
    );
    const all = [
      { tenantId: TENANT, projectUserId: USER },
      { tenantId: 'tenant-key-2', projectUserId: OTHER },
      { tenantId: 'tenant-key-3', projectUserId: USER3 },
    ];
    const done = mapTenantUsers(tenants, all, NOW, 'shared');
    if (!done.ok) throw new Error(done.error.code);
    const [a, b, c] = [USER, OTHER, USER3].map((id) => done.state.users[id]);
    // One project organization for all, with no tenant's metadata on it.
    expect(a?.projectOrganizationId).not.toBeNull();
    expect(new Set([a, b, c].map((u) => u?.projectOrganizationId)).size).toBe(1);
    expect(done.state.organizations[a?.projectOrganizationId ?? '']).toMatchObject({
      externalId: 'migrated-tenants',
      properties: {},
    });
    // The same permissions, the same role; other permissions, another role.
    expect(a?.userRoleId).toBe(b?.userRoleId);
    expect(c?.userRoleId).not.toBe(a?.userRoleId);
    expect(done.state.roles[c?.userRoleId ?? '']?.permissions).toEqual({ readOnly: true });
    // Registered again with other permissions, a tenant moves to their role; the role it
    // shared stays as it was for the others.
    const changed = apply(done.state, {
      type: 'registerTenant',
      newTenantId: 'ignored',
      identity: 'key:t1',
      permissions: { readOnly: true },
    });
    const again = mapTenantUsers(
      changed,
      [{ tenantId: TENANT, projectUserId: USER }],
      NOW + 1,
      'shared',
    );
    if (!again.ok) throw new Error(again.error.code);
    expect(again.state.users[USER]?.userRoleId).toBe(c?.userRoleId);
    expect(again.state.roles[b?.userRoleId ?? '']?.permissions).toEqual({ addChart: true });
    // The decision gives each its own.
    const own = mapTenantUsers(tenants, all, NOW);
    if (!own.ok) throw new Error(own.error.code);
    const pogs = [USER, OTHER, USER3].map((id) => own.state.users[id]?.projectOrganizationId);
    expect(new Set(pogs).size).toBe(3);
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
