import { effectivePermissions, type NoRolePermissions } from '../../spec/machines/permissions.ts';
import { RolePermissions } from '../../spec/schemas/permissions.ts';
import {
  roleOf,
  type IdentityState,
  type TenantRecord,
  type UserRecord,
} from '../../spec/machines/identity.ts';

/**
 * Claims the reference puts in its tokens (decision tokens.claims), on top of
 * iss/aud/sub/iat/exp/jti.
 */
export interface EacClaims {
  readonly kind: 'project-user' | 'tenant';
  /** Customer organization (account) that issued the token. */
  readonly org: string;
  readonly [claim: string]: unknown;
}

/** Where a project-user token keeps what it says: flat (the default) or nested. */
export type ClaimsLayout = 'flat' | 'nested';

/**
 * How a project-user token writes the user's permissions: `object`, every flag with a boolean
 * (the default); `array`, the names of the granted flags; `string`, those names separated by
 * spaces.
 */
export type PermissionsForm = 'object' | 'array' | 'string';

/** The flat layout's claim for the permissions in each form. */
const FLAT_PERMISSIONS: Readonly<Record<PermissionsForm, string>> = {
  object: 'perm',
  array: 'https://eac.example/permissions',
  string: 'scope',
};

/**
 * Decisions states.role.issued-token-unchanged and tokens.user-token.properties-after-update: a
 * project-user token carries what the user is at issue time (§4.7: built from the stored data), so
 * role and property changes reach the user at the next token (§3).
 */
export function projectUserClaims(
  identity: IdentityState,
  user: UserRecord,
  noRole: NoRolePermissions = 'empty-role',
): EacClaims {
  const role = roleOf(identity, user);
  return {
    kind: 'project-user',
    org: identity.organizationId,
    prj: user.projectId,
    pog: user.projectOrganizationId,
    rol: user.userRoleId,
    perm: effectivePermissions(role?.permissions ?? null, noRole),
    props: user.properties,
    name: user.name,
  };
}

/** Decision tenants.token.claims: a tenant token names the tenant and what it may do. */
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
 * `sub` stays beside `uid` with its RFC 7519 meaning. The permissions are written in `form`,
 * in the flat layout under that form's claim. A tenant token nested names the tenant in `uid`
 * and keeps its permissions, metadata, name and identity under `ctx`.
 */
export function laidOut(
  claims: EacClaims,
  subject: string,
  layout: ClaimsLayout,
  form: PermissionsForm = 'object',
): EacClaims {
  if (claims.kind === 'tenant') {
    // Decision tenants.token.claims leaves a tenant token's contents open as well: nested, the
    // tenant in `uid` and what it is under `ctx`.
    if (layout === 'flat') return claims;
    const { perm, meta, name, tkey, ...own } = claims;
    return { ...own, uid: subject, ctx: { permissions: perm, metadata: meta, name, key: tkey } };
  }
  if (claims.kind !== 'project-user') return claims;
  const { perm, rol, pog, props, ...rest } = claims;
  const permissions = written(perm, form);
  if (layout === 'flat') return { ...rest, [FLAT_PERMISSIONS[form]]: permissions, rol, pog, props };
  return {
    ...rest,
    kind: claims.kind,
    org: claims.org,
    uid: subject,
    ctx: { permissions, role: rol, organization: pog, properties: props },
  };
}

/** The permissions object of the claims in `form`. */
function written(perm: unknown, form: PermissionsForm): unknown {
  if (form === 'object') return perm;
  const granted = Object.entries(perm as Readonly<Record<string, unknown>>)
    .filter(([, on]) => on === true)
    .map(([flag]) => flag);
  return form === 'array' ? granted : granted.join(' ');
}

/** The permissions a claim shows, in any form, as an object of the flags it shows on or off. */
function read(permissions: unknown): unknown {
  if (Array.isArray(permissions)) return Object.fromEntries(permissions.map((f) => [f, true]));
  if (typeof permissions === 'string')
    return Object.fromEntries(
      permissions
        .split(' ')
        .filter((f) => f !== '')
        .map((f) => [f, true]),
    );
  return permissions;
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
      permissions: read(c['permissions']),
      role: c['role'],
      projectOrganization: c['organization'],
      properties: c['properties'],
    };
  }
  const form = (Object.keys(FLAT_PERMISSIONS) as PermissionsForm[]).find(
    (f) => claims[FLAT_PERMISSIONS[f]] !== undefined,
  );
  return {
    permissions: form === undefined ? undefined : read(claims[FLAT_PERMISSIONS[form]]),
    role: claims['rol'],
    projectOrganization: claims['pog'],
    properties: claims['props'],
  };
}

/**
 * The permissions a tenant token says its tenant had when it was issued, from either layout
 * (decision tenants.token.claims); null when it shows none.
 */
export function tenantPermissionsClaimed(
  claims: Readonly<Record<string, unknown>>,
): RolePermissions | null {
  const nested = claims['ctx'];
  const perm =
    typeof nested === 'object' && nested !== null
      ? (nested as Readonly<Record<string, unknown>>)['permissions']
      : claims['perm'];
  const parsed = RolePermissions.safeParse(read(perm));
  return parsed.success ? parsed.data : null;
}
