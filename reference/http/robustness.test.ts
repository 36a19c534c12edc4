import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegisterUserBody } from '../../spec/schemas/user.ts';
import { EmbedTokenBody } from '../../spec/schemas/token.ts';
import { RemoveChartsBody } from '../../spec/schemas/dashboard.ts';
import { start, type RunningReference } from '../server.ts';
import { parserRefusal } from './client-errors.ts';
import { MAX_JSON_DEPTH, nestingDepth, prototypeKeyPaths, readJsonBody } from './json-body.ts';
import { rawErrorResponse } from './render.ts';
import { lowerCaseUuids } from './uuid-case.ts';

// What a fuzzer found in the reference (issue 6, part 11), kept from coming back: errors the
// HTTP parser raises leave in the §7 envelope, deep bodies are refused before any change,
// `__proto__` is named rather than called malformed, and UUIDs are read in either case.

const nest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('nestingDepth', () => {
  it('counts objects and arrays, the outermost as level 1', () => {
    expect(nestingDepth('1')).toBe(0);
    expect(nestingDepth('{}')).toBe(1);
    expect(nestingDepth('{"a":[{"b":[]}],"c":{}}')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestingDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(nestingDepth('{"a":"\\"[[[","b":[]}')).toBe(2);
    expect(nestingDepth('["\\\\",[]]')).toBe(2);
  });

  it('stops at the limit and needs no stack for a million levels', () => {
    expect(nestingDepth(nest(1_000_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(nestingDepth(nest(1_000_000))).toBe(1_000_000);
  });
});

describe('readJsonBody', () => {
  const inProperties = (levels: number) => `{"name":"a","properties":{"x":${nest(levels)}}}`;

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1} with BODY_TOO_DEEP`, () => {
    expect(readJsonBody(inProperties(MAX_JSON_DEPTH - 2)).ok).toBe(true);
    const refused = readJsonBody(inProperties(MAX_JSON_DEPTH - 1));
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'BODY_TOO_DEEP', details: { maxDepth: 64 } },
    });
    expect(readJsonBody(inProperties(4500)).ok).toBe(false);
  });

  it('reads zero bytes as no body, and anything else that is not JSON as MALFORMED_JSON', () => {
    expect(readJsonBody('')).toEqual({ ok: true, value: undefined });
    expect(readJsonBody('{"a":')).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
  });

  it('refuses __proto__ and constructor.prototype by name, as a validation error', () => {
    const read = readJsonBody(
      '{"properties":{"__proto__":{"admin":true}},"list":[{"constructor":{"prototype":{}}}]}',
    );
    expect(read).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
    if (read.ok) return;
    expect(read.error.details?.['issues']).toEqual([
      expect.objectContaining({ path: ['body', 'properties', '__proto__'], code: 'forbidden_key' }),
      expect.objectContaining({
        path: ['body', 'list', 0, 'constructor', 'prototype'],
        code: 'forbidden_key',
      }),
    ]);
    expect(({} as Record<string, unknown>)['admin'], 'no prototype was touched').toBeUndefined();
  });

  it('finds __proto__ however the member name is escaped', () => {
    expect(readJsonBody('{"a":{"\\u005f_proto__":{}}}')).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('lets constructor through when it holds no prototype', () => {
    expect(readJsonBody('{"constructor":"Ford","car":{"constructor":{"make":"T"}}}').ok).toBe(true);
    expect(prototypeKeyPaths({ a: [{ b: 1 }] })).toEqual([]);
  });
});

describe('parserRefusal', () => {
  const refusal = (code: string, reason?: string) =>
    parserRefusal(
      Object.assign(new Error('parse'), reason === undefined ? { code } : { code, reason }),
    );

  it('maps the HTTP parser errors to catalogue codes', () => {
    expect(refusal('HPE_HEADER_OVERFLOW')).toMatchObject({
      code: 'HEADERS_TOO_LARGE',
      details: { limit: 16384 },
    });
    expect(refusal('ERR_HTTP_REQUEST_TIMEOUT')?.code).toBe('REQUEST_TIMEOUT');
    expect(refusal('HPE_CHUNK_EXTENSIONS_OVERFLOW')?.code).toBe('PAYLOAD_TOO_LARGE');
    const malformed = refusal('HPE_INVALID_METHOD', 'Invalid method encountered');
    expect(malformed).toMatchObject({
      code: 'MALFORMED_REQUEST',
      details: { cause: 'HPE_INVALID_METHOD' },
    });
    expect(malformed?.message).toContain('Invalid method encountered');
    expect(refusal('ECONNRESET'), 'nobody is left to answer').toBeUndefined();
  });

  it('renders a whole HTTP response whose content-length counts bytes', () => {
    const raw = rawErrorResponse({ code: 'MALFORMED_REQUEST', message: 'caf\u00e9 \u2019' });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toContain('connection: close');
    expect(head).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({
      status: 'error',
      error: { message: 'caf\u00e9 \u2019', code: 'MALFORMED_REQUEST', details: {} },
    });
  });
});

describe('lowerCaseUuids', () => {
  const upper = 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D';

  it('lowers every field typed as a UUID, nested and in arrays, and nothing else', () => {
    const body = RegisterUserBody.parse({
      name: 'N',
      projectId: upper,
      userId: upper,
      projectOrganizationId: upper,
      properties: { ref: upper },
    });
    expect(lowerCaseUuids(RegisterUserBody, body)).toEqual({
      name: 'N',
      projectId: upper.toLowerCase(),
      userId: upper.toLowerCase(),
      // may be an externalId, which keeps its case; free-form properties too
      projectOrganizationId: upper,
      properties: { ref: upper },
    });
    const embed = EmbedTokenBody.parse({
      projectId: upper,
      organization: { externalId: upper },
      user: { id: upper, name: 'U', userRoleId: null },
    });
    expect(lowerCaseUuids(EmbedTokenBody, embed)).toMatchObject({
      organization: { externalId: upper },
      user: { id: upper.toLowerCase(), userRoleId: null },
    });
    const charts = RemoveChartsBody.parse({ dashboardId: upper, chartIds: [upper] });
    expect(lowerCaseUuids(RemoveChartsBody, charts)).toMatchObject({
      chartIds: [upper.toLowerCase()],
    });
  });
});

interface RawAnswer {
  readonly head: string;
  readonly body: string;
  readonly closed: boolean;
}

/** Sends bytes on a fresh connection; collects everything until the server closes it. */
function sendRaw(url: string, ...requests: string[]): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(split(data, false));
    }, 3000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(split(data, true));
    });
    socket.write(requests.join(''), 'latin1');
  });
}

/** The last of the responses on the connection (each framed by its content-length). */
function split(data: string, closed: boolean): RawAnswer {
  let rest = data;
  for (;;) {
    const at = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, at);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? rest.length);
    const body = Buffer.from(rest.slice(at + 4), 'latin1')
      .subarray(0, length)
      .toString('utf8');
    rest = rest.slice(at + 4 + length);
    if (at === -1 || rest.length === 0) return { head, body, closed };
  }
}

describe('the reference server, fed what a fuzzer sends', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await start({ hooks: true, seed: 7 });
  });
  afterAll(() => ref.close());

  const host = 'host: eac.invalid\r\n';
  const cases: readonly [string, string, number, string][] = [
    ['a NUL in the path', `GET /v1/\0 HTTP/1.1\r\n${host}\r\n`, 400, 'MALFORMED_REQUEST'],
    [
      'a 17 KiB query string',
      `GET /v1/api?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\n${host}\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      'two Content-Length headers',
      `POST /v1/api HTTP/1.1\r\n${host}content-length: 2\r\ncontent-length: 3\r\n\r\n{}`,
      400,
      'MALFORMED_REQUEST',
    ],
    [
      'Content-Length with Transfer-Encoding',
      `POST /v1/api HTTP/1.1\r\n${host}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
      'MALFORMED_REQUEST',
    ],
    [
      'a bad chunk size',
      `POST /v1/api HTTP/1.1\r\n${host}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'MALFORMED_REQUEST',
    ],
    ['no Host', `GET /v1/api HTTP/1.1\r\n\r\n`, 400, 'MALFORMED_REQUEST'],
    ['a request line that is not HTTP', `GARBAGE\r\n\r\n`, 400, 'MALFORMED_REQUEST'],
  ];

  it.each(cases)('answers %s in the envelope and closes', async (_what, request, status, code) => {
    const answer = await sendRaw(ref.url, request);
    expect(answer.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.head.toLowerCase()).toContain(
      `content-length: ${Buffer.byteLength(answer.body)}`,
    );
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', error: { code } });
    expect(answer.closed, 'the server closes the connection').toBe(true);
  });

  it('closes a kept-alive connection after a 431, saying so', async () => {
    // Sent together: the refusal must follow the first answer, not cut into or replace it.
    const answer = await sendRaw(
      ref.url,
      `GET /v1/none HTTP/1.1\r\n${host}\r\n`,
      `GET /v1/none?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\n${host}\r\n`,
    );
    expect(answer.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.closed).toBe(true);
  });

  async function post(path: string, body: string | object) {
    const res = await fetch(`${ref.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown } };
  }

  async function world() {
    const account = (await post('/__eac/accounts', {})).body.data as {
      organizationId: string;
      orgBoundKey: string;
      userScopedKey: string;
    };
    const created = await post(`/__eac/accounts/${account.organizationId}/projects`, {});
    const project = created.body.data as { projectId: string };
    return { ...account, projectId: project.projectId };
  }

  it('refuses a 4,500-level body before storing it, and the user stays absent', async () => {
    const w = await world();
    const userId = '7d7f0b8e-1c1a-4c55-9a51-0000000000a1';
    const deep = `{"apiKey":"${w.orgBoundKey}","projectId":"${w.projectId}","userId":"${userId}","name":"A","properties":{"x":${nest(4500)}}}`;
    const res = await post('/v1/api/projects/register-user', deep);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'BODY_TOO_DEEP' } });
    const token = await post('/v1/api/projects/user-token', { apiKey: w.orgBoundKey, userId });
    expect(token.status, 'nothing was registered').toBe(404);
  });

  it('reads an organizationId written in upper case as the same account', async () => {
    const w = await world();
    const res = await fetch(
      `${ref.url}/v1/api/projects/${w.projectId.toUpperCase()}/user-roles?apiKey=${w.userScopedKey}&organizationId=${w.organizationId.toUpperCase()}`,
    );
    expect(res.status).toBe(200);
  });
});
