/**
 * Discover: the v2 look-up's path (§4.16 names the call, not its path:
 * shapes.endpoints.lookUpDashboard) and what v2 answers for what a caller cannot see (decision
 * v2.refusals.not-found).
 */
import { isDeepStrictEqual } from 'node:util';
import { fillEndpoint } from '../../spec/profile.ts';
import type { World } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { chartPath, clonePath, dashboardsPath } from '../../suites/harness/paths.ts';
import { describeCarrier, v2Call, type Carrier } from './v2-carrier.ts';
import { isObject, ok, pathsWhere, statusOf, type Watch } from './watch.ts';

/**
 * Common forms of a look-up path: the id as a path segment, or (no placeholder) in the query
 * under the document's name for it, as the suites send it.
 */
export const LOOKUP_CANDIDATES = [
  'GET /v2/api/dashboards/{dashboardId}/lookup',
  'GET /v2/api/dashboards/{dashboardId}/look-up',
  'GET /v2/api/dashboards/lookup/{dashboardId}',
  'GET /v2/api/lookup/dashboards/{dashboardId}',
  'GET /v2/api/lookup/{dashboardId}',
  'GET /v2/api/dashboard/{dashboardId}/lookup',
  'GET /v2/api/dashboards/{dashboardId}',
  'GET /v2/api/dashboard/{dashboardId}',
  'GET /v2/api/dashboard-lookup',
  'GET /v2/api/dashboards/lookup',
  'GET /v2/api/lookup-dashboard',
  'GET /v2/api/look-up-dashboard',
  'GET /v2/api/lookup',
] as const;

/** The path to call for a stated look-up endpoint and a dashboard id. */
export function lookUpUrl(stated: string, dashboardId: string): string {
  const { path, used } = fillEndpoint('lookUpDashboard', stated, { dashboardId });
  return used.has('dashboardId')
    ? path
    : `${path}?${new URLSearchParams({ dashboardId }).toString()}`;
}

/** The look-up path each watch found (behaviours.ts states it again should a later part drop it). */
export const lookUpFound = new WeakMap<Watch, string>();

const holds = (body: unknown, value: string) => pathsWhere(body, (v) => v === value).length > 0;

/**
 * §4.16: the look-up turns a v1 or v2 dashboard id into its application and dashboard. A path
 * is stated when a candidate answered a success naming both for the migrated v1 id and for the
 * v2 id alike.
 */
export async function lookUp(
  w: Watch,
  world: World,
  carrier: Carrier,
  ids: { applicationId: string; v1DashboardId: string; v2DashboardId: string },
): Promise<string | undefined> {
  const stated = (w.shapes['endpoints'] ?? {}) as Record<string, string>;
  const given = stated['lookUpDashboard'];
  const names = (res: Reply) =>
    ok(res) && holds(res.body, ids.applicationId) && holds(res.body, ids.v2DashboardId);
  for (const candidate of given === undefined ? LOOKUP_CANDIDATES : [given]) {
    const byV1 = await v2Call(w, world, carrier, 'GET', lookUpUrl(candidate, ids.v1DashboardId));
    if (!names(byV1)) continue;
    const byV2 = await v2Call(w, world, carrier, 'GET', lookUpUrl(candidate, ids.v2DashboardId));
    if (!names(byV2)) continue;
    w.shapes['endpoints'] = { ...stated, lookUpDashboard: candidate };
    lookUpFound.set(w, candidate);
    w.saw(
      `v2: ${candidate} answered ${byV1.status} naming the application and dashboard of the migrated v1 id and of the v2 id`,
    );
    if (given === undefined)
      w.review.push(
        `shapes.endpoints.lookUpDashboard: ${candidate} named the application and the dashboard looked up (a common form tried; yours may differ)`,
      );
    statusOf(w, candidate, byV1);
    return candidate;
  }
  w.cannot(
    'shapes.endpoints.lookUpDashboard',
    `no path tried (${given === undefined ? `${LOOKUP_CANDIDATES.length} common forms` : given}) answered with the application and dashboard looked up`,
  );
  return undefined;
}

/** One refusal seen: what was asked and the resource decision v2.refusals.not-found names. */
export interface Refusal {
  readonly what: string;
  readonly resource: 'application' | 'dashboard' | 'chart';
  readonly reply: Reply;
}

const unknownId = (w: Watch) => w.t.faker.string.uuid();

/**
 * Refusals of what does not exist: before finalize (no carrier known yet: each is asked by
 * every carrier, the one found after finalize is read) an application path; after it an unknown
 * application, dashboard and chart, and the look-up of an unknown id.
 */
export async function notFoundBefore(
  w: Watch,
  world: World,
  carriers: readonly Carrier[],
): Promise<Map<Carrier, Refusal>> {
  const path = dashboardsPath(unknownId(w));
  const seen = new Map<Carrier, Refusal>();
  for (const carrier of carriers)
    seen.set(carrier, {
      what: 'an application path before finalize',
      resource: 'application',
      reply: await v2Call(w, world, carrier, 'GET', path),
    });
  return seen;
}

export async function notFoundAfter(
  w: Watch,
  world: World,
  at: { carrier: Carrier; applicationId: string; dashboardId?: string },
): Promise<Refusal[]> {
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string) =>
    v2Call(w, world, at.carrier, method, path);
  const rows: Refusal[] = [
    {
      what: 'the dashboards of an unknown application',
      resource: 'application',
      reply: await call('GET', dashboardsPath(unknownId(w))),
    },
    {
      what: 'a clone of an unknown dashboard',
      resource: 'dashboard',
      reply: await call('POST', clonePath(at.applicationId, unknownId(w))),
    },
  ];
  if (at.dashboardId !== undefined)
    rows.push({
      what: 'the removal of an unknown chart',
      resource: 'chart',
      reply: await call('DELETE', chartPath(at.applicationId, at.dashboardId, unknownId(w))),
    });
  const stated = (w.shapes['endpoints'] ?? {}) as Record<string, string>;
  const look = stated['lookUpDashboard'];
  if (look !== undefined)
    rows.push({
      what: 'a look-up of an unknown id',
      resource: 'dashboard',
      reply: await call('GET', lookUpUrl(look, unknownId(w))),
    });
  return rows;
}

/** A §7 envelope's code and details.resource. */
function refusalOf(res: Reply): { code?: unknown; resource?: unknown } {
  const error = isObject(res.body) ? res.body['error'] : undefined;
  if (!isObject(error)) return {};
  const details = error['details'];
  return { code: error['code'], resource: isObject(details) ? details['resource'] : undefined };
}

/** Proposes v2.refusals.not-found when every refusal seen was its 404 naming the resource. */
export function proposeNotFound(w: Watch, carrier: Carrier, rows: readonly Refusal[]) {
  const off = rows.filter((r) => {
    const { code, resource } = refusalOf(r.reply);
    return !(
      r.reply.status === 404 &&
      code === 'NOT_FOUND' &&
      isDeepStrictEqual(resource, r.resource)
    );
  });
  if (rows.length === 0 || off.length > 0) {
    w.saw(
      `v2: ${off.map((r) => `${r.what} answered ${r.reply.status}`).join('; ')}: not the 404 NOT_FOUND naming the resource of decision v2.refusals.not-found`,
    );
    return;
  }
  w.follows.push('v2.refusals.not-found');
  w.review.push(
    `follows v2.refusals.not-found: ${rows.map((r) => r.what).join(', ')} (the key in ${describeCarrier(carrier)}) each answered 404 NOT_FOUND with details.resource naming it; the order of the checks was not observed`,
  );
}
