import { expect } from 'vitest';
import { z } from 'zod';
import { UUID_PATTERN, ValidationIssue } from '../../spec/schemas/common.ts';
import { buildWorld, createRole, registerOrganization } from '../harness/given/accounts.ts';
import { conformance, probe } from '../harness/conformance.ts';
import {
  REGISTER_ORGANIZATION as registerOrg,
  rolePath,
  rolesPath,
  CLONE,
  LIST_WORKSPACES,
  REMOVE,
  REGISTER_USER,
} from '../harness/paths.ts';
import { authorization } from '../harness/authorization.ts';
import type { Reply } from '../harness/http.ts';
import {
  describeAnswer,
  detailsOf,
  expectError,
  refusedAs,
  statusAndCode,
} from '../harness/expect.ts';

// The preamble's envelopes and §7: every answer, success or failure, has its documented
// shape, including the failures a framework produces before any handler runs.
const needs = ['accounts', 'projects'] as const;

conformance(
  ['resources.envelope.success', 'resources.uuid.format'],
  'a success is wrapped as {status: success, data} and ids are 8-4-4-4-12 hex UUIDs',
  async (t) => {
    const w = await buildWorld(t);
    const org = await registerOrganization(t, w);
    expect(org.projectOrganizationId, 'a service-issued id is a UUID').toMatch(UUID_PATTERN);
    const res = await t.http.get(rolesPath(w), { query: w.creds() });
    // The Conventions line names status and data; it does not close the envelope to others.
    const body = res.body as { status?: unknown; data?: unknown } | null;
    expect(body?.status, `a success says status 'success': ${res.text.slice(0, 200)}`).toBe(
      'success',
    );
    expect(body !== null && 'data' in body, 'a success body holds data').toBe(true);
  },
  { needs },
);

conformance(
  ['errors.envelope.shape', 'errors.envelope.message-required', 'errors.bad-request.role-update'],
  'a refused role update answers 400 in the error envelope with a message string',
  async (t) => {
    const w = await buildWorld(t);
    // An existing role, so that the empty name is the only thing wrong (which check wins
    // when several fail is left open: errors.order.*).
    const role = await createRole(t, w);
    const res = await t.http.put(rolePath(w, role.id), { ...w.creds(), name: '' });
    // §7 asks a message that is a string; the envelope's schema checks it.
    expectError(res, 400, 'an empty role name');
  },
  { needs: [...needs, 'roles'] },
);

probe(
  ['errors.validation.status'],
  'the status, code and details of a body that fails validation',
  async (t) => {
    const w = await buildWorld(t);
    const res = await t.http.post(registerOrg, { ...w.creds(), projectId: 'nope', name: 42 });
    const issues = z
      .array(ValidationIssue)
      .safeParse(
        (res.body as { error?: { details?: { issues?: unknown } } }).error?.details?.issues,
      );
    const paths = issues.success ? issues.data.map((i) => i.path.join('.')).sort() : [];
    t.observe(
      `${statusAndCode(res)}${issues.success ? `, issues at ${paths.join(' and ')}` : ', no details.issues'}`,
      statusAndCode(res) === '400 VALIDATION_ERROR' && paths.join() === 'body.name,body.projectId',
    );
  },
  { needs },
);

probe(['errors.route-not-found'], 'a path the service does not have', async (t) => {
  const res = await t.http.get('/v1/api/no-such-endpoint');
  const other = await t.http.call('PATCH', REGISTER_USER, { body: {} });
  // A path no endpoint has reaches no endpoint: its body, envelope or not, is the decision's.
  t.observe(
    `unknown path: ${statusAndCode(res)}; unknown method: ${statusAndCode(other)}`,
    statusAndCode(res) === '404 ROUTE_NOT_FOUND' && statusAndCode(other) === '404 ROUTE_NOT_FOUND',
  );
});

probe(
  ['errors.malformed-json'],
  'a body that is not JSON',
  async (t) => {
    const w = await buildWorld(t);
    const res = await t.http.call('POST', registerOrg, {
      raw: `{"apiKey": "${w.account.orgBoundKey}", "name": `,
      headers: { 'content-type': 'application/json' },
    });
    t.observe(statusAndCode(res), statusAndCode(res) === '400 MALFORMED_JSON');
    expect(res.status, 'a malformed body is the client\u2019s fault, never a 5xx').toBeLessThan(
      500,
    );
  },
  { needs },
);

