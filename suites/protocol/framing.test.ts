import { once } from 'node:events';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { expect } from 'vitest';
import { z } from 'zod';
import { ErrorEnvelope, ValidationIssue } from '../../spec/schemas/common.ts';
import { externalId, personName } from '../harness/builders.ts';
import { buildWorld, createRole, registerUser, type World } from '../harness/given/accounts.ts';
import { signInFor } from '../harness/given/sign-in.ts';
import { slug } from '../harness/meta.ts';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, detailsOf, expectClientError, statusAndCode } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { authorization } from '../harness/authorization.ts';
import {
  EMBED_TOKEN,
  REGISTER_ORGANIZATION,
  REGISTER_TENANT,
  REGISTER_USER,
  USER_TOKEN,
  rolesPath,
  userPath,
  APPEND,
  CLONE,
  REMOVE,
  SAVE_FROM_CHAT,
} from '../harness/paths.ts';
import { organizationExists, storedUser, userExists } from '../harness/readback.ts';
import { cause } from '../harness/causes.ts';

// Inputs a fuzzer finds: bodies nested thousands of levels deep, requests the HTTP parser
// refuses, member names that mean "prototype" to JavaScript, ids in upper case. §7 wants every
// refusal in its envelope; what the refusal is exactly is left open (probes); a refusal that
// still writes, or a 5xx, is never acceptable (security clauses).
const needs = ['accounts', 'projects'] as const;

/** How deep the fuzzer's reproducer nests its free-form field. */
const DEEP = 4500;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** More objects side by side than any depth limit worth having, each one level down. */
const WIDE = 70;
const wideArray = (n: number) => `[${Array.from({ length: n }, (_, i) => `{"n":${i}}`).join(',')}]`;

/** A JSON body with `deep` spliced in where `marker` stands (built as text: no recursion). */
function bodyWith(fields: Record<string, unknown>, marker: string, deep: string): string {
  const text = JSON.stringify(fields).replace(JSON.stringify(marker), deep);
  if (!text.includes(deep)) throw new Error(`marker ${marker} not found in the body`);
  return text;
}

function postRaw(t: Conformance, path: string, raw: string): Promise<Reply> {
  return t.http.call('POST', path, { raw, headers: { 'content-type': 'application/json' } });
}

function putRaw(t: Conformance, path: string, raw: string): Promise<Reply> {
  return t.http.call('PUT', path, { raw, headers: { 'content-type': 'application/json' } });
}

/** Never a 5xx; a refusal is a client error in the §7 envelope. */
function judgeAnswer(res: Reply, what: string): 'refused' | 'accepted' {
  expect(res.status, `${what}: a server error is never the answer to client input`).toBeLessThan(
    500,
  );
  if (res.status >= 400) {
    expectClientError(res, what);
    return 'refused';
  }
  return 'accepted';
}

interface DeepCase {
  readonly field: string;
  /** The field's words the test's id keeps (meta.ts slug) where they were reworded. */
  readonly idField?: string;
  /** Open shapes the request is written in (the profile's answers to them). */
  readonly relies: readonly ClauseId[];
  /** Sends the request with the deep value inside the field; `state` reads what it could change. */
  readonly run: (
    t: Conformance,
    w: World,
    deep: string,
  ) => Promise<{ res: Reply; state: () => Promise<string>; before: string }>;
}

const MARK = '__deep__';

