import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import type { ProfilePart } from '../../spec/profile.ts';

/**
 * Requests generated from spec/openapi.yaml for the robustness fuzzer (issue 11 part 3): for
 * every operation of the document, requests that are valid, or broken in one or more of the
 * ways a hostile or careless client breaks them. Pure: no I/O but reading the OpenAPI file,
 * so the quick suite (suites/robustness/fuzz.test.ts) and the long run (tools/fuzz-long.ts)
 * send the same kinds of request.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';

export interface Operation {
  readonly method: Method;
  /** The path template, `{name}` for each path parameter. */
  readonly path: string;
  readonly part: ProfilePart;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** The JSON body's schema, $refs resolved lazily by the generator. */
  readonly body?: Schema;
}

/** What the world holds: ids by path-parameter or field name, and credentials to use. */
export interface FuzzContext {
  /** Ids of the caller's own account, by name (projectId, projectUserRoleId, userId, ...). */
  readonly ids: Readonly<Record<string, readonly string[]>>;
  /** Ids of another account, by the same names. */
  readonly foreignIds: Readonly<Record<string, readonly string[]>>;
  readonly organizationId: string;
  readonly foreignOrganizationId: string;
  readonly orgBoundKey: string;
  readonly userScopedKey: string;
  readonly foreignKey: string;
  /** Genuine project-user tokens of the caller's account (may be empty). */
  readonly tokens: readonly string[];
}

export interface FuzzRequest {
  readonly method: Method;
  /** Path and query, ready to append to the base URL. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** One line saying what was broken, for failure messages. */
  readonly label: string;
}

const SPEC = new URL('../../spec/openapi.yaml', import.meta.url);

/** Which part of the document a path belongs to (a target not serving it is not fuzzed there). */
export function partOf(path: string): ProfilePart {
  if (path.startsWith('/v2/')) return 'v2';
  if (path.startsWith('/v1/api/tenant/')) return 'tenant-flow';
  if (path.startsWith('/v1/api/dashboard/') || path.startsWith('/v1/api/chart/'))
    return 'v1-dashboards';
  if (path.startsWith('/v1/api/project-agents/')) return 'chat';
  return 'identity';
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

/** Every operation of spec/openapi.yaml. */
export function loadOperations(file: URL = SPEC): { operations: Operation[]; doc: Schema } {
  const doc = parse(readFileSync(file, 'utf8')) as Schema;
  const resolve = (node: unknown): Schema => {
    let n = node as Schema;
    for (let i = 0; i < 10 && typeof n['$ref'] === 'string'; i++) {
      const ref = n['$ref'].replace(/^#\//, '').split('/');
      n = ref.reduce<Schema>((at, key) => at[key] as Schema, doc);
    }
    return n;
  };
  const paths = doc['paths'] as Record<string, Schema>;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const shared = ((item['parameters'] as unknown[] | undefined) ?? []).map(resolve);
    for (const m of METHODS) {
      const op = item[m] as Schema | undefined;
      if (op === undefined) continue;
      const params = [
        ...shared,
        ...((op['parameters'] as unknown[] | undefined) ?? []).map(resolve),
      ];
      const body = (
        (resolve(op['requestBody'] ?? {})['content'] as Schema | undefined)?.[
          'application/json'
        ] as Schema | undefined
      )?.['schema'] as Schema | undefined;
      operations.push({
        method: m.toUpperCase() as Method,
        path,
        part: partOf(path),
        pathParams: params.filter((p) => p['in'] === 'path').map((p) => String(p['name'])),
        queryParams: params.filter((p) => p['in'] === 'query').map((p) => String(p['name'])),
        ...(body !== undefined ? { body } : {}),
      });
    }
  }
  return { operations, doc };
}

/** Strings a fuzzer tries: unicode of every plane, NUL, control characters, injection-looking text. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\ud83d\ude00\ud83c\udff3\ufe0f\u200d\ud83c\udf08',
  '\ufeff',
  'Ω≈ç√∫˜µ≤≥÷',
  '\u0001\u001f\u007f',
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '__proto__',
  'constructor',
];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Ids that are not ids: not UUIDs, traversal, encodings, case changes of real ones. */
function badIds(real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'not-a-uuid',
      '..',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%2F..%2F',
      '%00',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '%C3%BC',
      '%F0%9F%98%80',
      '1e9',
      '-1',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      'x'.repeat(2000),
    ),
    fc.uuid(),
    ...(real.length > 0
      ? [
          fc.constantFrom(...real).map((id) => id.toUpperCase()),
          fc.constantFrom(...real).map((id) => `${id}x`),
          fc.constantFrom(...real).map((id) => id.slice(1)),
        ]
      : []),
  );
}

