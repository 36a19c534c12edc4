import { isDeepStrictEqual } from 'node:util';
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

/**
 * What the witnesses remember of one run: the layout of each dashboard as answers showed it (any
 * object of a JSON answer with an id or dashboardId and its chartIds), so that an answer can be
 * judged against what came before it.
 */
export class Layouts {
  private readonly seen = new Map<string, readonly string[]>();
  /** Per credential (the authorization header), the dashboards its v1 edits named. */
  private readonly edited = new Map<string, Set<string>>();
  /** Per credential, the clones it made of a dashboard it had not edited: clone id -> source. */
  private readonly clones = new Map<string, Map<string, string>>();
  /** Appends made before any answer showed their source: source id -> the chart ids placed. */
  private readonly appends = new Map<string, readonly string[]>();
  /** Sources shown after their append holding a chart it placed, not yet taken. */
  private shownShared = 0;

  /**
   * `dashboards.append-same-charts`: whether this append placed a chart its source holds. When no
   * answer has shown the source yet, the append is kept until one does (a read-back through the
   * hooks, a list), and `takeShared` tells then.
   */
  appendShares(answer: Answer, path: string): boolean {
    if (path !== APPEND_CHARTS_FROM) return false;
    const exchange = exchangeOf(answer);
    const source = exchange?.sent['sourceDashboardId'];
    const placed = idsOf(exchange?.data['chartIds']);
    const layout = this.of(source);
    if (layout !== undefined) return placed.some((id) => layout.includes(id));
    if (typeof source === 'string' && placed.length > 0) this.appends.set(source, placed);
    return false;
  }

  /** Whether a source shown since holds a chart its earlier append placed (each seen once). */
  takeShared(): boolean {
    if (this.shownShared === 0) return false;
    this.shownShared -= 1;
    return true;
  }

  /** Remembers a v1 edit or clone the answer made (a 2xx POST). */
  noteWrite(answer: Answer, path: string): void {
    const who = answer.request.headers['authorization'];
    if (who === undefined || answer.request.method !== 'POST') return;
    if (answer.status < 200 || answer.status > 299) return;
    const exchange = exchangeOf(answer);
    if (exchange === undefined) return;
    const field = V1_LAYOUT_EDIT.get(path);
    const named = field === undefined ? undefined : exchange.sent[field];
    if (typeof named === 'string') {
      const set = this.edited.get(who) ?? new Set<string>();
      set.add(named);
      this.edited.set(who, set);
    }
    const source = exchange.sent['sourceDashboardId'];
    const clone = exchange.data['dashboardId'];
    if (path === CLONE && typeof source === 'string' && typeof clone === 'string') {
      if (this.edited.get(who)?.has(source) === true) return;
      const map = this.clones.get(who) ?? new Map<string, string>();
      map.set(clone, source);
      this.clones.set(who, map);
    }
  }

  /** A clone made with this credential that a list shows where its source no longer is. */
  cloneInPlace(answer: Answer, ids: readonly string[]): boolean {
    const who = answer.request.headers['authorization'];
    const made = who === undefined ? undefined : this.clones.get(who);
    if (made === undefined) return false;
    return [...made].some(([clone, source]) => ids.includes(clone) && !ids.includes(source));
  }

  /** The chart ids an earlier answer showed for this dashboard, or undefined. */
  of(dashboardId: unknown): readonly string[] | undefined {
    return typeof dashboardId === 'string' ? this.seen.get(dashboardId) : undefined;
  }

  /** Remembers every layout the answer shows. */
  note(answer: Answer): void {
    if (answer.status < 200 || answer.status > 299) return;
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return;
    }
    const walk = (value: unknown, depth: number): void => {
      if (depth > 6 || typeof value !== 'object' || value === null) return;
      if (Array.isArray(value)) {
        for (const v of value) walk(v, depth + 1);
        return;
      }
      const o = value as Record<string, unknown>;
      const id = o['dashboardId'] ?? o['id'];
      const charts = o['chartIds'];
      if (
        typeof id === 'string' &&
        Array.isArray(charts) &&
        charts.every((c) => typeof c === 'string')
      ) {
        this.seen.set(id, charts);
        const placed = this.appends.get(id);
        if (placed?.some((c) => charts.includes(c)) === true) {
          this.appends.delete(id);
          this.shownShared += 1;
        }
      }
      for (const v of Object.values(o)) walk(v, depth + 1);
    };
    walk(json, 0);
  }
}

