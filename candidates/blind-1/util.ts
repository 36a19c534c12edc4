import { randomUUID } from 'node:crypto';

/** The 8-4-4-4-12 hexadecimal pattern the document calls a UUID. */
export const UUID_RE =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

export function newId(): string {
  return randomUUID();
}

/** ISO 8601 in UTC; this service writes whole seconds with a `Z` (no fraction). */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** ISO 8601 in UTC with milliseconds (the hooks protocol's timestamp form). */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Canonical JSON: object members sorted by name, arrays kept in order. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== undefined)
        Object.defineProperty(out, key, {
          value: canonical(v),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return out;
  }
  return value;
}

export function byId<T extends { id: string }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Deepest nesting of arrays and objects in a JSON text, read without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}
