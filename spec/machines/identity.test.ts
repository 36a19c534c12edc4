import { describe, expect, it } from 'vitest';
import {
  tenantProjectUserId,
  applyIdentity,
  emptyIdentity,
  resolveOrganization,
  rolesOf,
  tenantById,
  type IdentityCommand,
  type IdentityState,
} from './identity.ts';
import { entriesOf, sizeOf, type Table } from './table.ts';

const ORG = '00000000-0000-4000-8000-000000000000';
const P = '00000000-0000-4000-8000-00000000000a';
const Q = '00000000-0000-4000-8000-00000000000b';
let now = Date.UTC(2026, 0, 1);

function run(state: IdentityState, ...commands: IdentityCommand[]): IdentityState {
  for (const c of commands) {
    const r = applyIdentity(state, c, (now += 1000));
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    state = r.state;
  }
  return state;
}

const base = () =>
  run(
    emptyIdentity(ORG),
    { type: 'createProject', projectId: P, name: 'p' },
    { type: 'createProject', projectId: Q, name: 'q' },
    {
      type: 'createRole',
      projectId: P,
      roleId: 'r1',
      name: 'editor',
      permissions: { addChart: true, hideHeader: true },
    },
    { type: 'registerOrganization', projectId: P, newId: 'o1', name: 'Acme', externalId: 'acme' },
    {
      type: 'registerUser',
      projectId: P,
      userId: 'u1',
      name: 'Ann',
      userRoleId: 'r1',
      projectOrganizationId: 'acme',
    },
  );

describe('identity machine', () => {
  it('replaces permissions on update (§3), never merges', () => {
    const s = run(base(), {
      type: 'updateRole',
      projectId: P,
      roleId: 'r1',
      permissions: { readOnly: true },
    });
    expect(s.roles['r1']?.permissions).toEqual({ readOnly: true });
    expect(s.roles['r1']?.name).toBe('editor');
  });

  it('leaves users with no role when their role is deleted (§3)', () => {
    const s = run(base(), { type: 'deleteRole', projectId: P, roleId: 'r1' });
    expect(s.users['u1']?.userRoleId).toBeNull();
    expect(rolesOf(s, P)).toEqual([]);
  });

  it('resolves an externalId to the service UUID (§2.3)', () => {
    const s = base();
    expect(s.users['u1']?.projectOrganizationId).toBe('o1');
    expect(resolveOrganization(s, P, 'acme')?.projectOrganizationId).toBe('o1');
    expect(resolveOrganization(s, Q, 'acme')).toBeUndefined();
  });

  it('upserts an organization by externalId (decision O2)', () => {
    const s = run(base(), {
      type: 'registerOrganization',
      projectId: P,
      newId: 'o2',
      name: 'Acme 2',
      externalId: 'acme',
    });
    expect(Object.keys(s.organizations)).toEqual(['o1']);
    expect(s.organizations['o1']?.name).toBe('Acme 2');
  });

  it('refuses a userId held in another project, and a role of another project', () => {
    const s = base();
    const twin = applyIdentity(
      s,
      { type: 'registerUser', projectId: Q, userId: 'u1', name: 'Twin' },
      now,
    );
    expect(twin.ok ? null : twin.error.code).toBe('CONFLICT');
    const foreign = applyIdentity(
      s,
      { type: 'registerUser', projectId: Q, userId: 'u2', name: 'X', userRoleId: 'r1' },
      now,
    );
    expect(foreign.ok ? null : foreign.error.details).toEqual({
      resource: 'role',
      field: 'userRoleId',
    });
  });

  it('applies embed sign-in as one step: a refusal leaves no organization behind', () => {
    const s = base();
    const r = applyIdentity(
      s,
      {
        type: 'embedSignIn',
        projectId: P,
        newOrganizationId: 'o9',
        organization: { externalId: 'new-co', name: 'New Co' },
        userId: 'u9',
        user: { name: 'Nine', userRoleId: 'missing-role' },
      },
      now,
    );
    expect(r.ok).toBe(false);
    expect(s.organizations['o9']).toBeUndefined();
  });

  it('keeps absent user fields on update and clears them on null (§4.6)', () => {
    const s1 = run(base(), { type: 'updateUser', projectId: P, userId: 'u1', name: 'Ann B' });
    expect(s1.users['u1']).toMatchObject({
      userRoleId: 'r1',
      projectOrganizationId: 'o1',
      name: 'Ann B',
    });
    const s2 = run(s1, {
      type: 'updateUser',
      projectId: P,
      userId: 'u1',
      name: 'Ann B',
      userRoleId: null,
      projectOrganizationId: null,
    });
    expect(s2.users['u1']).toMatchObject({ userRoleId: null, projectOrganizationId: null });
  });
});

describe('tenant to project-user mapping (decision N4)', () => {
  it('is stable, a UUID, and distinct per tenant and per organization', () => {
    const a = tenantProjectUserId(ORG, 't1');
    expect(tenantProjectUserId(ORG, 't1')).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tenantProjectUserId(ORG, 't2')).not.toBe(a);
    expect(tenantProjectUserId(P, 't1')).not.toBe(a);
  });
});

/**
 * Issue 7, part 0: a command's cost must not grow with the records the account holds. No
 * timing here: the tables of the state are wrapped so every read of an entry and every
 * enumeration of the keys is counted, and each command must touch the same number of
 * entries in an account of 10 users as in one of 5,000, and never enumerate a table (what a
 * copy such as `{ ...state.users, [id]: user }` or a scan such as `Object.values` does).
 */
