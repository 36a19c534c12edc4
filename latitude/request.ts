import { isObject, type JsonObject } from './answer.ts';
import type { Answer } from './transform.ts';

// What the request-side transforms (a transform's `before`) read of a request and how they
// rewrite it: its path, query and JSON body.

type Request = Answer['request'];

export const pathOfUrl = (url: string): string => url.split('?')[0] ?? '';

/** The request's query parameters (a parameter given twice keeps both values). */
export function queryOf(request: Request): URLSearchParams {
  const at = request.url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
}

/** The request with another query (none when empty). */
export function withQuery(request: Request, query: URLSearchParams): Request {
  const text = query.toString();
  return { ...request, url: `${pathOfUrl(request.url)}${text === '' ? '' : `?${text}`}` };
}

/** The request's body as a JSON object, when it is one (any content type: the body decides). */
export function bodyObjectOf(request: Request): JsonObject | undefined {
  if (request.body.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(request.body.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The request with `value` as its JSON body. */
export function withBody(request: Request, value: unknown): Request {
  return {
    ...request,
    headers: { ...request.headers, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(value), 'utf8'),
  };
}

/** An error answer of the proxy's own making, in the §7 envelope. */
export function refusal(
  status: number,
  error: JsonObject,
  headers: Readonly<Record<string, string>> = {},
): Omit<Answer, 'request'> {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify({ status: 'error', error }), 'utf8'),
  };
}
