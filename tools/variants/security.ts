import type { Variant } from './variant.ts';

/** The two lines of reference/tokens/jwt.ts that check a token's signature. */
const VERIFY =
  '      const verified = await compactVerify(token, this.publicKey, { algorithms: [ALG] });\n' +
  '      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;\n';

/** Reads the token's protected header, as a careless verifier does before choosing a key. */
const HEADER =
  "      const head = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { alg?: string; kid?: string; jwk?: object; jku?: string };\n" +
  "      const jose = await import('jose');\n";

/**
 * Wrong variants of token verification (§2.5, §5 rule 5; clauses security.tokens.*): each
 * accepts tokens the service never issued. Only the security suite is asked to catch them.
 */
export const securityVariants: readonly Variant[] = [
  {
    name: 'signature not checked',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    to: '      payload = decodeJwt(token);\n',
    only: ['security'],
  },
  {
    name: 'alg: none accepted',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    to:
      HEADER +
      "      if (head.alg === 'none') payload = decodeJwt(token);\n" +
      '      else {\n' +
      VERIFY +
      '      }\n',
    only: ['security'],
  },
  {
    name: 'HS256 token signed with the public key accepted',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    // The public key's PEM taken as an HMAC secret when the header names an HS algorithm.
    to:
      HEADER +
      "      const verified = head.alg?.startsWith('HS')\n" +
      "        ? await jose.compactVerify(token, new TextEncoder().encode(await jose.exportSPKI(this.publicKey)), { algorithms: ['HS256', 'HS384', 'HS512'] })\n" +
      '        : await compactVerify(token, this.publicKey, { algorithms: [ALG] });\n' +
      '      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;\n',
    only: ['security'],
  },
  {
    name: 'a token with an unknown kid verified with the current key',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    // A "legacy" path: a kid the service does not know is checked against the current key in
    // whatever algorithm the header names (the PEM as the secret for HS*); its own kid stays strict.
    to:
      HEADER +
      '      const verified = head.kid !== this.kid\n' +
      "        ? await jose.compactVerify(token, head.alg?.startsWith('HS') ? new TextEncoder().encode(await jose.exportSPKI(this.publicKey)) : this.publicKey)\n" +
      '        : await compactVerify(token, this.publicKey, { algorithms: [ALG] });\n' +
      '      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;\n',
    only: ['security'],
  },
  {
    name: 'a key embedded in the token header (jwk) trusted',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    to:
      HEADER +
      '      const verified = head.jwk !== undefined\n' +
      '        ? await jose.compactVerify(token, jose.EmbeddedJWK, { algorithms: [ALG] })\n' +
      '        : await compactVerify(token, this.publicKey, { algorithms: [ALG] });\n' +
      '      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;\n',
    only: ['security'],
  },
  {
    name: 'keys fetched from the token header (jku) trusted',
    kind: 'forged-token',
    file: 'reference/tokens/jwt.ts',
    within: 'verify',
    from: VERIFY,
    to:
      HEADER +
      '      const verified = head.jku !== undefined\n' +
      '        ? await jose.compactVerify(token, jose.createRemoteJWKSet(new URL(head.jku)), { algorithms: [ALG] })\n' +
      '        : await compactVerify(token, this.publicKey, { algorithms: [ALG] });\n' +
      '      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;\n',
    only: ['security'],
  },
  // Sibling mix-ups (issue 6 part 9): the rich worlds of suites/security/siblings.test.ts and
  // the model-based run over several projects, organizations and users catch these.
  {
    name: 'sibling: a project lists the roles of every project of the account',
    kind: 'sibling',
    file: 'reference/http/roles.ts',
    within: 'roleRoutes',
    from: 'okDone({ userRoles: rolesOf(identity, params.projectId) })',
    to: 'okDone({ userRoles: Object.values(identity.projects).flatMap((p) => rolesOf(identity, p.projectId)) })',
    only: ['security', 'identity'],
  },
  {
    name: 'sibling: user-token built from the first user of the same organization',
    kind: 'sibling',
    file: 'reference/http/tokens.ts',
    within: 'tokenRoutes',
    from: '      const claims = projectUserClaims(account.identity, user, ctx.settings.noRolePermissions);\n      return okDone(',
    to:
      '      const sibling = Object.values(account.identity.users).find((u) => u.projectOrganizationId !== null && u.projectOrganizationId === user.projectOrganizationId) ?? user;\n' +
      '      const claims = projectUserClaims(account.identity, sibling, ctx.settings.noRolePermissions);\n      return okDone(',
    only: ['security'],
  },
  {
    name: 'sibling: an externalId resolves to the first organization of its project',
    kind: 'sibling',
    file: 'spec/machines/identity.ts',
    within: 'organizationByExternalId',
    from: 'const id = state.index.organizationByExternalId[projectId]?.[externalId];',
    to: 'const id = state.index.organizationByExternalId[projectId]?.[externalId] === undefined ? undefined : Object.values(state.organizations).find((o) => o.projectId === projectId)?.projectOrganizationId;',
    // The model shares this machine, so only a scenario with sibling organizations sees it.
    only: ['security'],
  },
  // Another account's ids (issue 11 part 4): suites/security/foreign-ids.test.ts.
  {
    name: 'another account\u2019s dashboard readable by id (the v2 look-up searches every account)',
    kind: 'sibling',
    file: 'reference/http/v2.ts',
    within: 'v2Routes',
    from: '      const d = resolveFor(account.dashboards, v2Id, actor);',
    to: "      const d = resolveFor(account.dashboards, v2Id, actor) ?? [...(store as any).accounts.values()].map((acc: any) => resolveFor(acc.dashboards, acc.migration.v2IdOf[params.dashboardId] ?? params.dashboardId, { kind: 'api-key' })).find((x: unknown) => x !== undefined);",
    only: ['security'],
  },
  // Value classes of properties (issue 34): suites/security/property-values.test.ts.
  {
    name: 'properties: row-level security takes 0, false and the empty string for a missing property',
    kind: 'encoding',
    file: 'reference/data/sql.ts',
    within: 'propertyParam',
    from: 'if (value === undefined || value === null) return undefined;',
    to: "if (value === undefined || value === null || value === 0 || value === false || value === '') return undefined;",
    only: ['resources.properties.row-level-security'],
  },
];
