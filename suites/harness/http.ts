import { request } from 'undici';
import type { NotRunCause } from './causes.ts';
import type { Exchange } from './meta.ts';
import { wholeList } from './pages.ts';
import type { Target } from './target.ts';
import { installNetwork } from './network.ts';
import { canonicalIds } from './ids.ts';

// Proxy variables and `eac run --ca` (EAC_CA) for every request of this worker.
installNetwork();

export interface Reply<B = unknown> {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Parsed JSON when the answer is JSON, else the text. */
  readonly body: B;
  readonly text: string;
}

export interface CallOptions {
  /** Query parameters; an array repeats its parameter, once per value. */
  readonly query?: Readonly<
    Record<string, string | number | boolean | readonly string[] | undefined>
  >;
  /** A JSON body (serialised here), unless `raw` is given. */
  readonly body?: unknown;
  /** A body sent as it is, for malformed-input checks. */
  readonly raw?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Which base address the path is relative to. */
  readonly base?: 'api' | 'hooks' | 'hub';
}

const MAX_KEPT = 40;
const MAX_BODY_CHARS = 4000;

function clip(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > MAX_BODY_CHARS ? `${value.slice(0, MAX_BODY_CHARS)}…` : value;
  const text = JSON.stringify(value);
  return text !== undefined && text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}…`
    : value;
}

/**
 * The one HTTP client of the suites. It remembers its exchanges, so a failed or probed test
 * can show in the report exactly what was asked and answered.
 */
export class Http {
  readonly exchanges: Exchange[] = [];
  /** Every 5xx answer of the test (`METHOD path -> status`), kept apart from the bounded log. */
  readonly serverErrors: string[] = [];

  /**
   * `notRun` ends the test when the target pages its lists in a way its profile does not state
   * (suites/harness/pages.ts); without it, that is an error.
   */
  constructor(
    private readonly target: Target,
    private readonly notRun: (reason: string, causes: NotRunCause) => never = (reason) => {
      throw new Error(reason);
    },
  ) {}

  private baseOf(base: CallOptions['base']): string {
    if (base === 'hooks') {
      if (this.target.hooksUrl === undefined) throw new Error('the target has no hooks');
      return this.target.hooksUrl;
    }
    if (base === 'hub') {
      // A test's target (conformance.ts) ends the test not-run before this can throw.
      if (this.target.hubUrl === undefined) throw new Error('the target has no hub (--hub URL)');
      return this.target.hubUrl;
    }
    return this.target.baseUrl;
  }

  /**
   * One call. A successful GET of the API that answers a list is read whole: on a target that
   * pages (shapes.paging), every page is asked for and the lists joined (pages.ts).
   */
  async call<B = unknown>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Reply<B>> {
    const reply = await this.once<B>(method, path, options);
    if (method !== 'GET' || (options.base ?? 'api') !== 'api') return reply;
    return wholeList(
      reply,
      this.target.profile,
      (parameter, cursor) =>
        this.once<B>(method, path, {
          ...options,
          query: { ...options.query, [parameter]: cursor },
        }),
      this.notRun,
    );
  }

  private async once<B>(method: string, path: string, options: CallOptions): Promise<Reply<B>> {
    const url = new URL(this.baseOf(options.base) + path);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (Array.isArray(v))
        for (const each of v as readonly string[]) url.searchParams.append(k, each);
      else if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let payload: string | undefined = options.raw;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const started = performance.now();
    const exchange: { -readonly [K in keyof Exchange]: Exchange[K] } = {
      request: {
        method,
        url: url.toString(),
        headers,
        ...(payload === undefined ? {} : { body: clip(options.body ?? payload) }),
      },
      ms: 0,
    };
    this.remember(exchange);
    try {
      const res = await request(url, { method: method as 'GET', headers, body: payload ?? null });
      const text = await res.body.text();
      const responseHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      let body: unknown = text;
      if ((responseHeaders['content-type'] ?? '').includes('json') && text.length > 0) {
        try {
          const parsed: unknown = JSON.parse(text);
          // §1: ids are compared as the document allows, a UUID in either case (ids.ts).
          body = (options.base ?? 'api') === 'api' ? canonicalIds(parsed) : parsed;
        } catch {
          body = text;
        }
      }
      exchange.response = { status: res.statusCode, headers: responseHeaders, body: clip(body) };
      if (res.statusCode >= 500)
        this.serverErrors.push(`${method} ${url.pathname} -> ${res.statusCode}`);
      exchange.ms = Math.round(performance.now() - started);
      return { status: res.statusCode, headers: responseHeaders, body: body as B, text };
    } catch (err) {
      exchange.error = err instanceof Error ? err.message : String(err);
      throw err;
    }
  }

  /**
   * An exchange made outside this client, such as a page the browser loaded from the hub, so
   * a failing hub test shows the page it loaded beside its calls to the API.
   */
  record(exchange: Exchange): void {
    this.remember({
      ...exchange,
      ...(exchange.response !== undefined
        ? { response: { ...exchange.response, body: clip(exchange.response.body) } }
        : {}),
    });
  }

  private remember(exchange: Exchange): void {
    this.exchanges.push(exchange);
    if (this.exchanges.length > MAX_KEPT) this.exchanges.shift();
  }

  get<B = unknown>(path: string, options: Omit<CallOptions, 'body' | 'raw'> = {}) {
    return this.call<B>('GET', path, options);
  }
  post<B = unknown>(path: string, body?: unknown, options: Omit<CallOptions, 'body'> = {}) {
    return this.call<B>('POST', path, { ...options, body });
  }
  put<B = unknown>(path: string, body?: unknown, options: Omit<CallOptions, 'body'> = {}) {
    return this.call<B>('PUT', path, { ...options, body });
  }
  delete<B = unknown>(path: string, options: Omit<CallOptions, 'body' | 'raw'> = {}) {
    return this.call<B>('DELETE', path, options);
  }
}
