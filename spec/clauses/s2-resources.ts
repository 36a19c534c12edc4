import { defineClauses } from './types.ts';

// §2: the resources and their fields, including the permission flags and editing rules.
export const s2 = defineClauses([
  // §2.1 project user role
  {
    id: 'resources.role.fields',
    section: '2.1',
    level: 'must',
    summary:
      'A role carries id, name, organization_id, project_id, permissions, created_at and updated_at.',
  },
  {
    id: 'resources.role.id-uuid',
    section: '2.1',
    level: 'must',
    summary: 'A role id is a UUID string.',
  },
  {
    id: 'resources.role.name-string',
    section: '2.1',
    level: 'must',
    summary: 'A role name is a string.',
  },
  {
    id: 'resources.role.organization-id',
    section: '2.1',
    level: 'must',
    summary: 'organization_id is the UUID of the customer organization that owns the role.',
  },
  {
    id: 'resources.role.project-id-nullable',
    section: '2.1',
    level: 'must',
    summary: 'project_id is a UUID string or null.',
  },
  {
    id: 'resources.role.permissions-object',
    section: '2.1',
    level: 'must',
    summary: 'permissions is an object holding the §2.2 flags.',
  },
  {
    id: 'resources.role.permissions-no-extra-keys',
    section: '2.1',
    level: 'must',
    summary: 'A role permissions object never holds keys other than the §2.2 flags.',
  },
  {
    id: 'roles.timestamps.format',
    section: '2.1',
    level: 'unspecified',
    summary: 'How created_at and updated_at are written is left open.',
    decision:
      'ISO 8601 UTC strings with milliseconds (e.g. 2024-01-01T00:00:00.000Z), taken from the account clock.',
  },
  {
    id: 'roles.timestamps.update-refreshes',
    section: '2.1',
    level: 'unspecified',
    summary:
      'Whether an update touches updated_at, and whether created_at is stable, is left open.',
    decision:
      'Each successful role update sets updated_at to the account clock now; created_at never changes.',
  },

  // §2.2 permission flags
  {
    id: 'permissions.flags.optional-booleans',
    section: '2.2',
    level: 'must',
    summary: 'Each of the twenty permission flags is optional and, when present, a boolean.',
  },
  {
    id: 'permissions.default.add-chart',
    section: '2.2',
    level: 'must',
    summary: 'addChart left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.default.add-filter',
    section: '2.2',
    level: 'must',
    summary: 'addFilter left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.default.create-chart',
    section: '2.2',
    level: 'must',
    summary: 'createChart left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.default.create-chart-sql',
    section: '2.2',
    level: 'must',
    summary: 'createChartSQL left unset counts as false.',
  },
  {
    id: 'permissions.default.edit-charts',
    section: '2.2',
    level: 'must',
    summary: 'editCharts left unset counts as false, even though setting it grants editing.',
  },
  {
    id: 'permissions.default.remove-chart',
    section: '2.2',
    level: 'must',
    summary: 'removeChart left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.default.disable-tabs',
    section: '2.2',
    level: 'must',
    summary: 'disableTabs left unset counts as false.',
  },
  {
    id: 'permissions.default.hide-header',
    section: '2.2',
    level: 'must',
    summary: 'hideHeader left unset counts as false.',
  },
  {
    id: 'permissions.default.hide-download-button',
    section: '2.2',
    level: 'must',
    summary: 'hideDownloadButton left unset counts as false.',
  },
  {
    id: 'permissions.default.ai-charts',
    section: '2.2',
    level: 'must',
    summary: 'aiCharts left unset counts as false.',
  },
  {
    id: 'permissions.default.edit-marketplace',
    section: '2.2',
    level: 'must',
    summary: 'editMarketplace left unset counts as false.',
  },
  {
    id: 'permissions.default.read-only',
    section: '2.2',
    level: 'must',
    summary: 'readOnly left unset counts as false.',
  },
  {
    id: 'permissions.default.ai-insight',
    section: '2.2',
    level: 'must',
    summary: 'aiInsight left unset counts as false.',
  },
  {
    id: 'permissions.default.drill-down',
    section: '2.2',
    level: 'must',
    summary: 'drillDown left unset counts as false.',
  },
  {
    id: 'permissions.default.enable-schedule-report',
    section: '2.2',
    level: 'must',
    summary: 'enableScheduleReport left unset counts as false.',
  },
  {
    id: 'permissions.default.can-duplicate-dashboard',
    section: '2.2',
    level: 'must',
    summary: 'canDuplicateDashboard left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.default.can-set-default-dashboard',
    section: '2.2',
    level: 'must',
    summary:
      'canSetDefaultDashboard left unset counts as true, whether or not the role grants editing.',
  },
  {
    id: 'permissions.default.can-edit-chart-from-session',
    section: '2.2',
    level: 'must',
    summary:
      'canEditChartFromSession left unset counts as true, whether or not the role grants editing.',
  },
  {
    id: 'permissions.default.hide-filters',
    section: '2.2',
    level: 'must',
    summary: 'hideFilters left unset counts as false.',
  },
  {
    id: 'permissions.default.add-dashboard',
    section: '2.2',
    level: 'must',
    summary: 'addDashboard left unset counts as true when the role grants editing.',
  },
  {
    id: 'permissions.add-chart.allows-adding',
    section: '2.2',
    level: 'must',
    summary: 'addChart lets the user put existing charts onto a dashboard.',
  },
  {
    id: 'permissions.add-filter.existing-filters-free',
    section: '2.2',
    level: 'must',
    summary:
      'addFilter governs creating new filters only; applying filters already present needs no flag.',
  },
  {
    id: 'permissions.create-chart.allows-builder',
    section: '2.2',
    level: 'must',
    summary: 'createChart lets the user build new charts with the chart builder.',
  },
  {
    id: 'permissions.create-chart-sql.needs-create-chart',
    section: '2.2',
    level: 'must',
    summary: 'createChartSQL (hand-written chart SQL) does nothing unless createChart is also on.',
  },
  {
    id: 'permissions.edit-charts.allows-editing',
    section: '2.2',
    level: 'must',
    summary: 'editCharts lets the user change charts placed on a dashboard.',
  },
  {
    id: 'permissions.remove-chart.allows-removing',
    section: '2.2',
    level: 'must',
    summary: 'removeChart lets the user take charts off a dashboard.',
  },
  {
    id: 'permissions.disable-tabs.effect',
    section: '2.2',
    level: 'must',
    summary: 'disableTabs switches the tabbed layout of a dashboard off.',
  },
  {
    id: 'permissions.hide-header.effect',
    section: '2.2',
    level: 'must',
    summary: 'hideHeader removes the header from the dashboard page.',
  },
  {
    id: 'permissions.hide-download-button.effect',
    section: '2.2',
    level: 'must',
    summary: 'hideDownloadButton removes the PDF download control.',
  },
  {
    id: 'permissions.ai-charts.effect',
    section: '2.2',
    level: 'must',
    summary: 'aiCharts lets the user obtain charts by asking the AI.',
  },
  {
    id: 'permissions.edit-marketplace.no-effect',
    section: '2.2',
    level: 'must',
    summary: 'editMarketplace is a legacy flag; its value changes nothing.',
  },
  {
    id: 'permissions.read-only.no-editing-tools',
    section: '2.2',
    level: 'must',
    summary: 'With readOnly on, the dashboard page offers no editing controls.',
  },
  {
    id: 'permissions.read-only.refuses-dashboard-writes',
    section: '2.2',
    level: 'must',
    summary: 'With readOnly on, the API rejects dashboard writes made as that user.',
  },
  {
    id: 'permissions.ai-insight.effect',
    section: '2.2',
    level: 'must',
    summary: 'aiInsight opens access to the AI insights chat sidebar.',
  },
  {
    id: 'permissions.drill-down.effect',
    section: '2.2',
    level: 'must',
    summary: "drillDown lets the user dig into a chart's underlying data.",
  },
  {
    id: 'permissions.drill-down.off-when-read-only',
    section: '2.2',
    level: 'must',
    summary: 'readOnly forces drill-down off, whatever drillDown says.',
  },
  {
    id: 'permissions.enable-schedule-report.needs-org-feature',
    section: '2.2',
    level: 'must',
    summary:
      'enableScheduleReport shows a Schedule Report header button, only where the organization has scheduled reports.',
  },
  {
    id: 'permissions.can-duplicate-dashboard.effect',
    section: '2.2',
    level: 'must',
    summary: 'canDuplicateDashboard lets the user copy a dashboard into one of their own.',
  },
  {
    id: 'permissions.can-set-default-dashboard.effect',
    section: '2.2',
    level: 'must',
    summary: 'canSetDefaultDashboard lets the user pick a dashboard as their default.',
  },
  {
    id: 'permissions.can-edit-chart-from-session.effect',
    section: '2.2',
    level: 'must',
    summary: 'canEditChartFromSession lets the user edit a chart the agent chat generated.',
  },
  {
    id: 'permissions.hide-filters.effect',
    section: '2.2',
    level: 'must',
    summary: 'hideFilters removes the filter bar from the dashboard.',
  },
  {
    id: 'permissions.add-dashboard.effect',
    section: '2.2',
    level: 'must',
    summary: 'addDashboard lets the user create dashboards.',
  },
  {
    id: 'permissions.editing.grant-flags',
    section: '2.2',
    level: 'must',
    summary:
      'Editing needs a true value in one or more of addDashboard, addChart, addFilter, createChart, editCharts, removeChart, canDuplicateDashboard.',
  },
  {
    id: 'permissions.editing.read-only-overrides',
    section: '2.2',
    level: 'must',
    summary: 'readOnly set to true cancels editing whatever the other flags say.',
  },
  {
    id: 'permissions.editing.empty-is-view-only',
    section: '2.2',
    level: 'must',
    summary:
      'A role with none of the editing flags true, the empty object included, only lets users view.',
  },
  {
    id: 'permissions.editing.no-role-view-only',
    section: '2.2',
    level: 'must',
    summary: 'A project user holding no role can only view.',
  },
  {
    id: 'permissions.editing.edits-go-to-own-copy',
    section: '2.2',
    level: 'must',
    summary: "Edits land in the user's own copy; the shared dashboard itself stays untouched.",
  },
  {
    id: 'dashboards.write-refusal.status',
    section: '2.2',
    level: 'unspecified',
    summary:
      'The status and body of a dashboard write refused by the editing rules or readOnly are left open.',
    decision:
      "403 FORBIDDEN; details.permission names the missing flag (or 'readOnly') and details.write the kind of write.",
  },

  {
    id: 'permissions.effective.non-editing-role',
    section: '2.2',
    level: 'unspecified',
    summary:
      'Effective values of editing flags in a role that does not grant editing (or has readOnly) are left open.',
    decision:
      'Every flag that grants editing counts as false there, even if set true under readOnly; other flags follow their defaults.',
  },
  {
    id: 'permissions.effective.no-role',
    section: '2.2',
    level: 'unspecified',
    summary: 'The effective permissions of a user without a role are left open.',
    decision:
      'Those of an empty role: canSetDefaultDashboard and canEditChartFromSession true, every other flag false.',
  },

  // §2.3 project organization
  {
    id: 'resources.organization.fields',
    section: '2.3',
    level: 'must',
    summary: 'A project organization has projectOrganizationId, externalId, name and properties.',
    noPortableCheck:
      "No call the document fixes answers a project organization's record: register-organization shows its id and externalId (their own clauses), the name is judged where the hub shows it, and the properties have no reading of their own.",
  },
  {
    id: 'resources.organization.id-issued',
    section: '2.3',
    level: 'must',
    summary: 'projectOrganizationId is a UUID that the service assigns.',
  },
  {
    id: 'resources.organization.external-id-optional',
    section: '2.3',
    level: 'must',
    summary: 'externalId is an optional identifier the caller picks, at least one character long.',
  },
  {
    id: 'resources.organization.external-id-resolves',
    section: '2.3',
    level: 'must',
    summary:
      'Where a call takes a project organization identifier, an externalId is turned into the service UUID.',
  },
  {
    id: 'orgs.identifier.resolution-order',
    section: '2.3',
    level: 'unspecified',
    summary:
      'How an identifier that could be either a UUID or an externalId is matched is left open.',
    decision:
      "Match a project organization UUID of the project first, then an externalId of the project; no match gives 404 NOT_FOUND with details.field 'projectOrganizationId'. An externalId equal to another organization's UUID is refused (409 CONFLICT), so an identifier never names two.",
  },
  {
    id: 'resources.organization.name',
    section: '2.3',
    level: 'must',
    summary: 'name is a non-empty display name used by the hub.',
  },
  {
    id: 'resources.organization.properties',
    section: '2.3',
    level: 'must',
    summary: 'properties is a key/value object that scopes and protects the data its users reach.',
    noPortableCheck:
      "The document says organization properties scope data but not how they reach a query (row-level security reads the user's properties), so no call shows an organization's properties narrowing rows.",
  },

  // §2.4 project user
  {
    id: 'resources.user.fields',
    section: '2.4',
    level: 'must',
    summary:
      'A project user has an id (userId), name, properties, userRoleId and projectOrganizationId.',
  },
  {
    id: 'resources.user.id-supplied-or-generated',
    section: '2.4',
    level: 'must',
    summary:
      'A user id is a UUID, taken from the registration call when given and made up by the service otherwise.',
  },
  {
    id: 'resources.user.name',
    section: '2.4',
    level: 'must',
    summary: 'A user name is a string shown in the hub.',
  },
  {
    id: 'resources.user.properties-rls',
    section: '2.4',
    level: 'must',
    summary: 'User properties are an object that row-level security reads as {{user.<key>}}.',
  },
  {
    id: 'resources.properties.missing-property',
    section: '2.4',
    level: 'unspecified',
    summary:
      'What a query gets when it reads {{user.<key>}} and the user has no such property is left open.',
    decision:
      "Refused, never answered unfiltered: 403 FORBIDDEN with details.reason 'missing-user-property' naming the key (before any stream on the chat endpoint).",
  },
  {
    id: 'resources.user.role-nullable',
    section: '2.4',
    level: 'must',
    summary: 'userRoleId is a UUID or null; null means the user has no role and can only view.',
  },
  {
    id: 'resources.user.organization-nullable',
    section: '2.4',
    level: 'must',
    summary: 'projectOrganizationId on a user is a UUID or null.',
  },
  {
    id: 'resources.user.no-organization-no-v2-dashboards',
    section: '2.4',
    level: 'must',
    summary: 'A user with no project organization has no place to keep v2 dashboards.',
  },

  // §2.5 token
  {
    id: 'resources.token.fields',
    section: '2.5',
    level: 'must',
    summary: 'A token result holds token (a JWT string) and expiresAt.',
  },
  {
    id: 'resources.token.jwt',
    section: '2.5',
    level: 'must',
    summary: 'The token string is a JWT: three base64url parts joined by dots.',
  },
  {
    id: 'tokens.expires-at.iso-utc',
    section: '2.5',
    level: 'must',
    summary: 'expiresAt is an ISO 8601 timestamp in UTC.',
  },
  {
    id: 'tokens.issue-time.whole-seconds',
    section: '2.5',
    level: 'unspecified',
    summary: 'Precision of the issue time and of expiresAt is left open.',
    decision:
      "Issue time is the account clock cut to whole seconds; expiresAt is written with milliseconds ('.000Z').",
  },

  // §2.6 chart configuration
  {
    id: 'charts.config.title',
    section: '2.6',
    level: 'must',
    summary: 'chartConfig.title is a string.',
  },
  {
    id: 'charts.config.type',
    section: '2.6',
    level: 'observed',
    summary: 'chartConfig.type appears as a string in chat output.',
  },
  {
    id: 'charts.config.dimensions',
    section: '2.6',
    level: 'must',
    summary: 'dimensions is an array of {name, field, label, format} items.',
  },
  {
    id: 'charts.config.dimensions-extra',
    section: '2.6',
    level: 'observed',
    summary: 'Chat output dimensions also carry type and bucketing.',
  },
  {
    id: 'charts.config.measures',
    section: '2.6',
    level: 'must',
    summary: 'measures is an array of {name, field, label, format} items.',
  },
  {
    id: 'charts.config.measures-aggregation',
    section: '2.6',
    level: 'observed',
    summary: 'Chat output measures also carry aggregation.',
  },
  {
    id: 'charts.config.format',
    section: '2.6',
    level: 'must',
    summary:
      'format is an object of string fields label, formatOptions, formatLocale, labelSuffix, labelPrefix, dateFormat.',
  },
  {
    id: 'charts.config.comparisons',
    section: '2.6',
    level: 'must',
    summary: 'comparisons items are {name, measure} strings plus a numeric customPeriod.',
  },
  {
    id: 'charts.config.map-config',
    section: '2.6',
    level: 'must',
    summary: 'mapConfig holds latitude and longitude, both strings.',
  },
  {
    id: 'charts.config.filters',
    section: '2.6',
    level: 'must',
    summary: 'filters items are {field, value}, both strings.',
  },
  {
    id: 'charts.config.having-filters',
    section: '2.6',
    level: 'must',
    summary: 'havingFilters items are {field, operator, value, aggregation}, all strings.',
  },
  {
    id: 'charts.config.settings',
    section: '2.6',
    level: 'must',
    summary:
      'settings mixes booleans (axes, legend, stacking, labels, slider, debug), colors string[], legendPosition, and numeric pageSize and sliceLimit.',
  },
  {
    id: 'charts.config.settings-legend-bottom',
    section: '2.6',
    level: 'observed',
    summary: "settings.legendPosition has been seen holding 'bottom'.",
  },
  {
    id: 'charts.config.settings-layout',
    section: '2.6',
    level: 'observed',
    summary: 'Chat output settings also carry a layout entry.',
  },
  {
    id: 'charts.config.order-by',
    section: '2.6',
    level: 'must',
    summary: 'orderBy is an array of {field} items with string fields.',
  },
  {
    id: 'charts.config.sql-override-kept',
    section: '2.6',
    level: 'must',
    summary: 'sqlOverride holds the chart SQL; a saved chart needs it preserved to fetch data.',
  },
  {
    id: 'charts.config.allowed-values',
    section: '2.6',
    level: 'unspecified',
    summary:
      'Which values chartConfig fields may take (chart types, legend positions, formats) is left open.',
    decision:
      'Any string is accepted where the document gives no value set; chartConfig is stored exactly as received, unknown keys included.',
  },

  // §2.7 chat result
  {
    id: 'chat.result.fields',
    section: '2.7',
    level: 'must',
    summary: 'A chat result is {chartConfig, chartData, generatedChartRef, explanation}.',
  },
  {
    id: 'chat.result.chart-data-rows',
    section: '2.7',
    level: 'must',
    summary: 'chartData is an array of aggregated data rows.',
  },
  {
    id: 'chat.result.generated-chart-ref',
    section: '2.7',
    level: 'must',
    summary:
      'generatedChartRef is a string that only means something within the session; it is not a chart id.',
  },
  {
    id: 'chat.result.explanation',
    section: '2.7',
    level: 'must',
    summary: 'explanation is a string.',
  },
  {
    id: 'chat.result.chart-data-from-sql',
    section: '2.7',
    level: 'must',
    summary:
      "chartData holds the rows the result's own sqlOverride (§2.6) yields for the asking user, cut at most to its page size or slice limit.",
  },

  // §2.8 workspaces, applications, dashboards
  {
    id: 'workspaces.list-item.primary-dashboard',
    section: '2.8',
    level: 'must',
    summary: 'A v1 workspace is listed together with its primary dashboard.',
  },
  {
    id: 'workspaces.list-item.names-seen',
    section: '2.8',
    level: 'observed',
    summary:
      'The names workspace_id, dashboard_id and dashboard_name appear in the migration mapping.',
  },
  {
    id: 'workspaces.list-item.fields',
    section: '2.8',
    level: 'unspecified',
    summary: 'The fields of a v1 workspace list item are left open.',
    decision:
      'Items carry workspace_id, dashboard_id and dashboard_name (the names the mapping shows); further fields are allowed.',
  },
  {
    id: 'v2.application.fields',
    section: '2.8',
    level: 'must',
    summary:
      'A v2 application carries applicationId, name, defaultDashboardId and legacyWorkspaceId.',
  },
  {
    id: 'v2.dashboard.fields',
    section: '2.8',
    level: 'must',
    summary: 'A v2 dashboard carries id, legacyDashboardId, kind and ownerProjectUserId.',
  },
  {
    id: 'v2.dashboard.kind-template',
    section: '2.8',
    level: 'must',
    summary: "kind 'template' marks a shared dashboard that every user of the application sees.",
  },
  {
    id: 'v2.dashboard.kind-dashboard',
    section: '2.8',
    level: 'must',
    summary: "kind 'dashboard' marks a dashboard living in a single user's space.",
  },
  {
    id: 'dashboards.v1-record.fields',
    section: '2.8',
    level: 'unspecified',
    summary: 'A v1 dashboard record is only shown to have id, tenantId and ownerProjectUserId.',
    decision:
      'The v1 list shows {id, name, workspaceId, tenantId, ownerProjectUserId, chartIds, charts: [{chartId, name, chartConfig}]}.',
  },
  {
    id: 'dashboards.v1-record.tenant-id-own',
    section: '2.8',
    level: 'must',
    summary: "A v1 dashboard with a non-null tenantId belongs to that user's own space.",
  },
  {
    id: 'dashboards.copy.replaces-shared',
    section: '2.8',
    level: 'must',
    summary:
      "Editing a shared dashboard gives the user a copy that takes the shared one's place in their list.",
  },
  {
    id: 'dashboards.copy.one-entry',
    section: '2.8',
    level: 'must',
    summary:
      'Lists and the embedded page both show a single entry per dashboard, the copy winning over the original.',
  },
  {
    id: 'dashboards.copy.chart-ids',
    section: '2.8',
    level: 'unspecified',
    summary:
      "Whether a user's copy of a shared dashboard keeps the shared one's chart ids is left open.",
    decision:
      'The copy keeps them (it stands in for the shared dashboard; no call edits a chart), and the copy has its own id, which later edits through either id reach.',
  },
  {
    id: 'dashboards.copy.clone-beside',
    section: '2.8',
    level: 'unspecified',
    summary:
      "Whether a user's clone of a shared dashboard also takes its place in that user's list is left open.",
    decision: 'No: a clone is a new dashboard of the user, listed beside its source.',
  },
  {
    id: 'dashboards.v1-list.api-key-view',
    section: '2.8',
    level: 'unspecified',
    summary: "What an API key sees in the v1 list of a workspace's dashboards is left open.",
    decision: "The shared dashboards only, never a tenant's copy or own dashboard.",
  },
]);
