import fc from 'fast-check';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
} from 'jose';
import { expect } from 'vitest';
import { z } from 'zod';
import { EXPIRATIONS, EXPIRATION_SECONDS, IsoUtc } from '../../spec/schemas/common.ts';
import { EDITING_FLAGS, effectivePermissions } from '../../spec/machines/permissions.ts';
import { Token } from '../../spec/schemas/token.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { externalId, organizationName, personName, properties } from '../../fixtures/builders.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { claimsOf } from '../harness/jwt.ts';
import { rolePath, userPath } from '../harness/paths.ts';
import {
  describeAnswer,
  detailsOf,
  expectClientError,
  expectSuccess,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';

// §2.5, §4.7, §4.8, §5 rule 5, §8: project-user tokens, their lifetime and what they are built from.
const needs = ['accounts', 'projects'] as const;
const withClock = ['accounts', 'projects', 'clock'] as const;
const withRoles = ['accounts', 'projects', 'roles'] as const;

const EmbedData = z.record(z.string(), z.unknown());
const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });
const HOUR_MS = 3_600_000;

/** A JWS in compact form: three non-empty base64url parts joined by dots (RFC 7515 §7.1). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The claim names of decision T3, on top of the registered ones. */
const REGISTERED_CLAIMS = ['iss', 'aud', 'sub', 'iat', 'exp', 'jti'] as const;
const EAC_CLAIMS = ['kind', 'org', 'prj', 'pog', 'rol', 'perm', 'props', 'name'] as const;

/** "Accepted" means a call that takes a project-user bearer token succeeds with it (§5 table). */
function present(t: Conformance, token: string): Promise<Reply> {
  return t.http.get('/v2/api/applications', { headers: { authorization: `Bearer ${token}` } });
}

/** Claims a check reads; the test is not-run when the target's tokens do not carry them. */
function requireClaims(t: Conformance, token: string, names: readonly string[]): JWTPayload {
  const claims = claimsOf(token);
  const missing = names.filter((n) => claims === undefined || !(n in claims));
  if (claims === undefined || missing.length > 0) {
    t.notRun(
      `the target's tokens carry no ${missing.join(', ')} claim (token contents are unspecified, §5 rule 8)`,
    );
  }
  return claims;
}

/** Freezes the account clock on a whole second a little ahead of its now; returns that instant. */
async function freezeOnWholeSecond(t: Conformance, w: World): Promise<number> {
  const { now } = await t.hooks.clock(w.account.organizationId);
  const at = (Math.floor(Date.parse(now) / 1000) + 2) * 1000;
  const frozen = await t.hooks.freeze(w.account.organizationId, new Date(at).toISOString());
  expect(Date.parse(frozen.now), 'the clock hook should freeze where it was asked to').toBe(at);
  return at;
}

/** Moves the (frozen) account clock forward to `at`. */
async function advanceTo(t: Conformance, w: World, from: number, at: number): Promise<void> {
  const moved = await t.hooks.advance(w.account.organizationId, (at - from) / 1000);
  expect(Date.parse(moved.now), 'the clock hook should advance by what it was asked').toBe(at);
}

async function issuedToken(t: Conformance, w: World, userId: string, expiration?: string) {
  return expectSuccess(
    await userToken(t, w, userId, expiration),
    Token,
    `user-token with expiration ${expiration ?? '(none)'}`,
  );
}

/** An embed-token body in the shape the reference decided (T5); only user.userRoleId is documented. */
function embedBody(
  t: Conformance,
  w: World,
  extra: { organization?: object; user?: object; expiration?: unknown } = {},
) {
  return {
    ...w.creds(),
    projectId: w.projectId,
    organization: {
      externalId: externalId(t.faker),
      name: organizationName(t.faker),
      ...extra.organization,
    },
    user: { name: personName(t.faker), properties: properties(t.faker), ...extra.user },
    ...('expiration' in extra ? { expiration: extra.expiration } : {}),
  };
}

const embed = (t: Conformance, body: unknown) => t.http.post('/v1/api/projects/embed-token', body);

