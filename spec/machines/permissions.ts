import {
  PERMISSION_FLAGS,
  type EffectivePermissions,
  type PermissionFlag,
  type RolePermissions,
} from '../schemas/permissions.ts';

/** §2.2 rule 1: the flags of which one being true lets a role edit. */
export const EDITING_FLAGS = [
  'addChart',
  'addFilter',
  'createChart',
  'editCharts',
  'removeChart',
  'addDashboard',
  'canDuplicateDashboard',
] as const satisfies readonly PermissionFlag[];

/** §2.2 defaults for a flag left unset on a role that grants editing. */
const ON_WHEN_EDITING: ReadonlySet<PermissionFlag> = new Set([
  'addChart',
  'addFilter',
  'createChart',
  'removeChart',
  'canDuplicateDashboard',
  'addDashboard',
]);

/** §2.2: unset flags that are on for every role, editing or not. */
const ALWAYS_ON: ReadonlySet<PermissionFlag> = new Set([
  'canSetDefaultDashboard',
  'canEditChartFromSession',
]);

/** §2.2 rule 1: editing needs one editing flag set true, and never with readOnly on. */
export function grantsEditing(permissions: RolePermissions | null): boolean {
  if (permissions === null || permissions.readOnly === true) return false;
  return EDITING_FLAGS.some((flag) => permissions[flag] === true);
}

/**
 * What a user with no role may do, which §2.2 leaves open beside its being view-only:
 * `empty-role`, what an empty permission object gives (decision permissions.effective.no-role);
 * `nothing`, no flag at all.
 */
export type NoRolePermissions = 'empty-role' | 'nothing';

/**
 * What a user on a role may actually do (§2.2 table and rules): unset flags take their
 * defaults, which depend on whether the role grants editing; readOnly switches off every
 * editing flag and drillDown; createChartSQL means nothing without createChart. A user with
 * no role (`null`) is view-only, like an empty permission object unless `noRole` says nothing.
 */
export function effectivePermissions(
  permissions: RolePermissions | null,
  noRole: NoRolePermissions = 'empty-role',
): EffectivePermissions {
  if (permissions === null && noRole === 'nothing')
    return Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, false])) as EffectivePermissions;
  const set = permissions ?? {};
  const editing = grantsEditing(permissions);
  const out = {} as Record<PermissionFlag, boolean>;
  for (const flag of PERMISSION_FLAGS) {
    const given = set[flag];
    const fallback = ALWAYS_ON.has(flag) || (editing && ON_WHEN_EDITING.has(flag));
    out[flag] = given ?? fallback;
  }
  if (!editing) {
    // §2.2 rule 2: a view-only role keeps no editing flag, whatever was stored.
    for (const flag of EDITING_FLAGS) out[flag] = false;
  }
  if (out.readOnly) out.drillDown = false;
  if (!out.createChart) out.createChartSQL = false;
  return out;
}
