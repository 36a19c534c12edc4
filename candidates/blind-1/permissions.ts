import { z } from 'zod';

/** §2.2: the role flags, every one an optional boolean. */
export const FLAGS = [
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
export type Flag = (typeof FLAGS)[number];
export type Permissions = { [K in Flag]?: boolean | undefined };
export type Effective = Record<Flag, boolean>;

export const PermissionsSchema = z.strictObject(
  Object.fromEntries(FLAGS.map((f) => [f, z.boolean().optional()])) as Record<
    Flag,
    z.ZodOptional<z.ZodBoolean>
  >,
);

/** Flags that grant editing (rule 1). */
export const EDITING_FLAGS: readonly Flag[] = [
  'addChart',
  'addFilter',
  'createChart',
  'editCharts',
  'removeChart',
  'addDashboard',
  'canDuplicateDashboard',
];

/** Flags on by default for a role that grants editing. */
const ON_WHEN_EDITING: readonly Flag[] = [
  'addChart',
  'addFilter',
  'createChart',
  'removeChart',
  'canDuplicateDashboard',
  'addDashboard',
];

/** Flags on by default for every role (and for no role). */
const ALWAYS_ON: readonly Flag[] = ['canSetDefaultDashboard', 'canEditChartFromSession'];

export function grantsEditing(p: Permissions | null): boolean {
  if (!p || p.readOnly === true) return false;
  return EDITING_FLAGS.some((f) => p[f] === true);
}

/** The effective flags of a role (null: no role, view-only). */
export function effective(p: Permissions | null): Effective {
  const editing = grantsEditing(p);
  const out = {} as Effective;
  for (const flag of FLAGS) {
    const set = p?.[flag];
    if (set !== undefined) out[flag] = set;
    else out[flag] = ALWAYS_ON.includes(flag) || (editing && ON_WHEN_EDITING.includes(flag));
  }
  if (!editing) for (const flag of EDITING_FLAGS) out[flag] = false;
  if (out.readOnly) out.drillDown = false;
  if (!out.createChart) out.createChartSQL = false;
  return out;
}

/** Kinds of dashboard write and the flag each needs. */
export const WRITE_FLAG = {
  create: 'addDashboard',
  clone: 'canDuplicateDashboard',
  addCharts: 'addChart',
  appendCharts: 'addChart',
  removeCharts: 'removeChart',
} as const satisfies Record<string, Flag>;
export type WriteKind = keyof typeof WRITE_FLAG;