probe(['errors.unsupported-media-type'], 'a body sent as text/plain or form data', async (t) => {
  const text = await t.http.call('POST', registerOrg, {
    raw: 'name=acme',
    headers: { 'content-type': 'text/plain' },
  });
  const form = await t.http.call('POST', registerOrg, {
    raw: 'name=acme',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.observe(
    `text/plain: ${statusAndCode(text)}; form: ${statusAndCode(form)}`,
    statusAndCode(text) === '415 UNSUPPORTED_MEDIA_TYPE' &&
      statusAndCode(form) === '415 UNSUPPORTED_MEDIA_TYPE',
  );
  expect(text.status, 'a wrong content type is never a 5xx').toBeLessThan(500);
});

probe(
  ['errors.payload-too-large', 'limits.body-size'],
  'a body of 512 KiB, and one of 2 MiB',
  async (t) => {
    const w = await buildWorld(t);
    const post = (bytes: number) =>
      t.http.post(registerOrg, {
        ...w.creds(),
        projectId: w.projectId,
        name: 'Big',
        properties: { blob: 'x'.repeat(bytes) },
      });
    // Under the decision's 1 MiB cap, then over it: where a server's limit lies shows in both.
    const half = await post(512 * 1024);
    const res = await post(2 * 1024 * 1024);
    t.observe(
      `512 KiB: ${statusAndCode(half)}; 2 MiB: ${statusAndCode(res)}`,
      half.status === 200 && statusAndCode(res) === '413 PAYLOAD_TOO_LARGE',
    );
    expect(half.status, 'a large body is never a 5xx').toBeLessThan(500);
    expect(res.status, 'an oversized body is never a 5xx').toBeLessThan(500);
  },
  { needs },
);

probe(
  ['errors.order.credentials-first'],
  'a request with bad credentials and a bad body',
  async (t) => {
    const body = await t.http.post(registerOrg, { apiKey: 'not-a-key', projectId: 'nope' });
    const orgId = await t.http.post(registerOrg, { apiKey: 'not-a-key', organizationId: 'nope' });
    t.observe(
      `bad body: ${statusAndCode(body)}; bad organizationId: ${statusAndCode(orgId)}`,
      statusAndCode(body) === '401 UNAUTHORIZED' && statusAndCode(orgId) === '401 UNAUTHORIZED',
    );
  },
);

// A front proxy or URL parser may refuse %ZZ before any endpoint sees it, so the envelope is
// probed (errors.validation.status below); a client error, never a 5xx, is what holds anywhere.
conformance(
  ['errors.client-input.no-server-error'],
  'a URL the server cannot decode is refused as a client error',
  async (t) => {
    const res = await t.http.call('GET', '/v1/api/projects/%ZZ/user-roles');
    expect(
      res.status,
      `an undecodable URL: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBeGreaterThanOrEqual(400);
    expect(res.status, `an undecodable URL: ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(
      500,
    );
  },
);

/** The paths of a reply's details.issues, each as it was sent, or undefined without them. */
function issuePaths(res: Reply): (string | number)[][] | undefined {
  const issues = z.array(ValidationIssue).min(1).safeParse(detailsOf(res)['issues']);
  return issues.success ? issues.data.map((i) => i.path) : undefined;
}

probe(['errors.validation.status'], 'the details of a URL the server cannot decode', async (t) => {
  const res = await t.http.call('GET', '/v1/api/projects/%ZZ/user-roles');
  const paths = issuePaths(res);
  t.observe(
    `${statusAndCode(res)}, ${paths === undefined ? 'no well-formed details.issues' : `issues at ${JSON.stringify(paths)}`}`,
    statusAndCode(res) === '400 VALIDATION_ERROR' &&
      paths !== undefined &&
      paths.every((p) => p[0] === 'path'),
  );
});

probe(
  ['errors.validation.status'],
  'where the issues of a bad path id, query parameter and array element point',
  async (t) => {
    const w = await buildWorld(t);
    const path = await t.http.get(rolesPath({ projectId: 'not-a-uuid' }), { query: w.creds() });
    const query = await t.http.get(LIST_WORKSPACES, {
      query: { ...w.creds(), projectId: 'not-a-uuid' },
    });
    // The first of two chart ids is no UUID: the issue names its position, 0.
    const element = await t.http.post(
      REMOVE,
      { dashboardId: t.faker.string.uuid(), chartIds: ['not-a-uuid', t.faker.string.uuid()] },
      { headers: authorization(t, w.account.orgBoundKey) },
    );
    const answers = [
      ['path', path, ['path', 'projectId']],
      ['query', query, ['query', 'projectId']],
      ['array element', element, ['body', 'chartIds', 0]],
    ] as const;
    t.observe(
      answers
        .map(([what, res]) => `${what}: ${statusAndCode(res)} ${JSON.stringify(issuePaths(res))}`)
        .join('; '),
      answers.every(
        ([, res, expected]) =>
          statusAndCode(res) === '400 VALIDATION_ERROR' &&
          JSON.stringify(issuePaths(res)) === JSON.stringify([expected]),
      ),
    );
  },
  { needs, parts: ['v1-dashboards'] },
);

probe(
  ['errors.malformed-json'],
  'a DELETE that says application/json but sends no body',
  async (t) => {
    const w = await buildWorld(t);
    const res = await t.http.call('DELETE', rolePath(w, t.faker.string.uuid()), {
      query: w.creds(),
      headers: { 'content-type': 'application/json' },
    });
    t.observe(describeAnswer(res), refusedAs(res, 404, 'NOT_FOUND', { resource: 'role' }));
  },
  { needs },
);

probe(
  ['errors.malformed-json', 'errors.unsupported-media-type'],
  'a DELETE that says text/plain but sends no body and no framing header',
  async (t) => {
    const w = await buildWorld(t);
    // Zero bytes are no body whatever the type says, so the role's 404 comes, not a 415.
    const res = await t.http.call('DELETE', rolePath(w, t.faker.string.uuid()), {
      query: w.creds(),
      headers: { 'content-type': 'text/plain' },
    });
    t.observe(describeAnswer(res), refusedAs(res, 404, 'NOT_FOUND', { resource: 'role' }));
  },
  { needs },
);

probe(
  ['errors.malformed-json', 'errors.unsupported-media-type'],
  'a POST with content-length 0 that says text/plain, the key in the authorization header',
  async (t) => {
    const w = await buildWorld(t);
    // Zero bytes read as {} whatever the type says: the clone's answer to an empty JSON object
    // (its own validation refusal), not a 415.
    const post = (contentType: string) =>
      t.http.call('POST', CLONE, {
        raw: '',
        headers: { 'content-type': contentType, ...authorization(t, w.account.orgBoundKey) },
      });
    const text = await post('text/plain');
    const json = await post('application/json');
    t.observe(
      `text/plain: ${statusAndCode(text)}; application/json: ${statusAndCode(json)}`,
      statusAndCode(json) === '400 VALIDATION_ERROR' && statusAndCode(text) === statusAndCode(json),
    );
  },
  { needs, parts: ['v1-dashboards'] },
);

probe(
  ['errors.validation.prototype-keys', 'errors.unknown-fields'],
  'members named constructor or prototype that are not constructor.prototype',
  async (t) => {
    const w = await buildWorld(t);
    const fields = JSON.stringify({ ...w.creds(), projectId: w.projectId, name: 'Near misses' });
    // Only __proto__, and prototype inside constructor, are refused; these are unknown fields.
    const members = ['"x": {"prototype": 1}', '"constructor": {}', '"constructor": "x"'];
    const answers: [string, Reply][] = [];
    for (const member of members) {
      const raw = `{${member},${fields.slice(1)}`;
      answers.push([
        member,
        await t.http.call('POST', registerOrg, {
          raw,
          headers: { 'content-type': 'application/json' },
        }),
      ]);
    }
    t.observe(
      answers.map(([member, res]) => `${member}: ${statusAndCode(res)}`).join('; '),
      answers.every(([, res]) => res.status === 200),
    );
  },
  { needs },
);

probe(
  ['errors.unknown-fields'],
  'unknown fields in a request body',
  async (t) => {
    const w = await buildWorld(t);
    const res = await t.http.post(registerOrg, {
      ...w.creds(),
      projectId: w.projectId,
      name: 'Extra',
      colour: 'teal',
    });
    t.observe(res.status === 200 ? 'ignored' : statusAndCode(res), res.status === 200);
  },
  { needs },
);