// STYLE 14: one table of the free-form fields a body can nest in.
const deepCases: readonly DeepCase[] = [
  {
    field: 'register-user properties (a new user)',
    relies: [],
    run: async (t, w, deep) => {
      const userId = t.faker.string.uuid();
      const state = () => userExists(t, w, userId);
      const before = await state();
      const raw = bodyWith(
        {
          ...w.creds(),
          projectId: w.projectId,
          userId,
          name: personName(t.faker),
          properties: { nested: MARK },
        },
        MARK,
        deep,
      );
      return { res: await postRaw(t, REGISTER_USER, raw), state, before };
    },
  },
  {
    field: 'update-user properties (an existing user)',
    relies: [],
    run: async (t, w, deep) => {
      const user = await registerUser(t, w, { properties: { region: 'eu' } });
      const state = () => storedUser(t, w, user.userId);
      const before = await state();
      const raw = bodyWith(
        { ...w.creds(), name: user.body.name, properties: { nested: MARK } },
        MARK,
        deep,
      );
      return { res: await putRaw(t, userPath(w, user.userId), raw), state, before };
    },
  },
  {
    field: 'embed-token user.properties (a user signing in)',
    idField: 'embed-token user.properties (a new user and organization)',
    // §4.8 leaves the member names open: the target's profile gives them. Where the profile
    // follows embed-token creating what it names, the user and organization are new and the
    // state read shows whether they were made; otherwise they are registered first and the
    // state read is the stored user, as a token of it shows (given/sign-in.ts).
    relies: ['tokens.embed-token.body-shape'],
    run: async (t, w, deep) => {
      const names = t.profile.shapes.embedToken;
      const idName = names?.user.id;
      const propertiesName = names?.user.properties;
      if (names === undefined || idName === undefined || propertiesName === undefined)
        return t.notRun(
          'the profile names no embed-token members for the user id and properties',
          cause.shape('shapes.embedToken.user'),
        );
      const who = await signInFor(t, w, { userId: t.faker.string.uuid() });
      const userId = who.userId ?? '';
      const ext = who.externalId;
      const state = who.creates
        ? async () => `${await userExists(t, w, userId)}, ${await organizationExists(t, w, ext)}`
        : () => storedUser(t, w, userId);
      const before = await state();
      const user: Record<string, unknown> = {
        [idName]: userId,
        [propertiesName]: { nested: MARK },
      };
      if (names.user.name !== undefined) user[names.user.name] = who.userName;
      const raw = bodyWith(
        {
          ...w.creds(),
          projectId: w.projectId,
          organization: { [names.organization.externalId]: ext },
          user,
        },
        MARK,
        deep,
      );
      return { res: await postRaw(t, EMBED_TOKEN, raw), state, before };
    },
  },
  {
    field: 'register-organization properties (a new organization)',
    relies: [],
    run: async (t, w, deep) => {
      const ext = externalId(t.faker);
      const state = () => organizationExists(t, w, ext);
      const before = await state();
      const raw = bodyWith(
        {
          ...w.creds(),
          projectId: w.projectId,
          name: t.faker.company.name(),
          externalId: ext,
          properties: { nested: MARK },
        },
        MARK,
        deep,
      );
      return { res: await postRaw(t, REGISTER_ORGANIZATION, raw), state, before };
    },
  },
];

for (const c of deepCases) {
  conformance(
    [
      'errors.refused.changes-nothing',
      'errors.client-input.no-server-error',
      'errors.envelope.shape',
    ],
    `a body nested ${DEEP} levels deep in ${c.field} is refused in the envelope and changes nothing, or is kept usable`,
    async (t) => {
      const w = await buildWorld(t);
      const { res, state, before } = await c.run(t, w, deepArray(DEEP));
      const verdict = judgeAnswer(res, `a ${DEEP}-level body in ${c.field}`);
      // Read back through the API either way: a refusal must have written nothing, and an
      // acceptance must not leave what it stored unreadable (the reads fail on a 5xx).
      const after = await state();
      if (verdict === 'refused')
        expect(after, `the refused ${c.field} request must change nothing`).toBe(before);
    },
    {
      ...(c.idField === undefined
        ? {}
        : {
            id: slug(
              `a body nested ${DEEP} levels deep in ${c.idField} is refused in the envelope and changes nothing, or is kept usable`,
            ),
          }),
      needs,
      parts: ['identity'],
      relies: c.relies,
    },
  );
}

