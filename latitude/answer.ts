import type { Answer } from './transform.ts';

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether the answer's Content-Type is JSON (with or without parameters). */
export function isJson(answer: Answer): boolean {
  const type = (answer.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type?.endsWith('+json') ?? false);
}

/** The answer's body as parsed JSON, when it is a JSON answer of the API that parses. */
export function jsonOf(answer: Answer): unknown {
  if (answer.request.origin !== 'api' || !isJson(answer) || answer.body.length === 0)
    return undefined;
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The success envelope of a 2xx JSON answer, or undefined. */
export function successOf(answer: Answer): JsonObject | undefined {
  if (answer.status < 200 || answer.status > 299) return undefined;
  const json = jsonOf(answer);
  return isObject(json) && json['status'] === 'success' ? json : undefined;
}

/** The §7 error envelope of a 4xx/5xx JSON answer, with its `error` object, or undefined. */
export function errorOf(answer: Answer): { envelope: JsonObject; error: JsonObject } | undefined {
  if (answer.status < 400) return undefined;
  const json = jsonOf(answer);
  if (!isObject(json) || json['status'] !== 'error' || !isObject(json['error'])) return undefined;
  return { envelope: json, error: json['error'] };
}

/** The answer with `value` as its JSON body (any earlier cut into pieces no longer applies). */
export function withJson(answer: Answer, value: unknown, status = answer.status): Answer {
  const { pieces: _dropped, ...rest } = answer;
  return { ...rest, status, body: Buffer.from(JSON.stringify(value), 'utf8') };
}

/** A small stable hash of a string (FNV-1a), for choices that must not vary between answers. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