const APPEND_CHARTS_FROM = '/v1/api/dashboard/append-charts-from';
const CLONE = '/v1/api/dashboard/clone';
const APPLICATIONS = '/v2/api/applications';
const SAVE_FROM_CHAT = '/v1/api/chart/save-from-chat';
const LIST_WORKSPACE_DASHBOARDS = '/v1/api/dashboard/list-workspace-dashboards';

/** The dashboards of a v1 list answer, as `{id, tenantId, ownerProjectUserId}` records. */
function listedDashboards(answer: Answer): Record<string, unknown>[] {
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as { data?: { dashboards?: unknown } };
    const list = body.data?.dashboards;
    return Array.isArray(list)
      ? list.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
      : [];
  } catch {
    return [];
  }
}

/** `dashboards.key-sees-all`: a v1 list asked with an API key that shows a user's dashboard. */
function keySeesUsers(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'GET' || path !== LIST_WORKSPACE_DASHBOARDS) return false;
  if (!answer.request.url.includes('apiKey=')) return false;
  return listedDashboards(answer).some(
    (d) => typeof d['tenantId'] === 'string' || typeof d['ownerProjectUserId'] === 'string',
  );
}
const V1_LAYOUT_EDIT = new Map([
  [APPEND_CHARTS_FROM, 'targetDashboardId'],
  [ADD_CHARTS, 'targetDashboardId'],
  [REMOVE_CHARTS, 'dashboardId'],
]);

/** The v1 dashboard calls other than clone, at the reference's paths. */
const V1_BESIDE_CLONE = new Set([
  APPEND_CHARTS_FROM,
  REMOVE_CHARTS,
  ADD_CHARTS,
  '/v1/api/dashboard/create',
  LIST_WORKSPACE_DASHBOARDS,
]);

/**
 * `dashboards.v1-project-users`: a v1 dashboard call other than clone answered with success to
 * a project-user token in the authorization header.
 */
function projectUserOnV1(answer: Answer, path: string): boolean {
  if (!V1_BESIDE_CLONE.has(path)) return false;
  const bearer = /^Bearer\s+(\S+)$/i.exec(answer.request.headers['authorization'] ?? '')?.[1];
  return decoded(bearer?.split('.')[1] ?? '')?.['kind'] === 'project-user';
}

/** The request's JSON body and the answer's `data`, when both are objects. */
function exchangeOf(
  answer: Answer,
): { sent: Record<string, unknown>; data: Record<string, unknown> } | undefined {
  try {
    const sent: unknown = JSON.parse(answer.request.body.toString('utf8'));
    const body = JSON.parse(answer.body.toString('utf8')) as { data?: unknown };
    const data = body.data;
    return typeof sent === 'object' && sent !== null && typeof data === 'object' && data !== null
      ? { sent: sent as Record<string, unknown>, data: data as Record<string, unknown> }
      : undefined;
  } catch {
    return undefined;
  }
}

const idsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * `dashboards.charts-renumbered`: a v1 edit that landed on a user's copy (another dashboard than
 * the one named) whose charts are none of the ones the named dashboard showed.
 */
function copyRenumbered(answer: Answer, path: string, layouts: Layouts): boolean {
  const field = V1_LAYOUT_EDIT.get(path);
  const exchange = field === undefined ? undefined : exchangeOf(answer);
  if (field === undefined || exchange === undefined) return false;
  const named = exchange.sent[field];
  const landed = exchange.data['dashboardId'];
  const before = layouts.of(named) ?? [];
  const after = idsOf(exchange.data['chartIds']);
  return (
    typeof landed === 'string' &&
    landed !== named &&
    before.length > 0 &&
    after.length > 0 &&
    after.every((id) => !before.includes(id))
  );
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
  /** Per user id, the properties a user update last stored. */
  readonly stored: Map<string, unknown>;
  /** Per project organization, the first user a register-tenant token placed in it. */
  readonly tenantOrganizations: Map<string, string>;
  /** Per tenant id, whether its last registration made it view-only (from the token answered). */
  readonly viewOnlyTenants: Map<string, boolean>;
}

export const newMemory = (): Memory => ({
  stored: new Map(),
  tenantOrganizations: new Map(),
  viewOnlyTenants: new Map(),
});

/**
 * A project-user token's user and project organization, in either layout the reference writes
 * (flat `sub` and `pog`, or nested `uid` and `ctx.organization`); undefined for other tokens.
 */
