import { z } from 'zod';
import { success, Uuid } from './common.ts';
import { RolePermissions } from './permissions.ts';

/** §2.1: a project user role; every field is present in responses (§4.1). */
export const ProjectUserRole = z.object({
  id: Uuid,
  name: z.string(),
  organization_id: Uuid,
  project_id: Uuid.nullable(),
  permissions: RolePermissions,
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectUserRole = z.infer<typeof ProjectUserRole>;

export const RolePath = z.object({ projectId: Uuid, projectUserRoleId: Uuid });
export const ProjectPath = z.object({ projectId: Uuid });

/** §4.1: nothing is required; `permissions` replaces the stored set. */
export const UpdateRoleBody = z.object({
  apiKey: z.string().min(1).optional(),
  organizationId: Uuid.optional(),
  name: z.string().min(1).optional(),
  permissions: RolePermissions.optional(),
});
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>;
export const UpdateRoleResponse = success(ProjectUserRole);

/** §4.2, §4.3: credentials ride in the query. */
export const RoleQuery = z.object({
  apiKey: z.string().min(1).optional(),
  organizationId: Uuid.optional(),
});
export const ListRolesResponse = success(z.object({ userRoles: z.array(ProjectUserRole) }));
export const DeleteRoleResponse = success(z.object({ message: z.string() }));
