import type { Variant } from './variant.ts';

/**
 * Realistic implementer bugs for the fault catalogue (issue 11, part 2), of the kinds the
 * earlier variants lacked: one sibling's data taken for another's, a cache that goes stale
 * until restart, a boundary off by one second, a value encoded wrongly. Each stays a small
 * patch of the reference; `npm run faults` runs them with the reference as an outside
 * candidate.
 */
export const faultsVariants: readonly Variant[] = [
  // Siblings: one project's (or organization's) records answered for another's.
  {
    name: 'sibling: a role of another project of the account is found by id',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'roleIn',
    from: '  return role !== undefined && role.project_id === projectId ? role : undefined;',
    to: '  return role;',
    only: ['security'],
  },
  {
    name: 'sibling: an organization id of another project is accepted for a user',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'resolveOrganization',
    from: '  if (byId !== undefined && byId.projectId === projectId) return byId;',
    to: '  if (byId !== undefined) return byId;',
    only: ['security'],
  },
  {
    name: 'sibling: user update finds the user in any project of the account',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'userExists',
    from: '  refuses: (state, c) => state.users[c.userId]?.projectId !== c.projectId,',
    to: '  refuses: (state, c) => state.users[c.userId] === undefined,',
    only: ['security'],
  },
  {
    name: 'sibling: an externalId unknown in the project resolves in a sibling project',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'organizationByExternalId',
    from: '  const id = state.index.organizationByExternalId[projectId]?.[externalId];',
    to: '  const id = state.index.organizationByExternalId[projectId]?.[externalId] ?? Object.values(state.index.organizationByExternalId).map((m) => m[externalId]).find((x) => x !== undefined);',
    only: ['security'],
  },
  {
    name: 'sibling: embed-token leaves a known user in the organization it first signed in with',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'embedSignIn',
    from: '    projectOrganizationId: organization.projectOrganizationId,\n  });\n  return effected(user.state',
    to: '    projectOrganizationId: existingUser?.projectOrganizationId ?? organization.projectOrganizationId,\n  });\n  return effected(user.state',
    only: ['security'],
  },
  // Stale caches: a change not seen until the process restarts.
  {
    name: 'stale cache: user-token carries the properties cached at the user\u2019s first token',
    kind: 'stale-cache',
    file: 'reference/tokens/claims.ts',
    within: 'projectUserClaims',
    from: '    props: user.properties,',
    to: '    props: (((globalThis as any).eacProps ??= new Map()).has(user.id) ? (globalThis as any).eacProps.get(user.id) : ((globalThis as any).eacProps.set(user.id, user.properties), user.properties)),',
    only: ['identity'],
  },
  {
    name: 'stale cache: a project\u2019s role list cached at its first read',
    kind: 'stale-cache',
    file: 'reference/http/roles.ts',
    within: 'roleRoutes',
    from: '      return okDone({ userRoles: rolesOf(identity, params.projectId) });',
    to: '      const cache = ((globalThis as any).eacRoleLists ??= new Map());\n      if (!cache.has(params.projectId)) cache.set(params.projectId, rolesOf(identity, params.projectId));\n      return okDone({ userRoles: cache.get(params.projectId) });',
    only: ['identity'],
  },
  {
    name: 'stale cache: user-token names the role cached at the user\u2019s first token',
    kind: 'stale-cache',
    file: 'reference/tokens/claims.ts',
    within: 'projectUserClaims',
    from: '    rol: user.userRoleId,',
    to: '    rol: (((globalThis as any).eacRoles ??= new Map()).has(user.id) ? (globalThis as any).eacRoles.get(user.id) : ((globalThis as any).eacRoles.set(user.id, user.userRoleId), user.userRoleId)),',
    only: ['identity'],
  },
  // Boundaries off by one second.
  {
    name: 'boundary: every token lives one second less than its lifetime',
    kind: 'boundary',
    file: 'spec/machines/token.ts',
    within: 'lifetimeAt',
    from: '  const last = iat + EXPIRATION_SECONDS[expiration];',
    to: '  const last = iat + EXPIRATION_SECONDS[expiration] - 1;',
    only: ['tokens'],
  },
  {
    name: 'boundary: a token is refused from one second before its expiry',
    kind: 'boundary',
    file: 'spec/machines/token.ts',
    within: 'phaseAt',
    from: "return now < exp * 1000 ? 'valid' : 'expired';",
    to: "return now < exp * 1000 - 1000 ? 'valid' : 'expired';",
    only: ['tokens'],
  },
  // Encoding slips.
  {
    name: 'encoding: the JWT exp claim in milliseconds instead of seconds',
    kind: 'encoding',
    file: 'reference/tokens/jwt.ts',
    within: 'issue',
    from: '      .setExpirationTime(life.exp)',
    to: '      .setExpirationTime(life.exp * 1000)',
    only: ['tokens'],
  },
  {
    name: 'encoding: the token subject (a user UUID) upper-cased',
    kind: 'encoding',
    file: 'reference/tokens/jwt.ts',
    within: 'issue',
    from: '      .setSubject(subject)',
    to: '      .setSubject(subject.toUpperCase())',
    only: ['identity'],
  },
  {
    name: 'encoding: expiresAt without its zone (local time, no Z)',
    kind: 'encoding',
    file: 'spec/machines/token.ts',
    within: 'lifetimeAt',
    from: '  return { iat, exp, expiresAt: new Date(last * 1000).toISOString() };',
    to: '  return { iat, exp, expiresAt: new Date(last * 1000).toISOString().slice(0, 19) };',
    only: ['tokens'],
  },
];
