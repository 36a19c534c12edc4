import { EXPIRATION_SECONDS, DEFAULT_EXPIRATION, type Expiration } from '../schemas/common.ts';
import type { Instant, Transition } from './machine.ts';

/**
 * Token lifetime (§2.5, §4.7, §5 rule 5). Issue time is the account clock truncated to whole
 * seconds (decision T1), so `exp` and `expiresAt` name the same instant exactly.
 */
export interface Lifetime {
  /** Issue time, seconds since the epoch. */
  readonly iat: number;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
  /** ISO 8601 UTC form of `exp`. */
  readonly expiresAt: string;
}

export const tokenTransitions: readonly Transition[] = [
  { command: 'issue', from: 'absent', to: 'valid', section: '4.7' },
  { command: 'tick', from: 'valid', to: 'valid', note: 'while now < exp', section: 'decision' },
  {
    command: 'tick',
    from: 'valid',
    to: 'expired',
    note: 'from exp on (exclusive, RFC 7519)',
    section: 'decision',
  },
];

export function issueLifetime(now: Instant, expiration: Expiration = DEFAULT_EXPIRATION): Lifetime {
  const iat = Math.floor(now / 1000);
  const exp = iat + EXPIRATION_SECONDS[expiration];
  return { iat, exp, expiresAt: new Date(exp * 1000).toISOString() };
}

/** Decision T2: accepted while now is before exp; refused at exp and after. */
export function tokenState(exp: number, now: Instant): 'valid' | 'expired' {
  return now < exp * 1000 ? 'valid' : 'expired';
}
