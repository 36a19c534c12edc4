import { z } from 'zod';
import { CredentialFields, success, Uuid } from './common.ts';

const DashboardCredentials = {
  apiKey: z.string().min(1).optional(),
  // §4.10–§4.12 type it as a plain string (needed with the hub-login JWT path).
  organizationId: z.string().optional(),
  connectionId: z.string().optional(),
};

/** §4.10 */
export const CloneDashboardBody = z.object({
  ...DashboardCredentials,
  sourceDashboardId: Uuid,
  targetWorkspaceId: Uuid.optional(),
  name: z.string().optional(),
});
export const CloneDashboardResponse = success(
  z.object({ dashboardId: z.string(), name: z.string() }),
);

/** §4.11 */
export const AppendChartsFromBody = z.object({
  ...DashboardCredentials,
  sourceDashboardId: Uuid,
  targetDashboardId: Uuid,
});
export const ObjectResponse = success(z.record(z.string(), z.unknown()));

/** §4.12, §8: at least one chart id. */
export const RemoveChartsBody = z.object({
  ...DashboardCredentials,
  dashboardId: Uuid,
  chartIds: z.array(Uuid).min(1),
});

/** §4.13; the filter parameter names are not shown (decision: teamId, projectId). */
export const ListWorkspacesQuery = z.object({
  ...CredentialFields,
  apiKey: z.string().min(1).optional(),
  // §4.13 types only the project filter as a UUID; a team id is any non-empty string here.
  teamId: z.string().min(1).optional(),
  projectId: Uuid.optional(),
});
/**
 * §2.8: v1 names seen only through the migration mapping. Every workspace is listed with its
 * primary dashboard, so neither dashboard member is null.
 */
export const WorkspaceItem = z.looseObject({
  workspace_id: z.string(),
  dashboard_id: z.string(),
  dashboard_name: z.string(),
});
export const ListWorkspacesResponse = success(z.object({ workspaces: z.array(WorkspaceItem) }));

/** §4.16: the v1 create body seen as {workspaceId, name}; path decided (dashboards.v1-shapes.not-shown). */
export const V1CreateDashboardBody = z.object({
  ...DashboardCredentials,
  workspaceId: Uuid,
  name: z.string().min(1),
});
export const V1CreateDashboardResponse = success(
  z.object({ dashboardId: z.string(), name: z.string(), workspaceId: z.string() }),
);

/** §4.16: the v1 add-charts body seen as {targetDashboardId, charts}; charts are chart ids. */
export const V1AddChartsBody = z.object({
  ...DashboardCredentials,
  targetDashboardId: Uuid,
  charts: z.array(Uuid).min(1),
});

/** Decision (dashboards.append-charts-from.response-fields and its siblings): a layout edit's data. */
export const LayoutAnswer = z.object({ dashboardId: z.string(), chartIds: z.array(z.string()) });
export const LayoutResponse = success(LayoutAnswer);

/** §9 names list-workspace-dashboards; its path and shape are decided. */
export const ListWorkspaceDashboardsQuery = z.object({
  ...CredentialFields,
  apiKey: z.string().min(1).optional(),
  workspaceId: Uuid,
});
/** Decision dashboards.v1-record.fields: a v1 dashboard as the lists show it. */
export const V1DashboardItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  workspaceId: z.string(),
  tenantId: z.string().nullable(),
  ownerProjectUserId: z.string().nullable(),
  chartIds: z.array(z.string()),
  charts: z.array(
    z.object({
      chartId: z.string(),
      name: z.string(),
      chartConfig: z.record(z.string(), z.unknown()),
    }),
  ),
});
/**
 * §2.8: the members every v1 dashboard record is shown with. A portable read of the v1 list
 * parses only these; further members are the target's (its profile names them).
 */
export const V1ListedDashboard = z.looseObject({
  id: z.string(),
  tenantId: z.string().nullable(),
  ownerProjectUserId: z.string().nullable(),
});
export const V1ListedDashboards = success(z.object({ dashboards: z.array(V1ListedDashboard) }));
export const ListWorkspaceDashboardsResponse = success(
  z.object({ dashboards: z.array(V1DashboardItem) }),
);

/** §2.8 v2 resources; §9: every application is a migrated workspace, so both ids exist. */
export const Application = z.object({
  applicationId: Uuid,
  name: z.string(),
  defaultDashboardId: Uuid,
  legacyWorkspaceId: Uuid,
});
export const V2Dashboard = z.looseObject({
  id: Uuid,
  legacyDashboardId: Uuid.nullable(),
  kind: z.enum(['template', 'dashboard']),
  ownerProjectUserId: Uuid.nullable(),
  name: z.string().optional(),
});
export const ListApplicationsResponse = success(z.object({ applications: z.array(Application) }));

/** §4.16 bodies named by the document */
export const V2CreateDashboardBody = z.object({ ...CredentialFields, name: z.string().min(1) });
export const V2CloneBody = z.object({ ...CredentialFields, name: z.string().optional() });
export const V2AddChartsBody = z.object({
  ...CredentialFields,
  charts: z.array(z.string()).min(1),
});
export const V2AppendChartsBody = z.object({ ...CredentialFields, sourceDashboardId: Uuid });