function placeOf(
  payload: Record<string, unknown>,
): { user: unknown; organization: unknown } | undefined {
  if (payload['kind'] !== 'project-user') return undefined;
  const ctx = payload['ctx'];
  if (typeof ctx === 'object' && ctx !== null)
    return { user: payload['uid'], organization: (ctx as Record<string, unknown>)['organization'] };
  return { user: payload['sub'], organization: payload['pog'] };
}

/**
 * `migration.tenants-shared-organization`: register-tenant answering a project-user token (after
 * finalize) that places its user in the project organization of another tenant's user.
 */
function tenantsShareOrganization(answer: Answer, path: string, memory: Memory): boolean {
  if (answer.request.method !== 'POST' || path !== REGISTER_TENANT) return false;
  let shared = false;
  for (const { payload } of tokensIn(answer.body)) {
    const place = placeOf(payload);
    if (typeof place?.user !== 'string' || typeof place.organization !== 'string') continue;
    const first = memory.tenantOrganizations.get(place.organization);
    if (first === undefined) memory.tenantOrganizations.set(place.organization, place.user);
    else if (first !== place.user) shared = true;
  }
  return shared;
}

const V2_UNDER_APPLICATION = /^\/v2\/api\/(applications\/[^/]+\/|dashboards\/[^/]+\/lookup$)/;

/**
 * `v2.no-organization-own-space`: a call under an application or the look-up, made with the
 * token of a project user with no project organization, answered with something else than a
 * refusal of that user: a 2xx, or the 409 of a template edit.
 */
function spacelessUserAnswered(answer: Answer, path: string): boolean {
  if (!V2_UNDER_APPLICATION.test(path)) return false;
  if (!(answer.status === 409 || (answer.status >= 200 && answer.status < 300))) return false;
  const bearer = /^Bearer\s+(\S+)$/i.exec(answer.request.headers['authorization'] ?? '')?.[1];
  const payload = decoded(bearer?.split('.')[1] ?? '');
  const place = payload === undefined ? undefined : placeOf(payload);
  return place !== undefined && place.organization === null;
}

const USER_UPDATE = /^\/v1\/api\/projects\/[^/]+\/users\/([^/]+)$/;

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
        memory.stored.set(decodeURIComponent(update[1] ?? '').toLowerCase(), props);
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
  return stored !== undefined && !isDeepStrictEqual(stored, props);
}

/** §2.2 rule 1's editing flags: a tenant with none of them on, or readOnly, writes nothing. */
const EDITING_FLAGS = [
  'addChart',
  'addFilter',
  'createChart',
  'editCharts',
  'removeChart',
  'addDashboard',
  'canDuplicateDashboard',
];

/** A tenant token's subject and whether the permissions it carries let it write at all. */
function tenantOf(
  payload: Record<string, unknown>,
): { tenantId: string; viewOnly: boolean } | undefined {
  if (payload['kind'] !== 'tenant') return undefined;
  const ctx = payload['ctx'];
  const nested = typeof ctx === 'object' && ctx !== null;
  const tenantId = nested ? payload['uid'] : payload['sub'];
  const perm = nested ? (ctx as Record<string, unknown>)['permissions'] : payload['perm'];
  if (typeof tenantId !== 'string' || typeof perm !== 'object' || perm === null) return undefined;
  const flags = perm as Record<string, unknown>;
  const viewOnly = flags['readOnly'] === true || !EDITING_FLAGS.some((f) => flags[f] === true);
  return { tenantId: tenantId.toLowerCase(), viewOnly };
}

const V2_WRITE = /^\/v2\/api\/applications\/[^/]+\/dashboards(\/|$)/;

/**
 * `tenants.permissions-at-issue`: a dashboard write made with a tenant JWT that could write when
 * it was issued, while the tenant's last registration (the token answered to it) made it
 * view-only. Remembers what each register-tenant answer says of its tenant.
 */
