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
  teamId: Uuid.optional(),
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
