import { describe, expect, it } from 'vitest';
import {
  tenantProjectUserId,
  applyIdentity,
  emptyIdentity,
  resolveOrganization,
  rolesOf,
  type IdentityCommand,
  type IdentityState,
} from './identity.ts';

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

  it('upserts an organization by externalId (decision orgs.register.external-id-upsert)', () => {
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

describe('tenant to project-user mapping (decision tenants.migration.mapping)', () => {
  it('is stable, a UUID, and distinct per tenant and per organization', () => {
    const a = tenantProjectUserId(ORG, 't1');
    expect(tenantProjectUserId(ORG, 't1')).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tenantProjectUserId(ORG, 't2')).not.toBe(a);
    expect(tenantProjectUserId(P, 't1')).not.toBe(a);
  });
});
