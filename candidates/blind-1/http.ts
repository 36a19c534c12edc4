import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { ApiError, forbidden, invalid } from './errors.ts';
import { MissingProperty, SqlError } from './sql.ts';
import { jsonDepth } from './util.ts';

/** A small router over node:http: JSON in, the success or error envelope out. */

const MAX_BODY = 1024 * 1024;
const MAX_DEPTH = 64;

export interface Req {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  params: Record<string, string>;
  body: unknown;
  raw: IncomingMessage;
}

export type Reply =
  | { status?: number; data: unknown; headers?: Record<string, string> }
  | { html: string; status?: number }
  | { handled: true };

export type Handler = (req: Req, res: ServerResponse) => Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | 'method' | null {
    const parts = path.split('/').filter(Boolean);
    let methodMismatch = false;
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i] as string;
        const part = parts[i] as string;
        if (seg.startsWith(':')) {
          try {
            params[seg.slice(1)] = decodeURIComponent(part);
          } catch {
            params[seg.slice(1)] = part;
          }
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      return { route, params };
    }
    return methodMismatch ? 'method' : null;
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  send(res, error.status, error.body(), error.headers);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY)
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The body is over 1 MiB.', { limit: MAX_BODY });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY)
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The body is over 1 MiB.', { limit: MAX_BODY });
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function parseBody(buf: Buffer, contentType: string | undefined): unknown {
  if (buf.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json'))
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.', {
      contentType: type,
    });
  const text = buf.toString('utf8');
  if (jsonDepth(text) > MAX_DEPTH)
    throw new ApiError(400, 'INVALID_JSON', 'The JSON body nests too deeply.', {
      maxDepth: MAX_DEPTH,
    });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The body is not valid JSON.', {});
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof MissingProperty)
    return forbidden(error.message, { reason: 'missing-user-property', property: error.property });
  if (error instanceof SqlError) return invalid(error.message, { reason: error.reason });
  console.error(error);
  return new ApiError(500, 'INTERNAL_ERROR', 'The service failed to answer this request.', {});
}

export function serve(router: Router): Server {
  const server = createServer((raw, res) => {
    void (async () => {
      const url = new URL(raw.url ?? '/', 'http://localhost');
      const query = Object.create(null) as Record<string, string>;
      for (const [k, v] of url.searchParams) if (!Object.hasOwn(query, k)) query[k] = v;
      const method = (raw.method ?? 'GET').toUpperCase();
      try {
        const found = router.match(method, url.pathname);
        if (found === null || found === 'method') {
          for await (const _ of raw) void _;
          if (found === 'method')
            throw new ApiError(
              405,
              'METHOD_NOT_ALLOWED',
              `${method} is not allowed on ${url.pathname}.`,
              {
                method,
                path: url.pathname,
              },
            );
          throw new ApiError(404, 'NOT_FOUND', `No endpoint answers ${method} ${url.pathname}.`, {
            resource: 'route',
          });
        }
        const buf = await readBody(raw);
        const body = parseBody(buf, raw.headers['content-type']);
        const req: Req = {
          method,
          path: url.pathname,
          query,
          headers: raw.headers,
          params: found.params,
          body,
          raw,
        };
        const reply = await found.route.handler(req, res);
        if ('handled' in reply) return;
        if ('html' in reply) {
          res.writeHead(reply.status ?? 200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          res.end(reply.html);
          return;
        }
        send(res, reply.status ?? 200, { status: 'success', data: reply.data }, reply.headers);
      } catch (error) {
        const apiError = toApiError(error);
        if (apiError.status === 413) res.setHeader('connection', 'close');
        sendError(res, apiError);
      }
    })();
  });
  server.headersTimeout = 60_000;
  server.requestTimeout = 120_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const status = tooLarge ? 431 : timeout ? 408 : 400;
    const code = tooLarge ? 'HEADERS_TOO_LARGE' : timeout ? 'REQUEST_TIMEOUT' : 'MALFORMED_REQUEST';
    const body = JSON.stringify({
      status: 'error',
      error: { message: 'The request could not be read as HTTP.', code, details: {} },
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : timeout ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** Validates a value with a zod schema, refusing with 400 and the problems found. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where = 'body'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(`The request ${where} is not valid.`, {
    problems: result.error.issues.map((i) => ({
      at: [where, ...i.path.map(String)].join('.'),
      problem: i.message,
    })),
  });
}
