import { effectivePermissions } from '../../spec/machines/permissions.ts';
import {
  roleOf,
  type IdentityState,
  type TenantRecord,
  type UserRecord,
} from '../../spec/machines/identity.ts';

/** Claims the reference puts in its tokens (decision T3), on top of iss/aud/sub/iat/exp/jti. */
export interface EacClaims {
  readonly kind: 'project-user' | 'tenant';
  /** Customer organization (account) that issued the token. */
  readonly org: string;
  readonly [claim: string]: unknown;
}

/** Where a project-user token keeps what it says: flat (the default) or nested. */
export type ClaimsLayout = 'flat' | 'nested';

/**
 * Decision T3: a project-user token carries what the user is at issue time (§4.7: built from
 * the stored data), so role and property changes reach the user at the next token (§3).
 */
export function projectUserClaims(identity: IdentityState, user: UserRecord): EacClaims {
  const role = roleOf(identity, user);
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

/**
 * §5 rule 8 leaves a token's claims open; a server may lay them out otherwise. The nested layout
 * names the user in `uid` and keeps what the user may do and is under `ctx`. The registered
 * `sub` stays beside `uid` with its RFC 7519 meaning. A tenant token keeps one layout.
 */
export function laidOut(claims: EacClaims, subject: string, layout: ClaimsLayout): EacClaims {
  if (layout === 'flat' || claims.kind !== 'project-user') return claims;
  const { perm, rol, pog, props, ...rest } = claims;
  return {
    ...rest,
    kind: claims.kind,
    org: claims.org,
    uid: subject,
    ctx: { permissions: perm, role: rol, organization: pog, properties: props },
  };
}

/** What a project-user token says about its user, read from either layout. */
export interface ProjectUserFacts {
  readonly permissions: unknown;
  readonly role: unknown;
  readonly projectOrganization: unknown;
  readonly properties: unknown;
}

export function projectUserFacts(claims: Readonly<Record<string, unknown>>): ProjectUserFacts {
  const nested = claims['ctx'];
  if (typeof nested === 'object' && nested !== null) {
    const c = nested as Readonly<Record<string, unknown>>;
    return {
      permissions: c['permissions'],
      role: c['role'],
      projectOrganization: c['organization'],
      properties: c['properties'],
    };
  }
  return {
    permissions: claims['perm'],
    role: claims['rol'],
    projectOrganization: claims['pog'],
    properties: claims['props'],
  };
}