/** expiresAt of an embed-token answer; its data fields are unspecified (§4.8), so absent means not-run. */
function embedExpiresAt(t: Conformance, res: Reply, what: string): string {
  const data = expectSuccess(res, EmbedData, what);
  const expiresAt = data['expiresAt'];
  if (typeof expiresAt !== 'string')
    t.notRun('the target answers embed-token without expiresAt (§4.8 leaves data open)');
  // §2.5: whatever endpoint issues it, a token's expiresAt is ISO 8601 UTC.
  expect(
    IsoUtc.safeParse(expiresAt).success,
    `${what}: expiresAt ${expiresAt} should be ISO 8601 UTC`,
  ).toBe(true);
  return expiresAt;
}

// ---------------------------------------------------------------------------------------------
// Property: token expiry. One test per expiration value, on a frozen account clock.

for (const expiration of EXPIRATIONS) {
  const seconds = EXPIRATION_SECONDS[expiration];

  conformance(
    [
      'tokens.expires-at.issue-plus-duration',
      'tokens.expiration.enum',
      'tokens.expires-at.iso-utc',
      'resources.token.fields',
      'resources.token.jwt',
    ],
    `a ${expiration} token expires ${seconds} s after issue, works until then and is refused after`,
    async (t) => {
      const w = await buildWorld(t);
      const { userId } = await registerUser(t, w);
      const at = await freezeOnWholeSecond(t, w);
      const issued = await issuedToken(t, w, userId, expiration);
      expect(issued.token, 'the token should be a compact JWS: three base64url parts').toMatch(
        COMPACT_JWS,
      );
      expect(
        () => decodeProtectedHeader(issued.token),
        'the JWT header should be a JSON object',
      ).not.toThrow();
      expect(issued.expiresAt, 'expiresAt should be ISO 8601 in UTC').toMatch(/Z$/);
      const expiresAt = Date.parse(issued.expiresAt);
      expect((expiresAt - at) / 1000, `expiresAt should be issue time + ${expiration}`).toBe(
        seconds,
      );

      await advanceTo(t, w, at, expiresAt - 1000);
      const before = await present(t, issued.token);
      expect(
        before.status,
        `one second before expiresAt the token should still be accepted, got ${describeAnswer(before)}`,
      ).toBe(200);

      await advanceTo(t, w, expiresAt - 1000, expiresAt + 1000);
      const after = await present(t, issued.token);
      expectClientError(after, 'presenting an expired token');
    },
    { needs: withClock },
  );

  probe(
    ['tokens.jwt.exp-matches-expires-at', 'tokens.validity.exp-exclusive'],
    `a ${expiration} token at the exact instant of expiresAt, and its exp claim`,
    async (t) => {
      const w = await buildWorld(t);
      const { userId } = await registerUser(t, w);
      const at = await freezeOnWholeSecond(t, w);
      const issued = await issuedToken(t, w, userId, expiration);
      const expiresAt = Date.parse(issued.expiresAt);
      const claims = claimsOf(issued.token);
      if (typeof claims?.exp === 'number') {
        const iat = claims.iat;
        t.observe(
          `exp ${claims.exp} for expiresAt ${issued.expiresAt}, iat ${String(iat)} for issue ${new Date(at).toISOString()}`,
          claims.exp * 1000 === expiresAt && iat === at / 1000,
        );
      } else t.observe('the JWT has no numeric exp claim', false);

      await advanceTo(t, w, at, expiresAt);
      const atExp = await present(t, issued.token);
      t.observe(
        `at expiresAt: ${atExp.status === 200 ? 'accepted' : `refused ${describeAnswer(atExp)}`}`,
        refusedAs(atExp, 401, 'UNAUTHORIZED', { reason: 'token-expired' }),
      );
    },
    { needs: withClock },
  );
}

