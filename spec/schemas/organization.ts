import { z } from 'zod';
import { CredentialFields, Properties, success, Uuid } from './common.ts';

/**
 * §4.4; which fields are required is not shown: name and projectId are (decision
 * orgs.register.required-fields).
 */
export const RegisterOrganizationBody = z.object({
  ...CredentialFields,
  name: z.string().min(1),
  projectId: Uuid,
  properties: Properties.optional(),
  externalId: z.string().min(1).optional(),
});
export type RegisterOrganizationBody = z.infer<typeof RegisterOrganizationBody>;

export const RegisterOrganizationResponse = success(
  z.object({ projectOrganizationId: Uuid, externalId: z.string() }),
);

/** §2.3 as the reference stores it. */
export const ProjectOrganization = z.object({
  projectOrganizationId: Uuid,
  externalId: z.string().min(1).optional(),
  name: z.string().min(1),
  properties: Properties,
});
export type ProjectOrganization = z.infer<typeof ProjectOrganization>;
