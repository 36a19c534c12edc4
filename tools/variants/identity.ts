import { PERMISSION_FLAGS } from '../../spec/schemas/permissions.ts';
import type { Variant } from './variant.ts';

/** Wrong variants of identity and access (§2–§5): machines and the HTTP glue. */
export const identityVariants: readonly Variant[] = [
  {
    name: 'embed-token looks the organization up by its externalId in lower case',
    file: 'reference/http/tokens.ts',
    from: 'organization: body.organization,',
    to: 'organization: { ...body.organization, externalId: body.organization.externalId.toLowerCase() },',
    only: ['resources.organization.external-id-resolves'],
    kind: 'encoding',
  },
  {
    name: 'register-user drops the spaces of an externalId before resolving it',
    file: 'reference/http/users.ts',
    // The tail of the register-user body (the update route's ends the same way).
    from: [
      '...(body.properties === undefined ? {} : { properties: body.properties }),',
      '        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),',
      '        ...(body.projectOrganizationId === undefined',
      '          ? {}',
      '          : { projectOrganizationId: body.projectOrganizationId }),',
    ].join('\n'),
    to: [
      '...(body.properties === undefined ? {} : { properties: body.properties }),',
      '        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),',
      '        ...(body.projectOrganizationId === undefined',
      '          ? {}',
      "          : { projectOrganizationId: body.projectOrganizationId.replace(/\\s+/g, '') }),",
    ].join('\n'),
    only: ['resources.organization.external-id-resolves'],
    kind: 'encoding',
  },
  {
    name: 'role update merges permissions instead of replacing them',
    file: 'spec/machines/identity.ts',
    from: 'permissions: c.permissions === undefined ? current.permissions : { ...c.permissions },',
    to: 'permissions: { ...current.permissions, ...c.permissions },',
  },
  {
    name: 'a deleted role stays on its users',
    file: 'spec/machines/identity.ts',
    from: 'cleared.push([id, { ...user, userRoleId: null }]);',
    to: 'cleared.push([id, user]);',
  },
  {
    name: 'readOnly does not override an editing flag',
    file: 'spec/machines/permissions.ts',
    from: 'if (permissions === null || permissions.readOnly === true) return false;',
    to: 'if (permissions === null) return false;',
  },
  {
    name: 'default expiration is 2h instead of 1h',
    file: 'spec/schemas/common.ts',
    from: "export const DEFAULT_EXPIRATION: Expiration = '1h';",
    to: "export const DEFAULT_EXPIRATION: Expiration = '2h';",
  },
  {
    name: 'expiresAt written at +02:00 instead of UTC',
    file: 'spec/machines/token.ts',
    from: 'return { iat, exp, expiresAt: new Date(last * 1000).toISOString() };',
    to: "return { iat, exp, expiresAt: new Date((last + 7200) * 1000).toISOString().replace('Z', '+02:00') };",
  },
  {
    name: 'user update merges properties instead of replacing them',
    file: 'spec/machines/identity.ts',
    from: 'properties: c.properties === undefined ? current.properties : { ...c.properties },',
    to: 'properties: { ...current.properties, ...(c.properties ?? {}) },',
  },
  {
    name: 'register-user stores an externalId without resolving it',
    file: 'spec/machines/identity.ts',
    from: '  return found(resolveOrganization(state, projectId, identifier)).projectOrganizationId;',
    to: '  return identifier;',
  },
  {
    name: 'an organization-bound key is refused without organizationId',
    file: 'reference/http/auth.ts',
    from: '    const account = ctx.store.account(owner.organizationId);\n',
    to: "    if (organizationId === undefined) return fail(unauthorized('organization-id-required', 'wrong on purpose'));\n    const account = ctx.store.account(owner.organizationId);\n",
  },
  {
    name: 'a token is still accepted 5 s after it expires',
    file: 'spec/machines/token.ts',
    from: "return now < exp * 1000 ? 'valid' : 'expired';",
    to: "return now < exp * 1000 + 5000 ? 'valid' : 'expired';",
  },
  {
    name: 'user-scoped keys act on any organization (membership not checked)',
    file: 'reference/http/auth.ts',
    from: 'if (account === undefined || !owner.hubUser.memberships.has(account.organizationId)) {',
    to: 'if (account === undefined) {',
  },
  {
    name: 'a key of another account reaches this account\u2019s project',
    file: 'spec/machines/identity.ts',
    from: '    guards: [projectExists, externalIdNotAnId((c) => c.externalId)],',
    to: '    guards: [externalIdNotAnId((c) => c.externalId)],',
  },
  // Runtime variants: the machine stays right and the reference's glue goes wrong, which
  // is what the model-based suite (machine as oracle) is there to catch.
  {
    name: 'runtime: user update drops the properties it was sent',
    file: 'reference/http/users.ts',
    from: '        ...(properties === undefined ? {} : { properties }),\n',
    to: '',
  },
  {
    name: 'runtime: register-user ignores userRoleId',
    file: 'reference/http/users.ts',
    from: '        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),\n        ...(body.projectOrganizationId === undefined\n          ? {}\n          : { projectOrganizationId: body.projectOrganizationId }),\n      });\n      if (!done.ok) return done;\n      // §4.5: no token here',
    to: '        ...(body.projectOrganizationId === undefined\n          ? {}\n          : { projectOrganizationId: body.projectOrganizationId }),\n      });\n      if (!done.ok) return done;\n      // §4.5: no token here',
  },
  {
    // Stryker's core slice (reference/http/auth.ts:79:5): organizationId is lower-cased before
    // anything checks that it is a string, so a number or a repeated parameter is a 500.
    name: 'a user-scoped key with an organizationId that is not a string is a server error',
    file: 'reference/http/auth.ts',
    from: "    typeof organizationId === 'string'\n      ? ctx.store.account(organizationId.toLowerCase())",
    to: '    organizationId !== null\n      ? ctx.store.account((organizationId as string).toLowerCase())',
    only: ['auth.user-scoped.membership-verified'],
  },
  // Stryker's core slice, decisions only a probe sees (bench/results/mutation-equivalent.md).
  {
    // reference/http/tenants.ts:21: the tenant's name never reaches the token's name claim.
    name: 'register-tenant leaves the sent name out of the tenant token',
    file: 'reference/http/tenants.ts',
    from: '        ...(body.name === undefined ? {} : { name: body.name }),\n',
    to: '',
    only: ['tenants.token.claims'],
    decision: 'tenants.token.claims',
  },
  {
    // reference/http/users.ts:30:68: re-registering a userId says nothing of an update.
    name: 're-registering a userId answers an empty message',
    file: 'reference/http/users.ts',
    from: "'The user was updated.'",
    to: "''",
    only: ['users.register.user-id-reuse'],
    decision: 'users.register.user-id-reuse',
  },
  {
    // reference/http/users.ts:50:23: payload with properties is refused without saying where.
    name: 'a user update with payload and properties is refused with no issues',
    file: 'reference/http/users.ts',
    from: '              issues: [\n                {\n',
    to: '              issues: [],\n              unused: [\n                {\n',
    only: ['users.update.payload-and-properties'],
    decision: 'errors.validation.status',
  },
  {
    // reference/http/tokens.ts:22:20: the 404 for an unknown userId names no body member.
    name: 'user-token for an unknown userId names no field',
    file: 'reference/http/tokens.ts',
    from: "field: 'userId'",
    to: "field: ''",
    only: ['tokens.user-token.unknown-user'],
    decision: 'errors.not-found.status',
  },
  // Issue 23 part 6, defaults (§2.2, §2.4, §4.7, §4.8, §5 rule 3): each default the document
  // names, broken alone. One per permission flag: the flag's default, and only it, flipped.
  ...PERMISSION_FLAGS.map((flag): Variant => ({
    name: `default: ${flag} left unset takes the opposite of its §2.2 default`,
    file: 'spec/machines/permissions.ts',
    from: 'const fallback = ALWAYS_ON.has(flag) || (editing && ON_WHEN_EDITING.has(flag));',
    to: `const fallback = (ALWAYS_ON.has(flag) || (editing && ON_WHEN_EDITING.has(flag))) !== (flag === '${flag}');`,
    only: [
      `permissions.default.${flag.replace('SQL', 'Sql').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    ],
  })),
  {
    name: 'default: user-token without expiration lives 2h',
    file: 'reference/http/tokens.ts',
    from: '          body.expiration,\n        ),',
    to: "          body.expiration ?? '2h',\n        ),",
    only: ['tokens.expiration.default-1h'],
  },
  {
    name: 'default: embed-token without expiration lives 2h',
    file: 'reference/http/tokens.ts',
    from: '        body.expiration,\n      );\n      return okDone({',
    to: "        body.expiration ?? '2h',\n      );\n      return okDone({",
    only: ['tokens.embed-token.expiration'],
  },
  {
    name: 'default: register-user without userId gives every user the same id',
    file: 'reference/http/users.ts',
    from: 'userId: body.userId ?? ctx.ids.uuid(),',
    to: "userId: body.userId ?? '6f1c2a9e-0000-4000-8000-000000000001',",
    only: ['users.register.user-id-generated'],
  },
  {
    name: 'default: register-user answers a userId other than the one it stored',
    file: 'reference/http/users.ts',
    from: 'userId: done.value.user.id,',
    to: 'userId: body.userId ?? ctx.ids.uuid(),',
    only: ['users.register.user-id-generated'],
  },
  // §5 rule 3 per value form (blind slip 11's class): whatever organizationId rides with an
  // organization-bound key, the call goes on in the key's own account.
  {
    name: 'org-bound: an organizationId naming no organization is refused',
    file: 'reference/http/auth.ts',
    from: '    const account = ctx.store.account(owner.organizationId);\n    if (account === undefined)\n',
    to: "    const account = ctx.store.account(owner.organizationId);\n    if (account === undefined || (typeof organizationId === 'string' && /^[0-9a-f-]{36}$/i.test(organizationId) && ctx.store.account(organizationId.toLowerCase()) === undefined))\n",
    only: ['auth.org-bound.organization-id-ignored'],
  },
  {
    name: 'org-bound: the ignored organizationId is still validated in the query',
    file: 'reference/http/route.ts',
    from: "[spec.query, without(req.query, ignored), 'query'],",
    to: "[spec.query, req.query, 'query'],",
    only: ['auth.org-bound.organization-id-ignored'],
    decision: 'auth.org-bound.organization-id-shape',
  },
  {
    name: 'org-bound: an organizationId of JSON null is refused',
    file: 'reference/http/route.ts',
    from: "[spec.body, without(req.body, ignored), 'body'],",
    to: "[spec.body, (req.body as Record<string, unknown> | undefined)?.['organizationId'] === null ? req.body : without(req.body, ignored), 'body'],",
    only: ['auth.org-bound.organization-id-ignored'],
    decision: 'auth.org-bound.organization-id-shape',
  },
  {
    name: 'default: an organization-bound key acts on the organizationId it is sent',
    file: 'reference/http/auth.ts',
    from: '    const account = ctx.store.account(owner.organizationId);\n',
    to: "    const account = ctx.store.account(typeof organizationId === 'string' ? organizationId : owner.organizationId);\n",
    only: ['auth.org-bound.organization-id-ignored'],
  },
  // Value classes of properties (issue 34): 0, false and '' are values, kept as sent.
  {
    name: 'properties: the token drops the properties 0, false and the empty string',
    kind: 'encoding',
    file: 'reference/tokens/claims.ts',
    from: 'props: user.properties,',
    to: "props: Object.fromEntries(Object.entries(user.properties).filter(([, v]) => v !== 0 && v !== false && v !== '')),",
    only: ['resources.user.properties-rls'],
  },
  {
    name: 'properties: a user update drops the falsy values it sets',
    kind: 'encoding',
    file: 'reference/http/users.ts',
    from: '        ...(properties === undefined ? {} : { properties }),',
    to: '        ...(properties === undefined ? {} : { properties: Object.fromEntries(Object.entries(properties).filter(([, v]) => Boolean(v))) }),',
    only: ['users.update.properties-replace'],
  },
  {
    name: 'properties: embed-token keeps the properties of the first sign-in',
    kind: 'stale-cache',
    file: 'spec/machines/identity.ts',
    from: '    properties: c.user.properties ?? existingUser?.properties ?? {},',
    to: '    properties: existingUser?.properties ?? c.user.properties ?? {},',
    only: ['tokens.embed-token.upserts'],
  },
];
