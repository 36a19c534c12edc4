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
  'permissions.no-role-nothing',
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

/**
 * `tokens.through-expires-at`: an answer issuing a token whose exp names another second than
 * the expiresAt beside it.
 */
function expBeyondExpiresAt(body: Buffer): boolean {
  let data: unknown;
  try {
    data = (JSON.parse(body.toString('utf8')) as { data?: unknown }).data;
  } catch {
    return false;
  }
  if (typeof data !== 'object' || data === null) return false;
  const { token, expiresAt } = data as { token?: unknown; expiresAt?: unknown };
  if (typeof token !== 'string' || typeof expiresAt !== 'string') return false;
  const exp = decoded(token.split('.')[1] ?? '')?.['exp'];
  return typeof exp === 'number' && exp * 1000 !== Date.parse(expiresAt);
}

/**
 * `permissions.no-role-nothing`: a project-user token of a user with no role whose permissions
 * grant nothing, in whichever form and layout they are written.
 */
function noRoleGrantsNothing(payload: Record<string, unknown>): boolean {
  if (payload['kind'] !== 'project-user') return false;
  const ctx = payload['ctx'];
  const nested =
    typeof ctx === 'object' && ctx !== null ? (ctx as Record<string, unknown>) : undefined;
  const role = nested === undefined ? payload['rol'] : nested['role'];
  if (role !== null) return false;
  const written =
    nested?.['permissions'] ??
    payload['perm'] ??
    payload['https://eac.example/permissions'] ??
    payload['scope'];
  if (Array.isArray(written)) return written.length === 0;
  if (typeof written === 'string') return written.trim() === '';
  return (
    typeof written === 'object' &&
    written !== null &&
    Object.values(written).every((v) => v === false)
  );
}

/** What one run's answers have shown so far, for the witnesses that compare answers. */
export interface Memory {
  /** Per user id, the properties a user update last stored (as canonical JSON). */
  readonly stored: Map<string, string>;
}

export const newMemory = (): Memory => ({ stored: new Map() });

const USER_UPDATE = /^\/v1\/api\/projects\/[^/]+\/users\/([^/]+)$/;

/** JSON with every object's members in name order, to compare two values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * `tokens.live-user`: a chat answered to a token whose properties are no longer its user's (a
 * user update stored others since it was issued), which the target then reads as stored now.
 * Remembers the properties each successful user update stores.
 */
function staleTokenAnswered(answer: Answer, path: string, memory: Memory): boolean {
  const ok = answer.status >= 200 && answer.status < 300;
  const update = USER_UPDATE.exec(path);
  if (update !== null && ok && answer.request.method === 'PUT') {
    try {
      const body = JSON.parse(answer.request.body.toString('utf8')) as Record<string, unknown>;
      const props = body['properties'] ?? body['payload'];
      if (props !== undefined)
        memory.stored.set(decodeURIComponent(update[1] ?? '').toLowerCase(), canonical(props));
    } catch {
      // Not a JSON body: nothing stored.
    }
    return false;
  }
  if (!ok || !CHAT.test(path)) return false;
  const bearer = /^Bearer\s+(\S+)$/i.exec(answer.request.headers['authorization'] ?? '')?.[1];
  const payload = decoded(bearer?.split('.')[1] ?? '');
  if (payload === undefined) return false;
  const ctx = payload['ctx'];
  const nested = typeof ctx === 'object' && ctx !== null;
  const user = nested ? payload['uid'] : payload['sub'];
  const props = nested ? (ctx as Record<string, unknown>)['properties'] : payload['props'];
  const stored = typeof user === 'string' ? memory.stored.get(user.toLowerCase()) : undefined;
  return stored !== undefined && stored !== canonical(props);
}

/**
 * The behaviour entries a hook answer shows, of those chosen: only where the suites read what
 * the target does through a hook alone. `sql.no-recursion`: the rows of a saved chart (the
 * `chartData` hook) refused for their recursive SQL, in the reference's words;
 * `properties.bound-as-text`: chart rows holding a boolean property as the text true or false
 * (the seeded tables hold no such text).
 */
