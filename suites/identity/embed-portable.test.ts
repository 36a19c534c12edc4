import { expect } from 'vitest';
import { z } from 'zod';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import { expectedTokens, expirationSeconds } from '../../fixtures/oracles/index.ts';
import { tokenAcceptor, verdictOf } from '../harness/acceptance.ts';
import { CLAIMS_DECISION, claimAt } from '../harness/claims.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { embedAnswer, embedExpiresAt, signInRequest } from '../harness/endpoints.ts';
import { describeAnswer, expectClientError, expectSuccess } from '../harness/expect.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
  freezeOnWholeSecond,
} from '../harness/given/accounts.ts';
import type { Reply } from '../harness/http.ts';
import { instant } from '../harness/instant.ts';
import { EMBED_TOKEN, rolesPath } from '../harness/paths.ts';

// §4.8 embed-token, judged portably: every sign-in here is of a person the project already
// holds, registered over §4.4 and §4.5, and sends what was registered. What embed-token does with
// an organization or a user it does not hold (tokens.embed-token.creates) is then never asked,
// and whether it updates what it holds (tokens.embed-token.upserts) makes no difference: the
// values sent are the stored ones. The members inside organization and user are the profile's
// (shapes.embedToken, a shape: tokens.embed-token.body-shape), user.userRoleId is §4.8's own.
const needs = ['accounts', 'projects'] as const;
const withClock = ['accounts', 'projects', 'clock'] as const;
const withRoles = ['accounts', 'projects', 'roles'] as const;
const EMBED_BODY = 'tokens.embed-token.body-shape';
const EMBED_ANSWER = 'tokens.embed-token.response-fields';
const EmbedData = z.record(z.string(), z.unknown());
const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

/** A person the project holds, and embed-token bodies that sign them in as registered. */
interface Known {
  readonly userId: string;
  body(extra?: Record<string, unknown>): Record<string, unknown>;
}

/**
 * Registers an organization (with an externalId, §4.4) and a user of it (with a userId and, when
 * given, a role, §4.5), and returns bodies naming both with the values registered, in the
 * profile's members as harness signInRequest writes them. Not-run where the profile names no
 * member for the user's id.
 */
async function knownPerson(
  t: Conformance,
  w: World,
  options: { readonly userRoleId?: string } = {},
): Promise<Known> {
  const org = await registerOrganization(t, w);
  const { userId, body: registered } = await registerUser(t, w, {
    projectOrganizationId: org.projectOrganizationId,
    userId: t.faker.string.uuid(),
    ...(options.userRoleId === undefined ? {} : { userRoleId: options.userRoleId }),
  });
  const fields = signInRequest(t, w, {
    externalId: org.externalId,
    organizationName: org.name,
    organizationProperties: org.properties,
    userId,
    userName: registered.name,
    properties: registered.properties,
    ...(options.userRoleId === undefined ? {} : { userRoleId: options.userRoleId }),
    creates: false,
  }).fields;
  return { userId, body: (extra = {}) => ({ ...w.creds(), ...fields, ...extra }) };
}

const embed = (t: Conformance, body: unknown) => t.http.post(EMBED_TOKEN, body);

/** expiresAt of an embed-token answer, as an instant (harness embedExpiresAt). */
const expiresAtOf = (t: Conformance, res: Reply, what: string): number =>
  instant(embedExpiresAt(t, res, what));

conformance(
  ['tokens.embed-token.path', 'tokens.embed-token.response-envelope'],
  'embed-token for a person the project holds answers the success envelope with a data object',
  async (t) => {
    const w = await buildWorld(t);
    const known = await knownPerson(t, w);
    const res = await embed(t, known.body());
    expect(res.status, `embed-token: ${describeAnswer(res)}`).toBe(200);
    expect((res.body as { status?: unknown }).status, 'the envelope says success').toBe('success');
    const data = expectSuccess(res, EmbedData, 'embed-token');
    expect(Array.isArray(data), 'data should be an object, not an array').toBe(false);
  },
  { needs, relies: [EMBED_BODY] },
);

const REQUIRED = [
  { field: 'projectId', clause: 'tokens.embed-token.project-id-required' },
  { field: 'organization', clause: 'tokens.embed-token.organization-required' },
  { field: 'user', clause: 'tokens.embed-token.user-required' },
] as const;

