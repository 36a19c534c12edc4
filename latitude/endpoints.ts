/**
 * The calls the form transforms single out, as the reference serves them (its profile,
 * fixtures/profiles/reference.json, names the paths the document leaves open). The proxy fronts
 * the reference, so these are its paths; `METHOD /path/{param}` as the profile spells them.
 */

/** §4.16's v2 table and the v1 calls it names without a shape: the document shows no status. */
export const UNSHOWN_STATUS_CALLS = [
  'GET /v2/api/applications',
  'GET /v2/api/applications/{applicationId}/dashboards',
  'POST /v2/api/applications/{applicationId}/dashboards',
  'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
  'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts',
  'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
  'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
  'GET /v2/api/dashboards/{dashboardId}/lookup',
  'POST /v1/api/dashboard/create',
  'POST /v1/api/dashboard/add-charts',
] as const;

/** §4.1: the role update, whose 400 §7's table shows. */
export const ROLE_UPDATE = 'PUT /v1/api/projects/{projectId}/user-roles/{projectUserRoleId}';
/** §4.13. */
export const LIST_WORKSPACES = 'GET /v1/api/dashboard/list-workspaces';
/** §9 names it; the reference's path (profile shapes.endpoints.v1ListWorkspaceDashboards). */
export const LIST_WORKSPACE_DASHBOARDS = 'GET /v1/api/dashboard/list-workspace-dashboards';

const patterns = new Map<string, RegExp>();

function patternOf(endpoint: string): RegExp {
  let re = patterns.get(endpoint);
  if (re === undefined) {
    const [method = '', path = ''] = endpoint.split(' ');
    const body = path
      .split('/')
      .map((segment) =>
        /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    re = new RegExp(`^${method} ${body}/?$`);
    patterns.set(endpoint, re);
  }
  return re;
}

/** Whether a request (`method`, path with or without its query) is a call of `endpoint`. */
export function isCall(endpoint: string, method: string, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return patternOf(endpoint).test(`${method.toUpperCase()} ${path}`);
}

/** The endpoint of `endpoints` the request calls, if any. */
export function callOf<E extends string>(
  endpoints: readonly E[],
  method: string,
  url: string,
): E | undefined {
  return endpoints.find((e) => isCall(e, method, url));
}