conformance(
  ['tokens.expires-at.issue-plus-duration', 'tokens.expires-at.iso-utc'],
  'without a controllable clock, expiresAt lies the asked duration after local time (within 2 s)',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    for (const expiration of EXPIRATIONS) {
      const before = Date.now();
      const issued = await issuedToken(t, w, userId, expiration);
      const after = Date.now();
      const issuedAt = Date.parse(issued.expiresAt) - EXPIRATION_SECONDS[expiration] * 1000;
      expect(
        issuedAt,
        `${expiration}: expiresAt − duration should be no earlier than 2 s before the call`,
      ).toBeGreaterThanOrEqual(before - 2000);
      expect(
        issuedAt,
        `${expiration}: expiresAt − duration should be no later than 2 s after the call`,
      ).toBeLessThanOrEqual(after + 2000);
    }
  },
  { needs },
);

probe(
  ['tokens.issue-time.whole-seconds'],
  'the precision of expiresAt on a running clock',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const issued = await issuedToken(t, w, userId, '5m');
    t.observe(
      `expiresAt written ${JSON.stringify(issued.expiresAt)}`,
      /T\d{2}:\d{2}:\d{2}\.000Z$/.test(issued.expiresAt),
    );
  },
  { needs },
);

// ---------------------------------------------------------------------------------------------
// Default lifetime (§4.7, §4.8, §5 rule 5).

/** Freezes the clock when the target lets us (exact check), else allows 2 s against local time. */
async function lifetimeOf(
  t: Conformance,
  w: World,
  ask: () => Promise<string>,
): Promise<{ ms: number; exact: boolean }> {
  if (t.hooks.has('clock')) {
    const at = await freezeOnWholeSecond(t, w);
    return { ms: Date.parse(await ask()) - at, exact: true };
  }
  const before = Date.now();
  const expiresAt = Date.parse(await ask());
  return { ms: expiresAt - before, exact: false };
}

function expectOneHour(life: { ms: number; exact: boolean }, what: string): void {
  if (life.exact) expect(life.ms, `${what}: should live exactly one hour`).toBe(HOUR_MS);
  else
    expect(
      Math.abs(life.ms - HOUR_MS),
      `${what}: should live one hour (within 2 s)`,
    ).toBeLessThanOrEqual(2000);
}

conformance(
  ['tokens.expiration.default-1h'],
  'a user token asked without expiration lives one hour',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const life = await lifetimeOf(t, w, async () => (await issuedToken(t, w, userId)).expiresAt);
    expectOneHour(life, 'user-token without expiration');
  },
  { needs },
);

conformance(
  ['tokens.embed-token.expiration', 'tokens.expiration.default-1h'],
  'an embed token asked without expiration lives one hour',
  async (t) => {
    const w = await buildWorld(t);
    const life = await lifetimeOf(t, w, async () =>
      embedExpiresAt(t, await embed(t, embedBody(t, w)), 'embed-token without expiration'),
    );
    expectOneHour(life, 'embed-token without expiration');
  },
  { needs },
);

conformance(
  ['tokens.embed-token.expiration', 'tokens.expires-at.issue-plus-duration'],
  'an embed token lives for each of the nine expiration values',
  async (t) => {
    const w = await buildWorld(t);
    const user = { id: t.faker.string.uuid() };
    const organization = { externalId: externalId(t.faker) };
    const at = await freezeOnWholeSecond(t, w);
    for (const expiration of EXPIRATIONS) {
      const res = await embed(t, embedBody(t, w, { organization, user, expiration }));
      const expiresAt = embedExpiresAt(t, res, `embed-token with expiration ${expiration}`);
      expect(
        (Date.parse(expiresAt) - at) / 1000,
        `${expiration}: expiresAt should be issue time + duration`,
      ).toBe(EXPIRATION_SECONDS[expiration]);
    }
  },
  { needs: withClock },
);

// ---------------------------------------------------------------------------------------------
// Expiration values outside the enum (§4.7, §8).

/** Strings a careless implementation might take for one of the nine values. */
const NEAR_MISSES = [
  '1H',
  '60m',
  '1d',
  ' 1h',
  '1h ',
  '',
  '5M',
  '7D',
  '1 h',
  '01h',
  '+1h',
  '1hr',
  '3600',
  'PT1H',
  '10m',
  '3d',
  '48h',
  '1w',
  '0m',
  '7d\n',
  '１h',
];

