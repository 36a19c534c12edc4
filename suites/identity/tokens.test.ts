import fc from 'fast-check';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { expect } from 'vitest';
import { z } from 'zod';
import { IsoUtc } from '../../spec/schemas/common.ts';
import { Token } from '../../spec/schemas/token.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { externalId, organizationName, personName, properties } from '../harness/builders.ts';
import {
  expectedEffective,
  expectedPermissions,
  expectedTokens,
  expirationSeconds,
} from '../../fixtures/oracles/index.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
  acceptingWorld,
  freezeOnWholeSecond,
} from '../harness/given/accounts.ts';
import { signInFor, type SignIn } from '../harness/given/sign-in.ts';
import { verdictOf, type Acceptor } from '../harness/acceptance.ts';
import { CLAIMS_DECISION, claimAt, permissionsClaim } from '../harness/claims.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { claimsOf } from '../harness/jwt.ts';
import { rolePath, userPath, EMBED_TOKEN, USER_TOKEN, rolesPath } from '../harness/paths.ts';
import {
  describeAnswer,
  detailsOf,
  expectClientError,
  expectSuccess,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { embedAnswer, embedExpiresAt, signInRequest } from '../harness/endpoints.ts';
import { instant } from '../harness/instant.ts';
import { cause } from '../harness/causes.ts';

// §2.5, §4.7, §4.8, §5 rule 5, §8: project-user tokens, their lifetime and what they are built from.
// Expected lifetimes and permissions come from fixtures/oracles (written from the document);
// what a token carries is read at the claim paths of the target's profile (§5 rule 8 leaves
// token contents open, so such tests rely on tokens.claims); embed-token members come from
// the profile too (§4.8 names only user.userRoleId).
const needs = ['accounts', 'projects'] as const;
const withClock = ['accounts', 'projects', 'clock'] as const;
const withRoles = ['accounts', 'projects', 'roles'] as const;

const EXPIRATIONS = expectedTokens.expirations;
const EmbedData = z.record(z.string(), z.unknown());
const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

/** A JWS in compact form: three non-empty base64url parts joined by dots (RFC 7515 §7.1). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The claim names of decision tokens.claims, on top of the registered ones. */
const REGISTERED_CLAIMS = ['iss', 'aud', 'sub', 'iat', 'exp', 'jti'] as const;
const EAC_CLAIMS = ['kind', 'org', 'prj', 'pog', 'rol', 'perm', 'props', 'name'] as const;

/** Moves the (frozen) account clock forward to `at`. */
async function advanceTo(t: Conformance, w: World, from: number, at: number): Promise<void> {
  const moved = await t.hooks.advance(w.account.organizationId, (at - from) / 1000);
  expect(instant(moved.now), 'the clock hook should advance by what it was asked').toBe(at);
}

async function issuedToken(t: Conformance, w: World, userId: string, expiration?: string) {
  return expectSuccess(
    await userToken(t, w, userId, expiration),
    Token,
    `user-token with expiration ${expiration ?? '(none)'}`,
  );
}

/** What the acceptor made of a token, as words for messages and observations. */
async function presented(acceptor: Acceptor, token: string) {
  const res = await acceptor.present(token);
  return { verdict: verdictOf(res), said: describeAnswer(res), res };
}

/** Expected permissions, compared flag by flag: a flag is on when its value is true. */
function wrongFlags(perm: Record<string, unknown>, expected: Record<string, boolean>): string[] {
  return Object.entries(expected)
    .filter(([flag, on]) => (perm[flag] === true) !== on)
    .map(
      ([flag, on]) => `${flag} should be ${on ? 'on' : 'off'}, is ${JSON.stringify(perm[flag])}`,
    );
}

// ---------------------------------------------------------------------------------------------
// Embed-token bodies and answers in the target's own member names (profile shapes.embedToken).

/** What a sign-in sends beside (or instead of) the fields its SignIn was made with. */
interface EmbedAsk {
  readonly userName?: string;
  readonly userRoleId?: string;
  readonly properties?: Record<string, unknown>;
  readonly expiration?: unknown;
}

/**
 * An embed-token body for `who` (given/sign-in.ts) as harness signInRequest builds it (the
 * profile's member names, userRoleId as §4.8 does), each field as `who` was made with unless
 * `ask` says, with the credentials and any expiration asked.
 */
function embedBody(t: Conformance, w: World, who: SignIn, ask: EmbedAsk = {}) {
  const userRoleId = ask.userRoleId ?? who.userRoleId;
  const sent: SignIn = {
    ...who,
    userName: ask.userName ?? who.userName,
    properties: ask.properties ?? who.properties,
    ...(userRoleId === undefined ? {} : { userRoleId }),
  };
  return {
    ...w.creds(),
    ...signInRequest(t, w, sent).fields,
    ...('expiration' in ask ? { expiration: ask.expiration } : {}),
  };
}

/** A body for someone new to this test (signInFor), with `ask` on top. */
async function signedBody(t: Conformance, w: World, ask: EmbedAsk = {}) {
  const who = await signInFor(t, w, {
    ...(ask.userName === undefined ? {} : { userName: ask.userName }),
    ...(ask.userRoleId === undefined ? {} : { userRoleId: ask.userRoleId }),
    ...(ask.properties === undefined ? {} : { properties: ask.properties }),
  });
  return embedBody(t, w, who, ask);
}

const embed = (t: Conformance, body: unknown) => t.http.post(EMBED_TOKEN, body);

/** What an embed-token test leans on: the members it sends, and those of the answer it reads. */
const EMBED_BODY = 'tokens.embed-token.body-shape';
const EMBED_ANSWER = 'tokens.embed-token.response-fields';
// Whom a sign-in names comes from given/sign-in.ts: someone new where the profile follows
// tokens.embed-token.creates (the test then relies on it), else someone registered first.

// ---------------------------------------------------------------------------------------------
// Lifetimes (§4.7, §5 rule 5, §8): expiresAt on a frozen account clock, portable; and liveness,
// judged only where an endpoint the document requires to accept the token is available.

for (const expiration of EXPIRATIONS) {
  const seconds = expirationSeconds(expiration);

  conformance(
    [
      'tokens.expires-at.issue-plus-duration',
      'tokens.expiration.enum',
      'tokens.expires-at.iso-utc',
      'resources.token.fields',
      'resources.token.jwt',
    ],
    `a ${expiration} token's expiresAt lies ${seconds} s after its issue on a frozen clock`,
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
      expect(
        IsoUtc.safeParse(issued.expiresAt).success,
        `expiresAt ${issued.expiresAt} should be ISO 8601 in UTC`,
      ).toBe(true);
      expect(
        (instant(issued.expiresAt) - at) / 1000,
        `expiresAt should be issue time + ${expiration}`,
      ).toBe(seconds);
    },
    { needs: withClock },
  );

  conformance(
    ['tokens.expires-at.issue-plus-duration'],
    `a ${expiration} token is accepted until its expiresAt and refused after it`,
    async (t) => {
      const { w, acceptor, userId } = await acceptingWorld(t);
      const at = await freezeOnWholeSecond(t, w);
      const issued = await issuedToken(t, w, userId, expiration);
      const expiresAt = instant(issued.expiresAt);
      await advanceTo(t, w, at, expiresAt - 1000);
      const before = await presented(acceptor, issued.token);
      expect(
        before.verdict,
        `one second before expiresAt, ${acceptor.via} should accept the token, got ${before.said}`,
      ).toBe('accepted');
      await advanceTo(t, w, expiresAt - 1000, expiresAt + 1000);
      const after = await presented(acceptor, issued.token);
      expect(
        after.verdict,
        `one second after expiresAt, ${acceptor.via} should refuse the token (401 or 403), got ${after.said}`,
      ).toBe('refused');
    },
    { needs: withClock },
  );

  probe(
    ['tokens.jwt.exp-matches-expires-at'],
    `the exp and iat claims of a ${expiration} token`,
    async (t) => {
      const w = await buildWorld(t);
      const { userId } = await registerUser(t, w);
      const at = await freezeOnWholeSecond(t, w);
      const issued = await issuedToken(t, w, userId, expiration);
      const claims = claimsOf(issued.token);
      if (typeof claims?.exp === 'number') {
        t.observe(
          `exp ${claims.exp} for expiresAt ${issued.expiresAt}, iat ${String(claims.iat)} for issue ${new Date(at).toISOString()}`,
          claims.exp * 1000 === instant(issued.expiresAt) && claims.iat === at / 1000,
        );
      } else t.observe('the JWT has no numeric exp claim', false);
    },
    { needs: withClock },
  );

  probe(
    ['tokens.validity.exp-exclusive'],
    `a ${expiration} token at the exact instant of its expiresAt`,
    async (t) => {
      const { w, acceptor, userId } = await acceptingWorld(t, { decided: true });
      const at = await freezeOnWholeSecond(t, w);
      const issued = await issuedToken(t, w, userId, expiration);
      const expiresAt = instant(issued.expiresAt);
      await advanceTo(t, w, at, expiresAt - 1000);
      const before = await presented(acceptor, issued.token);
      if (before.verdict !== 'accepted')
        t.notRun(
          `${acceptor.via} does not accept the fresh token (${before.said})`,
          cause.other('the acceptor refuses a fresh token'),
        );
      await advanceTo(t, w, expiresAt - 1000, expiresAt);
      const atExp = await presented(acceptor, issued.token);
      t.observe(
        `at expiresAt, ${acceptor.via}: ${atExp.verdict === 'accepted' ? 'accepted' : `refused ${atExp.said}`}`,
        refusedAs(atExp.res, 401, 'UNAUTHORIZED', { reason: 'token-expired' }),
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
      const issuedAt = instant(issued.expiresAt) - expirationSeconds(expiration) * 1000;
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

probe(
  ['tokens.embed-token.creates'],
  'embed-token naming an organization and a user the project does not hold',
  async (t) => {
    const w = await buildWorld(t);
    const someoneNew: SignIn = {
      externalId: externalId(t.faker),
      organizationName: organizationName(t.faker),
      userName: personName(t.faker),
      properties: properties(t.faker),
      userId: t.faker.string.uuid(),
      creates: true,
    };
    const res = await embed(t, embedBody(t, w, someoneNew));
    t.observe(
      `embed-token for someone the project does not hold answered ${res.status}${res.status >= 300 ? ` ${res.text.slice(0, 200)}` : ''}`,
      res.status >= 200 && res.status < 300,
    );
  },
  { needs, relies: [EMBED_BODY] },
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
    return { ms: instant(await ask()) - at, exact: true };
  }
  const before = Date.now();
  const expiresAt = instant(await ask());
  return { ms: expiresAt - before, exact: false };
}

/** §4.7, §4.8, §5 rule 5: the lifetime of a token asked without expiration. */
const DEFAULT_MS = expirationSeconds(expectedTokens.default) * 1000;

function expectDefaultLifetime(life: { ms: number; exact: boolean }, what: string): void {
  const asked = `${what}: should live ${expectedTokens.default}, the default`;
  if (life.exact) expect(life.ms, asked).toBe(DEFAULT_MS);
  else expect(Math.abs(life.ms - DEFAULT_MS), `${asked} (within 2 s)`).toBeLessThanOrEqual(2000);
}

conformance(
  ['tokens.expiration.default-1h'],
  'a user token asked without expiration lives one hour',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const life = await lifetimeOf(t, w, async () => (await issuedToken(t, w, userId)).expiresAt);
    expectDefaultLifetime(life, 'user-token without expiration');
  },
  { needs },
);

// Kept beside embed-portable's default check, which needs the clock hook: this one judges a
// target without it too (within 2 s of local time).
conformance(
  ['tokens.embed-token.expiration', 'tokens.expiration.default-1h'],
  'an embed token asked without expiration lives one hour',
  async (t) => {
    const w = await buildWorld(t);
    const life = await lifetimeOf(t, w, async () =>
      embedExpiresAt(t, await embed(t, await signedBody(t, w)), 'embed-token without expiration'),
    );
    expectDefaultLifetime(life, 'embed-token without expiration');
  },
  { needs, relies: [EMBED_BODY, EMBED_ANSWER] },
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
    // The control: the same body with a listed value is granted, so a refusal is the value's.
    await issuedToken(t, w, userId, '5m');
    await fc.assert(
      fc.asyncProperty(notAnExpiration, async (expiration) => {
        const res = await t.http.post(USER_TOKEN, {
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
    const who = await signInFor(t, w);
    expectSuccess(
      await embed(t, embedBody(t, w, who, { expiration: '5m' })),
      EmbedData,
      'the control: embed-token with expiration 5m',
    );
    await fc.assert(
      fc.asyncProperty(notAnExpiration, async (expiration) => {
        const res = await embed(t, embedBody(t, w, who, { expiration }));
        expectRefusedExpiration(res, expiration);
      }),
      t.fc(40),
    );
  },
  { needs, relies: [EMBED_BODY] },
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
        await t.http.post(USER_TOKEN, {
          ...w.creds(),
          userId,
          expiration: '1H',
        }),
      ],
      ['embed-token', await embed(t, await signedBody(t, w, { expiration: '1H' }))],
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
  { needs, relies: [EMBED_BODY] },
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
      const res = await t.http.post(USER_TOKEN, { ...w.creds(style), userId });
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
    // The control: the same credentials get a token for a registered user.
    await issuedToken(t, w, (await registerUser(t, w)).userId);
    for (const body of [
      w.creds(),
      { ...w.creds(), userId: 'not-a-uuid' },
      { ...w.creds(), userId: null },
    ]) {
      const res = await t.http.post(USER_TOKEN, body);
      const what = `user-token with ${'userId' in body ? `userId ${JSON.stringify(body.userId)}` : 'no userId'}`;
      expectClientError(res, what);
    }
  },
  { needs },
);

/** A user id never registered here, and one registered in another account. */
async function strangers(t: Conformance) {
  const other = await buildWorld(t);
  const { userId: theirs } = await registerUser(t, other);
  await issuedToken(t, other, theirs);
  return [
    ['never registered', t.faker.string.uuid()],
    ['of another account', theirs],
  ] as const;
}

conformance(
  ['tokens.user-token.user-id-required', 'auth.isolation.other-account-refused'],
  'user-token issues no token for a user never registered, nor for another account’s user',
  async (t) => {
    const w = await buildWorld(t);
    await issuedToken(t, w, (await registerUser(t, w)).userId);
    for (const [label, userId] of await strangers(t)) {
      expectClientError(await userToken(t, w, userId), `user-token for a user ${label}`);
    }
  },
  { needs },
);

probe(
  ['tokens.user-token.unknown-user', 'auth.isolation.other-account', 'errors.not-found.status'],
  'the answer of user-token for a userId that is not registered here',
  async (t) => {
    const w = await buildWorld(t);
    for (const [label, userId] of await strangers(t)) {
      const res = await userToken(t, w, userId);
      // The id came from the body, so details.field names its member (errors.not-found.status).
      t.observe(
        `${label}: ${describeAnswer(res)}`,
        refusedAs(res, 404, 'NOT_FOUND', { resource: 'user', field: 'userId' }),
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
  'a token carries the stored user, role, organization and properties, and the next one the updated properties',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { addChart: true, aiCharts: true });
    const org = await registerOrganization(t, w);
    const user = await registerUser(t, w, {
      userRoleId: role.id,
      projectOrganizationId: org.projectOrganizationId,
    });
    const first = (await issuedToken(t, w, user.userId)).token;
    expect(claimAt(t, first, 'subject'), 'the token names the user').toBe(user.userId);
    expect(claimAt(t, first, 'role'), 'the token carries the stored role').toBe(role.id);
    expect(
      claimAt(t, first, 'projectOrganization'),
      'the token carries the stored organization',
    ).toBe(org.projectOrganizationId);
    expect(
      wrongFlags(permissionsClaim(t, first), expectedEffective(role.permissions)),
      'the token carries the effective permissions of the stored role',
    ).toEqual([]);
    expect(claimAt(t, first, 'properties'), 'the token carries the stored properties').toEqual(
      user.body.properties,
    );

    const props = { ...properties(t.faker), team: t.faker.word.noun() };
    await updateUser(t, w, user.userId, { name: user.body.name, properties: props });
    const next = (await issuedToken(t, w, user.userId)).token;
    expect(
      claimAt(t, next, 'properties'),
      'the next token carries the replaced properties',
    ).toEqual(props);
  },
  { needs: withRoles, relies: [CLAIMS_DECISION] },
);

conformance(
  ['states.role.update-next-token'],
  'after a role update, the next token of its user carries the new permissions',
  async (t) => {
    const w = await buildWorld(t);
    const created = { addChart: true, drillDown: true };
    const role = await createRole(t, w, created);
    const { userId } = await registerUser(t, w, { userRoleId: role.id });
    const first = (await issuedToken(t, w, userId)).token;
    expect(
      wrongFlags(permissionsClaim(t, first), expectedEffective(created)),
      'the first token carries the role as created',
    ).toEqual([]);
    // Every flag that was on goes off, and others come on: no stale copy can pass.
    const replaced = { readOnly: true, hideHeader: true, aiInsight: true };
    expectSuccess(
      await t.http.put(rolePath(w, role.id), { ...w.creds(), permissions: replaced }),
      ProjectUserRole,
      'updating the role',
    );
    const next = (await issuedToken(t, w, userId)).token;
    expect(
      wrongFlags(permissionsClaim(t, next), expectedEffective(replaced)),
      `the next token carries the replaced permissions ${JSON.stringify(replaced)}`,
    ).toEqual([]);
  },
  { needs: withRoles, relies: [CLAIMS_DECISION] },
);

/** The flags that grant editing (§2.2 rule 1) that a permissions claim has on. */
const editingOn = (perm: Record<string, unknown>) =>
  expectedPermissions.grantsEditing.filter((flag) => perm[flag] === true);

conformance(
  ['states.user.role-cleared-next-token', 'states.user.role-cleared'],
  'after the user’s role is cleared, the next token is view-only',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { addDashboard: true, editCharts: true });
    const user = await registerUser(t, w, { userRoleId: role.id });
    const first = (await issuedToken(t, w, user.userId)).token;
    expect(claimAt(t, first, 'role'), 'the first token names the role').toBe(role.id);
    expect(editingOn(permissionsClaim(t, first)), 'the first token grants editing').not.toEqual([]);
    await updateUser(t, w, user.userId, { name: user.body.name, userRoleId: null });
    const next = (await issuedToken(t, w, user.userId)).token;
    expect(
      claimAt(t, next, 'role', { absentMeansNone: true }) ?? null,
      'the next token names no role',
    ).toBeNull();
    // §2.2 rule 2: a user with no role is view-only, so no flag that grants editing is on.
    expect(
      editingOn(permissionsClaim(t, next)),
      'the next token should grant no editing flag',
    ).toEqual([]);
  },
  { needs: withRoles, relies: [CLAIMS_DECISION] },
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
      claimAt(t, first, 'role', { absentMeansNone: true }) ?? null,
      'the first token names no role',
    ).toBeNull();
    const listed = expectSuccess(
      await t.http.get(rolesPath(w), { query: w.creds() }),
      UserRoles,
      'listing roles',
    ).userRoles[0];
    if (listed === undefined)
      return expect.fail('the role created through the hook should be listed');
    await updateUser(t, w, userId, { name: body.name, userRoleId: listed.id });
    const next = (await issuedToken(t, w, userId)).token;
    expect(claimAt(t, next, 'role'), 'the next token names the assigned role').toBe(listed.id);
    expect(
      wrongFlags(permissionsClaim(t, next), expectedEffective(listed.permissions)),
      'the next token carries that role’s permissions',
    ).toEqual([]);
  },
  { needs: withRoles, relies: [CLAIMS_DECISION] },
);

// ---------------------------------------------------------------------------------------------
// §4.8 embed-token, in the member names of the target's profile. Its musts (path, envelope,
// the three required fields, the nine expirations, a listed role id) are judged in
// embed-portable.test.ts on a person the project holds, free of tokens.embed-token.creates; here
// stand what leans on creating or upserting, and what that file does not check.

probe(
  ['tokens.embed-token.response-fields', 'tokens.embed-token.body-shape'],
  'the fields of the embed-token answer',
  async (t) => {
    const w = await buildWorld(t);
    const res = await embed(t, await signedBody(t, w));
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
    const who = await signInFor(t, w, { userId: t.faker.string.uuid() });
    const first = expectSuccess(
      await embed(t, embedBody(t, w, who)),
      EmbedData,
      'first embed-token',
    );
    const renamed = personName(t.faker);
    const again = expectSuccess(
      await embed(t, embedBody(t, w, who, { userName: renamed })),
      EmbedData,
      'second embed-token',
    );
    const sameOrg =
      first['projectOrganizationId'] !== undefined &&
      first['projectOrganizationId'] === again['projectOrganizationId'];
    const sameUser = first['userId'] === who.userId && again['userId'] === who.userId;
    t.observe(`same organization: ${sameOrg}; user id kept: ${sameUser}`, sameOrg && sameUser);
    // The user is now registered: a plain user-token for it reflects the second sign-in.
    const res = await userToken(t, w, who.userId ?? '');
    const name =
      res.status === 200
        ? claimsOf((res.body as { data: { token: string } }).data.token)?.['name']
        : undefined;
    t.observe(
      `user-token for the signed-in user: ${statusAndCode(res)}, name ${JSON.stringify(name)}`,
      res.status === 200 && name === renamed,
    );
  },
  { needs, relies: [EMBED_BODY, EMBED_ANSWER, CLAIMS_DECISION] },
);

conformance(
  ['tokens.embed-token.user-required', 'tokens.embed-token.upserts'],
  'embed-token for a user who exists, sent with another userRoleId and properties, issues a token of those',
  async (t) => {
    const w = await buildWorld(t);
    const first = await createRole(t, w, { addChart: true });
    const second = await createRole(t, w, { readOnly: true });
    const who = await signInFor(t, w, {
      userId: t.faker.string.uuid(),
      userRoleId: first.id,
      properties: { tier: 'gold', seats: 3 },
    });
    for (const [label, role, props] of [
      ['the first sign-in', first, { tier: 'gold', seats: 3 }],
      ['a later sign-in with another role', second, { tier: '', seats: 0, trial: false }],
      ['a sign-in back to the first role', first, { tier: 'silver', seats: 12, trial: true }],
    ] as const) {
      const ask = { userRoleId: role.id, properties: props };
      const token = embedAnswer(t, await embed(t, embedBody(t, w, who, ask)), 'token', label);
      expect(claimAt(t, token, 'role'), `${label}: the token carries the role sent`).toBe(role.id);
      expect(claimAt(t, token, 'properties'), `${label}: the properties sent`).toEqual(props);
      // The upsert stores the role: a plain user-token of the user carries it too.
      const stored = (await issuedToken(t, w, who.userId ?? '')).token;
      expect(claimAt(t, stored, 'role'), `${label}: user-token carries the stored role`).toBe(
        role.id,
      );
    }
  },
  {
    needs: withRoles,
    relies: [EMBED_BODY, EMBED_ANSWER, CLAIMS_DECISION, 'tokens.embed-token.upserts'],
  },
);

conformance(
  ['tokens.embed-token.user-required', 'resources.user.properties-rls'],
  'an embed token carries the user properties sent, 0, false and the empty string included',
  async (t) => {
    const w = await buildWorld(t);
    const props = {
      zero: 0,
      no: false,
      empty: '',
      fraction: -0.5,
      yes: true,
      text: t.faker.word.noun(),
    };
    const res = await embed(t, await signedBody(t, w, { properties: props }));
    const token = embedAnswer(t, res, 'token', 'embed-token with properties of every class');
    expect(claimAt(t, token, 'properties'), 'the token carries the values sent').toEqual(props);
  },
  { needs, relies: [EMBED_BODY, EMBED_ANSWER, CLAIMS_DECISION] },
);

probe(
  ['tokens.claims'],
  'the claims and signature of project-user tokens',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const fromUserToken = (await issuedToken(t, w, userId)).token;
    const embedded = embedAnswer(t, await embed(t, await signedBody(t, w)), 'token', 'embed-token');
    const jwks = await t.http.get(t.profile.shapes.jwks ?? '/.well-known/jwks.json');
    for (const [label, token] of [
      ['user-token', fromUserToken],
      ['embed-token', embedded],
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
          `${verified ? 'verifies' : 'does not verify'} against the JWKS`,
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
  { needs, relies: [EMBED_BODY, EMBED_ANSWER] },
);
