import {
  errorOf,
  hashOf,
  isObject,
  jsonOf,
  successOf,
  withJson,
  type JsonObject,
} from './answer.ts';
import { isChatStream, parseStream, writeStream } from './sse.ts';
import type { Answer, Transform } from './transform.ts';

// Form transforms for open points that `eac latitude --open-points` found varied by no entry
// (spec/open-points.ts): each rewrites only what its point leaves open.

/** The answer with a new body; a body an earlier transform cut into pieces is cut as many. */
function withBody(answer: Answer, body: Buffer, random: () => number): Answer | undefined {
  if (body.equals(answer.body)) return undefined;
  const { pieces, ...rest } = answer;
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
  if (pieces === undefined || pieces.length < 2 || body.length < 2)
    return { ...rest, headers, body };
  // As many pieces, each cut inside its own stretch of the body (no draw can repeat forever).
  const n = Math.min(pieces.length, body.length);
  const cuts = Array.from({ length: n - 1 }, (_v, i) =>
    Math.min(
      body.length - 1,
      Math.max(1, Math.floor((body.length * (i + 0.5 + random() / 2)) / n)),
    ),
  );
  const at = [0, ...new Set(cuts), body.length];
  return { ...rest, headers, body, pieces: at.slice(1).map((end, i) => body.subarray(at[i], end)) };
}

/**
 * §6 describes events as `data:` lines separated by newlines; whether a blank line follows each
 * (Server-Sent Events framing) is open (events.stream.sse-framing). Every blank line goes.
 */
export const sseBareLines: Transform = {
  id: 'sse.bare-lines',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    const lines = stream.blocks.flatMap((b) => b.lines);
    if (lines.length === 0) return undefined;
    const bare = { ...stream, blocks: [{ lines, terminated: false }], endsWithEol: true };
    return withBody(answer, writeStream(bare), random);
  },
};

/** §6 says newlines and names none: every line of the stream ends with CR LF. */
export const sseCrlf: Transform = {
  id: 'sse.crlf',
  apply(answer, random) {
    if (!isChatStream(answer)) return undefined;
    const stream = parseStream(answer.body);
    if (stream.blocks.length === 0) return undefined;
    return withBody(answer, writeStream({ ...stream, eol: '\r\n' }), random);
  },
};

/**
 * Writes the members of every object of a JSON answer in another order (reversed), at every
 * depth: JSON gives members no order and the document fixes none.
 */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

export const membersReordered: Transform = {
  id: 'members.reordered',
  apply(answer) {
    const json = jsonOf(answer);
    if (!isObject(json) && !Array.isArray(json)) return undefined;
    const out = reordered(json);
    const before = JSON.stringify(json);
    return JSON.stringify(out) === before ? undefined : withJson(answer, out);
  },
};

/** Wordings a server might give its success messages (§4.3, §4.5, §4.9 show a string). */
const SUCCESS_MESSAGES = ['OK', 'Done.', 'The request succeeded', 'Operation completed'];

export const messagesReworded: Transform = {
  id: 'messages.reworded',
  apply(answer) {
    const envelope = successOf(answer);
    const data = envelope?.['data'];
    if (envelope === undefined || !isObject(data) || typeof data['message'] !== 'string')
      return undefined;
    const message =
      SUCCESS_MESSAGES[
        hashOf(`${answer.request.method} ${data['message']}`) % SUCCESS_MESSAGES.length
      ];
    return withJson(answer, { ...envelope, data: { ...data, message } });
  },
};

/** §7 names message, code and details; a server may carry more beside them. */
export const errorsMembersExtra: Transform = {
  id: 'errors.members-extra',
  apply(answer, random) {
    const found = errorOf(answer);
    if (found === undefined) return undefined;
    const traceId = Math.floor(random() * 2 ** 48).toString(16);
    const error: JsonObject = {
      ...found.error,
      traceId,
      documentation: 'https://errors.eac.example/refused',
    };
    return withJson(answer, { ...found.envelope, error, timestamp: '2030-01-01T00:00:00Z' });
  },
};

/** Headers many servers add to every answer; none changes what the answer means. */
export const headersExtra: Transform = {
  id: 'headers.extra',
  apply(answer, random) {
    const headers: Record<string, string> = {
      ...answer.headers,
      'x-request-id': Math.floor(random() * 2 ** 48).toString(16),
      'x-powered-by': 'latitude',
      'server-timing': 'app;dur=1',
    };
    if (headers['cache-control'] === undefined) headers['cache-control'] = 'no-store';
    return { ...answer, headers };
  },
};

export const openFormTransforms: Transform[] = [
  sseBareLines,
  sseCrlf,
  membersReordered,
  messagesReworded,
  errorsMembersExtra,
  headersExtra,
];