const notAnExpiration: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NEAR_MISSES), weight: 3 },
  {
    arbitrary: fc.string().filter((s) => !(EXPIRATIONS as readonly string[]).includes(s)),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(...EXPIRATIONS).map((e) => e.toUpperCase()), weight: 1 },
  {
    arbitrary: fc.oneof(fc.integer(), fc.constant(3600), fc.constant(null), fc.boolean()),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(...EXPIRATIONS).map((e) => [e]), weight: 1 },
  { arbitrary: fc.constantFrom(...EXPIRATIONS).map((e) => ({ value: e })), weight: 1 },
);

function expectRefusedExpiration(res: Reply, expiration: unknown): void {
  const what = `expiration ${JSON.stringify(expiration)}`;
  expectClientError(res, `refusing ${what}`);
}

conformance(
  ['tokens.expiration.enum', 'limits.expiration.values'],
  'user-token refuses any expiration outside the nine durations',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    await fc.assert(
      fc.asyncProperty(notAnExpiration, async (expiration) => {
        const res = await t.http.post('/v1/api/projects/user-token', {
          ...w.creds(),
          userId,
          expiration,
        });
        expectRefusedExpiration(res, expiration);
      }),
      t.fc(40),
    );
  },
  { needs },
);

conformance(
  ['tokens.expiration.enum', 'limits.expiration.values', 'tokens.embed-token.expiration'],
  'embed-token refuses any expiration outside the nine durations',
  async (t) => {
    const w = await buildWorld(t);
    const organization = { externalId: externalId(t.faker) };
    const user = { id: t.faker.string.uuid() };
    await fc.assert(
      fc.asyncProperty(notAnExpiration, async (expiration) => {
        const res = await embed(t, embedBody(t, w, { organization, user, expiration }));
        expectRefusedExpiration(res, expiration);
      }),
      t.fc(40),
    );
  },
  { needs },
);

probe(
  ['errors.validation.status'],
  'the answer to an expiration outside the enum',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    for (const [endpoint, res] of [
      [
        'user-token',
        await t.http.post('/v1/api/projects/user-token', {
          ...w.creds(),
          userId,
          expiration: '1H',
        }),
      ],
      ['embed-token', await embed(t, embedBody(t, w, { expiration: '1H' }))],
    ] as const) {
      const issues = detailsOf(res)['issues'];
      const named =
        Array.isArray(issues) &&
        issues.some(
          (i: unknown) =>
            Array.isArray((i as { path?: unknown }).path) &&
            (i as { path: unknown[] }).path.at(-1) === 'expiration',
        );
      t.observe(
        `${endpoint}: ${statusAndCode(res)}${named ? ', issue path ends in expiration' : ''}`,
        statusAndCode(res) === '400 VALIDATION_ERROR' && named,
      );
    }
  },
  { needs },
);

// ---------------------------------------------------------------------------------------------
// §4.7 user-token.

conformance(
  [
    'tokens.user-token.path',
    'tokens.user-token.response-shape',
    'tokens.user-token.body-credentials',
    'resources.token.fields',
  ],
  'user-token answers a token and its expiry for a registered user, with either kind of key',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    for (const style of ['org-bound', 'user-scoped'] as const) {
      const res = await t.http.post('/v1/api/projects/user-token', { ...w.creds(style), userId });
      const data = expectSuccess(res, Token, `user-token with a ${style} key`);
      expect(data.token, 'token should be a JWT string').toMatch(COMPACT_JWS);
      expect(IsoUtc.safeParse(data.expiresAt).success, 'expiresAt should be ISO 8601 UTC').toBe(
        true,
      );
    }
  },
  { needs },
);

conformance(
  ['tokens.user-token.user-id-required'],
  'user-token without a userId, or with one that is not a UUID, is refused',
  async (t) => {
    const w = await buildWorld(t);
    for (const body of [
      w.creds(),
      { ...w.creds(), userId: 'not-a-uuid' },
      { ...w.creds(), userId: null },
    ]) {
      const res = await t.http.post('/v1/api/projects/user-token', body);
      const what = `user-token with ${'userId' in body ? `userId ${JSON.stringify(body.userId)}` : 'no userId'}`;
      expectClientError(res, what);
    }
  },
  { needs },
);

