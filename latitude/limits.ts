import { isObject, successOf, withJson } from './answer.ts';
import { bodyObjectOf, pathOfUrl, queryOf, refusal } from './request.ts';
import type { Answer, Transform } from './transform.ts';

// `limits.tighter` (spec/latitude.ts): §8 shows a rate only for agent chat and no size limit
// or paging at all; a server may set limits of its own. This one sets tighter ones than the
// reference's decisions (limits.body-size, limits.body-depth, limits.header-size) and a rate
// limit on every other endpoint (limits.other-rates), announced on each answer.

export const TIGHTER = {
  /** Bytes of a request body (the reference: 1 MiB). */
  body: 256 * 1024,
  /** Levels of a JSON body, the body itself level 1 (the reference: 64). */
  depth: 32,
  /** Bytes of the request line and headers (the reference: 16 KiB). */
  headers: 8 * 1024,
  /** Requests per credential and window on the endpoints §8 gives no rate (chat has its own). */
  rate: 2000,
  windowMs: 60_000,
} as const;

/** The deepest nesting of a JSON text, counted by its open brackets outside strings. */
export function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

/** The size of a request's line and headers as a client sent them (close enough: names, values). */
function headSize(request: Answer['request']): number {
  let size = `${request.method} ${request.url} HTTP/1.1`.length + 2;
  for (const [name, value] of Object.entries(request.headers))
    size += name.length + value.length + 4;
  return size;
}

const CHAT = /^\/v1\/api\/project-agents\/[^/]+\/chat\/?$/;

/** Who a request counts against: its API key or its authorization header, else nobody. */
function credentialOf(request: Answer['request']): string | undefined {
  const key = bodyObjectOf(request)?.['apiKey'] ?? queryOf(request).get('apiKey');
  if (typeof key === 'string' && key !== '') return `key ${key}`;
  const header = request.headers['authorization'];
  return header === undefined || header === '' ? undefined : `header ${header}`;
}

/** A fixed window per credential: the run's state of `limits.tighter`, one per proxy. */
interface Window {
  start: number;
  used: number;
}

export function limitsTighter(now: () => number = Date.now): Transform {
  const windows = new Map<string, Window>();
  /** The window a request counts in (chat and anonymous requests count nowhere). */
  const windowOf = (request: Answer['request']): Window | undefined => {
    if (CHAT.test(pathOfUrl(request.url))) return undefined;
    const who = credentialOf(request);
    if (who === undefined) return undefined;
    let window = windows.get(who);
    if (window === undefined || now() - window.start >= TIGHTER.windowMs) {
      window = { start: now(), used: 0 };
      windows.set(who, window);
    }
    return window;
  };
  const announce = (window: Window): Record<string, string> => ({
    'ratelimit-limit': String(TIGHTER.rate),
    'ratelimit-remaining': String(Math.max(0, TIGHTER.rate - window.used)),
    'ratelimit-reset': String(Math.ceil((window.start + TIGHTER.windowMs - now()) / 1000)),
  });
  const seen = new WeakMap<Answer['request'], Window>();
  return {
    id: 'limits.tighter',
    before(request) {
      if (headSize(request) > TIGHTER.headers)
        return {
          answer: refusal(
            431,
            {
              message: 'The request line and headers are too large.',
              code: 'REQUEST_HEADERS_TOO_LARGE',
              details: { limit: TIGHTER.headers },
            },
            { connection: 'close' },
          ),
        };
      if (request.body.length > TIGHTER.body)
        return {
          answer: refusal(
            413,
            {
              message: 'The request body is too large.',
              code: 'REQUEST_TOO_LARGE',
              details: { limit: TIGHTER.body },
            },
            { connection: 'close' },
          ),
        };
      if (depthOf(request.body.toString('utf8')) > TIGHTER.depth)
        return {
          answer: refusal(400, {
            message: `The JSON body nests deeper than ${TIGHTER.depth} levels.`,
            code: 'TOO_DEEP',
            details: { maxDepth: TIGHTER.depth },
          }),
        };
      const window = windowOf(request);
      if (window === undefined) return undefined;
      window.used += 1;
      seen.set(request, window);
      if (window.used <= TIGHTER.rate) return undefined;
      return {
        answer: refusal(
          429,
          { message: 'Too many requests.', code: 'TOO_MANY_REQUESTS' },
          { 'retry-after': announce(window)['ratelimit-reset'] ?? '60' },
        ),
      };
    },
    apply(answer) {
      const window = seen.get(answer.request);
      if (window === undefined) return undefined;
      return { ...answer, headers: { ...answer.headers, ...announce(window) } };
    },
  };
}

