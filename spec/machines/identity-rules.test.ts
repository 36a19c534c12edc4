import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyIdentity,
  emptyIdentity,
  resolveOrganization,
  rolesOf,
  tenantById,
  tenantIdentity,
  tenantProjectUserId,
  type IdentityCommand,
  type IdentityState,
} from './identity.ts';

/**
 * The exact answers of the identity machine: the codes and details of its refusals, the
 * results it reports, the indexes it keeps beside its tables, and the tenant identities and
 * ids it derives. Each test names the decision (spec/clauses) or § it checks. Written against
 * the survivors of a mutation run (bench/results/mutation.json, issue 11 part 1).
 */
const ORG = '00000000-0000-4000-8000-000000000000';
const P = '00000000-0000-4000-8000-00000000000a';
const Q = '00000000-0000-4000-8000-00000000000b';
const T0 = Date.UTC(2026, 0, 1);
let now = T0;

function attempt(state: IdentityState, command: IdentityCommand, at = (now += 1000)) {
  return applyIdentity(state, command, at);
}

function run(state: IdentityState, ...commands: IdentityCommand[]): IdentityState {
  for (const c of commands) {
    const r = attempt(state, c);
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    state = r.state;
  }
  return state;
}

function resultOf(state: IdentityState, command: IdentityCommand) {
  const r = attempt(state, command);
  if (!r.ok) throw new Error(`${command.type}: ${r.error.code} ${r.error.message}`);
  return r.result;
}

function errorOf(state: IdentityState, command: IdentityCommand) {
  const r = attempt(state, command);
  if (r.ok) throw new Error(`${command.type} was accepted`);
  return r.error;
}

const role = (projectId: string, roleId: string): IdentityCommand => ({
  type: 'createRole',
  projectId,
  roleId,
  name: roleId,
  permissions: {},
});

/** Projects P and Q; roles r1, r2 in P; organization o1 (externalId acme) in P; no users. */
const base = () =>
  run(
    emptyIdentity(ORG),
    { type: 'createProject', projectId: P, name: 'p' },
    { type: 'createProject', projectId: Q, name: 'q' },
    role(P, 'r1'),
    role(P, 'r2'),
    {
      type: 'registerOrganization',
      projectId: P,
      newId: 'o1',
      name: 'Acme',
      externalId: 'acme',
      properties: { tier: 'gold' },
    },
  );

describe('refusals: codes and details', () => {
  it("a command on a project the account does not hold: NOT_FOUND naming only the resource 'project'", () => {
    // Decision roles.list.unknown-project: details.resource 'project' (and no field: the
    // project is the path, not a body field).
    const e = errorOf(base(), role('nowhere', 'r9'));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.details).toStrictEqual({ resource: 'project' });
  });

  it("an externalId that is another organization's service id in the project: CONFLICT on externalId", () => {
    // Decision orgs.identifier.resolution-order: an identifier never names two organizations.
    const e = errorOf(base(), {
      type: 'registerOrganization',
      projectId: P,
      newId: 'o2',
      name: 'Shadow',
      externalId: 'o1',
    });
    expect(e.code).toBe('CONFLICT');
    expect(e.details).toStrictEqual({ field: 'externalId' });
  });

  it('the same externalId in another project is no conflict: identifiers resolve within one project', () => {
    // Decision orgs.identifier.resolution-order matches UUIDs "of the project" only, so o1
    // (a UUID of P) names nothing in Q.
    const r = resultOf(base(), {
      type: 'registerOrganization',
      projectId: Q,
      newId: 'o2',
      name: 'Elsewhere',
      externalId: 'o1',
    });
    expect(r).toMatchObject({ kind: 'organization', created: true });
  });

  it('a userId held in another project: CONFLICT on userId', () => {
    // Decision users.register.user-id-conflict: userIds are unique per account.
    const s = run(base(), { type: 'registerUser', projectId: P, userId: 'u1', name: 'Ann' });
    const e = errorOf(s, { type: 'registerUser', projectId: Q, userId: 'u1', name: 'Twin' });
    expect(e.code).toBe('CONFLICT');
    expect(e.details).toStrictEqual({ field: 'userId' });
  });

  it('embed sign-in for a new organization without a name: VALIDATION_ERROR on body.organization.name', () => {
    // Decision tokens.embed-token.upserts: a new organization needs a name. The issue has the
    // §7 issues shape (path, message, code); the message is free text.
    const s = base();
    const e = errorOf(s, {
      type: 'embedSignIn',
      projectId: P,
      newOrganizationId: 'o9',
      organization: { externalId: 'new-co' },
      userId: 'u9',
      user: { name: 'Nine' },
    });
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details).toStrictEqual({
      issues: [
        {
          path: ['body', 'organization', 'name'],
          message: expect.any(String) as unknown,
          code: 'invalid_type',
        },
      ],
    });
  });

  it("embed sign-in whose externalId is another organization's service id: the registration's CONFLICT", () => {
    const s = base();
    const r = attempt(s, {
      type: 'embedSignIn',
      projectId: P,
      newOrganizationId: 'o9',
      organization: { externalId: 'o1', name: 'Shadow' },
      userId: 'u9',
      user: { name: 'Nine' },
    });
    expect(r.ok ? null : r.error).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'externalId' },
    });
  });
});

