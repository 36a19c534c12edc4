import { Temporal } from 'temporal-polyfill';
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

/**
 * The instant (milliseconds since the epoch) that an ISO 8601 date-time denotes, when its text
 * names UTC: `Z` or a zero offset (`+00:00`, `+0000`, `+00`), in the extended or the basic
 * format, with a fraction of up to nine digits or none (§2.5 asks for "ISO 8601 UTC", nothing
 * narrower). Undefined for anything else: another offset, no designator, not a date-time.
 * Temporal reads ISO 8601's calendar-date forms; it also takes two things ISO 8601 does not
 * have, refused here first: RFC 3339's space between date and time, and RFC 9557's bracketed
 * annotations.
 */
export function utcInstant(text: string): number | undefined {
  if (!/^[^\s[\]]+$/.test(text)) return undefined;
  try {
    // Throws without a designator (a wall-clock time names no instant).
    const instant = Temporal.Instant.from(text);
    // Read in UTC with the text's own offset held to UTC's: throws unless that offset is zero.
    Temporal.ZonedDateTime.from(`${text}[UTC]`, { offset: 'reject' });
    return instant.epochMilliseconds;
  } catch {
    return undefined;
  }
}

/** Whether two timestamps denote the same instant, whatever UTC form each is written in. */
export function sameInstant(a: string, b: string): boolean {
  const x = utcInstant(a);
  return x !== undefined && x === utcInstant(b);
}

/** An ISO 8601 date-time in UTC, in the forms utcInstant reads. */
export const IsoUtc = z
  .string()
  .refine((text) => utcInstant(text) !== undefined, 'must be an ISO 8601 date-time in UTC');

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
