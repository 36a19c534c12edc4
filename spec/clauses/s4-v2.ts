import { defineClauses } from './types.ts';

// §4.16: the v2 endpoints the document names for the migration, and the v1 shapes it only glimpses.
export const s4V2 = defineClauses([
  {
    id: 'v2.applications.list.path',
    section: '4.16',
    level: 'must',
    summary: 'GET /v2/api/applications lists applications.',
  },
  {
    id: 'v2.applications.list.before-finalize',
    section: '4.16',
    level: 'unspecified',
    summary:
      'What the v2 application list answers before finalize, and which credentials it takes, is left open.',
    decision:
      'It accepts a project-user bearer token or an API key; before finalize it lists no applications.',
  },
  {
    id: 'v2.dashboards.list.path',
    section: '4.16',
    level: 'must',
    summary:
      'GET /v2/api/applications/{applicationId}/dashboards lists the dashboards of an application.',
  },
  {
    id: 'v2.dashboards.create.path',
    section: '4.16',
    level: 'must',
    summary:
      'POST /v2/api/applications/{applicationId}/dashboards with {name} creates a dashboard.',
  },
  {
    id: 'v2.dashboards.clone.path',
    section: '4.16',
    level: 'must',
    summary: 'POST .../dashboards/{dashboardId}/clone with {name} clones a v2 dashboard.',
  },
  {
    id: 'v2.dashboards.add-charts.path',
    section: '4.16',
    level: 'must',
    summary: 'POST .../dashboards/{dashboardId}/charts with {charts} adds charts.',
    noPortableCheck:
      '§4.16 names the body field charts but not its form (one chart id or a list of them), so every add-charts request is built in the form the profile follows.',
  },
  {
    id: 'v2.dashboards.remove-chart.path',
    section: '4.16',
    level: 'must',
    summary:
      'DELETE .../dashboards/{dashboardId}/charts/{chartId} removes a single chart; several need several calls.',
  },
  {
    id: 'v2.dashboards.append-charts.path',
    section: '4.16',
    level: 'must',
    summary:
      'POST .../dashboards/{dashboardId}/append-charts with {sourceDashboardId} copies in the charts of another.',
  },
  {
    id: 'v2.dashboards.lookup',
    section: '4.16',
    level: 'must',
    summary: 'A look-up maps any v1 or v2 dashboard id to {applicationId, dashboardId}.',
    noPortableCheck:
      "§4.16 names the look-up without its path, so every look-up is made at the profile's stated endpoint.",
  },
  {
    id: 'v2.dashboards.lookup-path',
    section: '4.16',
    level: 'unspecified',
    summary: 'The path of the dashboard look-up is left open.',
    decision:
      'GET /v2/api/dashboards/{dashboardId}/lookup answers {applicationId, dashboardId}; unknown ids give 404 NOT_FOUND.',
  },
  {
    id: 'v2.shapes.beyond-named-fields',
    section: '4.16',
    level: 'unspecified',
    summary: 'v2 request and response shapes beyond the named body fields are left open.',
    decision:
      'Success envelope; lists as data.applications / data.dashboards of §2.8 items; writes answer the dashboard; charts is an array of chart ids.',
  },
  {
    id: 'v2.credentials.api-key-carrier',
    section: '4.16',
    level: 'unspecified',
    summary:
      'Where an API key travels on v2 calls is left open (the §5 table names only the bearer project-user token; rule 7 places organizationId).',
    decision:
      'As apiKey, a query parameter for reads and deletes and a body field for POSTs, beside the organizationId of a user-scoped key; the authorization header carries only a tenant JWT or project-user token, as Bearer.',
  },
  {
    id: 'v2.refusals.not-found',
    section: '4.16',
    level: 'unspecified',
    summary:
      'What v2 calls answer for an application, dashboard or chart the caller cannot see is left open.',
    decision:
      "404 NOT_FOUND (details.resource names it: 'application', 'dashboard' or 'chart'), after the credential checks; the application and dashboard of the path are looked up before the write checks, a source dashboard (append-charts sourceDashboardId) and a chart of the path after them, so a write refused by its flags or as a template edit (403, 409) is refused as such whatever source or chart it names; before finalize every application path is 404; removing a chart that is not on the layout is 404.",
  },
  {
    id: 'v2.no-organization.calls',
    section: '4.16',
    level: 'unspecified',
    summary:
      'Which other v2 calls refuse a project user without a project organization, and before or after a 409, is left open.',
    decision:
      'Every call under an application (listing its dashboards and every write, a template edit included, before the 409) and the look-up answer 403 PROJECT_USER_WITHOUT_ORGANIZATION; the application list answers as for any caller.',
  },
  {
    id: 'dashboards.v1-create.body',
    section: '4.16',
    level: 'observed',
    summary: 'The v1 dashboard create body has been seen as {workspaceId, name}.',
    noPortableCheck:
      "§4.16 gives no path, and no answer, for the three v1 calls (creating a dashboard, adding charts to it, listing a workspace's dashboards), so this clause is only observable at the endpoints the profile states.",
  },
  {
    id: 'dashboards.v1-add-charts.body',
    section: '4.16',
    level: 'observed',
    summary: 'The v1 add-charts body has been seen as {targetDashboardId, charts}.',
    noPortableCheck:
      "§4.16 gives no path, and no answer, for the three v1 calls (creating a dashboard, adding charts to it, listing a workspace's dashboards), so this clause is only observable at the endpoints the profile states.",
  },
  {
    id: 'dashboards.v1-shapes.not-shown',
    section: '4.16',
    level: 'unspecified',
    summary:
      'Paths and answers of the v1 create, v1 add-charts and v1 list-workspace-dashboards calls are left open.',
    decision:
      'POST /v1/api/dashboard/create answers {dashboardId, name, workspaceId}; POST /v1/api/dashboard/add-charts ({targetDashboardId, charts: chart ids}) answers {dashboardId, chartIds} of the dashboard holding the edit; GET /v1/api/dashboard/list-workspace-dashboards?workspaceId= answers {dashboards: [item]} as the caller sees them.',
  },
  {
    id: 'dashboards.v1-add-charts.repeat',
    section: '4.16',
    level: 'unspecified',
    summary: 'What adding a chart that is already on the layout does is left open.',
    decision: 'It is not placed twice; the call succeeds.',
  },
]);
