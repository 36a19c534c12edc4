import { EXPIRATION_SECONDS, DEFAULT_EXPIRATION, type Expiration } from '../schemas/common.ts';
import {
  applyBy,
  effected,
  transitionsOf,
  type Applied,
  type Instant,
  type MachineTable,
  type Transition,
} from './machine.ts';

/**
 * Token lifetime (§2.5, §4.7, §5 rule 5). Issue time is the account clock truncated to whole
 * seconds (decision tokens.issue-time.whole-seconds), so `exp` and `expiresAt` name the same
 * instant exactly.
 */
export interface Lifetime {
  /** Issue time, seconds since the epoch. */
  readonly iat: number;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
  /** ISO 8601 UTC form of the end of the lifetime: `exp`, or the second before it (TokenEnd). */
  readonly expiresAt: string;
}

/** Where a token stands: not issued yet, accepted, or refused for its age. */
export type TokenPhase = 'absent' | 'valid' | 'expired';

/**
 * Where a token's life ends (§5 rule 5 gives the duration; the edge is open): `at-expires-at`,
 * refused from the instant of expiresAt on, which is exp (decisions
 * tokens.validity.exp-exclusive, tokens.jwt.exp-matches-expires-at); `through-expires-at`, still accepted at that instant, so
 * exp, which a JWT is refused from, names the second after it.
 */
export type TokenEnd = 'at-expires-at' | 'through-expires-at';

export type TokenCommand =
  | { readonly type: 'issue'; readonly expiration: Expiration; readonly end?: TokenEnd }
  | { readonly type: 'tick'; readonly exp: number };

/**
 * The token's table: issuing gives a lifetime, a tick reads the phase at a time (the reports
 * draw the rows). No move refuses: there is no guard and every effect succeeds.
 */
const TOKEN: MachineTable<TokenPhase, TokenCommand, { issue: Lifetime; tick: null }> = {
  issue: {
    subject: (phase) => phase,
    rows: [{ from: 'absent', to: 'valid', section: '4.7' }],
    effect: (_, command, now) =>
      effected('valid', lifetimeAt(now, command.expiration, command.end ?? 'at-expires-at')),
    landed: (phase) => phase,
  },
  tick: {
    subject: (phase) => phase,
    rows: [
      { from: 'valid', to: 'valid', note: 'while now < exp', section: 'decision' },
      {
        from: 'valid',
        to: 'expired',
        note: 'from exp on (exclusive, RFC 7519)',
        section: 'decision',
      },
    ],
    effect: (_, command, now) => effected(phaseAt(command.exp, now), null),
    landed: (phase) => phase,
  },
};

export const tokenTransitions: readonly Transition[] = transitionsOf(TOKEN);

/** The token's moves never refuse (they have no guard). */
function moved<R>(applied: Applied<TokenPhase, R>): { state: TokenPhase; result: R } {
  if (!applied.ok) throw new Error('a token move refused');
  return applied;
}

export function issueLifetime(
  now: Instant,
  expiration: Expiration = DEFAULT_EXPIRATION,
  end: TokenEnd = 'at-expires-at',
): Lifetime {
  return moved(applyBy(TOKEN, 'absent', { type: 'issue' as const, expiration, end }, now)).result;
}

export function tokenState(exp: number, now: Instant): 'valid' | 'expired' {
  return moved(applyBy(TOKEN, 'valid', { type: 'tick' as const, exp }, now)).state === 'valid'
    ? 'valid'
    : 'expired';
}

function lifetimeAt(now: Instant, expiration: Expiration, end: TokenEnd): Lifetime {
  const iat = Math.floor(now / 1000);
  const last = iat + EXPIRATION_SECONDS[expiration];
  const exp = end === 'through-expires-at' ? last + 1 : last;
  return { iat, exp, expiresAt: new Date(last * 1000).toISOString() };
}

/**
 * Decision tokens.validity.exp-exclusive: accepted while now is before exp; refused at exp and
 * after.
 */
function phaseAt(exp: number, now: Instant): 'valid' | 'expired' {
  return now < exp * 1000 ? 'valid' : 'expired';
}