probe(
  ['tokens.user-token.unknown-user', 'auth.isolation.other-account'],
  'user-token for a userId that is not registered here',
  async (t) => {
    const w = await buildWorld(t);
    const other = await buildWorld(t);
    const { userId: theirs } = await registerUser(t, other);
    for (const [label, userId] of [
      ['never registered', t.faker.string.uuid()],
      ['of another account', theirs],
    ] as const) {
      const res = await userToken(t, w, userId);
      expect(res.status, `a token must never be issued for a user ${label}`).not.toBe(200);
      const resource = detailsOf(res)['resource'];
      t.observe(
        `${label}: ${statusAndCode(res)}`,
        statusAndCode(res) === '404 NOT_FOUND' && resource === 'user',
      );
    }
  },
  { needs },
);

// §4.7 + §3: a token is built from what is stored when it is issued, so changes reach the next one.

async function updateUser(t: Conformance, w: World, userId: string, body: Record<string, unknown>) {
  expectSuccess(
    await t.http.put(userPath(w, userId), { ...w.creds(), ...body }),
    EmbedData,
    'updating the user',
  );
}

conformance(
  ['tokens.user-token.from-stored-user'],
  'a token carries the stored role, organization and properties; after an update only the next one changes',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { addChart: true, aiCharts: true });
    const org = await registerOrganization(t, w);
    const user = await registerUser(t, w, {
      userRoleId: role.id,
      projectOrganizationId: org.projectOrganizationId,
    });
    const first = (await issuedToken(t, w, user.userId)).token;
    const claims = requireClaims(t, first, ['sub', 'rol', 'pog', 'perm', 'props', 'name']);
    expect(claims.sub, 'the token names the user').toBe(user.userId);
    expect(claims['rol'], 'the token carries the stored role').toBe(role.id);
    expect(claims['pog'], 'the token carries the stored organization').toBe(
      org.projectOrganizationId,
    );
    expect(claims['perm'], 'the token carries the role permissions').toEqual(
      effectivePermissions(role.permissions),
    );
    expect(claims['props'], 'the token carries the stored properties').toEqual(
      user.body.properties,
    );
    expect(claims['name'], 'the token carries the stored name').toBe(user.body.name);

    const renamed = personName(t.faker);
    const props = { ...properties(t.faker), team: t.faker.word.noun() };
    await updateUser(t, w, user.userId, { name: renamed, properties: props });
    const next = claimsOf((await issuedToken(t, w, user.userId)).token);
    expect(next?.['props'], 'the next token carries the replaced properties').toEqual(props);
    expect(next?.['name'], 'the next token carries the new name').toBe(renamed);
  },
  { needs: withRoles },
);

conformance(
  ['states.role.update-next-token'],
  'after a role update, the next token of its user carries the new permissions',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { addChart: true, drillDown: true });
    const { userId } = await registerUser(t, w, { userRoleId: role.id });
    const first = (await issuedToken(t, w, userId)).token;
    expect(
      requireClaims(t, first, ['perm'])['perm'],
      'the first token carries the role as created',
    ).toEqual(effectivePermissions({ addChart: true, drillDown: true }));
    const replaced = { readOnly: true, drillDown: true, hideHeader: true };
    expectSuccess(
      await t.http.put(rolePath(w, role.id), { ...w.creds(), permissions: replaced }),
      ProjectUserRole,
      'updating the role',
    );
    const next = claimsOf((await issuedToken(t, w, userId)).token);
    expect(next?.['perm'], 'the next token carries the replaced permissions').toEqual(
      effectivePermissions(replaced),
    );
  },
  { needs: withRoles },
);