conformance(
  ['errors.client-input.no-server-error', 'errors.envelope.shape'],
  `a register-tenant metadata nested ${DEEP} levels deep is refused in the envelope, or accepted`,
  async (t) => {
    const { name, columns, metadata } = t.profile.shapes.registerTenant ?? {};
    if (name === undefined || columns === undefined || metadata === undefined)
      return t.notRun(
        'the profile names no register-tenant fields for the display name, columns and metadata',
        cause.shape('shapes.registerTenant'),
      );
    const w = await buildWorld(t);
    // A display name too (§4.9 lists it among the concepts), so that a refusal can only be
    // for the depth, not for a missing name.
    const raw = bodyWith(
      {
        ...w.creds(),
        [name]: t.faker.company.name(),
        [columns]: { customer_id: t.faker.string.alphanumeric(8) },
        [metadata]: { nested: MARK },
      },
      MARK,
      deepArray(DEEP),
    );
    judgeAnswer(await postRaw(t, REGISTER_TENANT, raw), `a ${DEEP}-level tenant metadata`);
  },
  { needs, parts: ['tenant-flow'], relies: ['tenants.register.field-names'] },
);

probe(
  ['limits.body-depth'],
  'how deeply a JSON body may nest',
  async (t) => {
    const w = await buildWorld(t);
    const register = (deep: string) =>
      postRaw(
        t,
        REGISTER_USER,
        bodyWith(
          {
            ...w.creds(),
            projectId: w.projectId,
            name: personName(t.faker),
            properties: { nested: MARK },
          },
          MARK,
          deep,
        ),
      );
    // The body is level 1 and properties level 2, so the array adds levels from 3 on.
    const atLimit = await register(deepArray(62));
    const deeper = await register(deepArray(63));
    const deepest = await register(deepArray(DEEP));
    // The deep branch after a closed sibling (`[[], [[…]]]`): the depth counts the open
    // brackets of the branch, not of everything read before it.
    const afterSibling = (levels: number) => `[[],${deepArray(levels)}]`;
    const siblingAtLimit = await register(afterSibling(61));
    const siblingDeeper = await register(afterSibling(62));
    // Wide, not deep: 70 objects side by side, three levels in all.
    const wide = await register(wideArray(WIDE));
    t.observe(
      `64 levels: ${statusAndCode(atLimit)}; 65 levels: ${describeAnswer(deeper)}; ${DEEP + 2} levels: ${describeAnswer(deepest)}; ` +
        `after a closed sibling, 64 levels: ${statusAndCode(siblingAtLimit)}; 65 levels: ${describeAnswer(siblingDeeper)}; ` +
        `${WIDE} objects side by side: ${statusAndCode(wide)}`,
      wide.status === 200 &&
        atLimit.status === 200 &&
        statusAndCode(deeper) === '400 BODY_TOO_DEEP' &&
        statusAndCode(deepest) === '400 BODY_TOO_DEEP' &&
        detailsOf(deepest)['maxDepth'] === 64 &&
        siblingAtLimit.status === 200 &&
        statusAndCode(siblingDeeper) === '400 BODY_TOO_DEEP',
    );
  },
  { needs, parts: ['identity'] },
);

// --- requests the HTTP parser refuses, sent byte for byte ---------------------------------

interface RawAnswer {
  readonly kind: 'answer';
  readonly status: number;
  readonly statusLine: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Whether the server closed the connection after answering. */
  readonly closed: boolean;
}

const RAW_TIMEOUT_MS = 5000;
/** How many pieces a trickled request is sent in. */
const TRICKLE_PIECES = 13;

/** What came back instead of an HTTP answer. */
interface RawSilence {
  /** `closed`: the server closed the connection without a byte; `waiting`: nothing came in time. */
  readonly kind: 'closed' | 'waiting' | 'garbage';
  /** The bytes that came, as latin1 (empty unless garbage). */
  readonly bytes: string;
}

type RawResult = RawAnswer | RawSilence;