describe('identity machine at scale (issue 7, part 0)', () => {
  interface Counts {
    reads: number;
    enumerations: number;
  }

  function counted<V>(table: Table<V>, counts: Counts): Table<V> {
    return new Proxy(table, {
      get(target, key) {
        if (typeof key === 'string') counts.reads += 1;
        return Reflect.get(target, key) as unknown;
      },
      ownKeys(target) {
        counts.enumerations += 1;
        return Reflect.ownKeys(target);
      },
    });
  }

  const ROLES = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9'];

  /** An account of `n` users over 10 roles and 10 organizations (by externalId). */
  function account(n: number): IdentityState {
    const commands: IdentityCommand[] = [{ type: 'createProject', projectId: P, name: 'p' }];
    for (const roleId of ROLES) {
      commands.push({ type: 'createRole', projectId: P, roleId, name: roleId, permissions: {} });
    }
    for (let o = 0; o < 10; o++) {
      commands.push({
        type: 'registerOrganization',
        projectId: P,
        newId: `o${o}`,
        name: `org ${o}`,
        externalId: `ext-${o}`,
      });
    }
    for (let i = 0; i < n; i++) {
      commands.push({
        type: 'registerUser',
        projectId: P,
        userId: `u${i}`,
        name: `user ${i}`,
        userRoleId: ROLES[i % ROLES.length] ?? 'r0',
        projectOrganizationId: `ext-${i % 10}`,
      });
    }
    return run(emptyIdentity(ORG), ...commands);
  }

  /** The reads and enumerations of the users and organizations tables one command makes. */
  function cost(state: IdentityState, command: IdentityCommand) {
    const users: Counts = { reads: 0, enumerations: 0 };
    const organizations: Counts = { reads: 0, enumerations: 0 };
    const watched = {
      ...state,
      users: counted(state.users, users),
      organizations: counted(state.organizations, organizations),
    };
    const applied = applyIdentity(watched, command, now);
    if (!applied.ok) throw new Error(`${command.type}: ${applied.error.message}`);
    return { users, organizations, next: applied.state };
  }

  const commands: [string, IdentityCommand][] = [
    [
      'register a new user by externalId',
      {
        type: 'registerUser',
        projectId: P,
        userId: 'new',
        name: 'New',
        userRoleId: 'r1',
        projectOrganizationId: 'ext-3',
      },
    ],
    [
      'register an existing user again, on another role',
      { type: 'registerUser', projectId: P, userId: 'u1', name: 'One', userRoleId: 'r2' },
    ],
    [
      'update a user, moving it to another organization',
      { type: 'updateUser', projectId: P, userId: 'u2', name: 'Two', projectOrganizationId: 'o5' },
    ],
    [
      'sign a user in through embed (organization upserted by externalId)',
      {
        type: 'embedSignIn',
        projectId: P,
        newOrganizationId: 'o-new',
        organization: { externalId: 'ext-4' },
        userId: 'embedded',
        user: { name: 'Embedded', userRoleId: 'r3' },
      },
    ],
    [
      'register an organization again by its externalId',
      { type: 'registerOrganization', projectId: P, newId: 'o-x', name: 'X', externalId: 'ext-7' },
    ],
  ];

  const small = account(10);
  const large = account(5_000);

  it.each(commands)('%s: the same entries read at 10 users as at 5,000, no scan', (_, c) => {
    const a = cost(small, c);
    const b = cost(large, c);
    expect(b.users, 'users table reads and enumerations, 5,000 users vs 10').toEqual(a.users);
    expect(b.organizations, 'organizations table, 5,000 users vs 10').toEqual(a.organizations);
    expect(b.users.enumerations + b.organizations.enumerations, 'tables enumerated').toBe(0);
  });

  it('deleting a role reads only the users that held it, and clears each of them (§3)', () => {
    const { users, next } = cost(large, { type: 'deleteRole', projectId: P, roleId: 'r4' });
    expect(users.enumerations, 'users table enumerated').toBe(0);
    // 500 of the 5,000 users hold r4: one read each, none of the other 4,500.
    expect(users.reads).toBe(500);
    expect(next.users['u4']?.userRoleId).toBeNull();
    expect(next.users['u14']?.userRoleId).toBeNull();
    expect(next.users['u5']?.userRoleId).toBe('r5');
    expect(rolesOf(next, P).map((r) => r.id)).not.toContain('r4');
  });

  it('shares every untouched user with the state it was given, which stays as it was', () => {
    const { next } = cost(large, commands[0]?.[1] as IdentityCommand);
    expect(sizeOf(next.users)).toBe(5_001);
    expect(sizeOf(large.users)).toBe(5_000);
    expect(large.users['new'], 'the given state is not changed').toBeUndefined();
    // The records themselves are shared, not copied (a table keeps one Map per chain).
    expect([...entriesOf(large.users)].every(([id, user]) => next.users[id] === user)).toBe(true);
  });

  it('keeps the indexes in step: externalId, role holders, tenants', () => {
    let s = run(
      large,
      { type: 'updateUser', projectId: P, userId: 'u7', name: 'Seven', userRoleId: null },
      { type: 'registerTenant', newTenantId: 't1', identity: 'key:a', name: 'A' },
    );
    expect(resolveOrganization(s, P, 'ext-7')?.projectOrganizationId).toBe('o7');
    expect(tenantById(s, 't1')?.identity).toBe('key:a');
    expect(tenantById(s, 'nobody')).toBeUndefined();
    // u7 left r7, so deleting r7 no longer touches it.
    s = run(s, { type: 'deleteRole', projectId: P, roleId: 'r7' });
    expect(s.users['u7']).toMatchObject({ name: 'Seven', userRoleId: null });
    expect(s.users['u17']?.userRoleId).toBeNull();
  });
});
