import { expect } from 'vitest';
import { z } from 'zod';
import { UUID_PATTERN, ValidationIssue } from '../../spec/schemas/common.ts';
import { buildWorld, createRole, registerOrganization } from '../../fixtures/world.ts';
import { conformance, probe } from '../harness/conformance.ts';
import { REGISTER_ORGANIZATION as registerOrg, rolePath, rolesPath } from '../harness/paths.ts';
import {
  describeAnswer,
  expectClientError,
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
    expect(Object.keys(res.body as object).sort(), 'a success body holds status and data').toEqual([
      'data',
      'status',
    ]);
  },
  { needs },
);

conformance(
  ['errors.envelope.shape', 'errors.envelope.message-required', 'errors.bad-request.role-update'],
  'a refused role update answers 400 in the error envelope with a message',
  async (t) => {
    const w = await buildWorld(t);
    // An existing role, so that the empty name is the only thing wrong (which check wins
    // when several fail is left open: errors.order.*).
    const role = await createRole(t, w);
    const res = await t.http.put(rolePath(w, role.id), { ...w.creds(), name: '' });
    const body = expectError(res, 400, 'an empty role name');
    expect(body.error.message.length, 'the message says something').toBeGreaterThan(0);
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
  const other = await t.http.call('PATCH', '/v1/api/projects/register-user', { body: {} });
  t.observe(
    `unknown path: ${statusAndCode(res)}; unknown method: ${statusAndCode(other)}`,
    statusAndCode(res) === '404 ROUTE_NOT_FOUND' && statusAndCode(other) === '404 ROUTE_NOT_FOUND',
  );
  expectError(res, res.status, 'an unknown path still answers the §7 envelope');
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
  'a body of 2 MiB',
  async (t) => {
    const w = await buildWorld(t);
    const res = await t.http.post(registerOrg, {
      ...w.creds(),
      projectId: w.projectId,
      name: 'Big',
      properties: { blob: 'x'.repeat(2 * 1024 * 1024) },
    });
    t.observe(statusAndCode(res), statusAndCode(res) === '413 PAYLOAD_TOO_LARGE');
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

conformance(
  ['errors.envelope.shape'],
  'a URL the server cannot decode is refused in the error envelope',
  async (t) => {
    const res = await t.http.call('GET', '/v1/api/projects/%ZZ/user-roles');
    expectClientError(res, 'an undecodable URL');
  },
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
