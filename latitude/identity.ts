import { isObject, successOf, withJson, type JsonObject } from './answer.ts';
import { ROLE_UPDATE, isCall } from './endpoints.ts';
import type { Answer, Before, Relayed, Transform } from './transform.ts';
import type { TargetProfile } from '../spec/profile.ts';

// Other choices of §2.3 and §4.1–§4.6 where the document leaves a server free (spec/latitude.ts),
// carried out in front of the reference: requests it would take otherwise are rewritten or
// answered here, and what one run registered or deleted is remembered for that run alone. Each
// transform is made fresh for every proxy.

const REGISTER_ORGANIZATION = 'POST /v1/api/projects/register-organization';
const REGISTER_USER = 'POST /v1/api/projects/register-user';
const USER_UPDATE = 'PUT /v1/api/projects/{projectId}/users/{projectUserId}';
const ROLE_DELETE = 'DELETE /v1/api/projects/{projectId}/user-roles/{projectUserRoleId}';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** The header a rewritten request carries to find its own answer again. */
const MARK = 'x-latitude-identity';

const pathOf = (url: string) => url.split('?')[0] ?? '';
const queryOf = (url: string) => url.split('?')[1] ?? '';

/** Whether JSON text nests deeper than `limit` (strings skipped): no identity call's body does. */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > limit) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}

/**
 * The request's body as a JSON object, when it is one. A body nested past any identity call's
 * is left to the target (what it answers to such a body is no freedom of these entries).
 */
