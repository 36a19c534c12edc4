import { describe, expect, it } from 'vitest';
import {
  credentialsReadAnywhere,
  credentialsRefusedOtherwise,
  isolationForbidden,
  organizationIdValidated,
  v2ApiKeyHeader,
} from './credentials.ts';
import { depthOf, limitsTighter, TIGHTER } from './limits.ts';
import {
  bodiesPrototypeKeysDropped,
  bodiesUnknownFieldsRefused,
  errorsShapeBeforeCredentials,
  errorsStatusesOtherwise,
  idsLowerCaseOnly,
  migrationReplacementInMessage,
} from './refusals.ts';
import { answerOf, bodyOf, fixedRandom } from './test-answer.ts';
import type { Answer, Before } from './transform.ts';

const KEY = 'eac-key-0123456789';
const ORG = '0b6f3c8e-52a1-4f3e-9d7c-2a4b6c8d0e1f';

function requestOf(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Answer['request'] {
  return {
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: Buffer.from(
      body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
    ),
    origin: 'api',
  };
}

const rewritten = (seen: Before | undefined) =>
  seen !== undefined && 'request' in seen ? seen.request : undefined;
const refused = (seen: Before | undefined) =>
  seen !== undefined && 'answer' in seen ? seen.answer : undefined;
const jsonBody = (request: Answer['request'] | undefined): unknown =>
  request === undefined ? undefined : JSON.parse(request.body.toString('utf8'));
const errorOfAnswer = (answer: { body: Buffer } | undefined) =>
  answer === undefined
    ? undefined
    : (
        JSON.parse(answer.body.toString('utf8')) as {
          error: { code?: string; details?: Record<string, unknown> };
        }
      ).error;

const refusalOf = (_status: number, code: string, reason?: string) => ({
  status: 'error',
  error: { message: 'no', code, ...(reason === undefined ? {} : { details: { reason } }) },
});

describe('credentials.refused-otherwise', () => {
  it('answers each credential refusal with another status, told apart by its reason', () => {
    for (const [reason, status] of [
      ['missing-credentials', 401],
      ['invalid-api-key', 403],
      ['api-key-misplaced', 400],
      ['organization-id-required', 400],
      ['not-a-member', 404],
      ['invalid-token', 403],
      ['token-expired', 401],
    ] as const) {
      const from = reason === 'not-a-member' ? 403 : 401;
      const code = from === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED';
      const out = credentialsRefusedOtherwise.apply(
        answerOf('GET', '/v1/api/projects/p/user-roles', from, refusalOf(from, code, reason)),
        fixedRandom(),
      );
      expect(out?.status, reason).toBe(status);
      const error = (bodyOf(out) as { error: { code: string; details?: { reason?: unknown } } })
        .error;
      expect(error.code, reason).not.toBe(code);
      expect(error.details?.reason, reason).toBe(undefined);
    }
  });

  it('leaves other refusals and reasons alone', () => {
    const r = fixedRandom();
    const other = answerOf('GET', '/x', 401, refusalOf(401, 'TENANT_NOT_MIGRATED'));
    expect(credentialsRefusedOtherwise.apply(other, r)).toBe(undefined);
    const unknown = answerOf('GET', '/x', 403, refusalOf(403, 'FORBIDDEN', 'no-permission'));
    expect(credentialsRefusedOtherwise.apply(unknown, r)).toBe(undefined);
  });
});

describe('v2.api-key-header', () => {
  const APPS = '/v2/api/applications';

  it('reads the key from x-api-key into the member the target reads, organizationId kept', () => {
    const get = requestOf('GET', `${APPS}?organizationId=${ORG}`, undefined, {
      'x-api-key': KEY,
    });
    const out = rewritten(v2ApiKeyHeader.before?.(get));
    expect(out?.url).toBe(`${APPS}?organizationId=${ORG}&apiKey=${KEY}`);
    expect(out?.headers['x-api-key']).toBe(undefined);
    const post = requestOf('POST', `${APPS}/a/dashboards`, { name: 'n' }, { 'x-api-key': KEY });
    expect(jsonBody(rewritten(v2ApiKeyHeader.before?.(post)))).toEqual({ name: 'n', apiKey: KEY });
  });

  it('does not read an apiKey member on v2, and leaves other calls and tokens alone', () => {
    const query = requestOf('GET', `${APPS}?apiKey=${KEY}&organizationId=${ORG}`);
    expect(rewritten(v2ApiKeyHeader.before?.(query))?.url).toBe(`${APPS}?organizationId=${ORG}`);
    const body = requestOf('POST', `${APPS}/a/dashboards`, { name: 'n', apiKey: KEY });
    expect(jsonBody(rewritten(v2ApiKeyHeader.before?.(body)))).toEqual({ name: 'n' });
    const v1 = requestOf('GET', `/v1/api/dashboard/list-workspaces?apiKey=${KEY}`);
    expect(v2ApiKeyHeader.before?.(v1)).toBe(undefined);
    const token = requestOf('GET', APPS, undefined, { authorization: 'Bearer a.b.c' });
    expect(v2ApiKeyHeader.before?.(token)).toBe(undefined);
  });

  it('states the header in the printed profile, which no longer follows the decision', () => {
    const p = v2ApiKeyHeader.restate?.({
      serves: ['v2'],
      shapes: {},
      follows: ['v2.credentials.api-key-carrier', 'tokens.claims'],
    } as never);
    expect(p?.shapes.v2ApiKey).toEqual({ header: 'x-api-key' });
    expect(p?.follows).toEqual(['tokens.claims']);
  });
});

describe('credentials.read-anywhere', () => {
  it('reads a key from the query of a POST into its body, organizationId with it', () => {
    const req = requestOf(
      'POST',
      `/v1/api/projects/user-token?apiKey=${KEY}&organizationId=${ORG}&x=1`,
      { userId: 'u' },
    );
    const out = rewritten(credentialsReadAnywhere.before?.(req));
    expect(jsonBody(out)).toEqual({ userId: 'u', apiKey: KEY, organizationId: ORG });
    expect(out?.url).toBe('/v1/api/projects/user-token?x=1');
  });

  it('reads a key from a header into the carrier, bare or after a scheme, never a JWT', () => {
    const post = requestOf(
      'POST',
      '/v1/api/projects/register-user',
      { name: 'n' },
      {
        authorization: `Bearer ${KEY}`,
      },
    );
    const out = rewritten(credentialsReadAnywhere.before?.(post));
    expect(jsonBody(out)).toEqual({ name: 'n', apiKey: KEY });
    expect(out?.headers['authorization']).toBe(undefined);
    const get = requestOf('GET', '/v1/api/projects/p/user-roles', undefined, {
      authorization: KEY,
    });
    expect(rewritten(credentialsReadAnywhere.before?.(get))?.url).toBe(
      `/v1/api/projects/p/user-roles?apiKey=${KEY}`,
    );
    const jwt = requestOf('GET', '/v1/api/projects/p/user-roles', undefined, {
      authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    });
    expect(credentialsReadAnywhere.before?.(jwt)).toBe(undefined);
  });

  it('reads a key from the body of a DELETE into its query', () => {
    const req = requestOf('DELETE', '/v1/api/projects/p/user-roles/r', { apiKey: KEY });
    const out = rewritten(credentialsReadAnywhere.before?.(req));
    expect(out?.url).toBe(`/v1/api/projects/p/user-roles/r?apiKey=${KEY}`);
    expect(jsonBody(out)).toEqual({});
  });

  it('leaves a key in its carrier, and calls outside the identity table, alone', () => {
    const own = requestOf('POST', `/v1/api/projects/user-token?apiKey=other`, { apiKey: KEY });
    expect(credentialsReadAnywhere.before?.(own)).toBe(undefined);
    const clone = requestOf('POST', `/v1/api/dashboard/clone?apiKey=${KEY}`, {});
    expect(credentialsReadAnywhere.before?.(clone)).toBe(undefined);
  });
});

describe('organization-id.validated', () => {
  it('refuses an organizationId that is no UUID, in the body or the query', () => {
    for (const req of [
      requestOf('POST', '/v1/api/projects/user-token', { apiKey: KEY, organizationId: 'nope' }),
      requestOf('POST', '/v1/api/projects/user-token', { apiKey: KEY, organizationId: 4711 }),
      requestOf('POST', '/v1/api/projects/user-token', { apiKey: KEY, organizationId: null }),
      requestOf('GET', `/v1/api/projects/p/user-roles?apiKey=${KEY}&organizationId=`),
    ]) {
      const out = refused(organizationIdValidated.before?.(req));
      expect(out?.status).toBe(400);
      expect(errorOfAnswer(out)?.code).toBe('VALIDATION_ERROR');
    }
  });

  it('lets a UUID, or no organizationId, through; the profile no longer follows the shape', () => {
    const ok = requestOf('POST', '/x', { apiKey: KEY, organizationId: ORG });
    expect(organizationIdValidated.before?.(ok)).toBe(undefined);
    expect(organizationIdValidated.before?.(requestOf('GET', `/x?apiKey=${KEY}`))).toBe(undefined);
    const profile = organizationIdValidated.restate?.({
      follows: ['auth.org-bound.organization-id-shape', 'tokens.embed-token.upserts'],
    } as never);
    expect(profile?.follows).toEqual(['tokens.embed-token.upserts']);
  });
});

describe('errors.statuses-otherwise', () => {
  it('answers each open refusal with another status', () => {
    for (const [status, code, to] of [
      [400, 'MALFORMED_JSON', 422],
      [409, 'CONFLICT', 422],
      [413, 'PAYLOAD_TOO_LARGE', 400],
      [415, 'UNSUPPORTED_MEDIA_TYPE', 400],
    ] as const) {
      const out = errorsStatusesOtherwise.apply(
        answerOf('POST', '/v1/api/projects/register-user', status, refusalOf(status, code)),
        fixedRandom(),
      );
      expect(out?.status, code).toBe(to);
    }
  });

  it('answers 405 with Allow for a known path, 404 NOT_FOUND for an unknown one', () => {
    const wrong = errorsStatusesOtherwise.apply(
      answerOf('PATCH', '/v1/api/projects/register-user', 404, refusalOf(404, 'ROUTE_NOT_FOUND')),
      fixedRandom(),
    );
    expect(wrong?.status).toBe(405);
    expect(wrong?.headers['allow']).toBe('POST');
    const none = errorsStatusesOtherwise.apply(
      answerOf('GET', '/v1/api/nothing', 404, refusalOf(404, 'ROUTE_NOT_FOUND')),
      fixedRandom(),
    );
    expect(none?.status).toBe(404);
    expect(errorOfAnswer(none)?.code).toBe('NOT_FOUND');
    const table = answerOf('POST', '/x', 409, refusalOf(409, 'SHARED_DASHBOARD_READ_ONLY'));
    expect(errorsStatusesOtherwise.apply(table, fixedRandom())).toBe(undefined);
  });
});

describe('migration.replacement-in-message', () => {
  it('names the replacement in the message and drops the details', () => {
    const v2 = '/v2/api/applications/a/dashboards/d/clone';
    const out = migrationReplacementInMessage.apply(
      answerOf('POST', '/v1/api/dashboard/clone', 410, {
        status: 'error',
        error: {
          message: 'gone',
          code: 'MIGRATED_TO_V2',
          details: { replacement: 'POST /v2/...', v2Endpoint: `POST ${v2}` },
        },
      }),
      fixedRandom(),
    );
    const error = (bodyOf(out) as { error: { message: string; details?: unknown } }).error;
    expect(error.message).toContain(`POST ${v2}`);
    expect(error.details).toBe(undefined);
  });
});

describe('ids.lower-case-only', () => {
  const UPPER = ORG.toUpperCase();

  it('refuses an upper-case id in the path, the query, a body member or a list', () => {
    for (const req of [
      requestOf('GET', `/v1/api/projects/${UPPER}/user-roles?apiKey=${KEY}`),
      requestOf('GET', `/v1/api/projects/p/user-roles?apiKey=${KEY}&organizationId=${UPPER}`),
      requestOf('POST', '/v1/api/projects/user-token', { apiKey: KEY, userId: UPPER }),
      requestOf('POST', '/v1/api/dashboard/remove-charts', { chartIds: [ORG, UPPER] }),
    ]) {
      const out = refused(idsLowerCaseOnly.before?.(req));
      expect(out?.status, req.url).toBe(400);
    }
  });

  it('matches an externalId as written and leaves lower-case ids alone', () => {
    const ext = requestOf('POST', '/v1/api/projects/register-user', {
      apiKey: KEY,
      projectOrganizationId: UPPER,
      userId: ORG,
    });
    expect(idsLowerCaseOnly.before?.(ext)).toBe(undefined);
  });
});

describe('bodies.prototype-keys-dropped', () => {
  it('drops __proto__ at any depth and prototype inside constructor, keeping the rest', () => {
    const req = requestOf(
      'POST',
      '/v1/api/projects/register-user',
      '{"name":"n","properties":{"__proto__":{"polluted":"yes"},"region":"eu","constructor":{"prototype":{"a":1},"b":2}}}',
    );
    const out = rewritten(bodiesPrototypeKeysDropped.before?.(req));
    expect(jsonBody(out)).toEqual({
      name: 'n',
      properties: { region: 'eu', constructor: { b: 2 } },
    });
  });

  it('leaves a body without such members alone, near misses included', () => {
    const req = requestOf('POST', '/x', '{"x":{"prototype":1},"constructor":"x"}');
    expect(bodiesPrototypeKeysDropped.before?.(req)).toBe(undefined);
  });
});

describe('limits.tighter', () => {
  it('refuses a body, a nesting and a head over its limits', () => {
    const limits = limitsTighter(() => 0);
    const big = requestOf('POST', '/x', { blob: 'x'.repeat(TIGHTER.body) });
    expect(refused(limits.before?.(big))?.status).toBe(413);
    const deep = requestOf(
      'POST',
      '/x',
      `${'['.repeat(TIGHTER.depth + 1)}${']'.repeat(TIGHTER.depth + 1)}`,
    );
    expect(refused(limits.before?.(deep))?.status).toBe(400);
    const head = requestOf('GET', `/x?q=${'a'.repeat(TIGHTER.headers)}`);
    expect(refused(limits.before?.(head))?.status).toBe(431);
    const atDepth = requestOf(
      'POST',
      '/x',
      `${'['.repeat(TIGHTER.depth)}${']'.repeat(TIGHTER.depth)}`,
    );
    expect(limits.before?.(atDepth)).toBe(undefined);
  });

  it('counts depth outside strings only', () => {
    expect(depthOf('{"a":"[[[[{{{{","b":[1,{"c":"\\"["}]}')).toBe(3);
  });

  it('announces the rate on each answer and refuses past it, per credential and window', () => {
    let now = 0;
    const limits = limitsTighter(() => now);
    const req = () => requestOf('GET', `/v1/api/projects/p/user-roles?apiKey=${KEY}`);
    let last: Before | undefined;
    for (let i = 0; i < TIGHTER.rate; i++) {
      const r = req();
      last = limits.before?.(r);
      if (i === 0) {
        const out = limits.apply({ ...answerOf('GET', r.url, 200, {}), request: r }, fixedRandom());
        expect(out?.headers['ratelimit-remaining']).toBe(String(TIGHTER.rate - 1));
      }
    }
    expect(last).toBe(undefined);
    expect(refused(limits.before?.(req()))?.status).toBe(429);
    const chat = requestOf('POST', `/v1/api/project-agents/a/chat`, {}, { authorization: 'x' });
    expect(limits.before?.(chat)).toBe(undefined);
    now = TIGHTER.windowMs;
    expect(limits.before?.(req())).toBe(undefined);
  });
});

describe('isolation.forbidden', () => {
  const ROLE = '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
  const USER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
  const UNSEEN = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
  const notFound = (method: string, url: string, details: unknown, body?: unknown) => ({
    ...answerOf(method, url, 404, {
      status: 'error',
      error: { message: 'none', code: 'NOT_FOUND', details },
    }),
    request: requestOf(method, url, body),
  });

  it('answers 403 for an id the run has shown to exist, 404 for one it has not', () => {
    const t = isolationForbidden();
    t.observe?.(answerOf('POST', '/__eac/roles', 201, { status: 'success', data: { id: ROLE } }));
    t.observe?.(answerOf('POST', '/x', 200, { status: 'success', data: { userId: USER } }));
    const role = t.apply(
      notFound('PUT', `/v1/api/projects/${ORG}/user-roles/${ROLE}`, { resource: 'role' }),
      fixedRandom(),
    );
    expect(role?.status).toBe(403);
    const user = t.apply(
      notFound(
        'POST',
        '/v1/api/projects/user-token',
        { resource: 'user', field: 'userId' },
        {
          userId: USER.toUpperCase(),
        },
      ),
      fixedRandom(),
    );
    expect(user?.status).toBe(403);
    t.observe?.(
      answerOf('POST', '/__eac/projects', 201, { status: 'success', data: { projectId: ORG } }),
    );
    const project = t.apply(
      notFound('POST', '/v1/api/projects/embed-token', { resource: 'project' }, { projectId: ORG }),
      fixedRandom(),
    );
    expect(project?.status).toBe(403);
    const none = notFound('PUT', `/v1/api/projects/${ORG}/user-roles/${UNSEEN}`, {
      resource: 'role',
    });
    expect(t.apply(none, fixedRandom())).toBe(undefined);
  });

  it('forgets a role once deleted, and leaves other resources alone', () => {
    const t = isolationForbidden();
    t.observe?.(answerOf('POST', '/__eac/roles', 201, { status: 'success', data: { id: ROLE } }));
    t.observe?.(
      answerOf('DELETE', `/v1/api/projects/${ORG}/user-roles/${ROLE}?apiKey=k`, 200, {
        status: 'success',
        data: { message: 'gone' },
      }),
    );
    const role = notFound('PUT', `/v1/api/projects/${ORG}/user-roles/${ROLE}`, {
      resource: 'role',
    });
    expect(t.apply(role, fixedRandom())).toBe(undefined);
    t.observe?.(answerOf('POST', '/x', 200, { status: 'success', data: { id: ROLE } }));
    const board = notFound(
      'POST',
      '/v1/api/dashboard/clone',
      { resource: 'dashboard' },
      {
        sourceDashboardId: ROLE,
      },
    );
    expect(t.apply(board, fixedRandom())).toBe(undefined);
  });
});

describe('bodies.unknown-fields-refused', () => {
  it('refuses a member the call does not read, naming each', () => {
    const req = requestOf('POST', '/v1/api/projects/register-organization', {
      apiKey: KEY,
      projectId: ORG,
      name: 'n',
      colour: 'teal',
    });
    const out = refused(bodiesUnknownFieldsRefused.before?.(req));
    expect(out?.status).toBe(400);
    const issues = errorOfAnswer(out)?.details?.['issues'] as { path: string[] }[];
    expect(issues.map((i) => i.path.join('.'))).toEqual(['body.colour']);
  });

  it('lets the members it reads through, and calls it does not know', () => {
    const ok = requestOf('POST', '/v1/api/projects/register-organization', {
      apiKey: KEY,
      organizationId: ORG,
      projectId: ORG,
      name: 'n',
      properties: { anything: 1 },
    });
    expect(bodiesUnknownFieldsRefused.before?.(ok)).toBe(undefined);
    expect(bodiesUnknownFieldsRefused.before?.(requestOf('POST', '/x', { a: 1 }))).toBe(undefined);
  });
});

describe('errors.shape-before-credentials', () => {
  it('refuses a body its schema refuses, whatever the credentials', () => {
    for (const apiKey of [KEY, undefined, 42]) {
      const req = requestOf('POST', '/v1/api/projects/register-organization', {
        apiKey,
        projectId: 'nope',
      });
      const out = refused(errorsShapeBeforeCredentials.before?.(req));
      expect(out?.status).toBe(400);
      const issues = errorOfAnswer(out)?.details?.['issues'] as { path: string[] }[];
      expect(issues.map((i) => i.path.join('.'))).toContain('body.projectId');
    }
  });

  it('leaves a good body to the target, any organizationId aside', () => {
    const req = requestOf('POST', '/v1/api/projects/register-organization', {
      apiKey: 'not-a-key',
      organizationId: 'not-a-uuid',
      projectId: ORG,
      name: 'n',
    });
    expect(errorsShapeBeforeCredentials.before?.(req)).toBe(undefined);
  });
});
