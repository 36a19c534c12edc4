import { describe, expect, it } from 'vitest';
import {
  applyIdentity,
  emptyIdentity,
  resolveOrganization,
  rolesOf,
  tenantById,
  type IdentityCommand,
  type IdentityState,
} from '../../spec/machines/identity.ts';
import type { Table } from '../../spec/machines/table.ts';
import { entriesOf, persistentTables, sizeOf } from './tables.ts';

// The identity machine over the store's tables: what the store keeps per account.
const ORG = '00000000-0000-4000-8000-000000000000';
const P = '00000000-0000-4000-8000-00000000000a';
let now = Date.UTC(2026, 0, 1);

function run(state: IdentityState, ...commands: IdentityCommand[]): IdentityState {
  for (const c of commands) {
    const r = applyIdentity(state, c, (now += 1000));
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    state = r.state;
  }
  return state;
}

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
    return run(emptyIdentity(ORG, persistentTables), ...commands);
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
