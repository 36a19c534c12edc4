import { errorOf, isObject, withJson, type JsonObject } from './answer.ts';
import { bodyObjectOf, pathOfUrl, queryOf, refusal, withBody, withQuery } from './request.ts';
import type { Answer, Transform } from './transform.ts';

// The credential freedoms of §5 the proxy can take for its target (spec/latitude.ts): how a
// refused credential is answered, where an API key is found, and whether an organizationId an
// organization-bound key makes meaningless is still validated.

/**
 * The §5 table's identity calls and list-workspaces: the calls that read the key from the JSON
 * body (POST, PUT) or the query (GET, DELETE) and nowhere else, as the reference decided
 * (auth.api-key.misplaced, auth.identity.carriers-only).
 */
function carrierOf(request: Answer['request']): 'body' | 'query' | undefined {
  const path = pathOfUrl(request.url);
  const identity =
    path.startsWith('/v1/api/projects/') ||
    path === '/v1/api/tenant/register-tenant' ||
    path === '/v1/api/dashboard/list-workspaces';
  if (!identity) return undefined;
  const method = request.method.toUpperCase();
  if (method === 'POST' || method === 'PUT') return 'body';
  return method === 'GET' || method === 'DELETE' ? 'query' : undefined;
}

const looksLikeJwt = (value: string) => /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/.test(value);

const present = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** An API key in an authorization header, bare or after a scheme; never a JWT. */
function headerKey(headers: Readonly<Record<string, string>>): string | undefined {
  const value = headers['authorization']?.trim();
  if (value === undefined || value === '') return undefined;
  const key = /^\S+\s+(\S+)$/.exec(value)?.[1] ?? (/\s/.test(value) ? undefined : value);
  return key === undefined || looksLikeJwt(key) ? undefined : key;
}

/**
 * `credentials.read-anywhere`: a server that reads an API key wherever the client put it. On an
 * identity call whose carrier holds no key, a key in the other place (the query of a POST or
 * PUT, the JSON body of a GET or DELETE) or in an authorization header is read as if it were in
 * the carrier; an organizationId beside it goes with it. A key in the carrier always wins.
 */
export const credentialsReadAnywhere: Transform = {
  id: 'credentials.read-anywhere',
  apply: () => undefined,
  before(request) {
    const carrier = carrierOf(request);
    if (carrier === undefined) return undefined;
    const query = queryOf(request);
    const body = bodyObjectOf(request);
    const inBody = body?.['apiKey'];
    const inQuery = query.get('apiKey');
    if (carrier === 'body' ? present(inBody) : present(inQuery)) return undefined;
    const header = headerKey(request.headers);
    const { authorization: _read, ...otherHeaders } = request.headers;
    if (carrier === 'body') {
      if (request.body.length > 0 && body === undefined) return undefined;
      if (present(inQuery)) {
        const moved: JsonObject = { ...body, apiKey: inQuery };
        const organizationId = query.get('organizationId');
        if (organizationId !== null && moved['organizationId'] === undefined)
          moved['organizationId'] = organizationId;
        query.delete('apiKey');
        query.delete('organizationId');
        return { request: withBody(withQuery(request, query), moved) };
      }
      if (header === undefined) return undefined;
      return {
        request: withBody({ ...request, headers: otherHeaders }, { ...body, apiKey: header }),
      };
    }
    if (present(inBody) && body !== undefined) {
      const { apiKey: _moved, organizationId, ...rest } = body;
      query.set('apiKey', inBody);
      if (organizationId !== undefined && query.get('organizationId') === null)
        query.set(
          'organizationId',
          typeof organizationId === 'string' ? organizationId : JSON.stringify(organizationId),
        );
      return { request: withBody(withQuery(request, query), rest) };
    }
    if (header === undefined) return undefined;
    query.set('apiKey', header);
    return { request: withQuery({ ...request, headers: otherHeaders }, query) };
  },
};

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const issue = (place: 'body' | 'query', message: string, code: string) => ({
  path: [place, 'organizationId'],
  message,
  code,
});

/**
 * `organization-id.validated`: a server that validates organizationId as the UUID §5 types it,
 * whatever the key: a value of another shape (in the JSON body or the query, of any call) is
 * refused with a 400 before anything is read, where the reference drops it unread beside an
 * organization-bound key (auth.org-bound.organization-id-shape).
 */