function writeByStaleTenant(answer: Answer, path: string, memory: Memory): boolean {
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok) return false;
  if (answer.request.method === 'POST' && path === REGISTER_TENANT) {
    for (const { payload } of tokensIn(answer.body)) {
      const tenant = tenantOf(payload);
      if (tenant !== undefined) memory.viewOnlyTenants.set(tenant.tenantId, tenant.viewOnly);
    }
    return false;
  }
  const write =
    (answer.request.method === 'POST' && V1_DASHBOARD_WRITE.test(path)) ||
    (['POST', 'DELETE'].includes(answer.request.method) && V2_WRITE.test(path));
  if (!write) return false;
  const bearer = /^Bearer\s+(\S+)$/i.exec(answer.request.headers['authorization'] ?? '')?.[1];
  const payload = decoded(bearer?.split('.')[1] ?? '');
  const issued = payload === undefined ? undefined : tenantOf(payload);
  return (
    issued !== undefined && !issued.viewOnly && memory.viewOnlyTenants.get(issued.tenantId) === true
  );
}

const EMBED_TOKEN = '/v1/api/projects/embed-token';

/**
 * `tokens.embed-creates-only`: an embed token that does not carry the user's name, properties or
 * role the body sent (the user was known and kept as stored), in either layout.
 */
function embedKeptStored(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST' || path !== EMBED_TOKEN) return false;
  if (answer.status < 200 || answer.status > 299) return false;
  const user = jsonOf(answer.request.body)?.['user'] as Body | undefined;
  const payload = tokensIn(answer.body)[0]?.payload;
  if (user === undefined || payload?.['kind'] !== 'project-user') return false;
  const ctx = payload['ctx'];
  const nested = typeof ctx === 'object' && ctx !== null ? (ctx as Body) : undefined;
  const carried = {
    name: payload['name'],
    properties: nested === undefined ? payload['props'] : nested['properties'],
    userRoleId: nested === undefined ? payload['rol'] : nested['role'],
  };
  return (['name', 'properties', 'userRoleId'] as const).some(
    (field) => user[field] !== undefined && !isDeepStrictEqual(user[field], carried[field]),
  );
}

/**
 * `tokens.embed-known-only`: an embed-token refused 404 for the organization (by externalId) or
 * the user (by id) the project does not hold.
 */
function embedRefusedAbsent(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST' || path !== EMBED_TOKEN || answer.status !== 404)
    return false;
  const error = jsonOf(answer.body)?.['error'] as Body | undefined;
  const details = error?.['details'] as Body | undefined;
  return (
    (details?.['resource'] === 'projectOrganization' && details['field'] === 'externalId') ||
    (details?.['resource'] === 'user' && details['field'] === 'id')
  );
}

