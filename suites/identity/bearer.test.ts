import { SignJWT, generateKeyPair } from 'jose';
import { z } from 'zod';
import { Token } from '../../spec/schemas/token.ts';
import { acceptingWorld, buildWorld, userToken } from '../harness/given/accounts.ts';
import { verdictOf } from '../harness/acceptance.ts';
import { conformance, probe, states } from '../harness/conformance.ts';
import { APPLICATIONS, rolesPath } from '../harness/paths.ts';
import { finalize, v2KeyCarrier } from '../harness/given/v2.ts';
import {
  describeAnswer,
  expectClientError,
  expectSuccess,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §5: project-user tokens as bearer credentials, judged on an endpoint the document requires
// to take them (agent chat, or v2 after finalize; suites/harness/acceptance.ts). That tokens
// from user-token and from embed-token are both accepted (auth.project-user-token.sources) is
// judged in embed-portable.test.ts, on a person the project holds.
const needs = ['accounts', 'projects'] as const;
const AnyData = z.record(z.string(), z.unknown());

probe(
  ['auth.token.invalid'],
  'the answer to bearer tokens that are malformed, tampered with or signed by someone else',
  async (t) => {
    const { w, acceptor, userId } = await acceptingWorld(t, { decided: true });
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
    const control = await acceptor.present(good);
    if (verdictOf(control) !== 'accepted')
      t.notRun(
        `${acceptor.via} does not accept the genuine token (${describeAnswer(control)})`,
        cause.other('the acceptor refuses a genuine token'),
      );
    const seen: string[] = [];
    let asDecided = true;
    for (const [name, token] of Object.entries(cases)) {
      const res = await acceptor.present(token);
      seen.push(`${name}: ${describeAnswer(res)}`);
      // Decision auth.header.format: where the header also takes API keys, a value that is no JWT
      // is a key.
      const reason =
        name === 'garbage' && acceptor.takesApiKeys === true ? 'invalid-api-key' : 'invalid-token';
      asDecided &&= refusedAs(res, 401, 'UNAUTHORIZED', { reason });
    }
    t.observe(`${acceptor.via}: ${seen.join('; ')}`, asDecided);
  },
  { needs },
);

probe(
  ['auth.api-key.hub-generated'],
  'where API keys come from',
  async (t) => {
    const w = await buildWorld(t);
    const orgBound = await t.http.get(rolesPath(w), {
      query: w.creds('org-bound'),
    });
    const userScoped = await t.http.get(rolesPath(w), {
      query: w.creds('user-scoped'),
    });
    t.observe(
      `accounts hook keys: organization-bound ${statusAndCode(orgBound)}, user-scoped ${statusAndCode(userScoped)}`,
      orgBound.status === 200 && userScoped.status === 200,
    );
  },
  { needs },
);

// The v2 list before finalize takes an API key only by our decision: where the profile does not
// follow it, the account is finalized first (§9). Its answer's shape is open (§4.16), so only the
// success envelope is checked.
conformance(
  ['auth.v2.organization-id-placement', 'auth.user-scoped.organization-id-required'],
  'a user-scoped key on a v2 GET names its organization in the query',
  async (t) => {
    const w = await buildWorld(t);
    if (states(t, 'v2.applications.list.before-finalize'))
      t.relyOn('v2.applications.list.before-finalize');
    else if (!t.hooks.has('migration'))
      t.notRun('the target lacks the host hook migration', cause.hook('migration'));
    else await finalize(t, w);
    // The key travels where the profile says (decision v2.credentials.api-key-carrier).
    const { headers, query } = v2KeyCarrier(t, w, 'GET', 'user-scoped');
    const inQuery = await t.http.get(APPLICATIONS, { headers, query });
    expectSuccess(inQuery, AnyData, 'organizationId in the query of a v2 GET');
    const { organizationId: _left, ...withoutOrganization } = query;
    const missing = await t.http.get(APPLICATIONS, { headers, query: withoutOrganization });
    expectClientError(missing, 'a user-scoped key without organizationId on a v2 GET');
  },
  {
    needs,
    parts: ['v2'],
    relies: ['v2.credentials.api-key-carrier'],
  },
);
