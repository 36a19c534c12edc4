import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { FREEDOM_IDS, type FreedomId } from '../spec/latitude.ts';
import type { TargetProfile } from '../spec/profile.ts';
import { chosenIds, type LatitudeVary } from './choice.ts';
import { LIMITS, answerClientError, envelopeOf, frontRefusal } from './framing.ts';
import { perAnswer } from './random.ts';
import { formTransforms, unimplementedForms } from './registry.ts';
import { bareKey, witnessing } from './behaviours.ts';
import { requestInTargetNames } from './requests.ts';
import { untemplated } from './templated.ts';
import type { Answer, Transform } from './transform.ts';

export const LATITUDE_VERSION = '0.1.0';
export const LATITUDE_IMPLEMENTATION = 'eac-latitude';
/** The proxy's own route: how many answers each transform changed. */
export const COUNTS_PATH = '/__latitude/counts';

export interface LatitudeOptions {
  /** Base URL of the target's API. */
  readonly target: string;
  /** Base URL of the target's hub (§4.17). */
  readonly hub: string;
  /** The target's host hooks: their URL, or their path under `target` (e.g. `/__eac`). */
  readonly hooks?: string;
  /** Which catalogue entries to take: every one, a seeded random half, or the named ones. */
  readonly vary: LatitudeVary;
  /** 0 (default) picks an ephemeral port. */
  readonly port?: number;
  readonly hubPort?: number;
  /** Seed of the per-answer randomness; default the random choice's seed, else 0. */
  readonly seed?: number;
  /** Where the proxy says which entries a random choice took (default: stderr). */
  readonly log?: (line: string) => void;
  /**
   * The profile the target states, for the entries that route requests to the target's own
   * paths and names (`endpoints.templated`, `requests.renamed`); without it they have nothing
   * to route.
   */
  readonly base?: TargetProfile;
}

export interface RunningLatitude {
  readonly url: string;
  readonly hubUrl: string;
  readonly hooksUrl?: string;
  /** The catalogue entries taken, forms and behaviours, in catalogue order. */
  readonly chosen: readonly FreedomId[];
  /** `base` restated by every chosen form transform (behaviours are the target's business). */
  profile(base: TargetProfile): TargetProfile;
  /** Per catalogue id, how many answers (or refused requests) it changed. */
  counts(): Record<FreedomId, number>;
  close(): Promise<void>;
}

/** Headers that belong to one connection, never relayed (RFC 9110 §7.6.1), and the framing. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'host',
  'expect',
  'http2-settings',
]);

function relayable(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

const pathOf = (url: string) => url.split('?')[0] ?? '';
const joinUrl = (base: string, url: string) => `${base.replace(/\/+$/, '')}${url}`;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Relays a request to the target and buffers its whole answer. */
async function relay(base: string, sent: Answer['request']): Promise<Answer> {
  const relayed = await request(joinUrl(base, sent.url), {
    method: sent.method as 'GET',
    headers: sent.headers,
    ...(sent.body.length > 0 ? { body: sent.body } : {}),
  });
  return {
    request: sent,
    status: relayed.statusCode,
    headers: relayable(relayed.headers),
    body: Buffer.from(await relayed.body.arrayBuffer()),
  };
}

