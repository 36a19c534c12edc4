import { utcInstant } from '../../spec/schemas/common.ts';

/**
 * The instant a target's timestamp denotes, in milliseconds since the epoch. §2.5 asks only for
 * ISO 8601 in UTC, so `Z`, `+00:00`, the basic format and fractions of any length all read
 * alike; anything else (another offset, no designator) fails the reading with the text shown.
 */
export function instant(text: string): number {
  const ms = utcInstant(text);
  if (ms === undefined)
    throw new Error(`${JSON.stringify(text)} is not an ISO 8601 date-time in UTC (§2.5)`);
  return ms;
}
