import type { z } from 'zod';
import * as S from '../spec/schemas/index.ts';
import { errorOf, isObject, withJson, type JsonObject } from './answer.ts';
import { bodyObjectOf, pathOfUrl, queryOf, refusal, withBody } from './request.ts';
import type { Answer, Transform } from './transform.ts';

// Refusals of §7 whose status, code or reading the document leaves open, taken otherwise by the
// proxy for its target (spec/latitude.ts).

/** The reference's paths, as templates, with the methods each serves (a 405 names them). */
const ROUTES: readonly (readonly [RegExp, readonly string[]])[] = (
  [
    ['/v1/api/projects/[^/]+/user-roles', ['GET']],
    ['/v1/api/projects/[^/]+/user-roles/[^/]+', ['PUT', 'DELETE']],
    ['/v1/api/projects/register-organization', ['POST']],
    ['/v1/api/projects/register-user', ['POST']],
    ['/v1/api/projects/[^/]+/users/[^/]+', ['PUT']],
    ['/v1/api/projects/user-token', ['POST']],
    ['/v1/api/projects/embed-token', ['POST']],
    ['/v1/api/tenant/register-tenant', ['POST']],
    ['/v1/api/dashboard/(clone|append-charts-from|remove-charts|create|add-charts)', ['POST']],
    ['/v1/api/dashboard/(list-workspaces|list-workspace-dashboards)', ['GET']],
    ['/v1/api/chart/save-from-chat', ['POST']],
    ['/v1/api/project-agents/[^/]+/chat', ['POST']],
    ['/v2/api/applications', ['GET']],
    ['/v2/api/applications/[^/]+/dashboards', ['GET', 'POST']],
    ['/v2/api/applications/[^/]+/dashboards/[^/]+/(clone|charts|append-charts)', ['POST']],
    ['/v2/api/applications/[^/]+/dashboards/[^/]+/charts/[^/]+', ['DELETE']],
    ['/v2/api/dashboards/[^/]+/lookup', ['GET']],
  ] as const
).map(([path, methods]) => [new RegExp(`^${path}/?$`), methods]);

const methodsOf = (url: string) => ROUTES.find(([re]) => re.test(pathOfUrl(url)))?.[1] ?? undefined;

/** Another status and code per condition, by the reference's code (its status alongside). */
const STATUSES: Readonly<
  Record<string, { from: number; to: number; code: string; keepDetails?: true }>
> = {
  MALFORMED_JSON: { from: 400, to: 422, code: 'INVALID_JSON', keepDetails: true },
  CONFLICT: { from: 409, to: 422, code: 'ALREADY_EXISTS', keepDetails: true },
  PAYLOAD_TOO_LARGE: { from: 413, to: 400, code: 'BODY_TOO_LARGE', keepDetails: true },
  UNSUPPORTED_MEDIA_TYPE: { from: 415, to: 400, code: 'UNSUPPORTED_CONTENT_TYPE' },
};

/**
 * `errors.statuses-otherwise`: the refusals whose status §7 leaves open answered with another:
 * a body that is no JSON 422, a clash with stored data 422, an oversized body 400, a body of
 * another media type 400, and a path the service does not have 404 NOT_FOUND like a missing
 * thing, or 405 with an Allow header when the path is served for other methods.
 */
export const errorsStatusesOtherwise: Transform = {
  id: 'errors.statuses-otherwise',
  apply(answer) {
    const found = errorOf(answer);
    const code = found?.error['code'];
    if (found === undefined || typeof code !== 'string') return undefined;
    if (code === 'ROUTE_NOT_FOUND' && answer.status === 404) {
      const methods = methodsOf(answer.request.url);
      if (methods === undefined)
        return withJson(answer, {
          ...found.envelope,
          error: { message: 'Nothing is here.', code: 'NOT_FOUND' },
        });
      return {
        ...withJson(
          answer,
          {
            ...found.envelope,
            error: {
              message: `This path takes ${methods.join(', ')}.`,
              code: 'METHOD_NOT_ALLOWED',
            },
          },
          405,
        ),
        headers: { ...answer.headers, allow: methods.join(', ') },
      };
    }
    const other = STATUSES[code];
    if (other === undefined || other.from !== answer.status) return undefined;
    const { details, message } = found.error;
    const error: JsonObject = { message, code: other.code };
    if (other.keepDetails === true && details !== undefined) error['details'] = details;
    return withJson(answer, { ...found.envelope, error }, other.to);
  },
};