export const organizationIdValidated: Transform = {
  id: 'organization-id.validated',
  apply: () => undefined,
  before(request) {
    const body = bodyObjectOf(request);
    const issues = [];
    if (body !== undefined && 'organizationId' in body) {
      const value = body['organizationId'];
      if (typeof value !== 'string' || !UUID.test(value))
        issues.push(issue('body', 'organizationId must be a UUID', 'invalid_uuid'));
    }
    for (const value of queryOf(request).getAll('organizationId'))
      if (!UUID.test(value))
        issues.push(issue('query', 'organizationId must be a UUID', 'invalid_uuid'));
    if (issues.length === 0) return undefined;
    return {
      answer: refusal(400, {
        message: 'The request is not valid: organizationId is no UUID.',
        code: 'VALIDATION_ERROR',
        details: { issues },
      }),
    };
  },
  restate(profile) {
    const follows = (profile.follows ?? []).filter(
      (id) => id !== 'auth.org-bound.organization-id-shape',
    );
    return { ...profile, follows };
  },
};

/** How a server taking `credentials.refused-otherwise` answers each refusal the reference makes. */
interface Otherwise {
  readonly status: number;
  readonly error: (error: JsonObject, request: Answer['request']) => JsonObject;
  readonly headers?: Readonly<Record<string, string>>;
}

const OTHERWISE: Readonly<Record<string, Otherwise>> = {
  // No credential: the client authenticates, as RFC 9110's 401 asks, and no reason is given.
  'missing-credentials': {
    status: 401,
    error: () => ({
      message: 'Authentication is required: send an API key or a token.',
      code: 'AUTHENTICATION_REQUIRED',
    }),
    headers: { 'www-authenticate': 'ApiKey realm="analytics"' },
  },
  // A key nobody issued: forbidden rather than unauthenticated.
  'invalid-api-key': {
    status: 403,
    error: () => ({ message: 'The API key is not valid.', code: 'INVALID_API_KEY', details: {} }),
  },
  // A key in a place this call does not read: a malformed request.
  'api-key-misplaced': {
    status: 400,
    error: (e) => ({ message: e['message'], code: 'API_KEY_MISPLACED' }),
  },
  // A user-scoped key without organizationId: a missing field, refused as validation.
  'organization-id-required': {
    status: 400,
    error: (_e, request) => {
      const method = request.method.toUpperCase();
      const place = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
      return {
        message: 'The request is not valid: organizationId is required with this key.',
        code: 'VALIDATION_ERROR',
        details: { issues: [issue(place, 'Required', 'required')] },
      };
    },
  },
  // An organization the key's holder is not in: not found, so that none is disclosed.
  'not-a-member': {
    status: 404,
    error: () => ({
      message: 'No such organization.',
      code: 'NOT_FOUND',
      details: { resource: 'organization' },
    }),
  },
  // A token that is not one: forbidden; an expired one keeps 401 and says so in its header.
  'invalid-token': {
    status: 403,
    error: () => ({ message: 'The token is not valid.', code: 'INVALID_TOKEN' }),
  },
  'token-expired': {
    status: 401,
    error: () => ({ message: 'The token has expired.', code: 'TOKEN_EXPIRED' }),
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
  },
};

/**
 * `credentials.refused-otherwise`: each credential refusal whose answer §5 and §7 leave open
 * (auth.credentials.missing, auth.api-key.unknown, auth.api-key.misplaced,
 * auth.user-scoped.missing-organization-id, auth.user-scoped.not-member, auth.token.invalid)
 * answered with another status, code and details, told apart by the reference's details.reason.
 */
export const credentialsRefusedOtherwise: Transform = {
  id: 'credentials.refused-otherwise',
  apply(answer) {
    const found = errorOf(answer);
    const details = found?.error['details'];
    const reason = isObject(details) ? details['reason'] : undefined;
    const code = found?.error['code'];
    if (found === undefined || typeof reason !== 'string') return undefined;
    if (code !== 'UNAUTHORIZED' && code !== 'FORBIDDEN') return undefined;
    const other = OTHERWISE[reason];
    if (other === undefined) return undefined;
    const error = other.error(found.error, answer.request);
    return {
      ...withJson(answer, { ...found.envelope, error }, other.status),
      headers: { ...answer.headers, ...other.headers },
    };
  },
};

const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every UUID string anywhere in a JSON value, in lower case. */
function uuidsIn(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (ANY_UUID.test(value)) into.add(value.toLowerCase());
  } else if (Array.isArray(value)) for (const v of value) uuidsIn(v, into);
  else if (isObject(value)) for (const v of Object.values(value)) uuidsIn(v, into);
}

/** Where a refused request names the thing of each kind the reference did not find. */
const PATH_AFTER: Readonly<Record<string, string>> = {
  project: 'projects',
  role: 'user-roles',
  user: 'users',
};

