import { defineClauses } from './types.ts';

// §4.10–4.14: v1 dashboard writes, workspace listing and saving a chart from chat.
export const s4Dashboards = defineClauses([
  // §4.10 clone
  {
    id: 'dashboards.clone.path',
    section: '4.10',
    level: 'must',
    summary: 'POST /v1/api/dashboard/clone copies a v1 dashboard.',
  },
  {
    id: 'dashboards.clone.source-required',
    section: '4.10',
    level: 'must',
    summary: 'sourceDashboardId (UUID) is mandatory for a clone.',
  },
  {
    id: 'dashboards.clone.body-fields',
    section: '4.10',
    level: 'must',
    summary:
      'Clone also takes apiKey, organizationId, connectionId, targetWorkspaceId (UUID) and name.',
  },
  {
    id: 'dashboards.clone.organization-id-hub-jwt',
    section: '4.10',
    level: 'must',
    summary: 'organizationId becomes mandatory for a clone authorised by a hub-login JWT.',
    noPortableCheck:
      'No call the document fixes issues a hub-login JWT (§5 names it without a way to get one), so a clone under one cannot be made.',
  },
  {
    id: 'dashboards.clone.connection-id',
    section: '4.10',
    level: 'must',
    summary: 'connectionId names a connection that a guest is allowed to use.',
    noPortableCheck:
      'The document gives no way to make a guest or a connection a guest may use, so no clone can name one it is known to be allowed.',
  },
  {
    id: 'dashboards.clone.target-workspace-default',
    section: '4.10',
    level: 'must',
    summary: 'With no targetWorkspaceId the copy goes into the workspace of the source.',
  },
  {
    id: 'dashboards.clone.name-default-copy',
    section: '4.10',
    level: 'must',
    summary: "With no name the copy is called the source name plus ' (Copy)'.",
  },
  {
    id: 'dashboards.clone.deep-copy',
    section: '4.10',
    level: 'must',
    summary: 'A clone is a deep copy: every chart is copied along with the dashboard.',
  },
  {
    id: 'dashboards.clone.response-shape',
    section: '4.10',
    level: 'must',
    summary: 'A 200 clone answers {status, data: {dashboardId, name}}, both strings.',
  },
  {
    id: 'dashboards.clone.after-finalize-410',
    section: '4.10',
    level: 'must',
    summary: 'After finalize, clone answers 410 MIGRATED_TO_V2.',
  },
  {
    id: 'dashboards.connection-id.guest',
    section: '4.10',
    level: 'unspecified',
    summary: 'How a guest connection is made and checked is left open.',
    decision:
      "The reference keeps no connections: a connectionId on a v1 dashboard write is refused 404 NOT_FOUND, details.resource 'connection'; save-from-chat keeps its connectionId unread. The hub-login JWT path is not served.",
  },

  // §4.11 append charts from
  {
    id: 'dashboards.append-charts-from.path',
    section: '4.11',
    level: 'must',
    summary: "POST /v1/api/dashboard/append-charts-from adds one dashboard's charts to another.",
  },
  {
    id: 'dashboards.append-charts-from.ids-required',
    section: '4.11',
    level: 'must',
    summary: 'sourceDashboardId and targetDashboardId (UUIDs) are both mandatory.',
  },
  {
    id: 'dashboards.append-charts-from.body-fields',
    section: '4.11',
    level: 'must',
    summary: 'append-charts-from also takes apiKey, organizationId and connectionId.',
  },
  {
    id: 'dashboards.append-charts-from.effect',
    section: '4.11',
    level: 'must',
    summary: 'The target dashboard ends up with the charts of the source added to its own.',
  },
  {
    id: 'dashboards.append-charts-from.response-envelope',
    section: '4.11',
    level: 'must',
    summary: "A 200 answers {status: 'success', data: object}.",
  },
  {
    id: 'dashboards.append-charts-from.response-fields',
    section: '4.11',
    level: 'unspecified',
    summary: 'The fields of the append-charts-from data object are left open.',
    decision: "data is {dashboardId, chartIds}: the target's id and its chart ids after the call.",
  },
  {
    id: 'dashboards.append-charts-from.after-finalize-410',
    section: '4.11',
    level: 'must',
    summary: 'After finalize, append-charts-from answers 410 MIGRATED_TO_V2.',
  },
  {
    id: 'dashboards.append-charts-from.copies',
    section: '4.11',
    level: 'unspecified',
    summary: "Whether appended charts are the source's charts or copies of them is left open.",
    decision: "Copies under new ids, added at the end of the target in the source's order.",
  },

  // §4.12 remove charts
  {
    id: 'dashboards.remove-charts.path',
    section: '4.12',
    level: 'must',
    summary: 'POST /v1/api/dashboard/remove-charts takes charts off a v1 dashboard.',
  },
  {
    id: 'dashboards.remove-charts.dashboard-id-required',
    section: '4.12',
    level: 'must',
    summary: 'dashboardId (UUID) is mandatory for remove-charts.',
  },
  {
    id: 'dashboards.remove-charts.chart-ids-required',
    section: '4.12',
    level: 'must',
    summary: 'chartIds, a non-empty array of UUIDs, is mandatory for remove-charts.',
  },
  {
    id: 'dashboards.remove-charts.body-fields',
    section: '4.12',
    level: 'must',
    summary: 'remove-charts also takes apiKey, organizationId and connectionId.',
  },
  {
    id: 'dashboards.remove-charts.removes-from-layout',
    section: '4.12',
    level: 'must',
    summary: 'The listed charts disappear from the layout of the dashboard.',
  },
  {
    id: 'dashboards.remove-charts.unknown-chart',
    section: '4.12',
    level: 'unspecified',
    summary: 'What a chart id that is not on the dashboard does is left open.',
    decision: 'Ids not in the layout are skipped; the call still succeeds for the others.',
  },
  {
    id: 'dashboards.remove-charts.response-envelope',
    section: '4.12',
    level: 'must',
    summary: "A 200 answers {status: 'success', data: object}.",
  },
  {
    id: 'dashboards.remove-charts.response-fields',
    section: '4.12',
    level: 'unspecified',
    summary: 'The fields of the remove-charts data object are left open.',
    decision: "data is {dashboardId, chartIds}: the dashboard's id and its remaining chart ids.",
  },
  {
    id: 'dashboards.remove-charts.after-finalize-410',
    section: '4.12',
    level: 'must',
    summary: 'After finalize, remove-charts answers 410 MIGRATED_TO_V2.',
  },

  // §4.13 list workspaces
  {
    id: 'workspaces.list.path',
    section: '4.13',
    level: 'must',
    summary: 'GET /v1/api/dashboard/list-workspaces lists the workspaces of the organization.',
  },
  {
    id: 'workspaces.list.query-credentials',
    section: '4.13',
    level: 'must',
    summary: 'list-workspaces takes apiKey (non-empty) and organizationId (UUID) in the query.',
  },
  {
    id: 'workspaces.list.filters',
    section: '4.13',
    level: 'must',
    summary:
      'list-workspaces can be narrowed by an optional team id and an optional project id (UUID).',
  },
  {
    id: 'workspaces.list.filter-names',
    section: '4.13',
    level: 'unspecified',
    summary: 'The query names of the team and project filters are left open.',
    decision: 'teamId and projectId; a workspace without a team never matches a teamId filter.',
  },
  {
    id: 'workspaces.list.response-shape',
    section: '4.13',
    level: 'must',
    summary: 'A 200 answers {status, data: {workspaces: [item]}}.',
  },
  {
    id: 'workspaces.list.all-workspaces',
    section: '4.13',
    level: 'must',
    summary: 'Every workspace of the organization is listed along with its primary dashboard.',
  },
  {
    id: 'workspaces.list.after-finalize-applications',
    section: '4.13',
    level: 'must',
    summary:
      'After finalize the list holds applications, same shape, each keyed by its former workspace.',
  },

  // §4.14 save from chat
  {
    id: 'charts.save-from-chat.path',
    section: '4.14',
    level: 'must',
    summary: 'POST /v1/api/chart/save-from-chat stores a chart produced in the agent chat.',
  },
  {
    id: 'charts.save-from-chat.chart-config-as-received',
    section: '4.14',
    level: 'must',
    summary: 'chartConfig is sent back unchanged, exactly as the chat result gave it.',
  },
  {
    id: 'charts.save-from-chat.body-fields',
    section: '4.14',
    level: 'must',
    summary:
      'The body takes chartConfig, apiKey, organizationId, connectionId (UUID), sql, agentId (UUID), name, thumbnail.',
  },
  {
    id: 'charts.save-from-chat.required-fields',
    section: '4.14',
    level: 'unspecified',
    summary: 'Which save-from-chat fields are mandatory is left open.',
    decision:
      "Only chartConfig is required (else 400 VALIDATION_ERROR); name falls back to chartConfig.title, then 'Chart from chat'; sql, agentId, connectionId and thumbnail are accepted and not kept (the SQL that loads the chart is chartConfig.sqlOverride).",
  },
  {
    id: 'charts.save-from-chat.response-shape',
    section: '4.14',
    level: 'must',
    summary: 'A 200 answers {status, data: {chartId, name}} where chartId looks like a UUID.',
  },
  {
    id: 'charts.save-from-chat.chart-id-usable',
    section: '4.14',
    level: 'must',
    summary: 'The chartId answered can go directly into an add-charts call.',
  },
  {
    id: 'charts.save-from-chat.permissions',
    section: '4.14',
    level: 'unspecified',
    summary: 'Whether saving a chart from chat is checked against §2.2 flags is left open.',
    decision:
      'No: saving stores a chart on no dashboard; placing it (add-charts) is the checked write.',
  },
]);