function bodyOf(request: Relayed): JsonObject | undefined {
  if (request.body.length === 0) return undefined;
  if (nestsDeeper(request.body.toString('utf8'), 64)) return undefined;
  try {
    const value: unknown = JSON.parse(request.body.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const withBody = (request: Relayed, body: JsonObject): Relayed => ({
  ...request,
  headers: { ...request.headers, 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body), 'utf8'),
});

/** An answer the proxy gives itself, in the §7 envelope or the success envelope. */
function ownAnswer(request: Relayed, status: number, value: unknown): Answer {
  return {
    request,
    status,
    headers: { ...JSON_HEADERS },
    body: Buffer.from(JSON.stringify(value), 'utf8'),
  };
}

const refusal = (
  request: Relayed,
  status: number,
  code: string,
  message: string,
  details: JsonObject,
) => ownAnswer(request, status, { status: 'error', error: { message, code, details } });

/** The path parameters of a call of `endpoint` (lower-cased UUIDs). */
function segments(url: string): string[] {
  return pathOf(url)
    .split('/')
    .map((s) => decodeURIComponent(s).toLowerCase());
}

/**
 * `register.name-optional`: §4.4 and §4.5 do not say which fields are required. This server
 * takes a registration without a name: an organization is then named after its externalId (or
 * "Unnamed organization"), a user gets an empty display name.
 */
function registerNameOptional(): Transform {
  return {
    id: 'register.name-optional',
    before(request) {
      const org = isCall(REGISTER_ORGANIZATION, request.method, request.url);
      const user = isCall(REGISTER_USER, request.method, request.url);
      const body = org || user ? bodyOf(request) : undefined;
      if (body === undefined || 'name' in body) return undefined;
      const ext = body['externalId'];
      const name = user ? '' : typeof ext === 'string' && ext !== '' ? ext : 'Unnamed organization';
      return { request: withBody(request, { ...body, name }) };
    },
    apply: () => undefined,
  };
}

/**
 * `register.ids-other`: §4.4 and §4.5 leave open what a registration naming an id already held
 * does. This server refuses an externalId the project registered (409 CONFLICT, nothing
 * updated), and takes a userId the project holds as an update of only what is sent: properties
 * left out are kept (the ones it last stored, through a registration or a user update).
 */
function registerIdsOther(): Transform {
  const externalIds = new Set<string>();
  const properties = new Map<string, unknown>();
  const key = (projectId: unknown, id: unknown) =>
    typeof projectId === 'string' && typeof id === 'string'
      ? `${projectId.toLowerCase()}|${id.toLowerCase()}`
      : undefined;
  return {
    id: 'register.ids-other',
    before(request) {
      if (isCall(REGISTER_ORGANIZATION, request.method, request.url)) {
        const body = bodyOf(request);
        const ext = body?.['externalId'];
        if (body === undefined || typeof ext !== 'string') return undefined;
        if (!externalIds.has(`${String(body['projectId']).toLowerCase()}|${ext}`)) return undefined;
        return {
          answer: refusal(request, 409, 'CONFLICT', 'externalId is already registered', {
            field: 'externalId',
          }),
        };
      }
      if (!isCall(REGISTER_USER, request.method, request.url)) return undefined;
      const body = bodyOf(request);
      const k = key(body?.['projectId'], body?.['userId']);
      if (body === undefined || k === undefined || 'properties' in body) return undefined;
      const kept = properties.get(k);
      return kept === undefined
        ? undefined
        : { request: withBody(request, { ...body, properties: kept }) };
    },
    apply(answer) {
      const { method, url } = answer.request;
      const body = bodyOf(answer.request);
      const data = successOf(answer)?.['data'];
      if (body === undefined || !isObject(data)) return undefined;
      if (isCall(REGISTER_ORGANIZATION, method, url) && typeof body['externalId'] === 'string')
        externalIds.add(`${String(body['projectId']).toLowerCase()}|${body['externalId']}`);
      if (isCall(REGISTER_USER, method, url)) {
        const k = key(body['projectId'], data['userId']);
        if (k !== undefined) properties.set(k, body['properties'] ?? {});
      }
      if (isCall(USER_UPDATE, method, url)) {
        const [, , , , projectId, , userId] = segments(url);
        const k = key(projectId, userId);
        const sent = 'properties' in body ? body['properties'] : body['payload'];
        if (k !== undefined && sent !== undefined) properties.set(k, sent);
      }
      return undefined;
    },
    restate: (profile) => withoutFollows(profile, 'orgs.register.external-id-upsert'),
  };
}

/**
 * `orgs.external-id-other`: §2.3 leaves open how an identifier that could be a UUID or an
 * externalId is matched, and §4.4 what externalId is answered when none was sent. This server
 * takes an externalId equal to another organization's UUID (that UUID keeps naming its own
 * organization: UUIDs are matched first, so the externalId is never reached), and answers a
 * handle of its own making when no externalId was sent, which later calls resolve.
 */
function orgsExternalIdOther(): Transform {
  const organizations = new Set<string>();
  /** The handles answered, with the UUID each stands for. */
  const handles = new Map<string, string>();
  const sentAlone = new Map<string, string>();
  let marks = 0;
  const resolved = (value: unknown): unknown => {
    if (typeof value === 'string') return handles.get(value) ?? value;
    if (Array.isArray(value)) return value.map(resolved);
    if (isObject(value))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]));
    return value;
  };
  return {
    id: 'orgs.external-id-other',
    before(request) {
      let next = request;
      // A handle this server answered names its organization wherever an identifier goes.
      if (handles.size > 0) {
        const query = queryOf(request.url);
        const params = new URLSearchParams(query);
        let changed = false;
        for (const [k, v] of [...params.entries()]) {
          const uuid = handles.get(v);
          if (uuid !== undefined) {
            params.set(k, uuid);
            changed = true;
          }
        }
        if (changed) next = { ...next, url: `${pathOf(request.url)}?${params.toString()}` };
        const body = bodyOf(next);
        if (body !== undefined) {
          const out = resolved(body) as JsonObject;
          if (JSON.stringify(out) !== JSON.stringify(body)) next = withBody(next, out);
        }
      }
      if (isCall(REGISTER_ORGANIZATION, next.method, next.url)) {
        const body = bodyOf(next);
        const ext = body?.['externalId'];
        if (body !== undefined && typeof ext === 'string' && organizations.has(ext.toLowerCase())) {
          const { externalId: _sent, ...rest } = body;
          const mark = String(++marks);
          sentAlone.set(mark, ext);
          next = { ...withBody(next, rest), headers: { ...next.headers, [MARK]: mark } };
          next = { ...next, headers: { ...next.headers, 'content-type': 'application/json' } };
        }
      }
      return next === request ? undefined : { request: next };
    },
    apply(answer) {
      if (!isCall(REGISTER_ORGANIZATION, answer.request.method, answer.request.url))
        return undefined;
      const envelope = successOf(answer);
      const data = envelope?.['data'];
      if (envelope === undefined || !isObject(data)) return undefined;
      const id = data['projectOrganizationId'];
      if (typeof id !== 'string') return undefined;
      organizations.add(id.toLowerCase());
      const mark = answer.request.headers[MARK];
      const kept = mark === undefined ? undefined : sentAlone.get(mark);
      if (kept !== undefined)
        return withJson(answer, { ...envelope, data: { ...data, externalId: kept } });
      if (bodyOf(answer.request)?.['externalId'] !== undefined) return undefined;
      const handle = `org-${id.replace(/-/g, '').slice(0, 12).toLowerCase()}`;
      handles.set(handle, id);
      return withJson(answer, { ...envelope, data: { ...data, externalId: handle } });
    },
    restate: (profile) => withoutFollows(profile, 'orgs.identifier.resolution-order'),
  };
}

/**
 * `users.update.other-reading`: §4.6 leaves open what a user update does with both payload and
 * properties, with a role or organization left out, and with an externalId where it types a
 * UUID. This server reads the body as a whole replacement: properties wins over payload, a left
 * out userRoleId or projectOrganizationId is none, and projectOrganizationId takes only a UUID.
 */
