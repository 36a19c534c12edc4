import { specError, type SpecError } from '../../spec/errors.ts';

/** A fixed rate-limit window (decision limits.chat.window-kind): its start and its count. */
export interface RateWindow {
  readonly start: number;
  count: number;
}

/** §8: chat requests per organization plus user per minute. */
export const CHAT_RATE_LIMIT = 180;
export const CHAT_WINDOW_MS = 60_000;

/** The key of a rate window: the account, the user's project organization and the user. */
export const rateKey = (
  organizationId: string,
  projectOrganizationId: string | null,
  userId: string,
) => `${organizationId}\u0000${projectOrganizationId ?? ''}\u0000${userId}`;

/**
 * Decision limits.chat.window-kind: a fixed window aligned to the clock minute of the
 * account's clock; a request over the limit is refused with 429 and Retry-After, the seconds
 * until the next minute begins (at least 1), and is not counted.
 */
export function takeChatSlot(
  rates: Map<string, RateWindow>,
  key: string,
  now: number,
): SpecError | undefined {
  const start = Math.floor(now / CHAT_WINDOW_MS) * CHAT_WINDOW_MS;
  const window = rates.get(key);
  if (window === undefined || window.start !== start) {
    rates.set(key, { start, count: 1 });
    return undefined;
  }
  if (window.count < CHAT_RATE_LIMIT) {
    window.count += 1;
    return undefined;
  }
  const retryAfter = Math.max(1, Math.ceil((start + CHAT_WINDOW_MS - now) / 1000));
  return specError('RATE_LIMITED', `over ${String(CHAT_RATE_LIMIT)} chat requests this minute`, {
    retryAfter,
    limit: CHAT_RATE_LIMIT,
    windowSeconds: CHAT_WINDOW_MS / 1000,
  });
}