/** Parses one HTTP/1.x response from the front of `data`, or undefined when incomplete. */
function parseResponse(
  data: Buffer,
  ended: boolean,
): (Omit<RawAnswer, 'closed' | 'kind'> & { readonly consumed: number }) | undefined | 'garbage' {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return ended ? 'garbage' : undefined;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (m === null) return 'garbage';
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = data.subarray(end + 4);
  let body: Buffer;
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) return ended ? 'garbage' : undefined;
    body = rest.subarray(0, length);
    rest = rest.subarray(length);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = rest.indexOf('\r\n');
      if (eol === -1) return ended ? 'garbage' : undefined;
      const size = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
      if (Number.isNaN(size)) return 'garbage';
      if (size === 0) break;
      if (rest.length < eol + 2 + size + 2) return ended ? 'garbage' : undefined;
      parts.push(rest.subarray(eol + 2, eol + 2 + size));
      rest = rest.subarray(eol + 2 + size + 2);
    }
    const trailerEnd = rest.indexOf('\r\n\r\n');
    rest = trailerEnd === -1 ? rest.subarray(rest.length) : rest.subarray(trailerEnd + 4);
    body = Buffer.concat(parts);
  } else {
    if (!ended) return undefined;
    body = rest;
    rest = rest.subarray(rest.length);
  }
  return {
    status: Number(m[1]),
    statusLine,
    headers,
    body: body.toString('utf8'),
    consumed: data.length - rest.length,
  };
}

/**
 * Sends `requests` one after the other on one connection (each after the previous answer)
 * and returns what came back for each: an answer, or what came instead (the connection closed,
 * nothing in time, bytes that are not HTTP), after which nothing more is sent. The suites' HTTP
 * client cannot send malformed requests, hence a socket; the exchanges still go into the report.
 * It never throws on what a server sends back: the callers judge.
 */
async function rawExchange(
  t: Conformance,
  requests: readonly string[],
  options: { readonly trickleMs?: number } = {},
): Promise<RawResult[]> {
  const url = new URL(t.target.baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const socket: Socket =
    url.protocol === 'https:'
      ? tlsConnect({ host: url.hostname, port, servername: url.hostname })
      : tcpConnect({ host: url.hostname, port });
  let data = Buffer.alloc(0);
  let ended = false;
  let wake: () => void = () => undefined;
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    wake();
  });
  const finish = () => {
    ended = true;
    wake();
  };
  socket.on('end', finish);
  socket.on('close', finish);
  socket.on('error', finish);
  /** Waits for more bytes, the end of the connection, or the deadline. */
  const pause = (deadline: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, Math.max(1, deadline - Date.now()));
    });
  const answers: RawResult[] = [];
  try {
    for (const request of requests) {
      const started = performance.now();
      const bytes = request.replaceAll('{base}', url.pathname.replace(/\/$/, ''));
      if (options.trickleMs === undefined) socket.write(bytes, 'latin1');
      else {
        // Sent in pieces spread over trickleMs, the last at its end, as a slow client would: a
        // piece waits for its turn or for the server to answer or close, which ends the sending.
        const size = Math.ceil(bytes.length / TRICKLE_PIECES);
        const step = options.trickleMs / Math.max(1, Math.ceil(bytes.length / size) - 1);
        for (let at = 0; at < bytes.length && data.length === 0 && !ended; at += size) {
          socket.write(bytes.slice(at, at + size), 'latin1');
          if (at + size < bytes.length) await pause(Date.now() + step);
        }
      }
      const deadline = Date.now() + RAW_TIMEOUT_MS;
      let parsed = parseResponse(data, ended);
      while (parsed === undefined && Date.now() < deadline) {
        await pause(deadline);
        parsed = parseResponse(data, ended);
      }
      const requestLine = request.slice(0, Math.min(request.indexOf('\r\n') >>> 0, 200));
      const exchange = {
        request: {
          method: 'RAW',
          url: `${url.origin} ${JSON.stringify(requestLine)} (${request.length} bytes)`,
          headers: {},
        },
        ms: Math.round(performance.now() - started),
      };
      if (parsed === undefined || parsed === 'garbage') {
        const bytes = data.toString('latin1').slice(0, 300);
        const silence: RawSilence = {
          kind: data.length > 0 ? 'garbage' : ended ? 'closed' : 'waiting',
          bytes,
        };
        t.http.exchanges.push({ ...exchange, error: `no HTTP response: ${describeRaw(silence)}` });
        answers.push(silence);
        return answers;
      }
      const { consumed, ...answer } = parsed;
      t.http.exchanges.push({
        ...exchange,
        response: {
          status: answer.status,
          headers: answer.headers,
          body: answer.body.slice(0, 2000),
        },
      });
      data = data.subarray(consumed);
      if (answer.status >= 500) t.http.serverErrors.push(`RAW ${requestLine} -> ${answer.status}`);
      answers.push({ ...answer, kind: 'answer', closed: false });
    }
    // Did the server close the connection after its last answer?
    const closing = Date.now() + 1000;
    while (!ended && Date.now() < closing) await pause(closing);
    const last = answers.pop();
    if (last?.kind === 'answer') answers.push({ ...last, closed: ended });
    return answers;
  } finally {
    socket.destroy();
  }
}

