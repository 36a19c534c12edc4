/**
 * Discover: the register-tenant field names (§4.9 lists concepts and no names) and which
 * registrations name one tenant. A candidate name counts as read only by an effect seen: three
 * calls that differ in that member alone (one value twice, then another), all accepted, where
 * the two alike answer alike and the third otherwise: in the tenant JWT (beyond its issue time,
 * expiry and id; for the expiration, the span it lives for), or in the account's snapshot (a
 * host hook) taken after each. A member no server would read is tried the same way first; a
 * target whose tokens change with it reflects what it is sent, and nothing is decided.
 */
import { isDeepStrictEqual } from 'node:util';
import { decodeJwt } from 'jose';
import { expectedEffective, expirationSeconds } from '../../fixtures/oracles/index.ts';
import type { World } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { REGISTER_TENANT } from '../../suites/harness/paths.ts';
import type { TenantConcept } from '../../suites/harness/endpoints.ts';
import {
  dataOf,
  isObject,
  JWT,
  ok,
  pathsWhere,
  permissionsIn,
  valueAt,
  type Json,
  type Watch,
} from './watch.ts';

/** A name in the three usual spellings: camelCase, snake_case, kebab-case. */
export function spellings(words: readonly string[]): string[] {
  const [first = '', ...rest] = words;
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return [...new Set([first + rest.map(cap).join(''), words.join('_'), words.join('-')])];
}

/** Names a call's refusal mentions that look like member names (camelCase or snake_case). */
export function namesMentioned(res: Reply): string[] {
  if (ok(res)) return [];
  const text = typeof res.text === 'string' ? res.text : JSON.stringify(res.body);
  const found = text.match(/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*|_[a-z0-9]+)+\b/g) ?? [];
  return [...new Set(found)].slice(0, 12);
}

type Probed = Exclude<TenantConcept, 'connectionOverride'>;

/** The words of a member name: camelCase, snake_case and kebab-case split, in lower case. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((x) => x !== '');

/** The concept a mentioned name shares most words with (none when it shares none). */
export function conceptOf(name: string): Probed | undefined {
  const words = new Set(wordsOf(name));
  let best: Probed | undefined;
  let most = 0;
  for (const [concept, lists] of Object.entries(CANDIDATES) as [
    Probed,
    readonly (readonly string[])[],
  ][]) {
    const known = new Set(lists.flat());
    const shared = [...words].filter((x) => known.has(x)).length;
    if (shared > most) [best, most] = [concept, shared];
  }
  return best;
}

/** Candidate words per concept, tried in order and in every spelling. */
const CANDIDATES: Readonly<Record<Probed, readonly (readonly string[])[]>> = {
  columns: [
    ['tenant', 'columns'],
    ['columns'],
    ['split', 'columns'],
    ['tenant', 'split', 'columns'],
    ['split', 'by'],
    ['split', 'on'],
    ['partition', 'columns'],
    ['tenant', 'values'],
  ],
  schema: [
    ['tenant', 'schema'],
    ['schema'],
    ['split', 'schema'],
    ['schema', 'name'],
    ['tenant', 'schema', 'name'],
    ['partition', 'schema'],
  ],
  uniqueKey: [
    ['unique', 'key'],
    ['tenant', 'key'],
    ['legacy', 'key'],
    ['tenant', 'unique', 'key'],
    ['key'],
    ['unique', 'id'],
  ],
  name: [['name'], ['display', 'name'], ['tenant', 'name'], ['title'], ['label']],
  permissions: [
    ['permissions'],
    ['tenant', 'permissions'],
    ['editing'],
    ['editing', 'permissions'],
    ['edit', 'permissions'],
    ['perms'],
  ],
  metadata: [
    ['metadata'],
    ['meta'],
    ['custom', 'metadata'],
    ['tenant', 'metadata'],
    ['attributes'],
    ['custom', 'data'],
  ],
  expiration: [
    ['expiration'],
    ['expires', 'in'],
    ['token', 'expiration'],
    ['token', 'lifetime'],
    ['expiry'],
    ['ttl'],
    ['lifetime'],
  ],
};

/** The claims that change on every issue, left out when two tokens are compared. */
const PER_ISSUE = new Set(['iat', 'exp', 'nbf', 'jti']);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

interface Issued {
  readonly res: Reply;
  readonly payload?: Json;
}

const fingerprint = (p: Json) =>
  canonical(Object.fromEntries(Object.entries(p).filter(([k]) => !PER_ISSUE.has(k))));
