import { OPEN_BODIES, type OpenBody, type OpenBodyId } from '../spec/bodies.ts';
import type { TargetProfile } from '../spec/profile.ts';
import { hashOf, isObject, successOf, withJson, type JsonObject } from './answer.ts';
import {
  LIST_WORKSPACE_DASHBOARDS,
  LIST_WORKSPACES,
  UNSHOWN_STATUS_CALLS,
  callOf,
  isCall,
} from './endpoints.ts';
import type { Answer, Transform } from './transform.ts';

// The form transforms of success answers (spec/latitude.ts). Each changes only what the
// clauses its catalogue entry cites leave open, and states in `restate` any shape the profile
// names that it changes.

const shapes = (profile: TargetProfile): NonNullable<TargetProfile['shapes']> => profile.shapes;

/**
 * §4.16 shows no status for the v2 calls nor for the v1 create and add-charts: a write answers
 * 201 (or 202 for the removal), the success envelope kept. Reads keep 200; §4.1–§4.14's calls,
 * which show 200, are never touched.
 */
const CREATED_STATUS: Partial<Record<string, number>> = { POST: 201, DELETE: 202 };

export const statusCreated: Transform = {
  id: 'status.created',
  apply(answer) {
    const call = callOf(UNSHOWN_STATUS_CALLS, answer.request.method, answer.request.url);
    const status = CREATED_STATUS[answer.request.method.toUpperCase()];
    if (call === undefined || status === undefined || answer.status !== 200) return undefined;
    if (successOf(answer) === undefined) return undefined;
    return { ...answer, status };
  },
  restate(profile) {
    const successStatuses: Record<string, number> = { ...shapes(profile).successStatuses };
    for (const call of UNSHOWN_STATUS_CALLS) {
      const status = CREATED_STATUS[call.split(' ')[0] ?? ''];
      successStatuses[call] = status ?? 200;
    }
    return { ...profile, shapes: { ...shapes(profile), successStatuses } };
  },
};

/**
 * The reference's paths for the calls spec/bodies.ts names by the profile's endpoint name (the
 * document gives them no path): fixtures/profiles/reference.json, which the proxy fronts.
 */
const REFERENCE_ENDPOINTS = {
  v1CreateDashboard: 'POST /v1/api/dashboard/create',
  v1AddCharts: 'POST /v1/api/dashboard/add-charts',
} as const;

/**
 * How each call whose answer the document does not show answers without a body: 204, or
 * another 2xx with nothing in it; the v2 create names what it made in a `Location` header
 * instead, so that both ways a client finds a new dashboard (that header, or its list) are
 * taken. Fixed per call, so the printed profile can state each status.
 */
const NO_BODY: Readonly<Record<OpenBodyId, { status: number; locate?: true }>> = {
  'v2.create': { status: 201, locate: true },
  'v2.clone': { status: 204 },
  'v2.add-charts': { status: 200 },
  'v2.remove-chart': { status: 204 },
  'v2.append-charts': { status: 202 },
  'v1.create': { status: 200 },
  'v1.add-charts': { status: 204 },
};

/** `METHOD /path` of an open-bodied call as `profile` (else the reference) serves it. */
function endpointOf(body: OpenBody, profile?: TargetProfile): string {
  if ('path' in body) return body.path;
  return profile?.shapes.endpoints?.[body.endpoint] ?? REFERENCE_ENDPOINTS[body.endpoint];
}

const OPEN_CALLS: readonly (readonly [string, OpenBodyId])[] = OPEN_BODIES.map((b) => [
  endpointOf(b),
  b.id,
]);

export const bodiesNone: Transform = {
  id: 'bodies.none',
  apply(answer) {
    const call = OPEN_CALLS.find(([e]) => isCall(e, answer.request.method, answer.request.url));
    const envelope = successOf(answer);
    if (call === undefined || envelope === undefined) return undefined;
    const { status, locate } = NO_BODY[call[1]];
    // Nothing follows the headers, so nothing has a type; a cut into pieces goes too.
    const { 'content-type': _type, ...kept } = answer.headers;
    const headers: Record<string, string> = { ...kept };
    const data = envelope['data'];
    const id = isObject(data) && typeof data['id'] === 'string' ? data['id'] : undefined;
    if (locate === true && id !== undefined) {
      const path = answer.request.url.split('?')[0]?.replace(/\/+$/, '') ?? '';
      headers['location'] = `${path}/${encodeURIComponent(id)}`;
    }
    const { pieces: _dropped, ...rest } = answer;
    return { ...rest, status, headers, body: Buffer.alloc(0) };
  },
  restate(profile) {
    const successStatuses: Record<string, number> = { ...shapes(profile).successStatuses };
    for (const body of OPEN_BODIES)
      successStatuses[endpointOf(body, profile)] = NO_BODY[body.id].status;
    return { ...profile, shapes: { ...shapes(profile), successStatuses } };
  },
};