/** `charts.save-name-required`: a save-from-chat refused 400 for the name it lacked. */
function nameRequired(answer: Answer, path: string): boolean {
  if (answer.request.method !== 'POST' || path !== SAVE_FROM_CHAT || answer.status !== 400)
    return false;
  if (jsonOf(answer.request.body)?.['name'] !== undefined) return false;
  const error = jsonOf(answer.body)?.['error'] as Body | undefined;
  const issues = (error?.['details'] as Body | undefined)?.['issues'];
  return (
    Array.isArray(issues) &&
    issues.some((i) => {
      const at = (i as Body | null)?.['path'];
      return Array.isArray(at) && at.length === 2 && at[0] === 'body' && at[1] === 'name';
    })
  );
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
  layouts: Layouts = new Layouts(),
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
  if (chosen.includes('dashboards.layout-strict') && layoutStrict(answer, path))
    seen.push('dashboards.layout-strict');
  if (ok && answer.request.method === 'POST') {
    if (chosen.includes('dashboards.append-same-charts') && layouts.appendShares(answer, path))
      seen.push('dashboards.append-same-charts');
    if (chosen.includes('dashboards.charts-renumbered') && copyRenumbered(answer, path, layouts))
      seen.push('dashboards.charts-renumbered');
  }
  if (ok && chosen.includes('dashboards.key-sees-all') && keySeesUsers(answer, path))
    seen.push('dashboards.key-sees-all');
  if (
    ok &&
    chosen.includes('dashboards.clone-in-place') &&
    path === LIST_WORKSPACE_DASHBOARDS &&
    layouts.cloneInPlace(
      answer,
      listedDashboards(answer).flatMap((d) => (typeof d['id'] === 'string' ? [d['id']] : [])),
    )
  )
    seen.push('dashboards.clone-in-place');
  if (
    chosen.includes('v2.unmigrated-refused') &&
    answer.request.method === 'GET' &&
    path === APPLICATIONS &&
    answer.status === 409
  )
    seen.push('v2.unmigrated-refused');
  if (
    chosen.includes('charts.save-checked') &&
    answer.request.method === 'POST' &&
    path === SAVE_FROM_CHAT &&
    answer.status === 403
  )
    seen.push('charts.save-checked');
  if (chosen.includes('dashboards.v1-project-users') && ok && projectUserOnV1(answer, path))
    seen.push('dashboards.v1-project-users');
  layouts.note(answer);
  if (chosen.includes('dashboards.append-same-charts') && layouts.takeShared())
    seen.push('dashboards.append-same-charts');
  layouts.noteWrite(answer, path);
  if (
    chosen.includes('dashboards.connections-unchecked') &&
    ok &&
    guestConnectionTaken(answer, path)
  )
    seen.push('dashboards.connections-unchecked');
  if (chosen.includes('tenants.split-optional') && ok && unsplitTenant(answer, path))
    seen.push('tenants.split-optional');
  if (chosen.includes('tokens.through-expires-at') && ok && expBeyondExpiresAt(answer.body))
    seen.push('tokens.through-expires-at');
  if (
    chosen.includes('permissions.no-role-nothing') &&
    tokens.some((t) => noRoleGrantsNothing(t.payload))
  )
    seen.push('permissions.no-role-nothing');
  if (chosen.includes('tokens.live-user') && staleTokenAnswered(answer, path, memory))
    seen.push('tokens.live-user');
  if (
    chosen.includes('migration.tenants-shared-organization') &&
    ok &&
    tenantsShareOrganization(answer, path, memory)
  )
    seen.push('migration.tenants-shared-organization');
  if (chosen.includes('v2.no-organization-own-space') && spacelessUserAnswered(answer, path))
    seen.push('v2.no-organization-own-space');
  if (chosen.includes('tenants.permissions-at-issue') && writeByStaleTenant(answer, path, memory))
    seen.push('tenants.permissions-at-issue');
  if (chosen.includes('tokens.embed-creates-only') && embedKeptStored(answer, path))
    seen.push('tokens.embed-creates-only');
  if (chosen.includes('charts.save-name-required') && nameRequired(answer, path))
    seen.push('charts.save-name-required');
  if (chosen.includes('tokens.embed-known-only') && embedRefusedAbsent(answer, path))
    seen.push('tokens.embed-known-only');
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

/** `hub.drill-sampled`: what the reference says beside the rows of a sampled chart's point. */
const SAMPLE_SET_ASIDE = 'the chart itself reads a sample';

/** `hub.v1-component-dashboard-page`: an application page sending its viewer to another one. */
function applicationMoved(answer: Answer): boolean {
  const from = /^\/share\/application\/([^/?]+)$/.exec(answer.request.url.split('?')[0] ?? '');
  const to = /^\/share\/application\/([^/?]+)/.exec(answer.headers['location'] ?? '');
  return (
    answer.request.origin === 'hub' &&
    answer.status >= 300 &&
    answer.status < 400 &&
    from !== null &&
    to !== null &&
    from[1]!.toLowerCase() !== to[1]!.toLowerCase()
  );
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
export function witnessing(
  chosen: readonly FreedomId[],
): (answer: Answer, hook?: boolean) => FreedomId[] {
  const carried = carriedVersions();
  const memory = newMemory();
  const layouts = new Layouts();
  return (answer, hook = false) => {
    if (hook) {
      // A hook's answer is our test protocol: it shows what the reference holds (a layout read
      // back), never a variation of the API itself, but for the hooks' own witnesses.
      const seen = witnessedInHooks(answer, chosen);
      layouts.note(answer);
      if (chosen.includes('dashboards.append-same-charts') && layouts.takeShared())
        seen.push('dashboards.append-same-charts');
      return seen;
    }
    const seen = witnessed(answer, chosen, memory, layouts);
    if (chosen.includes('hub.dashboard-redirect') && dashboardRedirected(answer))
      seen.push('hub.dashboard-redirect');
    if (chosen.includes('hub.no-scheduled-reports') && scheduleWithheld(answer))
      seen.push('hub.no-scheduled-reports');
    if (
      chosen.includes('hub.drill-sampled') &&
      answer.request.origin === 'hub' &&
      answer.status === 200 &&
      answer.body.toString('utf8').includes(SAMPLE_SET_ASIDE)
    )
      seen.push('hub.drill-sampled');
    if (chosen.includes('hub.v1-component-dashboard-page') && applicationMoved(answer))
      seen.push('hub.v1-component-dashboard-page');
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
