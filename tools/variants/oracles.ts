import type { Variant } from './variant.ts';

/**
 * Wrong variants that only independent oracles catch: the reference and the suites once read
 * the same lifetimes and the same effective-permission code, so breaking that code left every
 * test green. The suites now take expected values from fixtures/oracles.
 */
export const oraclesVariants: readonly Variant[] = [
  {
    name: 'oracles: a 24h token lasts 12 hours',
    file: 'spec/schemas/common.ts',
    within: 'EXPIRATION_SECONDS',
    from: "  '24h': 24 * HOUR,",
    to: "  '24h': 12 * HOUR,",
    only: ['tokens'],
  },
  {
    name: 'oracles: a 7d token lasts 7 hours',
    file: 'spec/schemas/common.ts',
    within: 'EXPIRATION_SECONDS',
    from: "  '7d': 7 * 24 * HOUR,",
    to: "  '7d': 7 * HOUR,",
    only: ['tokens'],
  },
  {
    name: 'oracles: token claims read a cached copy of the role, not its update',
    file: 'reference/tokens/claims.ts',
    within: 'projectUserClaims',
    from: "export function projectUserClaims(\n  identity: IdentityState,\n  user: UserRecord,\n  noRole: NoRolePermissions = 'empty-role',\n): EacClaims {\n  const role = roleOf(identity, user);\n",
    to:
      'const roleCache = new Map<string, IdentityState["roles"][string]>();\n' +
      "export function projectUserClaims(\n  identity: IdentityState,\n  user: UserRecord,\n  noRole: NoRolePermissions = 'empty-role',\n): EacClaims {\n" +
      '  const live = roleOf(identity, user);\n  if (live !== undefined && user.userRoleId !== null && !roleCache.has(user.userRoleId)) roleCache.set(user.userRoleId, live);\n  const role = user.userRoleId === null ? undefined : roleCache.get(user.userRoleId);\n',
    only: ['states.role', 'permissions'],
  },
  {
    name: 'oracles: readOnly leaves drill-down on',
    file: 'spec/machines/permissions.ts',
    within: 'effectivePermissions',
    from: '  if (out.readOnly) out.drillDown = false;\n',
    to: '',
    only: ['permissions'],
  },
  {
    // A server that drops a claim its own profile names must fail, not end not-run (the
    // survivor of the first mutation run, bench/results/mutation.json).
    name: 'oracles: project-user tokens carry no permissions claim',
    file: 'reference/tokens/claims.ts',
    within: 'projectUserClaims',
    from: '    perm: effectivePermissions(role?.permissions ?? null, noRole),\n',
    to: '',
    only: ['permissions'],
  },
];