// `limits.slow-clients-cut` (spec/latitude.ts): §8 gives no time a client may take to send a
// request (limits.request-timeout; the reference waits 60 s for the line and headers). This
// server gives 2 s to the line and headers and 10 s to the whole request, and looks every 200 ms:
// the proxy's listeners answer a request still arriving 408 and close its connection
// (latitude/framing.ts answerClientError). The body's time is longer so that a request sent at
// once is never cut off while a loaded machine holds the proxy back between two of its reads.

export const slowClientsCut: Transform = {
  id: 'limits.slow-clients-cut',
  timeouts: { headersMs: 2000, requestMs: 10_000, checkMs: 200 },
  apply: () => undefined,
};

// `lists.paged` (spec/latitude.ts): §8 says nothing of paging (limits.pagination; the reference
// answers every list whole). This server pages each list answer: a page of PAGE_SIZE items, with
// `data.nextCursor` naming the next page (null on the last), asked for by the same request with
// the `cursor` query parameter. The cursor is an offset into the list as the target holds it when
// each page is asked for, so a list the target keeps in one order pages without gaps; the other
// transforms then rewrite each page (an order within it, its members) as any answer.

export const PAGE_SIZE = 2;
export const CURSOR_PARAMETER = 'cursor';
const NEXT_MEMBER = 'nextCursor';
/** The list members of the list answers: §4.2's roles, §4.13's workspaces, §4.16's and §9's. */
const LIST_MEMBERS = ['userRoles', 'workspaces', 'applications', 'dashboards'] as const;

export const cursorOf = (offset: number): string =>
  Buffer.from(`page:${String(offset)}`, 'utf8').toString('base64url');

/** The offset a cursor names, or undefined when it names none. */
export function offsetOf(cursor: string): number | undefined {
  const m = /^page:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m === null ? undefined : Number(m[1]);
}

export const listsPaged: Transform = {
  id: 'lists.paged',
  nearest: true,
  before(request) {
    if (request.method !== 'GET') return undefined;
    const cursor = queryOf(request).get(CURSOR_PARAMETER);
    if (cursor === null || offsetOf(cursor) !== undefined) return undefined;
    return {
      answer: refusal(400, {
        message: 'The cursor names no page of this list.',
        code: 'INVALID_CURSOR',
        details: { parameter: CURSOR_PARAMETER },
      }),
    };
  },
  apply(answer) {
    if (answer.request.method !== 'GET') return undefined;
    const envelope = successOf(answer);
    const data = envelope?.['data'];
    if (envelope === undefined || !isObject(data)) return undefined;
    const member = LIST_MEMBERS.find((m) => Array.isArray(data[m]));
    if (member === undefined) return undefined;
    const items = data[member] as readonly unknown[];
    const cursor = queryOf(answer.request).get(CURSOR_PARAMETER);
    const from = (cursor === null ? undefined : offsetOf(cursor)) ?? 0;
    const to = from + PAGE_SIZE;
    return withJson(answer, {
      ...envelope,
      data: {
        ...data,
        [member]: items.slice(from, to),
        [NEXT_MEMBER]: to < items.length ? cursorOf(to) : null,
      },
    });
  },
  restate(profile) {
    return {
      ...profile,
      shapes: {
        ...profile.shapes,
        paging: { cursor: { pointer: `/data/${NEXT_MEMBER}`, parameter: CURSOR_PARAMETER } },
      },
    };
  },
};