conformance(
  ['states.user.role-cleared-next-token', 'states.user.role-cleared'],
  'after the user’s role is cleared, the next token is view-only',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { addDashboard: true, editCharts: true });
    const user = await registerUser(t, w, { userRoleId: role.id });
    const first = (await issuedToken(t, w, user.userId)).token;
    expect(requireClaims(t, first, ['rol', 'perm'])['rol'], 'the first token names the role').toBe(
      role.id,
    );
    await updateUser(t, w, user.userId, { name: user.body.name, userRoleId: null });
    const next = claimsOf((await issuedToken(t, w, user.userId)).token);
    expect(next?.['rol'], 'the next token names no role').toBeNull();
    const perm = (next?.['perm'] ?? {}) as Record<string, unknown>;
    // §2.2 rule 2: a user with no role is view-only, so no flag that grants editing is on.
    expect(
      EDITING_FLAGS.filter((f) => perm[f] !== false),
      'the next token should grant no editing flag',
    ).toEqual([]);
  },
  { needs: withRoles },
);

conformance(
  ['states.user.role-assigned-next-token', 'states.user.role-assigned', 'roles.list.path'],
  'after a listed role is assigned to the user, the next token carries it',
  async (t) => {
    const w = await buildWorld(t);
    await createRole(t, w, { removeChart: true, aiInsight: true });
    const { userId, body } = await registerUser(t, w);
    const first = (await issuedToken(t, w, userId)).token;
    expect(
      requireClaims(t, first, ['rol', 'perm'])['rol'],
      'the first token names no role',
    ).toBeNull();
    const listed = expectSuccess(
      await t.http.get(`/v1/api/projects/${w.projectId}/user-roles`, { query: w.creds() }),
      UserRoles,
      'listing roles',
    ).userRoles[0];
    if (listed === undefined)
      return expect.fail('the role created through the hook should be listed');
    await updateUser(t, w, userId, { name: body.name, userRoleId: listed.id });
    const next = claimsOf((await issuedToken(t, w, userId)).token);
    expect(next?.['rol'], 'the next token names the assigned role').toBe(listed.id);
    expect(next?.['perm'], 'the next token carries that role’s permissions').toEqual(
      effectivePermissions(listed.permissions),
    );
  },
  { needs: withRoles },
);

// ---------------------------------------------------------------------------------------------
// §4.8 embed-token (members of organization and user per decision T5).

const REQUIRED_EMBED_FIELDS = [
  { field: 'projectId', clause: 'tokens.embed-token.project-id-required' },
  { field: 'organization', clause: 'tokens.embed-token.organization-required' },
  { field: 'user', clause: 'tokens.embed-token.user-required' },
] as const;

for (const { field, clause } of REQUIRED_EMBED_FIELDS) {
  conformance(
    [clause],
    `embed-token without ${field} is refused, and with it the same body succeeds`,
    async (t) => {
      const w = await buildWorld(t);
      const body = embedBody(t, w);
      const without = Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
      const res = await embed(t, without);
      expectClientError(res, `embed-token without ${field}`);
      expectSuccess(await embed(t, body), EmbedData, `the same body with ${field}`);
    },
    { needs },
  );
}

conformance(
  ['tokens.embed-token.path', 'tokens.embed-token.response-envelope'],
  'embed-token answers the success envelope with a data object',
  async (t) => {
    const w = await buildWorld(t);
    const res = await embed(t, embedBody(t, w));
    const data = expectSuccess(res, EmbedData, 'embed-token');
    expect(Array.isArray(data), 'data should be an object, not an array').toBe(false);
  },
  { needs },
);

probe(
  ['tokens.embed-token.response-fields', 'tokens.embed-token.body-shape'],
  'the fields of the embed-token answer',
  async (t) => {
    const w = await buildWorld(t);
    const res = await embed(t, embedBody(t, w));
    const data = expectSuccess(res, EmbedData, 'embed-token');
    const decided = Token.extend({ userId: z.uuid(), projectOrganizationId: z.uuid() })
      .strict()
      .safeParse(data);
    t.observe(`data keys ${Object.keys(data).sort().join(', ')}`, decided.success);
  },
  { needs },
);

