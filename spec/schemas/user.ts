import { z } from 'zod';
import { CredentialFields, Properties, success, Uuid } from './common.ts';

/**
 * §4.5; required fields are not shown: projectId and name are (decision
 * users.register.required-fields).
 */
export const RegisterUserBody = z.object({
  ...CredentialFields,
  name: z.string(),
  properties: Properties.optional(),
  projectId: Uuid,
  userRoleId: Uuid.optional(),
  // §4.5: the service UUID or the organization's externalId.
  projectOrganizationId: z.string().min(1).optional(),
  userId: Uuid.optional(),
});
export type RegisterUserBody = z.infer<typeof RegisterUserBody>;
export const RegisterUserResponse = success(z.object({ message: z.string(), userId: Uuid }));

export const UserPath = z.object({ projectId: Uuid, projectUserId: Uuid });

/** §4.6: `name` is required; `payload` is the deprecated old name of `properties`. */
export const UpdateUserBody = z.object({
  ...CredentialFields,
  name: z.string().min(1),
  properties: Properties.optional(),
  payload: Properties.optional(),
  userRoleId: Uuid.nullable().optional(),
  // §4.6 types it as a UUID; §2.3 makes organization identifiers resolve externalIds too
  // (clause users.update.organization-external-id).
  projectOrganizationId: z.string().min(1).nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/**
 * §2.4 as the reference returns it from an update (the data fields are decision
 * users.update.response-fields).
 */
export const ProjectUser = z.object({
  id: Uuid,
  projectId: Uuid,
  name: z.string(),
  properties: Properties,
  userRoleId: Uuid.nullable(),
  projectOrganizationId: Uuid.nullable(),
});
export type ProjectUser = z.infer<typeof ProjectUser>;
export const UpdateUserResponse = success(ProjectUser);