function idFor(name: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const own = ctx.ids[name] ?? [];
  const foreign = ctx.foreignIds[name] ?? [];
  return fc.oneof(
    { weight: 5, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.uuid() },
    { weight: 2, arbitrary: foreign.length > 0 ? fc.constantFrom(...foreign) : fc.uuid() },
    { weight: 3, arbitrary: badIds(own) },
  );
}

const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;

/** A value shaped by `schema` (loosely: enough to pass validation often), ids from the world. */
function valueOf(
  schema: Schema,
  resolve: (s: unknown) => Schema,
  ctx: FuzzContext,
  name: string,
  depth: number,
): fc.Arbitrary<Json> {
  const s = resolve(schema);
  if (depth > 4) return anyJson;
  const alternatives = (s['oneOf'] ?? s['anyOf']) as unknown[] | undefined;
  if (alternatives !== undefined && alternatives.length > 0)
    return fc.oneof(
      ...alternatives.map((a) => valueOf(a as Schema, resolve, ctx, name, depth + 1)),
    );
  const all = s['allOf'] as unknown[] | undefined;
  if (all !== undefined && all.length > 0) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of all.map(resolve)) {
      Object.assign(merged['properties'] as Schema, part['properties'] ?? {});
      (merged['required'] as string[]).push(...((part['required'] as string[] | undefined) ?? []));
    }
    return valueOf(merged, resolve, ctx, name, depth + 1);
  }
  if (Array.isArray(s['enum']) && s['enum'].length > 0)
    return fc.constantFrom(...(s['enum'] as Json[]));
  if (s['const'] !== undefined) return fc.constant(s['const'] as Json);
  const type = Array.isArray(s['type'])
    ? (s['type'][0] as string)
    : (s['type'] as string | undefined);
  switch (type) {
    case 'string':
      if (s['format'] === 'uuid' || /Id$/.test(name)) return idFor(name, ctx);
      if (s['format'] === 'date-time')
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 24 }) },
        { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
      );
    case 'integer':
      return fc.integer({ min: -5, max: 1000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueOf((s['items'] ?? {}) as Schema, resolve, ctx, name, depth + 1), {
        maxLength: 3,
      });
    case 'object':
    case undefined: {
      const props = (s['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((s['required'] as string[] | undefined) ?? []);
      if (Object.keys(props).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<Json>> = {};
      for (const [key, sub] of Object.entries(props))
        record[key] = valueOf(sub, resolve, ctx, key, depth + 1);
      return fc.record(record, {
        requiredKeys: [...required].filter((k) => k in record),
      });
    }
    default:
      return anyJson;
  }
}

/** One way of breaking a body that was valid; each returns the new body text. */
const BODY_BREAKS: readonly {
  readonly name: string;
  readonly arb: (body: Json) => fc.Arbitrary<string>;
}[] = [
  {
    name: 'a required field missing',
    arb: (b) =>
      isObject(b) && Object.keys(b).length > 0
        ? fc.constantFrom(...Object.keys(b)).map((k) => JSON.stringify(omit(b, k)))
        : fc.constant(JSON.stringify(b)),
  },
  {
    name: 'a field of the wrong type',
    arb: (b) =>
      isObject(b) && Object.keys(b).length > 0
        ? fc
            .tuple(
              fc.constantFrom(...Object.keys(b)),
              fc.constantFrom<Json>(42, -1, true, null, [], {}, 'text', [1, 'a'], 1e308, {
                a: { b: 1 },
              }),
            )
            .map(([k, v]) => JSON.stringify({ ...b, [k]: v }))
        : fc.constant('42'),
  },
  {
    name: 'extra fields',
    arb: (b) =>
      fc
        .dictionary(fc.string({ minLength: 1, maxLength: 10 }), anyJson, { minKeys: 1, maxKeys: 4 })
        .map((extra) => JSON.stringify(isObject(b) ? { ...extra, ...b, ...extra } : extra)),
  },
  {
    name: 'prototype keys',
    arb: (b) =>
      fc
        .tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom('top', 'nested'))
        .map(([key, where]) => {
          const text = JSON.stringify(isObject(b) ? b : {});
          const inject = `${JSON.stringify(key)}:{"polluted":true,"prototype":{"isAdmin":true}}`;
          if (where === 'top' || text === '{}')
            return text === '{}' ? `{${inject}}` : `{${inject},${text.slice(1)}`;
          return text
            .replace(/\{/g, (m, offset: number) => (offset === 0 ? m : `{${inject},`))
            .replace(/,\}/g, '}');
        }),
  },
  {
    name: 'a deeply nested value',
    arb: (b) =>
      fc.integer({ min: 10, max: 3000 }).map((levels) => {
        const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
        const text = JSON.stringify(isObject(b) ? { ...b, deep: '__D__' } : { deep: '__D__' });
        return text.replace('"__D__"', deep);
      }),
  },
  {
    name: 'a huge string',
    arb: (b) =>
      fc.constantFrom(64 * 1024, 512 * 1024, 1024 * 1024 + 10).map((size) => {
        const key =
          isObject(b) && Object.keys(b).length > 0 ? (Object.keys(b)[0] ?? 'name') : 'name';
        return JSON.stringify({ ...(isObject(b) ? b : {}), [key]: 'x'.repeat(size) });
      }),
  },
  {
    name: 'strings with unicode and NUL',
    arb: (b) =>
      fc
        .constantFrom(...NASTY_STRINGS)
        .map((nasty) =>
          JSON.stringify(
            isObject(b)
              ? Object.fromEntries(
                  Object.entries(b).map(([k, v]) => [k, typeof v === 'string' ? nasty : v]),
                )
              : nasty,
          ),
        ),
  },
  {
    name: 'not JSON',
    arb: (b) =>
      fc.constantFrom(
        JSON.stringify(b).slice(0, Math.max(1, JSON.stringify(b).length - 3)),
        '{"a":',
        '',
        'null',
        '[]',
        '"text"',
        '{"a":1,"a":2}',
        '\u0000',
        '{\u0000}',
        '\ufeff{}',
        "{'single':'quotes'}",
        '{"a":NaN}',
        '[' + '1,'.repeat(1000) + '1]',
      ),
  },
];

function isObject(v: Json): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function omit(o: { [k: string]: Json }, key: string): { [k: string]: Json } {
  const copy = { ...o };
  delete copy[key];
  return copy;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  '',
];

type Credential = {
  readonly where: 'body' | 'query' | 'header' | 'none';
  readonly fields: Record<string, string>;
  readonly label: string;
};

/** Where §5 puts the credential of an operation: a bearer token, the body or the query. */
function naturalCarrier(op: Operation): 'body' | 'query' | 'header' {
  if (op.part === 'v2' || op.part === 'chat' || op.path.endsWith('save-from-chat')) return 'header';
  return op.method === 'POST' || op.method === 'PUT' ? 'body' : 'query';
}

/**
 * Mostly the caller's own valid credential where the operation takes it, so that most
 * requests get past authentication to the checks behind it; the rest misplaced, foreign,
 * malformed, forged or missing.
 */
function credentialArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<Credential> {
  const natural = naturalCarrier(op);
  const tokenLike = fc.constantFrom(
    'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    'not-a-token',
    'a.b.c',
    ...(ctx.tokens.length > 0 ? [`${ctx.tokens[0] ?? ''}x`] : []),
  );
  const own = fc.oneof(
    fc.constant({ apiKey: ctx.orgBoundKey, label: 'own org-bound key' }),
    fc.constant({
      apiKey: ctx.userScopedKey,
      organizationId: ctx.organizationId,
      label: 'own user-scoped key',
    }),
  );
  const genuine: fc.Arbitrary<Credential> =
    natural === 'header' && ctx.tokens.length > 0
      ? fc
          .constantFrom(...ctx.tokens)
          .map((token) => ({ where: 'header', fields: { bearer: token }, label: 'own token' }))
      : own.map(({ label, ...fields }) => ({
          where: natural,
          fields,
          label: `${label} in the ${natural}`,
        }));
  const others = fc.oneof(
    fc.constant({
      apiKey: ctx.userScopedKey,
      organizationId: ctx.foreignOrganizationId,
      label: 'user-scoped key, foreign organization',
    }),
    fc.constant({ apiKey: ctx.foreignKey, label: 'another account\u2019s key' }),
    fc
      .constantFrom('', 'k', 'x'.repeat(5000), '\u0000', ctx.orgBoundKey.toUpperCase())
      .map((apiKey) => ({ apiKey, label: 'a bad key' })),
    own,
  );
  return fc.oneof(
    { weight: 7, arbitrary: genuine },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom<'body' | 'query' | 'header'>('body', 'query', 'header'), others)
        .map(([where, k]): Credential => {
          const { label, ...fields } = k;
          return { where, fields, label: `${label} in the ${where}` };
        }),
    },
    {
      weight: 1,
      arbitrary: tokenLike.map((token): Credential => ({
        where: 'header',
        fields: { bearer: token },
        label: 'a forged or bad token',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Credential>({ where: 'none', fields: {}, label: 'no credentials' }),
    },
  );
}

const HEADER_SAFE = /^[\x20-\x7e]*$/;

function place(
  cred: Credential,
  query: Record<string, string>,
  headers: Record<string, string>,
  body: Json | undefined,
): Json | undefined {
  // A header cannot carry control characters at all (the client refuses to send them): such a
  // credential rides in the query instead.
  if (
    cred.where === 'header' &&
    HEADER_SAFE.test(cred.fields['bearer'] ?? cred.fields['apiKey'] ?? '')
  ) {
    const bearer = cred.fields['bearer'] ?? cred.fields['apiKey'] ?? '';
    headers['authorization'] = `Bearer ${bearer}`;
    if (cred.fields['organizationId'] !== undefined)
      query['organizationId'] = cred.fields['organizationId'];
    return body;
  }
  if (cred.where === 'query' || cred.where === 'header') {
    Object.assign(query, cred.fields);
    return body;
  }
  if (cred.where === 'body')
    return { ...(body !== undefined && isObject(body) ? body : {}), ...cred.fields };
  return body;
}

/**
 * Requests for one operation. Most carry the operation's method and a body close to its
 * schema; the rest break one or more things: method, ids, body, content type, credentials.
 */
export function requestArb(
  op: Operation,
  doc: Schema,
  ctx: FuzzContext,
): fc.Arbitrary<FuzzRequest> {
  const resolve = (node: unknown): Schema => {
    let n = (node ?? {}) as Schema;
    for (let i = 0; i < 10 && typeof n['$ref'] === 'string'; i++) {
      const ref = n['$ref'].replace(/^#\//, '').split('/');
      n = ref.reduce<Schema>((at, key) => at[key] as Schema, doc);
    }
    return n;
  };
  const params = fc.record(Object.fromEntries(op.pathParams.map((p) => [p, idFor(p, ctx)])));
  const bodyValue: fc.Arbitrary<Json | undefined> =
    op.body !== undefined ? valueOf(op.body, resolve, ctx, 'body', 0) : fc.constant(undefined);
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(op.method) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Method>(
        'GET',
        'POST',
        'PUT',
        'DELETE',
        'PATCH',
        'OPTIONS',
        'HEAD',
      ),
    },
  );
  const breakIndex = fc.oneof(
    { weight: 3, arbitrary: fc.constant(-1) },
    { weight: 5, arbitrary: fc.integer({ min: 0, max: BODY_BREAKS.length - 1 }) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
  const queryExtras = op.queryParams
    .filter((q) => q !== 'apiKey' && q !== 'organizationId')
    .map((q) => [q, idFor(q, ctx)] as const);
  return fc
    .tuple(
      method,
      params,
      bodyValue,
      breakIndex,
      contentType,
      credentialArb(ctx, op),
      fc.record(Object.fromEntries(queryExtras)),
      fc.nat(),
    )
    .chain(([m, p, b, breakAt, ct, cred, q, salt]) => {
      const query: Record<string, string> = { ...(q as Record<string, string>) };
      const headers: Record<string, string> = {};
      const withCreds = place(cred, query, headers, b);
      const broken = breakAt >= 0 ? BODY_BREAKS[breakAt] : undefined;
      const text: fc.Arbitrary<string | undefined> =
        broken !== undefined
          ? broken.arb(withCreds ?? {})
          : fc.constant(withCreds === undefined ? undefined : JSON.stringify(withCreds));
      return text.map((body) => {
        let path = op.path;
        for (const [name, value] of Object.entries(p)) path = path.replace(`{${name}}`, value);
        const qs = new URLSearchParams(query).toString();
        const sendsBody = body !== undefined && m !== 'GET' && m !== 'HEAD';
        if (sendsBody && ct !== '') headers['content-type'] = ct;
        const label = [
          `${m} ${op.path}`,
          cred.label,
          ...(broken !== undefined ? [broken.name] : []),
          ...(ct !== 'application/json' && sendsBody ? [`content-type "${ct}"`] : []),
          `#${salt % 1000}`,
        ].join('; ');
        return {
          method: m,
          path: qs.length > 0 ? `${path}?${qs}` : path,
          headers,
          ...(sendsBody ? { body } : {}),
          label,
        };
      });
    });
}

/** Requests over every operation given, each operation drawn equally often. */
export function requestsArb(
  ops: readonly Operation[],
  doc: Schema,
  ctx: FuzzContext,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...ops.map((op) => requestArb(op, doc, ctx)));
}

/** What is wrong with an answer, or undefined: no 5xx, and every refusal in the §7 envelope. */
export function judge(
  request: FuzzRequest,
  status: number,
  contentType: string,
  text: string,
): string | undefined {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 160)}`;
  if (status < 400 || request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} refusal whose body is not JSON (${contentType}): ${text.slice(0, 120)}`;
  }
  const b = body as {
    status?: unknown;
    error?: { message?: unknown; code?: unknown; details?: unknown };
  };
  if (
    b.status !== 'error' ||
    typeof b.error !== 'object' ||
    b.error === null ||
    typeof b.error.message !== 'string' ||
    // §7 requires only the message; code and details, when present, have their shapes.
    (b.error.code !== undefined && typeof b.error.code !== 'string') ||
    (b.error.details !== undefined &&
      (typeof b.error.details !== 'object' || b.error.details === null))
  )
    return `a ${status} refusal outside the §7 envelope: ${text.slice(0, 160)}`;
  return undefined;
}