const HOST = 'host: eac.invalid';

interface RawCase {
  readonly what: string;
  readonly request: string;
}

// STYLE 14: the malformed requests a fuzzer found, one line each. `{base}` is the target's path.
const rawCases: readonly RawCase[] = [
  {
    what: 'a request line with a NUL in the path',
    request: `GET {base}/v1/api/projects/\0/user-roles HTTP/1.1\r\n${HOST}\r\n\r\n`,
  },
  {
    what: 'a request line that is not HTTP',
    request: `GET{base}/v1/api/projects/user-roles\r\n${HOST}\r\n\r\n`,
  },
  {
    what: 'two different Content-Length headers',
    request: `POST {base}/v1/api/projects/register-user HTTP/1.1\r\n${HOST}\r\ncontent-type: application/json\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}`,
  },
  {
    what: 'both Content-Length and Transfer-Encoding',
    request: `POST {base}/v1/api/projects/register-user HTTP/1.1\r\n${HOST}\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  },
  {
    what: 'a chunk size that is not hexadecimal',
    request: `POST {base}/v1/api/projects/register-user HTTP/1.1\r\n${HOST}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
  },
  {
    what: 'an HTTP/1.1 request without Host',
    request: `GET {base}/v1/api/projects/user-roles HTTP/1.1\r\n\r\n`,
  },
];

const BIG_QUERY = 17 * 1024;
const bigQuery = `GET {base}/v1/api/projects/user-roles?q=${'a'.repeat(BIG_QUERY)} HTTP/1.1\r\n${HOST}\r\n\r\n`;

/** What came back, in a few words, for messages and observations. */
function describeRaw(result: RawResult | undefined): string {
  if (result === undefined) return 'nothing was sent';
  switch (result.kind) {
    case 'answer':
      return `${result.status} ${codeOf(result) ?? (result.body === '' ? '(empty body)' : '(no §7 code)')}`;
    case 'closed':
      return 'the connection closed without an answer';
    case 'waiting':
      return `no answer within ${RAW_TIMEOUT_MS} ms, the connection still open`;
    case 'garbage':
      return `bytes that are not an HTTP answer: ${JSON.stringify(result.bytes)}`;
  }
}

/** The §7 error of a raw answer's body, or undefined when the body is not that envelope. */
const rawError = (answer: RawResult | undefined) => {
  if (answer?.kind !== 'answer') return undefined;
  try {
    return ErrorEnvelope.safeParse(JSON.parse(answer.body)).data?.error;
  } catch {
    return undefined;
  }
};
const codeOf = (answer: RawResult | undefined) => rawError(answer)?.code;
const closes = (a: RawResult | undefined) =>
  a?.kind === 'answer' && /close/i.test(a.headers['connection'] ?? '');
const closedAfter = (a: RawResult | undefined) => a?.kind === 'answer' && a.closed;

// A request refused before routing reaches no endpoint, so §7's envelope (which shapes the
// answers of the endpoints) is not asked of it: the body is probed (errors.malformed-http,
// limits.header-size). What no trustworthy server does is checked here: a 5xx, an answer that
// is not HTTP, or a connection left waiting.
for (const c of [
  ...rawCases,
  { what: `a query string of ${BIG_QUERY / 1024} KiB`, request: bigQuery },
]) {
  conformance(
    ['errors.malformed-http.answered', 'errors.client-input.no-server-error'],
    `${c.what} is answered without a server error, or its connection is closed`,
    async (t) => {
      const [result] = await rawExchange(t, [c.request]);
      if (result?.kind === 'closed') return;
      if (result?.kind !== 'answer')
        expect.fail(
          `${c.what}: expected an HTTP answer or a closed connection, got ${describeRaw(result)}`,
        );
      expect(
        result.status,
        `${c.what}: a server error is never the answer to client input, got ${result.statusLine}`,
      ).toBeLessThan(500);
      expect(
        result.status,
        `${c.what}: a request that cannot be framed is refused, got ${result.statusLine}`,
      ).toBeGreaterThanOrEqual(400);
    },
  );
}

