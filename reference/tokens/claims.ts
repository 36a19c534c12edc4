import { effectivePermissions } from '../../spec/machines/permissions.ts';
import type { IdentityState, TenantRecord, UserRecord } from '../../spec/machines/identity.ts';
import type { EacClaims } from './jwt.ts';

/**
 * Decision T3: a project-user token carries what the user is at issue time (§4.7: built from
 * the stored data), so role and property changes reach the user at the next token (§3).
 */
export function projectUserClaims(identity: IdentityState, user: UserRecord): EacClaims {
  const role = user.userRoleId === null ? undefined : identity.roles[user.userRoleId];
  return {
    kind: 'project-user',
    org: identity.organizationId,
    prj: user.projectId,
    pog: user.projectOrganizationId,
    rol: user.userRoleId,
    perm: effectivePermissions(role?.permissions ?? null),
    props: user.properties,
    name: user.name,
  };
}

/** Decision N3: a tenant token names the tenant and what it may do. */
export function tenantClaims(identity: IdentityState, tenant: TenantRecord): EacClaims {
  return {
    kind: 'tenant',
    org: identity.organizationId,
    tkey: tenant.identity,
    perm: effectivePermissions(tenant.permissions),
    meta: tenant.metadata,
    name: tenant.name,
  };
}