describe('role list order (decision roles.list.order: created_at, then id)', () => {
  it('orders by created_at, whatever the ids', () => {
    const s = run(base(), role(P, 'zz'), role(P, 'aa'));
    expect(rolesOf(s, P).map((r) => r.id)).toEqual(['r1', 'r2', 'zz', 'aa']);
  });

  it('orders roles created at the same instant by id', () => {
    const at = T0 + 10_000_000;
    let s = base();
    for (const id of ['m', 'c', 'x']) {
      const r = attempt(s, role(Q, id), at);
      if (!r.ok) throw new Error(r.error.code);
      s = r.state;
    }
    expect(rolesOf(s, Q).map((r) => r.id)).toEqual(['c', 'm', 'x']);
  });

  it("lists only the project's roles: a role id that now names a role of another project drops out", () => {
    // A role belongs to one project (§2.1); the list of §4.2 is that project's.
    const s = run(base(), role(Q, 'r2'));
    expect(rolesOf(s, P).map((r) => r.id)).toEqual(['r1']);
    expect(rolesOf(s, Q).map((r) => r.id)).toEqual(['r2']);
  });
});

describe('deleting a role (§3, §4.3)', () => {
  it('reports the role and exactly the users it took the role from', () => {
    const s = run(
      base(),
      { type: 'registerUser', projectId: P, userId: 'u1', name: 'A', userRoleId: 'r1' },
      { type: 'registerUser', projectId: P, userId: 'u2', name: 'B', userRoleId: 'r2' },
      { type: 'registerUser', projectId: P, userId: 'u3', name: 'C', userRoleId: 'r1' },
      { type: 'registerUser', projectId: P, userId: 'u4', name: 'D' },
    );
    const r = resultOf(s, { type: 'deleteRole', projectId: P, roleId: 'r1' });
    expect(
      r.kind === 'roleDeleted' ? { ...r, usersCleared: [...r.usersCleared].sort() } : r,
    ).toStrictEqual({
      kind: 'roleDeleted',
      roleId: 'r1',
      usersCleared: ['u1', 'u3'],
    });
  });

  it('reads no user when no one holds the role (issue 7, part 0: cost by holders, not by users)', () => {
    const s = run(base(), {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'A',
      userRoleId: 'r1',
    });
    let reads = 0;
    const users = new Proxy(s.users, {
      get(target, key) {
        if (typeof key === 'string') reads += 1;
        return Reflect.get(target, key) as unknown;
      },
    });
    const r = attempt({ ...s, users }, { type: 'deleteRole', projectId: P, roleId: 'r2' });
    expect(r.ok && r.result).toStrictEqual({ kind: 'roleDeleted', roleId: 'r2', usersCleared: [] });
    expect(reads).toBe(0);
  });
});