probe(
  ['tokens.embed-token.upserts'],
  'embed-token twice with the same externalId and user id',
  async (t) => {
    const w = await buildWorld(t);
    const organization = { externalId: externalId(t.faker), name: organizationName(t.faker) };
    const user = { id: t.faker.string.uuid(), name: personName(t.faker) };
    const first = expectSuccess(
      await embed(t, embedBody(t, w, { organization, user })),
      EmbedData,
      'first embed-token',
    );
    const renamed = { ...user, name: personName(t.faker) };
    const again = expectSuccess(
      await embed(
        t,
        embedBody(t, w, { organization: { externalId: organization.externalId }, user: renamed }),
      ),
      EmbedData,
      'second embed-token',
    );
    const sameOrg =
      first['projectOrganizationId'] !== undefined &&
      first['projectOrganizationId'] === again['projectOrganizationId'];
    const sameUser = first['userId'] === user.id && again['userId'] === user.id;
    t.observe(`same organization: ${sameOrg}; user id kept: ${sameUser}`, sameOrg && sameUser);
    // The user is now registered: a plain user-token for it reflects the second sign-in.
    const res = await userToken(t, w, user.id);
    const name =
      res.status === 200
        ? claimsOf((res.body as { data: { token: string } }).data.token)?.['name']
        : undefined;
    t.observe(
      `user-token for the signed-in user: ${statusAndCode(res)}, name ${JSON.stringify(name)}`,
      res.status === 200 && name === renamed.name,
    );
  },
  { needs },
);

conformance(
  ['roles.list.id-usable-as-user-role'],
  'a role id from the role list is accepted as user.userRoleId by embed-token',
  async (t) => {
    const w = await buildWorld(t);
    await createRole(t, w, { addFilter: true });
    const [listed] = expectSuccess(
      await t.http.get(`/v1/api/projects/${w.projectId}/user-roles`, { query: w.creds() }),
      UserRoles,
      'listing roles',
    ).userRoles;
    if (listed === undefined)
      return expect.fail('the role created through the hook should be listed');
    const res = await embed(t, embedBody(t, w, { user: { userRoleId: listed.id } }));
    const data = expectSuccess(res, EmbedData, 'embed-token with a listed userRoleId');
    const token = data['token'];
    const rol = typeof token === 'string' ? claimsOf(token)?.['rol'] : undefined;
    if (rol !== undefined)
      expect(rol, 'the token should carry the role that was given').toBe(listed.id);
  },
  { needs: withRoles },
);

probe(
  ['tokens.claims'],
  'the claims and signature of project-user tokens',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const fromUserToken = (await issuedToken(t, w, userId)).token;
    const embedded = expectSuccess(await embed(t, embedBody(t, w)), EmbedData, 'embed-token')[
      'token'
    ];
    const jwks = await t.http.get('/.well-known/jwks.json');
    for (const [label, token] of [
      ['user-token', fromUserToken],
      ['embed-token', typeof embedded === 'string' ? embedded : ''],
    ] as const) {
      const claims = claimsOf(token) ?? {};
      let header: Record<string, unknown> = {};
      try {
        header = decodeProtectedHeader(token);
      } catch {
        // not a JWS: the observation below says so
      }
      const missing = [...REGISTERED_CLAIMS, ...EAC_CLAIMS].filter((c) => !(c in claims));
      let verified = false;
      if (jwks.status === 200) {
        try {
          await jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet), {
            issuer: 'eac-reference',
            audience: 'embedded-analytics',
          });
          verified = true;
        } catch {
          verified = false;
        }
      }
      t.observe(
        `${label}: alg ${String(header['alg'])}, kid ${header['kid'] === undefined ? 'absent' : 'present'}, ` +
          `missing claims [${missing.join(', ')}], kind ${JSON.stringify(claims['kind'])}, ` +
          `${verified ? 'verifies' : 'does not verify'} against /.well-known/jwks.json`,
        header['alg'] === 'ES256' &&
          typeof header['kid'] === 'string' &&
          missing.length === 0 &&
          claims['kind'] === 'project-user' &&
          claims['org'] === w.account.organizationId &&
          claims['prj'] === w.projectId &&
          verified,
      );
    }
  },
  { needs },
);
