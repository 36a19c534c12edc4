import { defineClauses } from './types.ts';

// §9: path versions, the v1-to-v2 migration and its before/after table, deprecations.
export const s9 = defineClauses([
  {
    id: 'versioning.path-prefix',
    section: '9',
    level: 'must',
    summary: 'The version sits in the path: /v1/api/... or /v2/api/....',
  },
  {
    id: 'versioning.role-endpoint-version',
    section: '9',
    level: 'must',
    summary: 'Version 1.5.0 is stamped on the OpenAPI file of the v1 role endpoint.',
    noPortableCheck:
      'The version is a property of the OpenAPI file the document describes, and the document gives no call that serves that file.',
  },
  {
    id: 'migration.workspace-to-application',
    section: '9',
    level: 'must',
    summary: 'Migrating makes one v2 application out of each v1 workspace.',
  },
  {
    id: 'migration.dashboard-to-application-dashboard',
    section: '9',
    level: 'must',
    summary:
      'Migrating makes each v1 dashboard a dashboard of the application its workspace became.',
  },
  {
    id: 'migration.legacy-ids-kept',
    section: '9',
    level: 'must',
    summary: 'The v1 ids survive as legacyWorkspaceId and legacyDashboardId.',
  },
  {
    id: 'migration.list-workspaces.before',
    section: '9',
    level: 'must',
    summary: 'Before finalize, list-workspaces answers the v1 workspaces.',
  },
  {
    id: 'migration.list-workspaces.after',
    section: '9',
    level: 'must',
    summary:
      "After finalize, list-workspaces answers the organization's applications in the v1 shape.",
  },
  {
    id: 'migration.list-workspace-dashboards.before',
    section: '9',
    level: 'must',
    summary: 'Before finalize, list-workspace-dashboards answers v1 dashboards.',
  },
  {
    id: 'migration.list-workspace-dashboards.after',
    section: '9',
    level: 'must',
    summary:
      'After finalize, list-workspace-dashboards answers the application dashboards in v1 shape, v1 ids where they exist.',
  },
  {
    id: 'migration.v1-write.before',
    section: '9',
    level: 'must',
    summary:
      'Before finalize, v1 create, clone, add-charts, remove-charts and append-charts-from work.',
  },
  {
    id: 'migration.v1-write.410',
    section: '9',
    level: 'must',
    summary: 'After finalize, each of those v1 writes answers 410 MIGRATED_TO_V2.',
  },
  {
    id: 'migration.v1-component.frozen',
    section: '9',
    level: 'must',
    summary:
      'After finalize the v1 dashboard component shows the dashboard as migrated and never updates.',
  },
  {
    id: 'migration.register-tenant.before',
    section: '9',
    level: 'must',
    summary: 'Before finalize, register-tenant answers a tenant JWT.',
  },
  {
    id: 'migration.register-tenant.after',
    section: '9',
    level: 'must',
    summary: 'After finalize, register-tenant answers a project-user JWT instead.',
  },
  {
    id: 'migration.tenant-users',
    section: '9',
    level: 'unspecified',
    summary:
      'What the project user made for a tenant holds (project, role, project organization) is not shown.',
    decision:
      "Each tenant becomes a user of one 'Migrated tenants' project, with a role of its own holding the tenant's editing permissions and a project organization of its own (externalId tenant:<tenantId>), so it has a v2 space; a tenant registered after finalize is mapped at once, and registering it again updates that role.",
  },
  {
    id: 'migration.chart-ids-kept',
    section: '9',
    level: 'unspecified',
    summary: 'Whether charts keep their ids when their dashboards are migrated is left open.',
    decision:
      "Yes: a migrated dashboard, a user's copy included, holds the same chart ids as its v1 dashboard.",
  },
  {
    id: 'migration.save-from-chat.unchanged',
    section: '9',
    level: 'must',
    summary: 'save-from-chat behaves the same before and after finalize.',
  },
  {
    id: 'migration.save-from-chat.v2-add-charts',
    section: '9',
    level: 'must',
    summary: 'After finalize, the saved chartId goes to the v2 add-charts endpoint.',
    noPortableCheck:
      'The chartId goes to the v2 add-charts call, whose charts field §4.16 names without its form (one id or a list), so passing it leans on the form the profile follows.',
  },
  {
    id: 'versioning.deprecated.payload',
    section: '9',
    level: 'must',
    summary: 'payload in the user update is deprecated in favour of properties.',
  },
  {
    id: 'versioning.deprecated.unique-key',
    section: '9',
    level: 'must',
    summary: 'The unique key of register-tenant is deprecated.',
  },
  {
    id: 'versioning.timetable',
    section: '9',
    level: 'unspecified',
    summary: 'A deprecation schedule and older version history are left open.',
    decision: 'Deprecated fields stay accepted with no end date and no deprecation header.',
  },
]);
