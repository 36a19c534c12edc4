import { specError, type SpecError } from '../../spec/errors.ts';
import type { Settings } from '../settings.ts';

/**
 * A user's chat rate window (§8). Fixed (decision limits.chat.window-kind): the clock minute it
 * counts in and how many it took. Sliding (settings chatWindow 'sliding'): the instants of the
 * requests it took within the last minute, oldest first.
 */
export type RateWindow =
  | { readonly kind: 'fixed'; readonly start: number; count: number }
  | { readonly kind: 'sliding'; readonly times: number[] };

/** §8: chat requests per organization plus user per minute. */
export const CHAT_RATE_LIMIT = 180;
export const CHAT_WINDOW_MS = 60_000;

/** The key of a rate window: the account, the user's project organization and the user. */
export const rateKey = (
  organizationId: string,
  projectOrganizationId: string | null,
  userId: string,
) => `${organizationId}\u0000${projectOrganizationId ?? ''}\u0000${userId}`;

const limited = (retryAfterMs: number, window: RateWindow['kind']): SpecError =>
  specError('RATE_LIMITED', `over ${String(CHAT_RATE_LIMIT)} chat requests a minute`, {
    retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    limit: CHAT_RATE_LIMIT,
    windowSeconds: CHAT_WINDOW_MS / 1000,
    window,
  });

/**
 * Decision limits.chat.window-kind: a fixed window aligned to the clock minute of the
 * account's clock; a request over the limit is refused with 429 and Retry-After, the seconds
 * until the next minute begins (at least 1), and is not counted. A sliding window counts the
 * requests of the minute before `now` instead; Retry-After is the seconds until the oldest of
 * them leaves it.
 */
export function takeChatSlot(
  rates: Map<string, RateWindow>,
  key: string,
  now: number,
  settings: Pick<Settings, 'chatWindow'>,
): SpecError | undefined {
  const window = rates.get(key);
  if (settings.chatWindow === 'sliding') {
    const times = (window?.kind === 'sliding' ? window.times : []).filter(
      (t) => t > now - CHAT_WINDOW_MS,
    );
    if (times.length >= CHAT_RATE_LIMIT) {
      rates.set(key, { kind: 'sliding', times });
      return limited(times[0]! + CHAT_WINDOW_MS - now, 'sliding');
    }
    rates.set(key, { kind: 'sliding', times: [...times, now] });
    return undefined;
  }
  const start = Math.floor(now / CHAT_WINDOW_MS) * CHAT_WINDOW_MS;
  if (window?.kind !== 'fixed' || window.start !== start) {
    rates.set(key, { kind: 'fixed', start, count: 1 });
    return undefined;
  }
  if (window.count < CHAT_RATE_LIMIT) {
    window.count += 1;
    return undefined;
  }
  return limited(start + CHAT_WINDOW_MS - now, 'fixed');
}