/**
 * Resets a connection (a TCP RST, as a client that crashes sends) while the server holds a
 * request whose body has not all come: one write carries a whole GET and, pipelined behind it,
 * the head of a POST announcing 100 bytes with the first few of them. The GET's answer shows
 * that the server has read the write (or RAW_TIMEOUT_MS passes, for a server that does not
 * answer a pipelined request before the next one is whole); then the reset.
 */
async function resetMidBody(t: Conformance, path: string): Promise<void> {
  const url = new URL(t.target.baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const tls = url.protocol === 'https:';
  const socket: Socket = tls
    ? tlsConnect({ host: url.hostname, port, servername: url.hostname })
    : tcpConnect({ host: url.hostname, port });
  socket.on('error', () => undefined);
  await once(socket, tls ? 'secureConnect' : 'connect');
  const base = url.pathname.replace(/\/$/, '');
  const answered = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, RAW_TIMEOUT_MS);
    socket.once('data', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.write(
    `GET ${base}/v1/api/no-such-endpoint HTTP/1.1\r\nhost: ${url.host}\r\n\r\n` +
      `POST ${base}${path} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
      'content-length: 100\r\n\r\n{"name": "',
  );
  await answered;
  const closed = once(socket, 'close');
  socket.resetAndDestroy();
  await closed;
}

conformance(
  ['errors.client-input.no-server-error'],
  'a client that resets its connection in the middle of a body leaves the server answering the next requests',
  async (t) => {
    const w = await buildWorld(t);
    for (let i = 0; i < 3; i++) {
      await resetMidBody(t, REGISTER_USER);
      const res = await t.http.get(rolesPath(w), { query: w.creds() });
      expect(res.status, `after reset ${i + 1}: ${describeAnswer(res)}`).toBe(200);
    }
  },
  { needs: [...needs, 'roles'], parts: ['identity'] },
);

// A JSON body of null is no object of fields, whoever sends it. With the key in the
// authorization header (§5, the dashboard writes) the body holds no credential to refuse first.
for (const path of [CLONE, APPEND, REMOVE, SAVE_FROM_CHAT]) {
  conformance(
    ['errors.client-input.no-server-error', 'errors.envelope.shape'],
    `${path} with the key in the authorization header and a JSON body of null is refused in the envelope`,
    async (t) => {
      const w = await buildWorld(t);
      const res = await t.http.call('POST', path, {
        raw: 'null',
        headers: { 'content-type': 'application/json', ...authorization(t, w.account.orgBoundKey) },
      });
      expectClientError(res, `${path} with a body of null`);
    },
    { needs, parts: ['v1-dashboards'] },
  );
}

probe(
  ['errors.malformed-http'],
  'the status, body, code and details.cause of requests that are not well-formed HTTP, and HTTP/1.0 without Host',
  async (t) => {
    const seen: string[] = [];
    let all = true;
    for (const c of rawCases) {
      const [answer] = await rawExchange(t, [c.request]);
      const cause = rawError(answer)?.details?.['cause'];
      seen.push(
        `${c.what}: ${describeRaw(answer)}, cause ${JSON.stringify(cause)}${closes(answer) ? ', connection: close' : ''}${closedAfter(answer) ? ', closed' : ''}`,
      );
      all &&=
        answer?.kind === 'answer' &&
        answer.status === 400 &&
        codeOf(answer) === 'MALFORMED_REQUEST' &&
        closes(answer) &&
        closedAfter(answer) &&
        // The parser's own code for what it refused; missing-host where Host alone is missing.
        (c.what.includes('without Host')
          ? cause === 'missing-host'
          : typeof cause === 'string' && cause.length > 0 && cause !== 'missing-host');
    }
    // HTTP/1.0 does not require Host (RFC 9112 §3.2 asks it of HTTP/1.1), so the request is
    // answered as any other: here the 404 of a path the service does not have.
    const [old] = await rawExchange(t, ['GET {base}/v1/api/no-such-endpoint HTTP/1.0\r\n\r\n']);
    seen.push(`HTTP/1.0 without Host: ${describeRaw(old)}`);
    t.observe(
      seen.join('; '),
      all && old?.kind === 'answer' && old.status === 404 && codeOf(old) === 'ROUTE_NOT_FOUND',
    );
  },
);

probe(
  ['limits.header-size'],
  `a ${BIG_QUERY / 1024} KiB query string after a good request on a kept-alive connection`,
  async (t) => {
    const first = `GET {base}/v1/api/no-such-endpoint HTTP/1.1\r\n${HOST}\r\n\r\n`;
    const [before, big] = await rawExchange(t, [first, bigQuery]);
    const limit = rawError(big)?.details?.['limit'];
    t.observe(
      `first request: ${describeRaw(before)}; the big one: ${describeRaw(big)}, limit ${JSON.stringify(limit)}${closes(big) ? ', connection: close' : ', no connection: close'}${closedAfter(big) ? ', closed' : ', left open'}`,
      big?.kind === 'answer' &&
        big.status === 431 &&
        codeOf(big) === 'HEADERS_TOO_LARGE' &&
        closes(big) &&
        closedAfter(big),
    );
  },
);

probe(
  ['limits.header-size'],
  'a 12 KiB query string on a path the service does not have',
  async (t) => {
    // Under the decision's 16 KiB for the request line and headers, the request is read: the
    // answer is the unknown path's, not a refusal of its size.
    const res = await t.http.get('/v1/api/no-such-endpoint', {
      query: { q: 'a'.repeat(12 * 1024) },
    });
    t.observe(statusAndCode(res), statusAndCode(res) === '404 ROUTE_NOT_FOUND');
    expect(res.status, 'a long query is never a 5xx').toBeLessThan(500);
  },
);

// limits.request-timeout: a client that takes its time. The request is whole after TRICKLE_MS,
// well within the decision's 60 s; a target that gives a client less cuts it off before.
const TRICKLE_MS = 2800;
probe(
  ['limits.request-timeout'],
  `a request whose line and headers trickle in over ${TRICKLE_MS / 1000} s`,
  async (t) => {
    const request = `GET {base}/v1/api/no-such-endpoint HTTP/1.1\r\n${HOST}\r\naccept: application/json\r\nconnection: close\r\n\r\n`;
    const started = performance.now();
    const [answer] = await rawExchange(t, [request], { trickleMs: TRICKLE_MS });
    const ms = Math.round(performance.now() - started);
    const read = answer?.kind === 'answer' && answer.status !== 408;
    t.observe(
      `${read ? 'read' : 'cut off'}: ${describeRaw(answer)} after ${ms} ms`,
      read && answer.status === 404 && codeOf(answer) === 'ROUTE_NOT_FOUND',
    );
  },
);

// --- member names and ids -----------------------------------------------------------------

probe(
  ['errors.validation.prototype-keys'],
  'a body with a __proto__ member, and one with constructor.prototype',
  async (t) => {
    const w = await buildWorld(t);
    const send = (properties: string) =>
      postRaw(
        t,
        REGISTER_USER,
        bodyWith(
          { ...w.creds(), projectId: w.projectId, name: personName(t.faker), properties: MARK },
          MARK,
          properties,
        ),
      );
    const proto = await send('{"__proto__": {"polluted": "yes"}, "region": "eu"}');
    const ctor = await send('{"constructor": {"prototype": {"polluted": "yes"}}}');
    const issuePaths = (res: Reply) => {
      const issues = z.array(ValidationIssue).safeParse(detailsOf(res)['issues']);
      return issues.success
        ? issues.data.filter((i) => i.code === 'forbidden_key').map((i) => i.path.join('.'))
        : [];
    };
    t.observe(
      `__proto__: ${statusAndCode(proto)} ${issuePaths(proto).join(',')}; constructor.prototype: ${statusAndCode(ctor)} ${issuePaths(ctor).join(',')}`,
      statusAndCode(proto) === '400 VALIDATION_ERROR' &&
        issuePaths(proto).join() === 'body.properties.__proto__' &&
        statusAndCode(ctor) === '400 VALIDATION_ERROR' &&
        issuePaths(ctor).join() === 'body.properties.constructor.prototype',
    );
  },
  { needs, parts: ['identity'] },
);

conformance(
  ['errors.refused.changes-nothing', 'errors.client-input.no-server-error'],
  'a __proto__ member is never a server error, and a refusal of it registers nobody',
  async (t) => {
    const w = await buildWorld(t);
    const userId = t.faker.string.uuid();
    const before = await userExists(t, w, userId);
    const raw = bodyWith(
      { ...w.creds(), projectId: w.projectId, userId, name: personName(t.faker), properties: MARK },
      MARK,
      '{"__proto__": {"polluted": "yes"}}',
    );
    const verdict = judgeAnswer(await postRaw(t, REGISTER_USER, raw), 'a __proto__ member');
    const after = await userExists(t, w, userId);
    if (verdict === 'refused')
      expect(after, 'the refused registration must change nothing').toBe(before);
    else expect(after, 'an accepted registration registers the user').toBe(`user ${userId} exists`);
  },
  { needs, parts: ['identity'] },
);

// Member names JavaScript gives a meaning, at the top of a valid body and valued with what is
// not an object (a parser that looks inside `constructor` for a `prototype` must not trip on
// null). The document does not list them, so they are unknown fields: whatever the server
// makes of them, it answers without a 5xx and registers the user or nobody.
for (const member of [
  '"constructor": null',
  '"constructor": 7',
  '"prototype": null',
  '"__proto__": null',
]) {
  conformance(
    ['errors.refused.changes-nothing', 'errors.client-input.no-server-error'],
    `a register-user body with ${member} beside its fields is never a server error, and a refusal registers nobody`,
    async (t) => {
      const w = await buildWorld(t);
      const userId = t.faker.string.uuid();
      const before = await userExists(t, w, userId);
      const fields = JSON.stringify({
        ...w.creds(),
        projectId: w.projectId,
        userId,
        name: personName(t.faker),
      });
      const raw = `{${member},${fields.slice(1)}`;
      const verdict = judgeAnswer(await postRaw(t, REGISTER_USER, raw), `a body with ${member}`);
      const after = await userExists(t, w, userId);
      if (verdict === 'refused')
        expect(after, 'the refused registration must change nothing').toBe(before);
      else
        expect(after, 'an accepted registration registers the user').toBe(`user ${userId} exists`);
    },
    { needs, parts: ['identity'] },
  );
}

probe(
  ['errors.validation.uuid-case'],
  'ids written in upper case: organizationId with a user-scoped key, projectId, role and user ids',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w);
    const user = await registerUser(t, w);
    const up = (s: string) => s.toUpperCase();
    const creds = w.creds('user-scoped');
    const upperOrg = { ...creds, organizationId: up(w.account.organizationId) };
    const answers: [string, Reply][] = [
      ['organizationId', await t.http.get(rolesPath(w), { query: upperOrg })],
      ['projectId', await t.http.get(rolesPath({ projectId: up(w.projectId) }), { query: creds })],
      [
        'role id',
        await t.http.put(`${rolesPath(w)}/${up(role.id)}`, {
          ...creds,
          name: role.name,
          permissions: {},
        }),
      ],
      ['user id', await t.http.post(USER_TOKEN, { ...creds, userId: up(user.userId) })],
    ];
    for (const [what, res] of answers)
      expect(res.status, `${what} in upper case: never a server error`).toBeLessThan(500);
    t.observe(
      answers.map(([what, res]) => `${what}: ${describeAnswer(res)}`).join('; '),
      answers.every(([, res]) => res.status === 200),
    );
  },
  { needs: [...needs, 'roles'], parts: ['identity'] },
);
