/**
 * The paths of the service the suites and the concurrency workload call, in one table: every
 * template of API is a path of spec/openapi.yaml with the methods it lists there
 * (paths.test.ts). Tests that send a malformed or unknown path on purpose spell theirs out.
 */
export const API = {
  // §4.1–§4.3
  userRoles: { path: '/v1/api/projects/{projectId}/user-roles', methods: ['GET'] },
  userRole: {
    path: '/v1/api/projects/{projectId}/user-roles/{projectUserRoleId}',
    methods: ['PUT', 'DELETE'],
  },
  // §4.4–§4.9
  registerOrganization: { path: '/v1/api/projects/register-organization', methods: ['POST'] },
  registerUser: { path: '/v1/api/projects/register-user', methods: ['POST'] },
  user: { path: '/v1/api/projects/{projectId}/users/{projectUserId}', methods: ['PUT'] },
  userToken: { path: '/v1/api/projects/user-token', methods: ['POST'] },
  embedToken: { path: '/v1/api/projects/embed-token', methods: ['POST'] },
  registerTenant: { path: '/v1/api/tenant/register-tenant', methods: ['POST'] },
  // §4.10–§4.14
  clone: { path: '/v1/api/dashboard/clone', methods: ['POST'] },
  appendChartsFrom: { path: '/v1/api/dashboard/append-charts-from', methods: ['POST'] },
  removeCharts: { path: '/v1/api/dashboard/remove-charts', methods: ['POST'] },
  listWorkspaces: { path: '/v1/api/dashboard/list-workspaces', methods: ['GET'] },
  saveFromChat: { path: '/v1/api/chart/save-from-chat', methods: ['POST'] },
  // §4.15
  chat: { path: '/v1/api/project-agents/{agentId}/chat', methods: ['POST'] },
  // §4.16
  applications: { path: '/v2/api/applications', methods: ['GET'] },
  applicationDashboards: {
    path: '/v2/api/applications/{applicationId}/dashboards',
    methods: ['GET', 'POST'],
  },
  dashboardClone: {
    path: '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    methods: ['POST'],
  },
  dashboardCharts: {
    path: '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts',
    methods: ['POST'],
  },
  dashboardChart: {
    path: '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
    methods: ['DELETE'],
  },
  appendCharts: {
    path: '/v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
    methods: ['POST'],
  },
} as const satisfies Record<string, { path: string; methods: readonly string[] }>;

/** The hub's pages (§4.17); the OpenAPI describes the API only. */
export const HUB = {
  dashboard: '/share/dashboard/{dashboardId}',
  application: '/share/application/{applicationId}',
} as const;

/** A template with its `{name}` parameters filled in (each value as it is: ids, not text). */
export function fill(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} of ${template}`);
    return value;
  });
}

interface InProject {
  readonly projectId: string;
}

export const rolesPath = (w: InProject) => fill(API.userRoles.path, { projectId: w.projectId });
export const rolePath = (w: InProject, projectUserRoleId: string) =>
  fill(API.userRole.path, { projectId: w.projectId, projectUserRoleId });
export const userPath = (w: InProject, projectUserId: string) =>
  fill(API.user.path, { projectId: w.projectId, projectUserId });

export const REGISTER_ORGANIZATION = API.registerOrganization.path;
export const REGISTER_USER = API.registerUser.path;
export const USER_TOKEN = API.userToken.path;
export const EMBED_TOKEN = API.embedToken.path;
export const REGISTER_TENANT = API.registerTenant.path;

export const CLONE = API.clone.path;
export const APPEND = API.appendChartsFrom.path;
export const REMOVE = API.removeCharts.path;
export const LIST_WORKSPACES = API.listWorkspaces.path;
export const SAVE_FROM_CHAT = API.saveFromChat.path;

export const chatPath = (agentId: string) => fill(API.chat.path, { agentId });

export const APPLICATIONS = API.applications.path;
export const dashboardsPath = (applicationId: string) =>
  fill(API.applicationDashboards.path, { applicationId });
/** A v2 dashboard's own path: the prefix of its clone, charts and append-charts paths. */
export const dashboardPath = (applicationId: string, dashboardId: string) =>
  `${dashboardsPath(applicationId)}/${dashboardId}`;
export const clonePath = (applicationId: string, dashboardId: string) =>
  fill(API.dashboardClone.path, { applicationId, dashboardId });
export const chartsPath = (applicationId: string, dashboardId: string) =>
  fill(API.dashboardCharts.path, { applicationId, dashboardId });
export const chartPath = (applicationId: string, dashboardId: string, chartId: string) =>
  fill(API.dashboardChart.path, { applicationId, dashboardId, chartId });
export const appendChartsPath = (applicationId: string, dashboardId: string) =>
  fill(API.appendCharts.path, { applicationId, dashboardId });