describe('the role-holder index (IdentityIndex.usersByRole: roleId -> the userIds holding it)', () => {
  const holders = (s: IdentityState) =>
    Object.fromEntries(
      Object.entries(s.index.usersByRole).map(([r, ids]) => [r, Object.keys(ids)]),
    );

  it('follows a user from one role to another, and drops it on null', () => {
    let s = run(base(), {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'A',
      userRoleId: 'r1',
    });
    expect(holders(s)).toEqual({ r1: ['u1'] });
    s = run(s, { type: 'updateUser', projectId: P, userId: 'u1', name: 'A', userRoleId: 'r2' });
    expect(holders(s)).toEqual({ r1: [], r2: ['u1'] });
    s = run(s, { type: 'registerUser', projectId: P, userId: 'u1', name: 'A', userRoleId: 'r1' });
    expect(holders(s)).toEqual({ r1: ['u1'], r2: [] });
    // A user with no role is held under no key (null is not a role).
    s = run(s, { type: 'updateUser', projectId: P, userId: 'u1', name: 'A', userRoleId: null });
    s = run(s, { type: 'registerUser', projectId: P, userId: 'u2', name: 'B' });
    expect(holders(s)).toEqual({ r1: [], r2: [] });
  });

  it('is left as it was (shared, not rebuilt) by a command that changes no role', () => {
    const s = run(base(), {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'A',
      userRoleId: 'r1',
    });
    const renamed = run(s, { type: 'updateUser', projectId: P, userId: 'u1', name: 'Ann' });
    expect(renamed.index.usersByRole).toBe(s.index.usersByRole);
    const again = run(s, {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'A',
      userRoleId: 'r1',
    });
    expect(again.index.usersByRole).toBe(s.index.usersByRole);
  });

  it('so deleting the role a user left does not clear that user', () => {
    const s = run(
      base(),
      { type: 'registerUser', projectId: P, userId: 'u1', name: 'A', userRoleId: 'r1' },
      { type: 'updateUser', projectId: P, userId: 'u1', name: 'A', userRoleId: 'r2' },
    );
    const r = attempt(s, { type: 'deleteRole', projectId: P, roleId: 'r1' });
    expect(r.ok && r.result).toStrictEqual({ kind: 'roleDeleted', roleId: 'r1', usersCleared: [] });
    expect(r.ok && r.state.users['u1']?.userRoleId).toBe('r2');
  });
});

describe('organizations (§4.4; decisions orgs.register.external-id-upsert, orgs.identifier.resolution-order)', () => {
  it('stores the properties sent, and reports created only for a new organization', () => {
    const s = base();
    expect(s.organizations['o1']?.properties).toEqual({ tier: 'gold' });
    const upsert = resultOf(s, {
      type: 'registerOrganization',
      projectId: P,
      newId: 'o2',
      name: 'Acme',
      externalId: 'acme',
      properties: { tier: 'silver' },
    });
    expect(upsert).toStrictEqual({
      kind: 'organization',
      created: false,
      organization: {
        projectOrganizationId: 'o1',
        projectId: P,
        externalId: 'acme',
        name: 'Acme',
        properties: { tier: 'silver' },
      },
    });
    // Without externalId every call creates one (same decision).
    const fresh = resultOf(s, {
      type: 'registerOrganization',
      projectId: P,
      newId: 'o3',
      name: 'New',
    });
    expect(fresh).toStrictEqual({
      kind: 'organization',
      created: true,
      organization: {
        projectOrganizationId: 'o3',
        projectId: P,
        externalId: null,
        name: 'New',
        properties: {},
      },
    });
  });

  it('indexes an organization by externalId only when it has one', () => {
    const s = run(
      base(),
      { type: 'registerOrganization', projectId: P, newId: 'o3', name: 'No ext' },
      {
        type: 'registerOrganization',
        projectId: P,
        newId: 'o4',
        name: 'Acme again',
        externalId: 'acme',
      },
    );
    expect(s.index.organizationByExternalId).toEqual({ [P]: { acme: 'o1' } });
  });

  it('resolves no organization for an identifier the project does not hold, whatever ids it holds', () => {
    // Organization ids are opaque to the machine: even one spelled 'undefined' is only that id.
    const s = run(
      base(),
      { type: 'registerOrganization', projectId: P, newId: 'undefined', name: 'Odd id' },
      { type: 'registerOrganization', projectId: P, newId: 'o5', name: 'Plain' },
    );
    expect(s.organizations['o5']?.name).toBe('Plain');
    expect(resolveOrganization(s, P, 'nope')).toBeUndefined();
    expect(resolveOrganization(s, P, 'undefined')?.name).toBe('Odd id');
  });
});

describe('users (§4.5, §4.6)', () => {
  it('reports created for a new userId, not for a registration again or an update', () => {
    const add = { type: 'registerUser', projectId: P, userId: 'u1', name: 'A' } as const;
    const s0 = base();
    expect(resultOf(s0, add)).toMatchObject({ kind: 'user', created: true });
    const s1 = run(s0, add);
    // Decision users.register.user-id-reuse: the same userId again replaces it.
    expect(resultOf(s1, add)).toMatchObject({ kind: 'user', created: false });
    expect(
      resultOf(s1, { type: 'updateUser', projectId: P, userId: 'u1', name: 'B' }),
    ).toMatchObject({
      kind: 'user',
      created: false,
    });
  });
});

