/**
 * What every part of `eac profile discover` shares: the watch it writes its findings to, and
 * the readers of JSON answers (paths, pointers, lists).
 */
import type { TargetProfile } from '../../spec/profile.ts';
import type { ProfilePart } from '../../spec/profile.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import type { Given } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const dataOf = (res: Reply): unknown => (isObject(res.body) ? res.body['data'] : undefined);
export const ok = (res: Reply) => res.status >= 200 && res.status < 300;
/** A route the target does not have answers 404, 405 or 501 (any other answer names a route). */
export const routeAnswers = (res: Reply) => ![404, 405, 501].includes(res.status);

/** A JSON pointer (RFC 6901) for a path of member names. */
export function pointer(path: readonly string[]): string {
  return path.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** A claim path as the profile writes it: dots where every name allows, a pointer otherwise. */
export function claimPath(path: readonly string[]): string {
  return path.every((p) => /^[A-Za-z0-9_$-]+$/.test(p)) ? path.join('.') : pointer(path);
}

/** Every path in a JSON value whose value satisfies `match`, shallowest first. */
export function pathsWhere(
  value: unknown,
  match: (v: unknown) => boolean,
  at: readonly string[] = [],
): string[][] {
  const found: string[][] = [];
  const queue: { v: unknown; at: readonly string[] }[] = [{ v: value, at }];
  while (queue.length > 0) {
    const { v, at: here } = queue.shift() ?? { v: undefined, at: [] };
    if (here.length > 0 && match(v)) found.push([...here]);
    if (isObject(v))
      for (const [k, child] of Object.entries(v)) queue.push({ v: child, at: [...here, k] });
  }
  return found;
}

/**
 * How a payload writes the granted flags `granted` of a role whose every other flag is off:
 * an object of booleans, an array of the granted names, or those names in one string.
 */
export function permissionsIn(
  payload: Json,
  granted: readonly string[],
): { path: string[]; form: 'object' | 'array' | 'string' } | undefined {
  const names = [...granted].sort();
  const asObject = (v: unknown) =>
    isObject(v) &&
    Object.keys(v).length > 0 &&
    Object.entries(v).every(
      ([k, b]) => typeof b === 'boolean' && expectedPermissions.flags.includes(k),
    ) &&
    Object.entries(v)
      .filter(([, b]) => b === true)
      .map(([k]) => k)
      .sort()
      .join() === names.join();
  const asArray = (v: unknown) =>
    Array.isArray(v) &&
    v.every((x) => typeof x === 'string') &&
    [...v].sort().join() === names.join();
  const asString = (v: unknown) =>
    typeof v === 'string' && v.trim().split(/\s+/).sort().join() === names.join();
  for (const [form, match] of [
    ['object', asObject],
    ['array', asArray],
    ['string', asString],
  ] as const) {
    const [path] = pathsWhere(payload, match);
    if (path !== undefined) return { path, form };
  }
  return undefined;
}

export const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/;
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

export class Watch {
  readonly review: string[] = [];
  readonly undecided: string[] = [];
  readonly observed: string[] = [];
  readonly serves = new Set<ProfilePart>();
  readonly shapes: Json = {};
  readonly follows: string[] = [];
  chat: TargetProfile['chat'];
  hub: TargetProfile['hub'];
  constructor(readonly t: Given) {}
  saw(line: string) {
    this.observed.push(line);
  }
  cannot(what: string, why: string) {
    this.undecided.push(`${what}: ${why}`);
  }
}

/** The first path whose value satisfies `match`, as a JSON pointer; undefined when none does. */
export function pointerWhere(value: unknown, match: (v: unknown) => boolean): string | undefined {
  const [path] = pathsWhere(value, match);
  return path === undefined ? undefined : pointer(path);
}

/** The v2 calls §4.16 names with their status when it is a 2xx other than 200 (for review). */
export function statusOf(w: Watch, call: string, res: Reply) {
  if (!ok(res)) {
    w.cannot(`shapes.successStatuses["${call}"]`, `it answered ${res.status}`);
    return;
  }
  w.saw(`v2: ${call} answered ${res.status}`);
  if (res.status === 200) return;
  const statuses = (w.shapes['successStatuses'] ?? {}) as Record<string, number>;
  statuses[call] = res.status;
  w.shapes['successStatuses'] = statuses;
  w.review.push(`shapes.successStatuses: ${call} answered ${res.status}`);
}

/** The shortest path (as a pointer) to an array with an item in which `match` holds. */
export function listHolding(body: unknown, match: (v: unknown) => boolean): string | undefined {
  return pointerWhere(
    body,
    (v) => Array.isArray(v) && v.some((item) => pathsWhere(item, match).length > 0),
  );
}

/** The item of the array at `list` in which `match` holds. */
export function itemHolding(body: unknown, list: string, match: (v: unknown) => boolean): unknown {
  const items = valueAt(body, list.split('/').slice(1));
  return Array.isArray(items)
    ? items.find((item) => pathsWhere(item, match).length > 0)
    : undefined;
}

export function valueAt(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const p of path) here = isObject(here) ? here[p] : undefined;
  return here;
}