/** Every leaf of a payload but the per-issue claims, by its dotted path. */
function leaves(p: Json): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, at: string) => {
    if (isObject(v)) for (const [k, c] of Object.entries(v)) walk(c, at === '' ? k : `${at}.${k}`);
    else out.set(at, canonical(v));
  };
  for (const [k, v] of Object.entries(p)) if (!PER_ISSUE.has(k)) walk(v, k);
  return out;
}
const lifetime = (p: Json) =>
  typeof p['exp'] === 'number' && typeof p['iat'] === 'number' ? p['exp'] - p['iat'] : undefined;

export async function tenant(w: Watch, world: World) {
  if (!w.serves.has('tenant-flow')) return;
  const { t } = w;
  const fresh = (prefix: string) => `${prefix}-${t.faker.string.alphanumeric(10)}`;
  const register = async (body: Json): Promise<Issued> => {
    const res = await t.http.post(REGISTER_TENANT, { ...world.creds(), ...body });
    const data = dataOf(res);
    const [at] = pathsWhere(data, (v) => typeof v === 'string' && JWT.test(v));
    const token = at === undefined ? undefined : valueAt(data, at);
    if (!ok(res) || typeof token !== 'string') return { res };
    return { res, payload: decodeJwt(token) };
  };

  // Two values per concept, each pair differing in what the concept holds.
  const flagsA = { addChart: true };
  const flagsB = { readOnly: true, hideHeader: true };
  const values = (concept: Probed): [unknown, unknown] => {
    switch (concept) {
      case 'columns':
        return [{ customer_id: fresh('a') }, { customer_id: fresh('b') }];
      case 'schema':
        return [fresh('schema_a'), fresh('schema_b')];
      case 'uniqueKey':
        return [fresh('key-a'), fresh('key-b')];
      case 'name':
        return [`${t.faker.company.name()} (eac a)`, `${t.faker.company.name()} (eac b)`];
      case 'permissions':
        return [flagsA, flagsB];
      case 'metadata':
        return [{ plan: fresh('m') }, { plan: fresh('m') }];
      case 'expiration':
        return ['5m', '2h'];
    }
  };
  // The account's snapshot (a host hook) shows what a call stored where the token does not.
  const snapshot = async (): Promise<string | undefined> => {
    if (!t.hooks.has('snapshot')) return undefined;
    const res = await t.http.get(`/accounts/${world.account.organizationId}/snapshot`, {
      base: 'hooks',
    });
    return ok(res) ? canonical(res.body) : undefined;
  };
  let stored = t.hooks.has('snapshot');
  /**
   * Whether `member` is read: three calls differing in it alone (a, a again, b) all answer;
   * the two with one value answer alike and the third otherwise, in their tokens (for the
   * expiration, the spans they live for) or in the snapshots taken after each.
   */
  const reads = async (
    concept: Probed,
    member: string,
    base: Json,
  ): Promise<{ read: boolean; by: 'token' | 'snapshot'; carried: boolean }> => {
    const [a, b] = values(concept);
    const issued: Issued[] = [];
    const states: (string | undefined)[] = [];
    for (const value of [a, a, b]) {
      const one = await register({ ...base, [member]: value });
      if (one.payload === undefined) return { read: false, by: 'token', carried: false };
      issued.push(one);
      states.push(stored ? await snapshot() : undefined);
    }
    const [p1, p2, p3] = issued.map((i) => i.payload ?? {});
    const [s1, s2, s3] = states;
    const mark = (p: Json | undefined) =>
      p === undefined ? '' : concept === 'expiration' ? String(lifetime(p)) : fingerprint(p);
    const byToken = mark(p1) === mark(p2) && mark(p2) !== mark(p3);
    const bySnapshot = s1 !== undefined && s1 === s2 && s2 !== s3;
    return {
      read: byToken || bySnapshot,
      by: byToken ? 'token' : 'snapshot',
      carried: byToken && p1 !== undefined && carries(concept, p1, a),
    };
  };

  const empty = await register({});
  const mentioned = namesMentioned(empty.res);
  // A member no server reads, sent both ways: when the tokens change with it, no change proves
  // a member read.
  const unread = `eacUnread${t.faker.string.alpha(6)}`;
  for (const concept of ['columns', 'name', 'permissions', 'expiration'] as const) {
    const control = await reads(concept, unread, {});
    if (control.read && control.by === 'token') {
      w.cannot(
        'shapes.registerTenant',
        `the tenant token changes with a member no server reads (${unread}), so no change it shows proves a member read`,
      );
      return;
    }
    if (control.read) {
      stored = false;
      w.saw(
        `register-tenant: the snapshot changes with a member no server reads (${unread}); only tokens are compared`,
      );
    }
  }

  const names: Partial<Record<Probed, string>> = {};
  const seen: string[] = [];
  const find = async (concept: Probed, base: Json) => {
    const tries = [
      ...CANDIDATES[concept].flatMap(spellings),
      ...mentioned.filter((m) => conceptOf(m) === concept),
    ];
    for (const member of [...new Set(tries)]) {
      if (Object.values(names).includes(member)) continue;
      const found = await reads(concept, member, base);
      if (!found.read) continue;
      names[concept] = member;
      seen.push(
        `${concept} as ${member}${found.carried ? ' (the token carries it)' : found.by === 'snapshot' ? ' (the snapshot changes with it)' : ''}`,
      );
      return;
    }
  };
  // What a tenant is split on first: with a server that requires one, nothing else is accepted
  // without it.
  for (const concept of ['columns', 'uniqueKey'] as const) await find(concept, {});
  const columnsBase: Json =
    names.columns === undefined ? {} : { [names.columns]: { customer_id: fresh('base') } };
  // A schema may split tenants alone, or only beside the columns.
  await find('schema', {});
  if (names.schema === undefined && names.columns !== undefined) await find('schema', columnsBase);
  const split: Json =
    names.columns !== undefined
      ? columnsBase
      : names.schema !== undefined
        ? { [names.schema]: fresh('base') }
        : names.uniqueKey !== undefined
          ? { [names.uniqueKey]: fresh('base') }
          : {};
  for (const concept of ['name', 'permissions', 'metadata', 'expiration'] as const)
    await find(concept, split);

  const missing = (Object.keys(CANDIDATES) as Probed[]).filter((c) => names[c] === undefined);
  if (Object.keys(names).length === 0) {
    w.cannot(
      'shapes.registerTenant',
      `no candidate member changed the tenant token (register-tenant answered ${empty.res.status} to credentials alone); write the field names by hand`,
    );
    return;
  }
  w.shapes['registerTenant'] = { ...names };
  w.saw(`register-tenant: read ${seen.join(', ')}`);
  w.review.push(
    `shapes.registerTenant: each name was taken where calls differing in that member alone answered alike for one value and otherwise for another (their tenant tokens, or the account snapshots after them); ${missing.length === 0 ? 'every concept was found' : `not found: ${missing.join(', ')}`}; connectionOverride (and its example) is yours to write`,
  );
  if (names.columns !== undefined && names.name !== undefined)
    await tenantIdentity(w, register, names.columns, names.name, fresh);
}