function namedId(request: Answer['request'], resource: string, field: unknown): unknown {
  if (typeof field === 'string')
    return bodyObjectOf(request)?.[field] ?? queryOf(request).get(field) ?? undefined;
  // A project named in the body or the query (register-user, embed-token) has no field named.
  const named =
    resource === 'project'
      ? (bodyObjectOf(request)?.['projectId'] ?? queryOf(request).get('projectId') ?? undefined)
      : undefined;
  if (named !== undefined) return named;
  const segments = pathOfUrl(request.url).split('/');
  const at = segments.indexOf(PATH_AFTER[resource] ?? '');
  return at < 0 ? undefined : segments[at + 1];
}

const ROLE_DELETE = /^\/v1\/api\/projects\/[^/]+\/user-roles\/([^/]+)\/?$/;

/**
 * `isolation.forbidden`: a server that tells a project, role or user of another account from
 * one that does not exist, and answers the first 403 (auth.isolation.other-account; the
 * reference answers 404 to both). The proxy knows what exists from what the run's answers
 * (hooks included) have shown, less the roles deleted since: a 404 for such an id becomes 403.
 */
export function isolationForbidden(): Transform {
  const shown = new Set<string>();
  return {
    id: 'isolation.forbidden',
    observe(answer) {
      if (answer.status < 200 || answer.status > 299) return;
      const deleted =
        answer.request.method.toUpperCase() === 'DELETE'
          ? ROLE_DELETE.exec(pathOfUrl(answer.request.url))?.[1]
          : undefined;
      if (deleted !== undefined) {
        shown.delete(deleted.toLowerCase());
        return;
      }
      try {
        uuidsIn(JSON.parse(answer.body.toString('utf8')), shown);
      } catch {
        // Not JSON: it shows no ids.
      }
    },
    apply(answer) {
      const found = errorOf(answer);
      if (found === undefined || answer.status !== 404 || found.error['code'] !== 'NOT_FOUND')
        return undefined;
      const details = found.error['details'];
      const resource = isObject(details) ? details['resource'] : undefined;
      if (typeof resource !== 'string' || PATH_AFTER[resource] === undefined) return undefined;
      const id = namedId(
        answer.request,
        resource,
        isObject(details) ? details['field'] : undefined,
      );
      if (typeof id !== 'string' || !shown.has(id.toLowerCase())) return undefined;
      return withJson(
        answer,
        {
          ...found.envelope,
          error: {
            message: `That ${resource} is not yours to use.`,
            code: 'FORBIDDEN',
            details: { resource },
          },
        },
        403,
      );
    },
  };
}

/** The header a server taking `v2.api-key-header` reads an API key from on v2 calls. */
export const V2_KEY_HEADER = 'x-api-key';

/**
 * `v2.api-key-header`: a server that takes an API key on v2 calls (§4.16, §5 rule 7) in a header
 * of its own, `x-api-key`, and nowhere else, where the reference reads the `apiKey` member beside
 * organizationId (v2.credentials.api-key-carrier). A key in that header reaches the target as
 * the member it reads; an `apiKey` member the client sent is not read (dropped), so a call
 * carrying the key only there is refused as one with no credential. organizationId stays where
 * rule 7 puts it. The printed profile states the header.
 */
export const v2ApiKeyHeader: Transform = {
  id: 'v2.api-key-header',
  apply: () => undefined,
  before(request) {
    if (!pathOfUrl(request.url).startsWith('/v2/')) return undefined;
    const { [V2_KEY_HEADER]: key, ...headers } = request.headers;
    const query = queryOf(request);
    const body = bodyObjectOf(request);
    const method = request.method.toUpperCase();
    const sent = query.has('apiKey') || (body !== undefined && 'apiKey' in body);
    if (key === undefined && !sent) return undefined;
    query.delete('apiKey');
    const { apiKey: _unread, ...rest } = body ?? {};
    let rewritten = withQuery({ ...request, headers }, query);
    if (body !== undefined) rewritten = withBody(rewritten, rest);
    if (!present(key)) return { request: rewritten };
    if (method === 'POST' || method === 'PUT') {
      if (request.body.length > 0 && body === undefined) return { request: rewritten };
      return { request: withBody(rewritten, { ...rest, apiKey: key }) };
    }
    query.set('apiKey', key);
    return { request: withQuery(rewritten, query) };
  },
  restate(profile) {
    const follows = (profile.follows ?? []).filter((id) => id !== 'v2.credentials.api-key-carrier');
    return {
      ...profile,
      follows,
      shapes: { ...profile.shapes, v2ApiKey: { header: V2_KEY_HEADER } },
    };
  },
};