describe('embed sign-in (§4.8; decision tokens.embed-token.upserts)', () => {
  const signIn = (user: object, organization: object = {}): IdentityCommand => ({
    type: 'embedSignIn',
    projectId: P,
    newOrganizationId: 'o9',
    organization: { externalId: 'acme', ...organization },
    userId: 'u1',
    user: { name: 'Ann', ...user },
  });
  const known = () =>
    run(base(), {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'Ann',
      properties: { region: 'eu' },
      userRoleId: 'r1',
    });

  it('keeps the stored name, properties and role the body leaves out', () => {
    const r = resultOf(known(), signIn({}));
    expect(r).toStrictEqual({
      kind: 'signIn',
      created: false,
      organization: {
        projectOrganizationId: 'o1',
        projectId: P,
        externalId: 'acme',
        name: 'Acme',
        properties: { tier: 'gold' },
      },
      user: {
        id: 'u1',
        projectId: P,
        name: 'Ann',
        properties: { region: 'eu' },
        userRoleId: 'r1',
        projectOrganizationId: 'o1',
      },
    });
  });

  it('replaces what the body gives; a null role removes the role', () => {
    const r = resultOf(
      known(),
      signIn(
        { properties: { region: 'us' }, userRoleId: null },
        { name: 'Acme Inc', properties: { tier: 'free' } },
      ),
    );
    expect(r).toMatchObject({
      organization: { projectOrganizationId: 'o1', name: 'Acme Inc', properties: { tier: 'free' } },
      user: { properties: { region: 'us' }, userRoleId: null, projectOrganizationId: 'o1' },
    });
    const r2 = resultOf(known(), signIn({ userRoleId: 'r2' }));
    expect(r2).toMatchObject({ user: { userRoleId: 'r2' } });
  });

  it('creates a new organization and user with the properties given, or none', () => {
    const r = resultOf(
      base(),
      signIn(
        { properties: { seat: 1 } },
        { externalId: 'beta', name: 'Beta', properties: { tier: 'x' } },
      ),
    );
    expect(r).toMatchObject({
      organization: { projectOrganizationId: 'o9', externalId: 'beta', properties: { tier: 'x' } },
      user: { properties: { seat: 1 }, userRoleId: null, projectOrganizationId: 'o9' },
    });
    const bare = resultOf(base(), signIn({}, { externalId: 'gamma', name: 'Gamma' }));
    expect(bare).toMatchObject({ organization: { properties: {} }, user: { properties: {} } });
  });

  it('created only (behaviour tokens.embed-creates-only), keeps what is stored, but attaches', () => {
    const keep = (c: IdentityCommand): IdentityCommand =>
      c.type === 'embedSignIn' ? { ...c, existing: 'create-only' } : c;
    const r = resultOf(
      known(),
      keep(
        signIn(
          { name: 'Bea', properties: { region: 'us' }, userRoleId: 'r2' },
          { name: 'Acme Inc', properties: { tier: 'free' } },
        ),
      ),
    );
    expect(r).toMatchObject({
      organization: { projectOrganizationId: 'o1', name: 'Acme', properties: { tier: 'gold' } },
      user: {
        name: 'Ann',
        properties: { region: 'eu' },
        userRoleId: 'r1',
        projectOrganizationId: 'o1',
      },
    });
    // Absent, both are made from the body as the decision makes them.
    const made = resultOf(
      base(),
      keep(signIn({ properties: { seat: 1 } }, { externalId: 'beta', name: 'Beta' })),
    );
    expect(made).toMatchObject({
      organization: { projectOrganizationId: 'o9', name: 'Beta' },
      user: { name: 'Ann', properties: { seat: 1 }, projectOrganizationId: 'o9' },
    });
    // Each choice lands on its own row: a user found is kept (`same`), not replaced.
    const rowOf = (state: IdentityState, c: IdentityCommand) => {
      const done = attempt(state, c);
      return done.ok ? done.row : done.error.code;
    };
    expect(rowOf(known(), keep(signIn({ name: 'Bea' })))).toBe('embedSignIn: user -> same');
    expect(rowOf(known(), signIn({ name: 'Bea' }))).toBe('embedSignIn: user -> user');
    expect(rowOf(base(), keep(signIn({}, { externalId: 'beta', name: 'Beta' })))).toBe(
      'embedSignIn: absent -> user',
    );
    // The role a user found keeps is its own, so a role the body names is not looked up.
    expect(rowOf(known(), keep(signIn({ userRoleId: 'no-such-role' })))).toBe(
      'embedSignIn: user -> same',
    );
    expect(rowOf(known(), signIn({ userRoleId: 'no-such-role' }))).toBe('NOT_FOUND');
  });

  it('known only (behaviour tokens.embed-known-only), refuses what the project does not hold', () => {
    const strict = (c: IdentityCommand): IdentityCommand =>
      c.type === 'embedSignIn' ? { ...c, absent: 'refuse' } : c;
    expect(errorOf(base(), strict(signIn({}, { externalId: 'beta', name: 'Beta' })))).toMatchObject(
      { code: 'NOT_FOUND', details: { resource: 'projectOrganization', field: 'externalId' } },
    );
    expect(errorOf(base(), strict(signIn({})))).toMatchObject({
      code: 'NOT_FOUND',
      details: { resource: 'user', field: 'id' },
    });
    // Held, both sign in and are updated as the decision on updates makes them.
    expect(resultOf(known(), strict(signIn({ name: 'Bea' })))).toMatchObject({
      organization: { projectOrganizationId: 'o1' },
      user: { id: 'u1', name: 'Bea', projectOrganizationId: 'o1' },
    });
  });
});

