import type { Variant } from './variant.ts';

/**
 * Issue 34, the inventory "every refused v1 write × the v2 endpoint its 410 names" (§7's 410
 * row, §4.16's table, §9): each v1 write answers 410 naming another write's v2 replacement.
 * (Clone naming the v2 create is in dashboards.ts.)
 */
export const migratedVariants: readonly Variant[] = [
  {
    name: "migrated: v1 create's 410 names the v2 clone endpoint instead of the v2 create",
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: "migrated(who.value.account, 'create', { workspaceId: body.workspaceId })",
    to: "migrated(who.value.account, 'clone', { workspaceId: body.workspaceId })",
    only: ['errors.migrated-to-v2.names-endpoint'],
  },
  {
    name: "migrated: v1 add-charts' 410 names the v2 append-charts endpoint instead of the v2 add-charts",
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: "migrated(who.value.account, 'addCharts', {",
    to: "migrated(who.value.account, 'appendCharts', {",
    only: ['errors.migrated-to-v2.names-endpoint'],
  },
  {
    name: "migrated: remove-charts' 410 names the v2 add-charts endpoint instead of the v2 remove-chart",
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: "migrated(who.value.account, 'removeCharts', { dashboardId: body.dashboardId })",
    to: "migrated(who.value.account, 'addCharts', { dashboardId: body.dashboardId })",
    only: ['errors.migrated-to-v2.names-endpoint'],
  },
  {
    name: "migrated: append-charts-from's 410 names the v2 add-charts endpoint instead of the v2 append-charts",
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: "migrated(who.value.account, 'appendCharts', {",
    to: "migrated(who.value.account, 'addCharts', {",
    only: ['errors.migrated-to-v2.names-endpoint'],
  },
];