/** Whether the token carries the value sent: the permissions in effect, the object or string. */
function carries(concept: Probed, payload: Json, value: unknown): boolean {
  if (concept === 'permissions' && isObject(value)) {
    const effective = expectedEffective(value as Record<string, boolean>);
    return (
      permissionsIn(
        payload,
        Object.keys(effective).filter((f) => effective[f] === true),
      ) !== undefined
    );
  }
  if (concept === 'expiration' && typeof value === 'string')
    return lifetime(payload) === expirationSeconds(value);
  const inner = isObject(value) ? Object.values(value)[0] : value;
  return (
    pathsWhere(
      payload,
      (v) =>
        isDeepStrictEqual(v, value) ||
        (typeof v === 'string' && typeof inner === 'string' && v.includes(inner)),
    ).length > 0
  );
}

/**
 * §4.9 leaves open which registrations name one tenant. The claims that name the tenant are
 * those that differ between two registrations under one name and other columns; the same
 * columns under another name then either keep them (`columns`) or change them too
 * (`columns-and-name`).
 */
async function tenantIdentity(
  w: Watch,
  register: (body: Json) => Promise<Issued>,
  columns: string,
  name: string,
  fresh: (prefix: string) => string,
) {
  const x = { customer_id: fresh('x') };
  const y = { customer_id: fresh('y') };
  const [n1, n2] = [fresh('tenant one'), fresh('tenant two')];
  const a = (await register({ [columns]: x, [name]: n1 })).payload;
  const b = (await register({ [columns]: x, [name]: n2 })).payload;
  const d = (await register({ [columns]: y, [name]: n1 })).payload;
  if (a === undefined || b === undefined || d === undefined) {
    w.cannot('shapes.tenantIdentity', 'a registration of the identity check was refused');
    return;
  }
  const [la, lb, ld] = [leaves(a), leaves(b), leaves(d)];
  const naming = [...la.keys()].filter((k) => la.get(k) !== ld.get(k));
  if (naming.length === 0) {
    w.cannot('shapes.tenantIdentity', 'no claim of the tenant token changes with the columns');
    return;
  }
  const sameTenant = naming.every((k) => la.get(k) === lb.get(k));
  const rule = sameTenant ? 'columns' : 'columns-and-name';
  w.shapes['tenantIdentity'] = rule;
  w.saw(
    `register-tenant: the same columns under another name ${sameTenant ? 'kept' : 'changed'} the claims that name the tenant (${naming.join(', ')})`,
  );
  w.review.push(
    `shapes.tenantIdentity: ${rule}, from the claims ${naming.join(', ')} (they change with the columns); a unique key naming one tenant alone was not checked`,
  );
}