describe('tenants (§4.9; decisions tenants.register.identity, tenants.migration.mapping)', () => {
  it('registers a tenant with no name as null, and the same identity again as the same tenant', () => {
    const first = resultOf(base(), {
      type: 'registerTenant',
      newTenantId: 't1',
      identity: 'key:a',
    });
    expect(first).toStrictEqual({
      kind: 'tenant',
      created: true,
      tenant: { tenantId: 't1', identity: 'key:a', name: null, permissions: {}, metadata: {} },
    });
    const s = run(base(), {
      type: 'registerTenant',
      newTenantId: 't1',
      identity: 'key:a',
      name: 'A',
    });
    const again = resultOf(s, { type: 'registerTenant', newTenantId: 't2', identity: 'key:a' });
    expect(again).toMatchObject({ created: false, tenant: { tenantId: 't1', name: 'A' } });
  });

  it('finds no tenant for an id the account does not hold, whatever identities it holds', () => {
    const s = run(base(), { type: 'registerTenant', newTenantId: 't1', identity: 'undefined' });
    expect(tenantById(s, 't1')?.identity).toBe('undefined');
    expect(tenantById(s, 'nobody')).toBeUndefined();
  });

  it('knows a tenant by its uniqueKey when one is given, else by columns and schema', () => {
    const cols = { region: 'eu', shard: 2 };
    const byKey = tenantIdentity({ uniqueKey: 'k1', tenantColumns: cols });
    expect(tenantIdentity({ uniqueKey: 'k1', tenantColumns: { region: 'us' } })).toBe(byKey);
    expect(tenantIdentity({ uniqueKey: 'k2', tenantColumns: cols })).not.toBe(byKey);
    expect(tenantIdentity({ tenantColumns: cols })).not.toBe(byKey);
    // Canonical JSON: key order does not matter, the schema does.
    const split = tenantIdentity({ tenantColumns: cols, tenantSchema: 's1' });
    expect(tenantIdentity({ tenantColumns: { shard: 2, region: 'eu' }, tenantSchema: 's1' })).toBe(
      split,
    );
    expect(tenantIdentity({ tenantColumns: cols, tenantSchema: 's2' })).not.toBe(split);
    expect(tenantIdentity({ tenantColumns: cols })).not.toBe(split);
  });

  it('derives the project user id as SHA-256 with only the version and variant bits set (RFC 9562 §5.8)', () => {
    for (const tenant of ['t1', 't2', 'a-much-longer-tenant-id']) {
      const h = createHash('sha256').update(`eac-tenant-user:${ORG}:${tenant}`).digest('hex');
      const id = tenantProjectUserId(ORG, tenant).replaceAll('-', '');
      expect(id.slice(0, 12)).toBe(h.slice(0, 12));
      expect(id[12]).toBe('8');
      expect(id.slice(13, 16)).toBe(h.slice(13, 16));
      expect(parseInt(id[16] ?? '', 16)).toBe((parseInt(h[16] ?? '', 16) & 0x3) | 0x8);
      expect(id.slice(17, 32)).toBe(h.slice(17, 32));
    }
  });
});