/**
 * Objects whose members are data the client gave (or must pass back as received): never
 * widened. §2.1: a role's permissions take no other keys; properties and metadata are the
 * caller's own; §4.14: a chartConfig is passed back exactly as received.
 */
const CLOSED_MEMBERS = new Set([
  'permissions',
  'properties',
  'payload',
  'metadata',
  'chartConfig',
  'params',
  'filters',
]);

/** Extra members a real server might carry; none is a name the document or the reference uses. */
const EXTRAS: readonly ((h: number) => [string, unknown])[] = [
  (h) => ['revision', 1 + (h % 9)],
  (h) => ['etag', `W/"${(h >>> 0).toString(16)}"`],
  (h) => ['region', ['eu-west-1', 'us-east-2', 'ap-south-1'][h % 3]],
  (h) => ['labels', h % 2 === 0 ? [] : ['beta']],
  (h) => ['audit', { source: 'api', version: 1 + (h % 4) }],
  (h) => ['archived', h % 5 === 0],
];

/**
 * Adds one or two members to `value` and, recursively, to every object below it outside the
 * closed ones. The choice depends on the object's own content and place, so the same state
 * read twice carries the same extras, as a real server's would.
 */
function widen(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => widen(item, `${path}.${i}`));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = CLOSED_MEMBERS.has(key) ? member : widen(member, `${path}.${key}`);
  }
  const h = hashOf(`${path}|${JSON.stringify(value)}`);
  const count = 1 + (h % 2);
  for (let i = 0; i < count; i++) {
    const [name, extra] = EXTRAS[(h + i * 7) % EXTRAS.length]!(h >>> (i + 3));
    if (!(name in out)) out[name] = extra;
  }
  return out;
}

export const membersExtra: Transform = {
  id: 'members.extra',
  apply(answer, random) {
    const envelope = successOf(answer);
    if (envelope === undefined) return undefined;
    const { status, data, ...rest } = envelope;
    // The envelope itself carries a request id, as many servers' do: it differs per answer.
    const requestId = Math.floor(random() * 2 ** 48).toString(16);
    return withJson(answer, {
      status,
      data: widen(data, 'data'),
      ...rest,
      meta: { requestId },
    });
  },
};

/** The items of `data[member]` in a success answer of `endpoint`, or undefined. */
function itemsOf(
  answer: Answer,
  endpoint: string,
  member: string,
): { envelope: JsonObject; data: JsonObject; items: unknown[] } | undefined {
  if (!isCall(endpoint, answer.request.method, answer.request.url)) return undefined;
  const envelope = successOf(answer);
  const data = envelope?.['data'];
  if (envelope === undefined || !isObject(data)) return undefined;
  const items = data[member];
  return Array.isArray(items) ? { envelope, data, items } : undefined;
}

/** §2.8 shows a v1 dashboard record with id, tenantId and ownerProjectUserId only. */
const V1_RECORD = ['id', 'tenantId', 'ownerProjectUserId'] as const;

export const v1RecordMinimal: Transform = {
  id: 'v1.record-minimal',
  apply(answer) {
    const found = itemsOf(answer, LIST_WORKSPACE_DASHBOARDS, 'dashboards');
    if (found === undefined || found.items.length === 0) return undefined;
    const dashboards = found.items.map((item) =>
      isObject(item)
        ? Object.fromEntries(V1_RECORD.filter((k) => k in item).map((k) => [k, item[k]]))
        : item,
    );
    return withJson(answer, { ...found.envelope, data: { ...found.data, dashboards } });
  },
  restate(profile) {
    const { v1Dashboard: _dropped, ...rest } = shapes(profile);
    return { ...profile, shapes: rest };
  },
};

