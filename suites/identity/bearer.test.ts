import { SignJWT, generateKeyPair } from 'jose';
import { expect } from 'vitest';
import { z } from 'zod';
import { Token } from '../../spec/schemas/token.ts';
import { externalId, organizationName, personName } from '../../fixtures/builders.ts';
import { buildWorld, registerUser, userToken, type World } from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { APPLICATIONS } from '../harness/paths.ts';
import {
  describeAnswer,
  expectClientError,
  expectSuccess,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';

// §5: project-user tokens as bearer credentials. GET /v2/api/applications is the call of
// this area that takes one (§4.16); what it lists comes with the migration.
const needs = ['accounts', 'projects'] as const;
const Applications = z.object({ applications: z.array(z.unknown()) });

const asBearer = (t: Conformance, token: string) =>
  t.http.get(APPLICATIONS, { headers: { authorization: `Bearer ${token}` } });

async function embedToken(t: Conformance, w: World) {
  const res = await t.http.post('/v1/api/projects/embed-token', {
    ...w.creds(),
    projectId: w.projectId,
    organization: { externalId: externalId(t.faker), name: organizationName(t.faker) },
    user: { name: personName(t.faker) },
  });
  return expectSuccess(res, Token.loose(), 'asking an embed token').token;
}

conformance(
  ['auth.project-user-token.sources', 'auth.bearer.chat-and-v2'],
  'tokens from user-token and from embed-token both work as bearer tokens on v2 calls',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const fromUserToken = expectSuccess(
      await userToken(t, w, userId),
      Token,
      'asking a user token',
    ).token;
    const fromEmbed = await embedToken(t, w);
    expectSuccess(
      await asBearer(t, fromUserToken),
      Applications,
      'a user-token token on a v2 call',
    );
    expectSuccess(await asBearer(t, fromEmbed), Applications, 'an embed-token token on a v2 call');
  },
  { needs },
);

probe(
  ['auth.token.invalid'],
  'bearer tokens that are malformed, tampered with or signed by someone else',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const good = expectSuccess(await userToken(t, w, userId), Token, 'asking a user token').token;
    const [head = '', body = '', sig = ''] = good.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: t.faker.string.uuid() })).toString(
      'base64url',
    );
    const stranger = await generateKeyPair('ES256');
    const foreign = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .sign(stranger.privateKey);
    const cases = {
      garbage: 'not-a-token',
      'signed by another key': foreign,
      tampered: `${head}.${forged}.${sig}`,
      unsigned: `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.`,
    };
    const seen: string[] = [];
    let asDecided = true;
    for (const [name, token] of Object.entries(cases)) {
      const res = await asBearer(t, token);
      seen.push(`${name}: ${describeAnswer(res)}`);
      expect(res.status, `a ${name} token must never be accepted`).toBeGreaterThanOrEqual(400);
      asDecided &&= refusedAs(res, 401, 'UNAUTHORIZED', { reason: 'invalid-token' });
    }
    t.observe(seen.join('; '), asDecided);
  },
  { needs },
);

probe(
  ['auth.api-key.hub-generated'],
  'where API keys come from',
  async (t) => {
    const w = await buildWorld(t);
    const orgBound = await t.http.get(`/v1/api/projects/${w.projectId}/user-roles`, {
      query: w.creds('org-bound'),
    });
    const userScoped = await t.http.get(`/v1/api/projects/${w.projectId}/user-roles`, {
      query: w.creds('user-scoped'),
    });
    t.observe(
      `accounts hook keys: organization-bound ${statusAndCode(orgBound)}, user-scoped ${statusAndCode(userScoped)}`,
      orgBound.status === 200 && userScoped.status === 200,
    );
  },
  { needs },
);

conformance(
  ['auth.v2.organization-id-placement', 'auth.user-scoped.organization-id-required'],
  'a user-scoped key on a v2 GET names its organization in the query',
  async (t) => {
    const w = await buildWorld(t);
    const { apiKey, organizationId } = w.creds('user-scoped');
    const inQuery = await t.http.get(APPLICATIONS, { query: { apiKey, organizationId } });
    expectSuccess(inQuery, Applications, 'organizationId in the query of a v2 GET');
    const missing = await t.http.get(APPLICATIONS, { query: { apiKey } });
    expectClientError(missing, 'a user-scoped key without organizationId on a v2 GET');
  },
  { needs },
);
