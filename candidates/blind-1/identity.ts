import { notFound } from './errors.ts';
import { effective } from './permissions.ts';
import type { Account, ProjectOrganization, ProjectUser, Role, Store } from './store.ts';
import { sign } from './tokens.ts';
import type { Expiration } from './tokens.ts';
import { isoMillis, isoSeconds } from './util.ts';

/** Identity helpers shared by the routes: views, look-ups and token issue. */

export function roleView(account: Account, role: Role): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    organization_id: account.id,
    project_id: role.projectId,
    permissions: role.permissions,
    created_at: isoMillis(role.createdAt),
    updated_at: isoMillis(role.updatedAt),
  };
}

export function userView(user: ProjectUser): Record<string, unknown> {
  return {
    userId: user.id,
    projectId: user.projectId,
    name: user.name,
    properties: user.properties,
    userRoleId: user.userRoleId,
    projectOrganizationId: user.projectOrganizationId,
  };
}

export function roleInProject(
  account: Account,
  projectId: string,
  roleId: string,
  field: string,
): Role {
  const role = account.roles.get(roleId);
  if (!role || role.projectId !== projectId) throw notFound('role', field);
  return role;
}

/** Resolves a project organization identifier: the service UUID, else an externalId. */
export function resolveOrganization(
  account: Account,
  projectId: string,
  identifier: string,
  field: string,
): ProjectOrganization {
  const direct = account.organizations.get(identifier);
  if (direct && direct.projectId === projectId) return direct;
  for (const org of account.organizations.values())
    if (org.projectId === projectId && org.externalId === identifier) return org;
  throw notFound('projectOrganization', field);
}

export function userPermissions(account: Account, user: ProjectUser): ReturnType<typeof effective> {
  const role = user.userRoleId ? account.roles.get(user.userRoleId) : undefined;
  return effective(role?.permissions ?? null);
}

export async function issueUserToken(
  store: Store,
  account: Account,
  user: ProjectUser,
  expiration: Expiration,
): Promise<{ token: string; expiresAt: string }> {
  const { token, expiresAtMs } = await sign(
    {
      knd: 'pu',
      sub: user.id,
      acct: account.id,
      ctx: {
        prj: user.projectId,
        org: user.projectOrganizationId,
        role: user.userRoleId,
        perms: userPermissions(account, user),
        props: user.properties,
        name: user.name,
      },
    },
    store.now(account),
    expiration,
  );
  return { token, expiresAt: isoSeconds(expiresAtMs) };
}
