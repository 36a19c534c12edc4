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
  /** Read-only: a dashboard's chart ids in layout order, for targets whose v1 list omits them. */
  'dashboard-charts',
  'agents',
  'connections',
  'chart-data',
  /** A capability, not an endpoint: the agent understands the reference agent's grammar. */
  'agent-grammar',
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
/** A dashboard's layout as the read-only `dashboard-charts` hook answers it. */
export const HookDashboardCharts = z.object({
  dashboardId: Uuid,
  chartIds: z.array(z.string()),
  charts: z.array(
    z.object({
      chartId: z.string(),
      name: z.string(),
      chartConfig: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type HookDashboardCharts = z.infer<typeof HookDashboardCharts>;
export const CreateAgentBody = z.object({
  name: z.string().min(1).optional(),
  /** The connection the agent reaches (default: the target's seeded dataset). */
  connectionId: Uuid.optional(),
});
export const HookAgent = z.object({
  agentId: Uuid,
  name: z.string(),
  projectId: Uuid,
  connectionId: Uuid.optional(),
  /** The latest version; `versions` lists every one, oldest first. */
  version: z.number().int().min(1),
  versions: z.array(z.number().int().min(1)),
});
export type HookAgent = z.infer<typeof HookAgent>;
export const HookAgentPath = z.object({ organizationId: Uuid, projectId: Uuid, agentId: Uuid });
export const CreateAgentVersionBody = z.object({ note: z.string().optional() });
export const HookAgentVersion = z.object({
  agentId: Uuid,
  version: z.number().int().min(1),
  versions: z.array(z.number().int().min(1)),
});

/** A table or column name of a connection's table. */
export const SqlName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/);
export const ConnectionColumnType = z.enum(['text', 'integer', 'number', 'date', 'boolean']);
export type ConnectionColumnType = z.infer<typeof ConnectionColumnType>;
export const ConnectionTable = z.object({
  name: SqlName,
  columns: z.array(z.object({ name: SqlName, type: ConnectionColumnType })).min(1),
  /** One row by column name; a date as YYYY-MM-DD; a missing value is null. */
  rows: z.array(z.record(z.string(), z.unknown())).max(10_000),
});
export type ConnectionTable = z.infer<typeof ConnectionTable>;
/** A user sees a row only when `row[column]` equals the user's property `property`. */
export const RowFilter = z.object({ column: SqlName, property: z.string().min(1) });
export type RowFilter = z.infer<typeof RowFilter>;
export const CreateConnectionBody = z.object({
  name: z.string().min(1).optional(),
  table: ConnectionTable.optional(),
  rowFilters: z.array(RowFilter).optional(),
});
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>;
export const HookConnection = z.object({ connectionId: Uuid, tables: z.array(z.string()) });
export type HookConnection = z.infer<typeof HookConnection>;

export const HookChartPath = z.object({ organizationId: Uuid, chartId: Uuid });
export const ChartDataBody = z.object({
  /** A project-user JWT: its user's properties fill `{{user.<key>}}`. */
  token: z.string().min(1),
  filters: z.array(z.object({ field: z.string().min(1), value: z.unknown() })).optional(),
});
export type ChartDataBody = z.infer<typeof ChartDataBody>;
export const ChartData = z.object({
  rows: z.array(z.record(z.string(), z.unknown())),
  columns: z.array(z.string()),
});
export type ChartData = z.infer<typeof ChartData>;

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