/**
 * `migration.replacement-in-message`: the 410 of a v1 write after finalize names its v2
 * replacement in its message alone (the ids filled in where the reference fills them), with no
 * details (errors.migrated-to-v2.details).
 */
export const migrationReplacementInMessage: Transform = {
  id: 'migration.replacement-in-message',
  apply(answer) {
    const found = errorOf(answer);
    if (found === undefined || answer.status !== 410) return undefined;
    if (found.error['code'] !== 'MIGRATED_TO_V2') return undefined;
    const details = found.error['details'];
    if (!isObject(details)) return undefined;
    const named = details['v2Endpoint'] ?? details['replacement'];
    if (typeof named !== 'string') return undefined;
    const [method = '', ...path] = named.split(' ');
    const where = path.length > 0 ? `${method} ${path.join(' ')}` : named;
    return withJson(answer, {
      ...found.envelope,
      error: {
        message: `This organization moved to v2; this write is gone. Use ${where} instead.`,
        code: 'MIGRATED_TO_V2',
      },
    });
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const upperUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value) && value !== value.toLowerCase();

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** Members that take an externalId (matched as written) or are no id at all. */
const NOT_UUID_TYPED = new Set(['apiKey', 'projectOrganizationId', 'externalId']);

/**
 * `ids.lower-case-only`: a server that reads a UUID only in the lower-case form it issues ids
 * in: an id in upper case in the path, the query or a top-level body member (or a list of ids)
 * is refused as invalid, before anything is read (errors.validation.uuid-case). Members that
 * take an externalId are matched as written, as in the reference.
 */
export const idsLowerCaseOnly: Transform = {
  id: 'ids.lower-case-only',
  apply: () => undefined,
  before(request) {
    const issues: { path: (string | number)[]; message: string; code: string }[] = [];
    const bad = (path: (string | number)[]) =>
      issues.push({ path, message: 'Invalid UUID: write it in lower case', code: 'invalid_uuid' });
    pathOfUrl(request.url)
      .split('/')
      .forEach((segment, i) => {
        if (upperUuid(decoded(segment))) bad(['path', i]);
      });
    for (const [name, value] of queryOf(request))
      if (!NOT_UUID_TYPED.has(name) && upperUuid(value)) bad(['query', name]);
    const body = bodyObjectOf(request);
    for (const [name, value] of Object.entries(body ?? {})) {
      if (NOT_UUID_TYPED.has(name) || /external/i.test(name)) continue;
      if (upperUuid(value)) bad(['body', name]);
      if (Array.isArray(value))
        value.forEach((v, i) => {
          if (upperUuid(v)) bad(['body', name, i]);
        });
    }
    if (issues.length === 0) return undefined;
    return {
      answer: refusal(400, {
        message: 'The request is not valid.',
        code: 'VALIDATION_ERROR',
        details: { issues },
      }),
    };
  },
};

/** The value with every `__proto__` member, and `prototype` inside `constructor`, left out. */
function withoutPrototypeKeys(value: unknown, inConstructor = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutPrototypeKeys(v));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '__proto__' || (inConstructor && key === 'prototype')) continue;
    Object.defineProperty(out, key, {
      value: withoutPrototypeKeys(v, key === 'constructor'),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * `bodies.prototype-keys-dropped`: a server that drops members named `__proto__` (and
 * `prototype` inside `constructor`) from a JSON body without a word and reads the rest, where
 * the reference refuses the body (errors.validation.prototype-keys).
 */
export const bodiesPrototypeKeysDropped: Transform = {
  id: 'bodies.prototype-keys-dropped',
  apply: () => undefined,
  before(request) {
    const text = request.body.toString('utf8');
    if (!text.includes('__proto__') && !text.includes('prototype')) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const cleaned = JSON.stringify(withoutPrototypeKeys(value));
    if (cleaned === JSON.stringify(value)) return undefined;
    return { request: withBody(request, JSON.parse(cleaned)) };
  },
};

/** The schema of each call's body, as the reference reads it. */
const BODY_SCHEMAS: readonly (readonly [RegExp, z.ZodType & { shape: object }])[] = (
  [
    ['PUT /v1/api/projects/[^/]+/user-roles/[^/]+', S.UpdateRoleBody],
    ['POST /v1/api/projects/register-organization', S.RegisterOrganizationBody],
    ['POST /v1/api/projects/register-user', S.RegisterUserBody],
    ['PUT /v1/api/projects/[^/]+/users/[^/]+', S.UpdateUserBody],
    ['POST /v1/api/projects/user-token', S.UserTokenBody],
    ['POST /v1/api/projects/embed-token', S.EmbedTokenBody],
    // The fields only: whether one of them must split the tenant is the target's own choice
    // (tenants.register.split-required, which tenants.split-optional takes otherwise).
    ['POST /v1/api/tenant/register-tenant', S.RegisterTenantFields],
    ['POST /v1/api/dashboard/clone', S.CloneDashboardBody],
    ['POST /v1/api/dashboard/append-charts-from', S.AppendChartsFromBody],
    ['POST /v1/api/dashboard/remove-charts', S.RemoveChartsBody],
    ['POST /v1/api/dashboard/create', S.V1CreateDashboardBody],
    ['POST /v1/api/dashboard/add-charts', S.V1AddChartsBody],
    ['POST /v1/api/chart/save-from-chat', S.SaveFromChatBody],
    ['POST /v1/api/project-agents/[^/]+/chat', S.ChatBody],
    ['POST /v2/api/applications/[^/]+/dashboards', S.V2CreateDashboardBody],
    ['POST /v2/api/applications/[^/]+/dashboards/[^/]+/clone', S.V2CloneBody],
    ['POST /v2/api/applications/[^/]+/dashboards/[^/]+/charts', S.V2AddChartsBody],
    ['POST /v2/api/applications/[^/]+/dashboards/[^/]+/append-charts', S.V2AppendChartsBody],
  ] as const
).map(([call, schema]) => [new RegExp(`^${call}/?$`), schema]);

const schemaOf = (request: Answer['request']) => {
  const call = `${request.method.toUpperCase()} ${pathOfUrl(request.url)}`;
  return BODY_SCHEMAS.find(([re]) => re.test(call))?.[1];
};

/**
 * `bodies.unknown-fields-refused`: a server that refuses a body member it does not read (at the
 * top of the body of the calls above) with a 400 naming each, before anything is read, where
 * the reference ignores it (errors.unknown-fields).
 */
export const bodiesUnknownFieldsRefused: Transform = {
  id: 'bodies.unknown-fields-refused',
  apply: () => undefined,
  before(request) {
    const schema = schemaOf(request);
    const body = bodyObjectOf(request);
    if (schema === undefined || body === undefined) return undefined;
    const unknown = Object.keys(body).filter((name) => !(name in schema.shape));
    if (unknown.length === 0) return undefined;
    return {
      answer: refusal(400, {
        message: `Unknown member${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`,
        code: 'VALIDATION_ERROR',
        details: {
          issues: unknown.map((name) => ({
            path: ['body', name],
            message: 'Unrecognized key',
            code: 'unrecognized_keys',
          })),
        },
      }),
    };
  },
};

/**
 * `errors.shape-before-credentials`: a server that reads a body's shape before its credentials:
 * a JSON body its call's schema refuses (the credentials left aside: any apiKey string, and no
 * organizationId, which an organization-bound key makes meaningless) is a 400 whatever the
 * credentials, where the reference answers bad credentials first (errors.order.credentials-first).
 */
export const errorsShapeBeforeCredentials: Transform = {
  id: 'errors.shape-before-credentials',
  apply: () => undefined,
  before(request) {
    const schema = schemaOf(request);
    const body = bodyObjectOf(request);
    if (schema === undefined || body === undefined) return undefined;
    const { organizationId: _aside, ...rest } = body;
    const read = schema.safeParse({
      ...rest,
      apiKey: typeof rest['apiKey'] === 'string' ? rest['apiKey'] : 'credentials-read-later',
    });
    if (read.success) return undefined;
    return {
      answer: refusal(400, {
        message: 'The request body is not valid.',
        code: 'VALIDATION_ERROR',
        details: {
          issues: read.error.issues.map((i) => ({
            path: ['body', ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
            message: i.message,
            code: i.code,
          })),
        },
      }),
    };
  },
};