export function witnessedInHooks(answer: Answer, chosen: readonly FreedomId[]): FreedomId[] {
  const seen: FreedomId[] = [];
  const text = answer.body.toString('utf8');
  if (
    chosen.includes('sql.no-recursion') &&
    answer.status >= 400 &&
    text.includes('recursive queries are not allowed')
  )
    seen.push('sql.no-recursion');
  if (
    chosen.includes('properties.bound-as-text') &&
    answer.status === 200 &&
    BOOLEAN_TEXT.test(text)
  )
    seen.push('properties.bound-as-text');
  return seen;
}

/** A JSON member whose value is the text of a boolean. */
const BOOLEAN_TEXT = /"[^"]*":"(true|false)"/;

/** The behaviour entries an answer shows, of those chosen. */
export function witnessed(
  answer: Answer,
  chosen: readonly FreedomId[],
  memory: Memory = newMemory(),
): FreedomId[] {
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
  if (chosen.includes('tokens.through-expires-at') && ok && expBeyondExpiresAt(answer.body))
    seen.push('tokens.through-expires-at');
  if (
    chosen.includes('permissions.no-role-nothing') &&
    tokens.some((t) => noRoleGrantsNothing(t.payload))
  )
    seen.push('permissions.no-role-nothing');
  if (chosen.includes('tokens.live-user') && staleTokenAnswered(answer, path, memory))
    seen.push('tokens.live-user');
  if (chosen.includes('tenant.identity-name') && ok && answer.request.method === 'POST') {
    if (path === REGISTER_TENANT) seen.push('tenant.identity-name');
  }
  return seen;
}

type Body = Record<string, unknown>;

/** The JSON object of a body, if it is one. */
function jsonOf(body: Buffer): Body | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Body)
      : undefined;
  } catch {
    return undefined;
  }
}

