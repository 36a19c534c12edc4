import { z } from 'zod';
import { Uuid } from '../../spec/schemas/common.ts';

/**
 * Decision (clause errors.validation.uuid-case): a UUID is a number written in hexadecimal,
 * so `A1B2…` and `a1b2…` name the same thing. The schemas accept either case; the reference
 * issues and stores ids in lower case, so every field the schema types as `Uuid` is read in
 * lower case before any look-up. Fields that may hold a caller's own string (an externalId,
 * free-form properties) keep their case: they are not typed `Uuid`.
 */
export function lowerCaseUuids(schema: z.ZodType, value: unknown): unknown {
  if (schema === Uuid) return typeof value === 'string' ? value.toLowerCase() : value;
  if (value === undefined || value === null) return value;
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault
  ) {
    return lowerCaseUuids(schema.unwrap() as z.ZodType, value);
  }
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => lowerCaseUuids(schema.element as z.ZodType, item));
  }
  if (schema instanceof z.ZodObject && typeof value === 'object' && !Array.isArray(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, member] of Object.entries(shape)) {
      if (Object.hasOwn(out, key)) out[key] = lowerCaseUuids(member, out[key]);
    }
    return out;
  }
  return value;
}
