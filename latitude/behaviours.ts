import type { FreedomId } from '../spec/latitude.ts';
import type { Answer } from './transform.ts';

/**
 * The behaviour entries of the catalogue are the target's own (the reference takes them through
 * a start-up switch); the proxy only witnesses them, so that a run can say each was exercised:
 * an answer counts for an entry when it shows the behaviour. `auth.both-forms` is exercised by
 * the proxy itself: an API key the client sends as `Bearer <key>` reaches the target bare.
 */

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;

function decoded(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The header and payload of every JWT an answer's body carries. */
function tokensIn(
  body: Buffer,
): { header: Record<string, unknown>; payload: Record<string, unknown> }[] {
  const found = [];
  for (const [token] of body.toString('utf8').matchAll(JWT)) {
    const [h = '', p = ''] = token.split('.');
    const header = decoded(h);
    const payload = decoded(p);
    if (header !== undefined && payload !== undefined) found.push({ header, payload });
  }
  return found;
}

const REGISTER_TENANT = '/v1/api/tenant/register-tenant';
const CHAT = /^\/v1\/api\/project-agents\/[^/]+\/chat$/;

/**
 * `chat.second-agent`: a chat stream whose `start` event names the answering version where the
 * second agent puts it (payload.agent.version), as the printed profile says.
 */
function secondAgentAnswered(answer: Answer): boolean {
  for (const line of answer.body.toString('utf8').split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data: ')) continue;
    try {
      const event = JSON.parse(line.slice('data: '.length)) as {
        type?: unknown;
        payload?: { agent?: { version?: unknown } };
      };
      if (event.type === 'start' && typeof event.payload?.agent?.version === 'number') return true;
    } catch {
      // Not an event of JSON: not the second agent's start either.
    }
  }
  return false;
}
const JWKS = /\/jwks(\.json)?$/;

/** The entries witnessed in the tokens an answer carries. */
const TOKEN_ENTRIES: ReadonlySet<FreedomId> = new Set([
  'tokens.hs256',
  'claims.layout',
  'claims.permissions-array',
  'claims.permissions-string',
]);

const PERMISSION_FORMS = [
  ['claims.permissions-array', 'array'],
  ['claims.permissions-string', 'string'],
] as const;

/**
 * Whether a project-user token's payload writes its permissions in the granted-names form:
 * an array, or a string, at any claim of the top level or of `ctx`.
 */
function permissionsWritten(payload: Record<string, unknown>, form: 'array' | 'string'): boolean {
  if (payload['kind'] !== 'project-user') return false;
  const ctx = payload['ctx'];
  const candidates =
    typeof ctx === 'object' && ctx !== null
      ? [(ctx as Record<string, unknown>)['permissions']]
      : [payload['https://eac.example/permissions'], payload['scope']];
  return candidates.some((v) => (form === 'array' ? Array.isArray(v) : typeof v === 'string'));
}

const REMOVE_CHARTS = '/v1/api/dashboard/remove-charts';
const ADD_CHARTS = '/v1/api/dashboard/add-charts';

/** The `details.resource` and `code` of a §7 error answer. */
function refusalOf(answer: Answer): { code?: unknown; resource?: unknown } {
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as {
      error?: { code?: unknown; details?: { resource?: unknown } };
    };
    return { code: body.error?.code, resource: body.error?.details?.resource };
  } catch {
    return {};
  }
}

/**
 * `dashboards.layout-strict`: a v1 remove-charts refused for a chart (the reference skips charts
 * that are not on the layout otherwise), or a v1 add-charts refused as a conflict.
 */
function layoutStrict(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST') return false;
  const refusal = refusalOf(answer);
  if (path === REMOVE_CHARTS) return answer.status === 404 && refusal.resource === 'chart';
  if (path === ADD_CHARTS) return answer.status === 409 && refusal.code === 'CONFLICT';
  return false;
}

/**
 * `tenants.split-optional`: a tenant registered from a body with nothing to split on (the request
 * as the target received it, in its own names: the reference's).
 */
function unsplitTenant(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST' || path !== REGISTER_TENANT) return false;
  try {
    const body = JSON.parse(answer.request.body.toString('utf8')) as Record<string, unknown>;
    return ['tenantColumns', 'tenantSchema', 'uniqueKey'].every((k) => body[k] === undefined);
  } catch {
    return false;
  }
}

const V1_DASHBOARD_WRITE =
  /^\/v1\/api\/dashboard\/(clone|append-charts-from|remove-charts|create|add-charts)$/;

/** `dashboards.connections-unchecked`: a v1 dashboard write naming a connectionId, made. */
function guestConnectionTaken(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST' || !V1_DASHBOARD_WRITE.test(path)) return false;
  try {
    const body = JSON.parse(answer.request.body.toString('utf8')) as Record<string, unknown>;
    return typeof body['connectionId'] === 'string';
  } catch {
    return false;
  }
}

/** The behaviour entries an answer shows, of those chosen. */
export function witnessed(answer: Answer, chosen: readonly FreedomId[]): FreedomId[] {
  const seen: FreedomId[] = [];
  const path = answer.request.url.split('?')[0] ?? '';
  const ok = answer.status >= 200 && answer.status < 300;
  const tokens = chosen.some((id) => TOKEN_ENTRIES.has(id)) ? tokensIn(answer.body) : [];
  if (chosen.includes('tokens.hs256')) {
    const keyless = answer.request.method === 'GET' && JWKS.test(path) && answer.status === 404;
    if (keyless || tokens.some((t) => t.header['alg'] === 'HS256')) seen.push('tokens.hs256');
  }
  if (chosen.includes('claims.layout')) {
    const nested = tokens.some(
      (t) => typeof t.payload['ctx'] === 'object' && t.payload['uid'] !== undefined,
    );
    if (nested) seen.push('claims.layout');
  }
  for (const [id, form] of PERMISSION_FORMS) {
    if (chosen.includes(id) && tokens.some((t) => permissionsWritten(t.payload, form)))
      seen.push(id);
  }
  if (chosen.includes('chat.second-agent') && ok && CHAT.test(path) && secondAgentAnswered(answer))
    seen.push('chat.second-agent');
  if (chosen.includes('dashboards.layout-strict') && layoutStrict(answer, path))
    seen.push('dashboards.layout-strict');
  if (
    chosen.includes('dashboards.connections-unchecked') &&
    ok &&
    guestConnectionTaken(answer, path)
  )
    seen.push('dashboards.connections-unchecked');
  if (chosen.includes('tenants.split-optional') && ok && unsplitTenant(answer, path))
    seen.push('tenants.split-optional');
  if (chosen.includes('tenant.identity-name') && ok && answer.request.method === 'POST') {
    if (path === REGISTER_TENANT) seen.push('tenant.identity-name');
  }
  return seen;
}

const looksLikeJwt = (value: string) => /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/.test(value);

/**
 * `auth.both-forms`: the request's `authorization` header with a `Bearer` API key made bare
 * (tokens keep their form); undefined when there is nothing to rewrite.
 */
export function bareKey(
  headers: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  const value = headers['authorization'];
  const key = value === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(value)?.[1];
  if (key === undefined || looksLikeJwt(key)) return undefined;
  return { ...headers, authorization: key };
}