function usersUpdateOtherReading(): Transform {
  return {
    id: 'users.update.other-reading',
    before(request) {
      if (!isCall(USER_UPDATE, request.method, request.url)) return undefined;
      const body = bodyOf(request);
      if (body === undefined) return undefined;
      const org = body['projectOrganizationId'];
      if (typeof org === 'string' && !UUID.test(org))
        return {
          answer: refusal(
            request,
            400,
            'VALIDATION_ERROR',
            'projectOrganizationId must be a UUID',
            {
              field: 'projectOrganizationId',
              issues: [
                {
                  path: ['projectOrganizationId'],
                  message: 'Invalid uuid',
                  code: 'invalid_string',
                },
              ],
            },
          ),
        };
      const next: JsonObject = { ...body };
      for (const field of ['userRoleId', 'projectOrganizationId'])
        if (!(field in next)) next[field] = null;
      if ('properties' in next && 'payload' in next) delete next['payload'];
      return JSON.stringify(next) === JSON.stringify(body)
        ? undefined
        : { request: withBody(request, next) };
    },
    apply: () => undefined,
    restate: (profile) => withoutFollows(profile, 'users.update.absent-fields-unchanged'),
  };
}

/**
 * `roles.quiet-writes`: §4.1 and §4.3 leave open what a role write that has nothing to do
 * answers. This server answers a second delete of a role as the first (200 with a message),
 * and an update with neither name nor permissions with the role as stored, its updated_at not
 * moved. Either is read through the role list under the same credentials, which the target
 * checks as for the write.
 */
function rolesQuietWrites(): Transform {
  const deleted = new Set<string>();
  const pending = new Map<
    string,
    { readonly kind: 'deleted' | 'unchanged'; readonly request: Relayed; readonly roleId: string }
  >();
  let marks = 0;
  const listing = (request: Relayed, query: string, kind: 'deleted' | 'unchanged'): Before => {
    const parts = segments(request.url);
    const roleId = parts.at(-1) ?? '';
    const listPath = pathOf(request.url).split('/').slice(0, -1).join('/');
    const mark = String(++marks);
    pending.set(mark, { kind, request, roleId });
    return {
      request: {
        ...request,
        method: 'GET',
        url: query === '' ? listPath : `${listPath}?${query}`,
        headers: { ...request.headers, [MARK]: mark },
        body: Buffer.alloc(0),
      },
    };
  };
  return {
    id: 'roles.quiet-writes',
    before(request) {
      if (isCall(ROLE_DELETE, request.method, request.url)) {
        if (!deleted.has(pathOf(request.url).toLowerCase())) return undefined;
        return listing(request, queryOf(request.url), 'deleted');
      }
      if (!isCall(ROLE_UPDATE, request.method, request.url)) return undefined;
      const body = bodyOf(request);
      if (body === undefined || 'name' in body || 'permissions' in body) return undefined;
      // Only credentials are left, and they travel in the query of the list alike.
      if (!Object.values(body).every((v) => typeof v === 'string')) return undefined;
      const params = new URLSearchParams(queryOf(request.url));
      for (const [k, v] of Object.entries(body)) params.set(k, v as string);
      return listing(request, params.toString(), 'unchanged');
    },
    apply(answer) {
      const mark = answer.request.headers[MARK];
      const taken = mark === undefined ? undefined : pending.get(mark);
      if (taken === undefined) {
        if (isCall(ROLE_DELETE, answer.request.method, answer.request.url) && answer.status === 200)
          deleted.add(pathOf(answer.request.url).toLowerCase());
        return undefined;
      }
      if (mark !== undefined) pending.delete(mark);
      const request = taken.request;
      const envelope = successOf(answer);
      if (envelope === undefined) return { ...answer, request };
      if (taken.kind === 'deleted')
        return ownAnswer(request, 200, {
          status: 'success',
          data: { message: 'The role was deleted.' },
        });
      const roles = isObject(envelope['data']) ? envelope['data']['userRoles'] : undefined;
      const role: unknown = Array.isArray(roles)
        ? (roles as unknown[]).find(
            (r) => isObject(r) && String(r['id']).toLowerCase() === taken.roleId,
          )
        : undefined;
      if (role === undefined)
        return refusal(request, 404, 'NOT_FOUND', 'role not found', { resource: 'role' });
      return ownAnswer(request, 200, { status: 'success', data: role });
    },
  };
}

function withoutFollows(profile: TargetProfile, clause: string): TargetProfile {
  if (profile.follows === undefined) return profile;
  return { ...profile, follows: profile.follows.filter((c) => c !== clause) };
}

/** The identity transforms, as makers: each proxy takes fresh ones. */
export const identityTransforms: readonly (() => Transform)[] = [
  registerNameOptional,
  registerIdsOther,
  orgsExternalIdOther,
  usersUpdateOtherReading,
  rolesQuietWrites,
];