const isStream = (answer: Answer) =>
  answer.status >= 200 &&
  answer.status < 300 &&
  (answer.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');

const CHAT_AGENT = /^\/v1\/api\/project-agents\/([^/]+)\/chat$/;

/**
 * `chat.requests-answered`: a stream answering a chat body the reference's decisions refuse:
 * payload.agent_id not the path's, no message of role user, an agent_version no version can be.
 */
function answeredAsIs(answer: Answer): boolean {
  const agentId = CHAT_AGENT.exec(answer.request.url.split('?')[0] ?? '')?.[1];
  const body = jsonOf(answer.request.body);
  if (agentId === undefined || body === undefined || !isStream(answer)) return false;
  const payload = body['payload'] as Body | undefined;
  const messages = body['messages'];
  const version = payload?.['agent_version'];
  return (
    (typeof payload?.['agent_id'] === 'string' &&
      payload['agent_id'].toLowerCase() !== decodeURIComponent(agentId).toLowerCase()) ||
    (Array.isArray(messages) && !messages.some((m) => (m as Body | null)?.['role'] === 'user')) ||
    (typeof version === 'number' && !(Number.isSafeInteger(version) && version >= 1))
  );
}

/** The versions a stream reports: payload.agentVersion of any event, or payload.agent.version. */
function reportedVersions(answer: Answer): number[] {
  const out: number[] = [];
  for (const line of answer.body.toString('utf8').split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data: ')) continue;
    const event = jsonOf(Buffer.from(line.slice('data: '.length)));
    const payload = event?.['payload'] as Body | undefined;
    const agent = payload?.['agent'] as Body | undefined;
    for (const v of [payload?.['agentVersion'], agent?.['version']])
      if (typeof v === 'number') out.push(v);
  }
  return out;
}

/**
 * `chat.version-carried`, which only a thread shows: the proxy remembers, for one run, the last
 * version each thread (by token and thread_id) pinned; a stream answering a later message that
 * pins none with that version witnesses it.
 */
export function carriedVersions(): (answer: Answer) => boolean {
  const pins = new Map<string, number>();
  return (answer) => {
    if (!CHAT_AGENT.test(answer.request.url.split('?')[0] ?? '') || !isStream(answer)) return false;
    const body = jsonOf(answer.request.body);
    const thread = body?.['thread_id'];
    if (typeof thread !== 'string') return false;
    const key = `${answer.request.headers['authorization'] ?? ''}\u0000${thread}`;
    const pinned = (body?.['payload'] as Body | undefined)?.['agent_version'];
    if (typeof pinned === 'number') {
      pins.set(key, pinned);
      return false;
    }
    const carried = pins.get(key);
    return carried !== undefined && reportedVersions(answer).includes(carried);
  };
}

/** `chat.sliding-window`: a chat refused over §8's limit, its details naming a sliding window. */
function slidingRefusal(answer: Answer): boolean {
  if (answer.status !== 429) return false;
  const error = jsonOf(answer.body)?.['error'] as Body | undefined;
  return (error?.['details'] as Body | undefined)?.['window'] === 'sliding';
}

/** `hub.dashboard-redirect`: the dashboard page answered by a redirection to an application page. */
function dashboardRedirected(answer: Answer): boolean {
  const path = answer.request.url.split('?')[0] ?? '';
  return (
    answer.request.origin === 'hub' &&
    /^\/share\/dashboard\/[^/]+$/.test(path) &&
    answer.status >= 300 &&
    answer.status < 400 &&
    /\/share\/application\/[^/?]+\?(?:.*&)?dashboardId=/.test(answer.headers['location'] ?? '')
  );
}

/**
 * `hub.no-scheduled-reports`: a page shown to a user whose token grants enableScheduleReport
 * (in any form a token may write it) without the Schedule report control.
 */
function scheduleWithheld(answer: Answer): boolean {
  if (answer.request.origin !== 'hub' || answer.status !== 200) return false;
  const jwt = new URLSearchParams(answer.request.url.split('?')[1] ?? '').get('jwt') ?? '';
  const payload = JSON.stringify(tokensIn(Buffer.from(jwt))[0]?.payload ?? {});
  const granted =
    payload.includes('enableScheduleReport') && !payload.includes('"enableScheduleReport":false');
  return granted && !answer.body.toString('utf8').includes('Schedule report');
}

/**
 * `hub.unloadable-line-only`: a page whose chart says why it has no rows (the reference's
 * status line) with no table after it.
 */
function lineOnly(answer: Answer): boolean {
  if (answer.request.origin !== 'hub' || answer.status !== 200) return false;
  return /<p role="status">[^<]*<\/p>(?!<table>)/.test(answer.body.toString('utf8'));
}

/** `hub.filter-text`: a page given a filter_* value that is not JSON shows its input holding it. */
function textFilterSet(answer: Answer): boolean {
  if (answer.request.origin !== 'hub' || answer.status !== 200) return false;
  const query = new URLSearchParams(answer.request.url.split('?')[1] ?? '');
  const html = answer.body.toString('utf8');
  for (const [name, value] of query) {
    if (!name.startsWith('filter_') || value === '') continue;
    try {
      JSON.parse(value);
    } catch {
      const escaped = value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      if (html.includes(`name="${name}" value="${escaped}"`)) return true;
    }
  }
  return false;
}

/** The behaviour entries an answer shows, of those chosen, with what a run must remember. */
export function witnessing(chosen: readonly FreedomId[]): (answer: Answer) => FreedomId[] {
  const carried = carriedVersions();
  const memory = newMemory();
  return (answer) => {
    const seen = witnessed(answer, chosen, memory);
    if (chosen.includes('hub.dashboard-redirect') && dashboardRedirected(answer))
      seen.push('hub.dashboard-redirect');
    if (chosen.includes('hub.no-scheduled-reports') && scheduleWithheld(answer))
      seen.push('hub.no-scheduled-reports');
    if (chosen.includes('hub.filter-text') && textFilterSet(answer)) seen.push('hub.filter-text');
    if (chosen.includes('hub.unloadable-line-only') && lineOnly(answer))
      seen.push('hub.unloadable-line-only');
    const chat = CHAT_AGENT.test(answer.request.url.split('?')[0] ?? '');
    if (!chat) return seen;
    if (chosen.includes('chat.requests-answered') && answeredAsIs(answer))
      seen.push('chat.requests-answered');
    if (chosen.includes('chat.version-carried') && carried(answer))
      seen.push('chat.version-carried');
    if (chosen.includes('chat.sliding-window') && slidingRefusal(answer))
      seen.push('chat.sliding-window');
    return seen;
  };
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
