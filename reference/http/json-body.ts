import { specError, type SpecError } from '../../spec/errors.ts';

/**
 * Decision (clause limits.body-depth): objects and arrays nest at most this deep in a JSON
 * body, the body itself counting as level 1. Deeper bodies are refused before they are
 * parsed, so nothing that cannot be serialised again (into a token's claims, an answer) is
 * ever stored.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * How deep objects and arrays nest in a JSON text, counted without parsing and without
 * recursion (so a body of a million `[` costs one pass and no stack). Brackets inside strings
 * do not count. Stops counting once `limit` is passed and answers `limit + 1`. The text need
 * not be valid JSON: the parser judges that afterwards.
 */
export function nestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

type Path = (string | number)[];

/**
 * Member names that prototype-polluting code reads as "the prototype": `__proto__` anywhere,
 * and `prototype` inside a `constructor` member. `JSON.parse` keeps them as plain data, but a
 * naive merge downstream would not; the reference refuses them by name (clause
 * errors.validation.prototype-keys) rather than drop them silently. Bodies are at most
 * MAX_JSON_DEPTH deep when this runs, so recursion is bounded.
 */
export function prototypeKeyPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((item, i) => prototypeKeyPaths(item, [...path, i]));
  const found: Path[] = [];
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const here = [...path, key];
    if (key === '__proto__') found.push(here);
    else if (
      key === 'constructor' &&
      typeof member === 'object' &&
      member !== null &&
      Object.prototype.hasOwnProperty.call(member, 'prototype')
    )
      found.push([...here, 'prototype']);
    found.push(...prototypeKeyPaths(member, here));
  }
  return found;
}

/** A body the JSON parser refused, carrying the §7 error to answer with. */
export class RefusedBody extends Error {
  constructor(readonly refusal: SpecError) {
    super(refusal.message);
    this.name = 'RefusedBody';
  }
}

export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: SpecError };

/**
 * Reads a JSON request body, or says why not: too deep (BODY_TOO_DEEP), not JSON
 * (MALFORMED_JSON), or carrying a prototype member (VALIDATION_ERROR naming where).
 */
export function readJsonBody(text: string): JsonBody {
  // Clause errors.malformed-json: zero bytes are no body (a chunked request can send them).
  if (text.length === 0) return { ok: true, value: undefined };
  const depth = nestingDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    return {
      ok: false,
      error: specError(
        'BODY_TOO_DEEP',
        `the body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
        { maxDepth: MAX_JSON_DEPTH },
      ),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      error: specError('MALFORMED_JSON', 'the body is not valid JSON'),
    };
  }
  const forbidden = prototypeKeyPaths(value);
  if (forbidden.length > 0) {
    return {
      ok: false,
      error: specError('VALIDATION_ERROR', 'the request body is not valid', {
        issues: forbidden.map((p) => ({
          path: ['body', ...p],
          message: 'this member name is not accepted (it would name an object prototype)',
          code: 'forbidden_key',
        })),
      }),
    };
  }
  return { ok: true, value };
}
