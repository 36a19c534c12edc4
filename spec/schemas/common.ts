import { z } from 'zod';

/** Conventions (preamble of the document): a UUID is 8-4-4-4-12 hexadecimal digits. */
export const UUID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const Uuid = z.string().regex(UUID_PATTERN, 'must be a UUID (8-4-4-4-12 hexadecimal)');

/** §4.7, §5 rule 5, §8: the only lifetimes a project-user token may be asked for. */
export const EXPIRATIONS = ['5m', '15m', '30m', '1h', '2h', '6h', '12h', '24h', '7d'] as const;
export const Expiration = z.enum(EXPIRATIONS);
export type Expiration = z.infer<typeof Expiration>;
export const DEFAULT_EXPIRATION: Expiration = '1h';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** Lifetime of each expiration value, in seconds. */
export const EXPIRATION_SECONDS: Readonly<Record<Expiration, number>> = {
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '6h': 6 * HOUR,
  '12h': 12 * HOUR,
  '24h': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
};

/** ISO 8601 in UTC with a `Z` suffix, as `Date.prototype.toISOString` writes it. */
export const IsoUtc = z.iso.datetime({ offset: false });

/** Free key/value metadata (§2.3 properties, §2.4 properties). */
export const Properties = z.record(z.string(), z.unknown());
export type Properties = z.infer<typeof Properties>;

/** §5: credential fields that may ride in a body (POST/PUT) or a query (GET/DELETE). */
export const CredentialFields = {
  apiKey: z.string().optional(),
  organizationId: Uuid.optional(),
};

/** The success envelope shared by every JSON endpoint (preamble). */
export function success<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data });
}

/** §7: the error envelope. `message` is the only required member of `error`. */
export const ErrorEnvelope = z.object({
  status: z.literal('error'),
  error: z.object({
    message: z.string(),
    code: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** One validation issue as the reference reports it in `error.details.issues`. */
export const ValidationIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string(),
});
