import { buildWorld } from '../harness/given/accounts.ts';
import { probe } from '../harness/conformance.ts';
import { describeAnswer, refusedAs, statusAndCode } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { REGISTER_ORGANIZATION, rolesPath, CLONE, APPLICATIONS } from '../harness/paths.ts';
import { finalize, projectUser } from '../harness/given/v2.ts';

// §5: the authorization header, written in the forms a client may try. §5 shows the header on
// the dashboard writes, agent chat and v2, but not its exact form (auth.header.format); the
// answers to a value that holds no usable credential are ours too (auth.token.invalid,
// auth.api-key.misplaced, v2.credentials.api-key-carrier). Every check here is a probe.
const needs = ['accounts', 'projects'] as const;

/** `what: status code reason` for each labelled answer. */
const describe = (answers: readonly (readonly [string, Reply])[]) =>
  answers.map(([what, res]) => `${what}: ${describeAnswer(res)}`).join('; ');

probe(
  ['auth.header.format'],
  'the forms of the authorization header a dashboard write reads an API key from',
  async (t) => {
    const w = await buildWorld(t);
    const key = w.account.orgBoundKey;
    // A clone of a dashboard nobody has: whatever the key's answer is (a 404 here), a form that
    // is read as the key gets the same answer, and one that is not gets a 401.
    const clone = (authorization: string) =>
      t.http.post(
        CLONE,
        { sourceDashboardId: t.faker.string.uuid() },
        { headers: { authorization } },
      );
    const bearer = await clone(`Bearer ${key}`);
    const twoSpaces = await clone(`Bearer  ${key}`);
    const bare = await clone(key);
    const basic = await clone(`Basic Bearer ${key}`);
    const sameAsBearer = (res: Reply) => statusAndCode(res) === statusAndCode(bearer);
    t.observe(
      describe([
        ['Bearer <key>', bearer],
        ['Bearer and two spaces', twoSpaces],
        ['the bare key', bare],
        ['Basic Bearer <key>', basic],
      ]),
      bearer.status !== 401 &&
        sameAsBearer(twoSpaces) &&
        sameAsBearer(bare) &&
        basic.status === 401,
    );
  },
  { needs, parts: ['v1-dashboards'] },
);

probe(
  ['auth.header.format'],
  'a project-user token after "Bearer" and two spaces on a v2 call',
  async (t) => {
    const w = await buildWorld(t);
    await finalize(t, w);
    const { token } = await projectUser(t, w);
    const one = await t.http.get(APPLICATIONS, { headers: { authorization: `Bearer ${token}` } });
    const two = await t.http.get(APPLICATIONS, { headers: { authorization: `Bearer  ${token}` } });
    t.observe(
      describe([
        ['one space', one],
        ['two spaces', two],
      ]),
      one.status === 200 && two.status === 200,
    );
  },
  { needs: [...needs, 'roles', 'migration'], parts: ['v2'] },
);

probe(
  ['auth.token.invalid', 'auth.api-key.misplaced', 'v2.credentials.api-key-carrier'],
  'a v2 call with an authorization header that holds no project-user token',
  async (t) => {
    const w = await buildWorld(t);
    const key = w.account.orgBoundKey;
    const list = (authorization: string) =>
      t.http.get(APPLICATIONS, { headers: { authorization } });
    // A Bearer value is a token on v2, so one that is no JWT, or a JWT of nobody, is an invalid
    // token; a key in the header without the Bearer scheme is a key in a place v2 does not
    // read keys from.
    const tokens = [
      ['Bearer <API key>', await list(`Bearer ${key}`)],
      ['Bearer a.b.c', await list('Bearer a.b.c')],
    ] as const;
    const keys = [
      ['the bare key', await list(key)],
      ['Basic Bearer <API key>', await list(`Basic Bearer ${key}`)],
    ] as const;
    t.observe(
      describe([...tokens, ...keys]),
      tokens.every(([, res]) => refusedAs(res, 401, 'UNAUTHORIZED', { reason: 'invalid-token' })) &&
        keys.every(([, res]) =>
          refusedAs(res, 401, 'UNAUTHORIZED', { reason: 'api-key-misplaced' }),
        ),
    );
  },
  { needs, parts: ['v2'] },
);

probe(
  ['auth.credentials.missing'],
  'an empty apiKey, or an empty authorization header beside a key in the body',
  async (t) => {
    const w = await buildWorld(t);
    const emptyBody = await t.http.post(REGISTER_ORGANIZATION, {
      apiKey: '',
      projectId: w.projectId,
      name: 'Nobody',
    });
    const emptyQuery = await t.http.get(rolesPath(w), { query: { apiKey: '' } });
    // An empty header is no credential, so the key in the body is the one read: the same
    // answer as without the header (a 404 for a dashboard nobody has).
    const body = { ...w.creds(), sourceDashboardId: t.faker.string.uuid() };
    const without = await t.http.post(CLONE, body);
    const emptyHeader = await t.http.post(CLONE, body, { headers: { authorization: '' } });
    t.observe(
      describe([
        ['apiKey "" in the body', emptyBody],
        ['apiKey "" in the query', emptyQuery],
        ['a key in the body, no header', without],
        ['the same with an empty header', emptyHeader],
      ]),
      refusedAs(emptyBody, 401, 'UNAUTHORIZED', { reason: 'missing-credentials' }) &&
        refusedAs(emptyQuery, 401, 'UNAUTHORIZED', { reason: 'missing-credentials' }) &&
        without.status !== 401 &&
        statusAndCode(emptyHeader) === statusAndCode(without),
    );
  },
  { needs, parts: ['v1-dashboards'] },
);