/** Writes the answer out: in its pieces, each flushed on its own, or in one write. */
async function write(res: ServerResponse, answer: Answer, method: string): Promise<void> {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  const bodiless = method === 'HEAD' || answer.status === 204 || answer.status === 304;
  if (bodiless) {
    res.end();
    return;
  }
  if (answer.pieces === undefined) {
    res.setHeader('content-length', answer.body.length);
    res.end(answer.body);
    return;
  }
  res.removeHeader('content-length');
  for (const piece of answer.pieces) {
    await new Promise<void>((resolve, reject) =>
      res.write(piece, (err) => (err === undefined || err === null ? resolve() : reject(err))),
    );
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

function refuse(res: ServerResponse, status: number, empty: boolean, cause: string): void {
  const body = empty ? Buffer.alloc(0) : Buffer.from(JSON.stringify(envelopeOf(status, cause)));
  res.writeHead(status, {
    connection: 'close',
    'content-length': body.length,
    ...(empty ? {} : { 'content-type': 'application/json; charset=utf-8' }),
  });
  res.end(body);
}

function listen(server: Server, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`);
    });
  });
}

/**
 * Starts the latitude proxy in front of a running target: two listeners (API with its hooks,
 * hub) that relay every request, buffer the answer, rewrite it through the chosen form
 * transforms in catalogue order and write it out. Hook answers are relayed untouched, but for
 * the capabilities, which the proxy answers as an implementation of its own: through it the
 * kit holds nothing to the reference's recorded decisions.
 */
export async function startLatitude(options: LatitudeOptions): Promise<RunningLatitude> {
  const chosen = chosenIds(options.vary);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const randomSeed =
    typeof options.vary === 'object' && 'random' in options.vary ? options.vary.random : undefined;
  if (randomSeed !== undefined) {
    log(`latitude random:${String(randomSeed)} takes ${chosen.join(', ')}`);
  }
  const missing = unimplementedForms().filter((id) => chosen.includes(id));
  if (missing.length > 0) log(`latitude: no transform yet for ${missing.join(', ')}`);
  const seed = options.seed ?? randomSeed ?? 0;
  const transforms = formTransforms(chosen);
  const emptyFraming = chosen.includes('framing.empty-body');
  const counts = Object.fromEntries(FREEDOM_IDS.map((id) => [id, 0])) as Record<FreedomId, number>;
  const hooksPath =
    options.hooks === undefined
      ? undefined
      : pathOf(
          /^https?:/.test(options.hooks) ? new URL(options.hooks).pathname : options.hooks,
        ).replace(/\/+$/, '');
  const hooksBase =
    options.hooks === undefined
      ? undefined
      : /^https?:/.test(options.hooks)
        ? options.hooks.replace(/\/+$/, '')
        : joinUrl(options.target, hooksPath ?? '');
  let sequence = 0;
  const witness = witnessing(chosen);

  const transform = (answer: Answer, random: () => number, list: readonly Transform[]) => {
    let current = answer;
    for (const t of list) {
      const next = t.apply(current, random);
      if (next !== undefined) {
        current = next;
        counts[t.id] += 1;
      }
    }
    return current;
  };

  const capabilities = async (): Promise<Answer['body']> => {
    let hooks: unknown = [];
    if (hooksBase !== undefined) {
      const res = await request(`${hooksBase}/capabilities`);
      const json = (await res.body.json()) as { data?: { hooks?: unknown } };
      hooks = json.data?.hooks ?? [];
    }
    return Buffer.from(
      JSON.stringify({
        status: 'success',
        data: { implementation: LATITUDE_IMPLEMENTATION, version: LATITUDE_VERSION, hooks },
      }),
    );
  };

  const handler =
    (origin: 'api' | 'hub', base: string) =>
    async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const path = pathOf(url);
      const refusal = frontRefusal(req);
      if (refusal !== undefined && (emptyFraming || refusal === 400)) {
        // Without the freedom, only the missing Host is the proxy's to answer (the target never
        // sees it: the relay names the target's host); the limits are then the target's own.
        if (emptyFraming) counts['framing.empty-body'] += 1;
        req.resume();
        refuse(res, refusal, emptyFraming, refusal === 400 ? 'missing-host' : 'limit');
        return;
      }
      const body = await readBody(req);
      const random = perAnswer(seed, sequence++);
      const isHook =
        origin === 'api' &&
        hooksPath !== undefined &&
        (path === hooksPath || path.startsWith(`${hooksPath}/`));
      if (origin === 'api' && method === 'GET' && path === COUNTS_PATH) {
        const json = Buffer.from(JSON.stringify({ status: 'success', data: { ...counts } }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
        res.end(json);
        return;
      }
      if (isHook && method === 'GET' && path === `${hooksPath ?? ''}/capabilities`) {
        const json = await capabilities();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
        res.end(json);
        return;
      }
      // endpoints.templated: a request on a templated path goes to the target's own.
      const routed =
        !isHook && origin === 'api' && chosen.includes('endpoints.templated') && options.base
          ? untemplated(options.base, method, url)
          : undefined;
      if (routed !== undefined) counts['endpoints.templated'] += 1;
      // requests.renamed: members named as the printed profile says reach the target in its names.
      const renamed =
        !isHook && origin === 'api' && chosen.includes('requests.renamed')
          ? requestInTargetNames(options.base, method, routed ?? url, body)
          : undefined;
      if (renamed !== undefined) counts['requests.renamed'] += 1;
      const relayUrl = renamed?.url ?? routed ?? url;
      const relayBody = renamed?.body ?? body;
      let headers = relayable(req.headers);
      // auth.both-forms: half the API keys sent as `Bearer <key>` reach the target bare.
      const bare = !isHook && chosen.includes('auth.both-forms') ? bareKey(headers) : undefined;
      if (bare !== undefined && random() < 0.5) {
        headers = bare;
        counts['auth.both-forms'] += 1;
      }
      let sent: Answer['request'] = { method, url: relayUrl, headers, body: relayBody, origin };
      let own: Answer | undefined;
      for (const t of isHook || origin !== 'api' ? [] : transforms) {
        let taken: ReturnType<NonNullable<Transform['before']>>;
        try {
          taken = t.before?.(sent);
        } catch {
          // A request a transform cannot read is none of its freedom: relayed as it is.
          taken = undefined;
        }
        if (taken === undefined) continue;
        counts[t.id] += 1;
        if ('answer' in taken) {
          own = { request: sent, ...taken.answer };
          break;
        }
        sent = taken.request;
      }
      const answer: Answer = own ?? (await relay(base, sent));
      for (const t of transforms) t.observe?.(answer);
      for (const id of witness(answer, isHook)) counts[id] += 1;
      // Hook answers are our test protocol, not the API: relayed as they are.
      await write(res, isHook ? answer : transform(answer, random, transforms), method);
    };

  // limits.slow-clients-cut: the listeners give up on a client still sending its request.
  const slow = transforms.find((t) => t.timeouts !== undefined);
  const timeouts =
    slow?.timeouts === undefined
      ? {}
      : {
          headersTimeout: slow.timeouts.headersMs,
          requestTimeout: slow.timeouts.requestMs,
          connectionsCheckingInterval: slow.timeouts.checkMs,
        };

  const serve = (origin: 'api' | 'hub', base: string) => {
    const server = createServer(
      // The proxy's own limits are checked on whole requests (frontRefusal); Node's parser
      // must let those through to be judged, and must not answer a missing Host itself.
      { maxHeaderSize: 4 * LIMITS.headers, requireHostHeader: false, ...timeouts },
      (req, res) => {
        handler(origin, base)(req, res).catch(() => {
          // The target did not answer (or the client went): a gateway error, no body.
          if (res.socket === null || !res.socket.writable) return;
          if (!res.headersSent) {
            res.writeHead(502, { 'content-length': 0, connection: 'close' });
            res.end();
          } else res.destroy();
        });
      },
    );
    server.on('clientError', (err: Error & { code?: string }, socket) => {
      const answered = answerClientError(err, socket, emptyFraming);
      if (answered && emptyFraming) counts['framing.empty-body'] += 1;
      // A request cut off, not a connection that never sent a byte (a browser's spare one).
      const read = (socket as Partial<Socket>).bytesRead ?? 0;
      if (slow !== undefined && err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && read > 0)
        counts[slow.id] += 1;
    });
    return server;
  };

  const api = serve('api', options.target);
  const hub = serve('hub', options.hub);
  const url = await listen(api, options.port ?? 0);
  let hubUrl: string;
  try {
    hubUrl = await listen(hub, options.hubPort ?? 0);
  } catch (error) {
    api.close();
    throw error;
  }

  return {
    url,
    hubUrl,
    ...(hooksPath === undefined ? {} : { hooksUrl: `${url}${hooksPath}` }),
    chosen,
    profile: (base) =>
      transforms.reduce<TargetProfile>((p, t) => (t.restate === undefined ? p : t.restate(p)), {
        ...base,
        description: `eac-latitude (${chosen.join(', ')}) over ${base.description ?? 'a target'}`,
      }),
    counts: () => ({ ...counts }),
    close: async () => {
      for (const server of [api, hub]) {
        server.closeAllConnections();
        server.close();
      }
      await Promise.all([once(api, 'close'), once(hub, 'close')]);
    },
  };
}