for (const { field, clause } of REQUIRED) {
  conformance(
    [clause],
    `embed-token for a person the project holds is refused without ${field}, and the same body with it succeeds`,
    async (t) => {
      const w = await buildWorld(t);
      const body = (await knownPerson(t, w)).body();
      const without = Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
      expectClientError(await embed(t, without), `embed-token without ${field}`);
      expectSuccess(await embed(t, body), EmbedData, `the same body with ${field}`);
    },
    { needs, relies: [EMBED_BODY] },
  );
}

conformance(
  [
    'tokens.embed-token.expiration',
    'tokens.expiration.default-1h',
    'tokens.expires-at.issue-plus-duration',
  ],
  'an embed token of a person the project holds lives one hour by default and each of the nine expirations when asked',
  async (t) => {
    const w = await buildWorld(t);
    const known = await knownPerson(t, w);
    const at = await freezeOnWholeSecond(t, w);
    const lifetime = (res: Reply, what: string) => (expiresAtOf(t, res, what) - at) / 1000;
    expect(
      lifetime(await embed(t, known.body()), 'embed-token without expiration'),
      'without expiration: the default',
    ).toBe(expirationSeconds(expectedTokens.default));
    for (const expiration of expectedTokens.expirations) {
      const what = `embed-token with expiration ${expiration}`;
      expect(lifetime(await embed(t, known.body({ expiration })), what), what).toBe(
        expirationSeconds(expiration),
      );
    }
  },
  { needs: withClock, relies: [EMBED_BODY, EMBED_ANSWER] },
);

/** Values near one of the nine that a careless implementation might take for it. */
const NOT_EXPIRATIONS: readonly unknown[] = [
  '1H',
  '60m',
  '1d',
  ' 1h',
  '',
  '7D',
  '01h',
  'PT1H',
  '3600',
  '48h',
  3600,
  null,
  ['1h'],
];

conformance(
  ['tokens.embed-token.expiration', 'tokens.expiration.enum'],
  'embed-token for a person the project holds refuses an expiration outside the nine',
  async (t) => {
    const w = await buildWorld(t);
    const known = await knownPerson(t, w);
    // The control: the same body with a listed value is granted, so a refusal is the value's.
    expectSuccess(await embed(t, known.body({ expiration: '5m' })), EmbedData, 'expiration 5m');
    for (const expiration of NOT_EXPIRATIONS)
      expectClientError(
        await embed(t, known.body({ expiration })),
        `embed-token with expiration ${JSON.stringify(expiration)}`,
      );
  },
  { needs, relies: [EMBED_BODY] },
);

conformance(
  ['roles.list.id-usable-as-user-role'],
  'a role id from the role list signs in, as user.userRoleId, a person of that role',
  async (t) => {
    const w = await buildWorld(t);
    await createRole(t, w, { addFilter: true });
    const [listed] = expectSuccess(
      await t.http.get(rolesPath(w), { query: w.creds() }),
      UserRoles,
      'listing roles',
    ).userRoles;
    if (listed === undefined) return expect.fail('the role created through the hook is listed');
    const known = await knownPerson(t, w, { userRoleId: listed.id });
    const res = await embed(t, known.body());
    expectSuccess(res, EmbedData, 'embed-token with a listed userRoleId');
    // Where the profile says where tokens carry the role, the token carries this one.
    if (t.profile.shapes.tokenClaims?.role !== undefined) {
      t.relyOn(EMBED_ANSWER, CLAIMS_DECISION);
      const token = embedAnswer(t, res, 'token', 'embed-token with a listed userRoleId');
      expect(claimAt(t, token, 'role'), 'the token carries the role given').toBe(listed.id);
    }
  },
  { needs: withRoles, relies: [EMBED_BODY] },
);

conformance(
  ['auth.project-user-token.sources'],
  'tokens from user-token and from embed-token of a person the project holds are both accepted as bearer tokens',
  async (t) => {
    const w = await buildWorld(t);
    // Only an acceptor whose request the document fixes (agent chat, v2 after finalize).
    const acceptor = await tokenAcceptor(t, w, { portable: true });
    const known = await knownPerson(t, w);
    const fromUserToken = expectSuccess(
      await userToken(t, w, known.userId),
      Token,
      'asking a user token',
    ).token;
    const fromEmbed = embedAnswer(
      t,
      await embed(t, known.body()),
      'token',
      'asking an embed token',
    );
    for (const [what, token] of [
      ['a token from user-token', fromUserToken],
      ['a token from embed-token', fromEmbed],
    ] as const) {
      const res = await acceptor.present(token);
      expect(verdictOf(res), `${what}: ${acceptor.via} answered ${describeAnswer(res)}`).toBe(
        'accepted',
      );
    }
  },
  { needs, relies: [EMBED_BODY, EMBED_ANSWER] },
);
