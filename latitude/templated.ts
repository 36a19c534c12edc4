import {
  fillEndpoint,
  placeholdersOf,
  type StatedEndpoint,
  type TargetProfile,
} from '../spec/profile.ts';
import type { Transform } from './transform.ts';

/**
 * `endpoints.templated`: the endpoints the document names without a path (§4.16, §9) served at
 * paths that carry the ids as path placeholders, or (the look-up) take the id in the query,
 * as a server of REST habits would. The printed profile states these paths; the proxy routes a
 * request on one back to the path the target itself states (its base profile), the ids carried
 * where that path wants them.
 */
export const TEMPLATED: Readonly<Record<StatedEndpoint, string>> = {
  v1CreateDashboard: 'POST /v1/api/workspaces/{workspaceId}/dashboards',
  v1AddCharts: 'POST /v1/api/dashboards/{dashboardId}/charts',
  v1ListWorkspaceDashboards: 'GET /v1/api/workspaces/{workspaceId}/dashboards',
  lookUpDashboard: 'GET /v2/api/dashboard-lookup',
  dashboardCharts: 'GET /v1/api/dashboards/{dashboardId}/chart-ids',
};

/** The ids a templated path without a placeholder for them takes in its query. */
const QUERY_IDS: Readonly<Partial<Record<StatedEndpoint, string>>> = {
  lookUpDashboard: 'dashboardId',
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher of a templated path: its placeholders each take one path segment. */
function matcher(template: string): RegExp {
  const pieces = template.split(/\{[^{}]*\}/).map(escape);
  return new RegExp(`^${pieces.join('([^/?#]+)')}$`);
}

/**
 * The profile with each endpoint it states moved to its templated path, its success statuses
 * keyed by the new paths.
 */
export function templatedProfile(profile: TargetProfile): TargetProfile {
  const stated = profile.shapes.endpoints;
  if (stated === undefined) return profile;
  const moved = new Map(
    Object.entries(stated).map(([name, own]) => [own, TEMPLATED[name as StatedEndpoint]]),
  );
  const endpoints = Object.fromEntries(
    Object.keys(stated).map((name) => [name, TEMPLATED[name as StatedEndpoint]]),
  );
  const statuses = profile.shapes.successStatuses;
  const successStatuses =
    statuses === undefined
      ? undefined
      : Object.fromEntries(Object.entries(statuses).map(([k, v]) => [moved.get(k) ?? k, v]));
  return {
    ...profile,
    shapes: {
      ...profile.shapes,
      endpoints,
      ...(successStatuses === undefined ? {} : { successStatuses }),
    },
  };
}

/** The entry as the proxy carries it: no answer changes, the requests are routed (proxy.ts). */
export const endpointsTemplated: Transform = {
  id: 'endpoints.templated',
  apply: () => undefined,
  restate: templatedProfile,
};

/**
 * The URL (path and query) on the target's own paths for a request on a templated one, or
 * undefined when the request is on none of the endpoints `base` states.
 */
export function untemplated(base: TargetProfile, method: string, url: string): string | undefined {
  const [path = '', query = ''] = url.split('?', 2);
  for (const [name, own] of Object.entries(base.shapes.endpoints ?? {}) as [
    StatedEndpoint,
    string,
  ][]) {
    const template = TEMPLATED[name];
    const [templateMethod = '', templatePath = ''] = template.split(' ');
    if (method !== templateMethod) continue;
    const m = matcher(templatePath).exec(path);
    if (m === null) continue;
    const params = new URLSearchParams(query);
    const values: Record<string, string> = {};
    const stands = placeholdersOf(templatePath);
    stands.forEach((placeholder, i) => {
      values[meaningOf(name, placeholder)] = decodeURIComponent(m[i + 1] ?? '');
    });
    const queried = QUERY_IDS[name];
    if (queried !== undefined) {
      const value = params.get(queried);
      if (value === null) return undefined;
      values[queried] = value;
      params.delete(queried);
    }
    const target = fillEndpoint(name, own, values);
    // What the target's own path does not hold travels in the query of a GET (a POST's body
    // carries it already: the tests send the document's body whatever the path).
    if (method === 'GET')
      for (const [k, v] of Object.entries(values)) if (!target.used.has(k)) params.set(k, v);
    const rest = params.toString();
    return rest === '' ? target.path : `${target.path}?${rest}`;
  }
  return undefined;
}

/** What a templated path's placeholder stands for (its own names are the document's). */
function meaningOf(name: StatedEndpoint, placeholder: string): string {
  return name === 'v1AddCharts' && placeholder === 'dashboardId'
    ? 'targetDashboardId'
    : placeholder;
}
