import { z } from 'zod';
import { PermissionsSchema } from './permissions.ts';
import { EXPIRATION_VALUES } from './tokens.ts';
import { UUID_RE } from './util.ts';

export const Uuid = z.string().regex(UUID_RE, 'must be a UUID (8-4-4-4-12 hexadecimal)');
export const Properties = z.record(z.string(), z.unknown());
export const Expiration = z.enum(EXPIRATION_VALUES);
export const Permissions = PermissionsSchema;

/** Credential members every body may carry; checked by the auth layer. */
export const Credentials = {
  apiKey: z.string().min(1).optional(),
  organizationId: z.unknown().optional(),
};

export const AnyBody = z.record(z.string(), z.unknown());
