import { z } from 'zod';
import { IsoUtc, Uuid } from './common.ts';
import { RolePermissions } from './permissions.ts';
import { ChartConfig } from './chart.ts';

/** Host hooks (spec/hooks.openapi.yaml): the operations the document leaves to the host. */
export const HOOK_NAMES = [
  'accounts',
  'members',
  'projects',
  'roles',
  'workspaces',
  'dashboards',
  'charts',
  'agents',
  'migration',
  'clock',
  'reset',
  'snapshot',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export const Capabilities = z.object({
  implementation: z.string(),
  version: z.string(),
  hooks: z.array(z.string()),
});
export type Capabilities = z.infer<typeof Capabilities>;

export const AccountPath = z.object({ organizationId: Uuid });
export const CreateAccountBody = z.object({ name: z.string().min(1).optional() });
export const Account = z.object({
  organizationId: Uuid,
  name: z.string(),
  hubUserId: Uuid,
  userScopedKey: z.string(),
  orgBoundKey: z.string(),
});
export type Account = z.infer<typeof Account>;

export const AddMemberBody = z.object({ userScopedKey: z.string().min(1) });
export const Member = z.object({ organizationId: Uuid, hubUserId: Uuid });

export const CreateProjectBody = z.object({ name: z.string().min(1).optional() });
export const Project = z.object({ projectId: Uuid, name: z.string() });

export const HookProjectPath = z.object({ organizationId: Uuid, projectId: Uuid });
export const CreateRoleBody = z.object({
  name: z.string().min(1),
  permissions: RolePermissions.optional(),
});

export const CreateWorkspaceBody = z.object({
  name: z.string().min(1),
  projectId: Uuid.optional(),
  /** §4.13's team filter matches this. */
  teamId: z.string().min(1).optional(),
  /** The name of the primary dashboard (default: the workspace's name). */
  dashboardName: z.string().min(1).optional(),
});
export const Workspace = z.object({ workspaceId: Uuid, name: z.string(), dashboardId: Uuid });
/** A dashboard's filter control: `filter_{controlKey}` on the embedded pages (§4.17). */
export const FilterControl = z.object({
  controlKey: z.string().regex(/^[A-Za-z0-9_-]+$/),
  field: z.string().min(1),
  label: z.string().min(1),
});
export const CreateDashboardBody = z.object({
  name: z.string().min(1),
  controls: z.array(FilterControl).optional(),
});
export const HookDashboard = z.object({
  dashboardId: Uuid,
  name: z.string(),
  workspaceId: Uuid,
  controls: z.array(FilterControl).optional(),
});
export const CreateChartBody = z.object({
  name: z.string().min(1),
  chartConfig: ChartConfig.optional(),
});
export const HookChart = z.object({ chartId: Uuid, name: z.string(), dashboardId: Uuid });
export const CreateAgentBody = z.object({ name: z.string().min(1).optional() });

export const Clock = z.object({ now: IsoUtc, frozen: z.boolean() });
export type Clock = z.infer<typeof Clock>;
export const FreezeBody = z.object({ at: IsoUtc.optional() });
export const AdvanceBody = z.object({ seconds: z.number().nonnegative().finite() });

/**
 * The read-only snapshot of an account: what it holds, as canonical JSON (every object's
 * members sorted, every collection sorted by id), so that two snapshots of an unchanged
 * account are equal as text. Its members are the target's own; the suites only compare one
 * snapshot with another, never read into them.
 */
export const Snapshot = z.object({ organizationId: Uuid, state: z.unknown() });
export type Snapshot = z.infer<typeof Snapshot>;
