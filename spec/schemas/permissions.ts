import { z } from 'zod';

/** §2.2: the twenty permission flags, in the document's order. */
export const PERMISSION_FLAGS = [
  'addChart',
  'addFilter',
  'createChart',
  'createChartSQL',
  'editCharts',
  'removeChart',
  'disableTabs',
  'hideHeader',
  'hideDownloadButton',
  'aiCharts',
  'editMarketplace',
  'readOnly',
  'aiInsight',
  'drillDown',
  'enableScheduleReport',
  'canDuplicateDashboard',
  'canSetDefaultDashboard',
  'canEditChartFromSession',
  'hideFilters',
  'addDashboard',
] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

const flagShape = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean().optional()])) as {
  [K in PermissionFlag]: z.ZodOptional<z.ZodBoolean>;
};

/** §2.1: permissions take only the §2.2 flags, each an optional boolean; other keys are refused. */
export const RolePermissions = z.strictObject(flagShape);
export type RolePermissions = z.infer<typeof RolePermissions>;

/** Every flag resolved to a boolean: what a user on the role may actually do. */
export type EffectivePermissions = Readonly<Record<PermissionFlag, boolean>>;
export const EffectivePermissions = z.strictObject(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean()])) as {
    [K in PermissionFlag]: z.ZodBoolean;
  },
);