/** §2.8 and §4.13 show no member names of a list-workspaces item: these are ours. */
const WORKSPACE_NAMES = {
  workspace_id: 'id',
  name: 'title',
  dashboard_id: 'primaryDashboardId',
  dashboard_name: 'primaryDashboardName',
} as const;

export const workspacesRenamed: Transform = {
  id: 'workspaces.renamed',
  apply(answer) {
    const found = itemsOf(answer, LIST_WORKSPACES, 'workspaces');
    if (found === undefined || found.items.length === 0) return undefined;
    const renames: Readonly<Record<string, string>> = WORKSPACE_NAMES;
    const workspaces = found.items.map((item) => {
      if (!isObject(item)) return item;
      const out: JsonObject = {};
      // A renamed member wins over any other member of that name.
      for (const [key, value] of Object.entries(item)) {
        if (!(key in renames) && !Object.values(renames).includes(key)) out[key] = value;
      }
      for (const [from, to] of Object.entries(renames)) if (from in item) out[to] = item[from];
      return out;
    });
    return withJson(answer, { ...found.envelope, data: { ...found.data, workspaces } });
  },
  restate(profile) {
    return {
      ...profile,
      shapes: {
        ...shapes(profile),
        workspaceItem: {
          workspaceId: WORKSPACE_NAMES.workspace_id,
          name: WORKSPACE_NAMES.name,
          dashboardId: WORKSPACE_NAMES.dashboard_id,
          dashboardName: WORKSPACE_NAMES.dashboard_name,
        },
      },
    };
  },
};

/**
 * The lists whose order the document leaves open: §4.2's roles (roles.list.order), §4.16's
 * applications and dashboards, §4.13's workspaces and §9's v1 dashboards. A dashboard's chart
 * ids and charts are in layout order and never move; neither do error details.
 */
const UNORDERED_LISTS = ['userRoles', 'applications', 'dashboards', 'workspaces'] as const;

export const arraysReordered: Transform = {
  id: 'arrays.reordered',
  apply(answer, random) {
    const envelope = successOf(answer);
    const data = envelope?.['data'];
    if (envelope === undefined || !isObject(data)) return undefined;
    const out: JsonObject = { ...data };
    let changed = false;
    for (const member of UNORDERED_LISTS) {
      const list: unknown = data[member];
      if (!Array.isArray(list) || list.length < 2) continue;
      const items = list as readonly unknown[];
      // A rotation by 1..n-1 moves every element.
      const by = 1 + Math.floor(random() * (items.length - 1));
      out[member] = [...items.slice(by), ...items.slice(0, by)];
      changed = true;
    }
    return changed ? withJson(answer, { ...envelope, data: out }) : undefined;
  },
};

/** An ISO 8601 UTC timestamp as the reference writes it (`Z`, milliseconds). */
const ISO_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;
/** Timestamp members: §2.1 created_at/updated_at (type detail not shown), §2.5 expiresAt. */
const TIMESTAMP_MEMBER = /(_at|At)$/;

/**
 * Another writing of the same timestamp that still names UTC (§2.5 asks for ISO 8601 UTC and no
 * narrower form): expiresAt as many runtimes write it, microseconds and a `+00:00` offset, the
 * same instant; other camel-case members with nanoseconds and `Z`, the same instant; snake-case
 * members (§2.1, whose type detail is not shown) with an offset and no fraction, to the second.
 */
function otherForm(key: string, seconds: string, fraction: string): string {
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  if (key === 'expiresAt') return `${seconds}.${ms}000+00:00`;
  if (key.endsWith('At')) return `${seconds}.${ms}000000Z`;
  return `${seconds}+00:00`;
}

function restamp(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((v) => restamp(v, ''));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restamp(v, k)]));
  }
  if (typeof value !== 'string' || !TIMESTAMP_MEMBER.test(key)) return value;
  const m = ISO_Z.exec(value);
  return m === null ? value : otherForm(key, m[1] ?? '', m[2] ?? '');
}

export const timestampsOtherForm: Transform = {
  id: 'timestamps.other-form',
  apply(answer) {
    const envelope = successOf(answer);
    if (envelope === undefined) return undefined;
    const out = restamp(envelope, '');
    return JSON.stringify(out) === JSON.stringify(envelope) ? undefined : withJson(answer, out);
  },
};
