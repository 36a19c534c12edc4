import { z } from 'zod';
import { CredentialFields, Expiration, success } from './common.ts';
import { RolePermissions } from './permissions.ts';

const ColumnValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * §4.9: the document lists the concepts only; the names are our decision
 * (tenants.register.field-names). These are the fields; RegisterTenantBody adds the decision
 * tenants.register.split-required.
 */
export const RegisterTenantFields = z.object({
  ...CredentialFields,
  name: z.string().min(1).optional(),
  tenantColumns: z.record(z.string(), z.union([ColumnValue, z.array(ColumnValue)])).optional(),
  tenantSchema: z.string().min(1).optional(),
  /** Deprecated unique key (§4.9, §9), still accepted. */
  uniqueKey: z.string().min(1).optional(),
  permissions: RolePermissions.optional(),
  connectionOverride: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  expiration: Expiration.optional(),
});

/** Decision tenants.register.split-required: something to split on is required. */
export const RegisterTenantBody = RegisterTenantFields.refine(
  (b) => b.tenantColumns !== undefined || b.tenantSchema !== undefined || b.uniqueKey !== undefined,
  {
    message: 'one of tenantColumns, tenantSchema or uniqueKey is required',
    path: ['tenantColumns'],
  },
);
export type RegisterTenantBody = z.infer<typeof RegisterTenantBody>;
export const RegisterTenantResponse = success(z.object({ message: z.string(), token: z.string() }));
