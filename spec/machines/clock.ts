import { specError } from '../errors.ts';
import { fail, ok, type Applied, type Instant, type Transition } from './machine.ts';

/**
 * A per-account clock (ARCHITECTURE "Host hooks"): real time shifted by an offset, or frozen
 * at an instant. It only ever moves forward, so tokens and windows never run backwards.
 */
export interface ClockState {
  readonly offsetMs: number;
  readonly frozenAt: Instant | null;
}

export type ClockCommand =
  | { readonly type: 'freeze'; readonly at?: Instant }
  | { readonly type: 'advance'; readonly seconds: number };

export const clockTransitions: readonly Transition[] = [
  { command: 'freeze', from: 'running', to: 'frozen', section: 'hook' },
  { command: 'freeze', from: 'frozen', to: 'frozen', note: 'only forward', section: 'hook' },
  { command: 'advance', from: 'running', to: 'running', section: 'hook' },
  { command: 'advance', from: 'frozen', to: 'frozen', section: 'hook' },
];

export const realClock: ClockState = { offsetMs: 0, frozenAt: null };

/**
 * The latest instant a clock may show: a week before the end of year 9999, so that a 7d
 * token issued then still has an expiresAt that ISO 8601 (four-digit years) can write.
 */
export const LATEST_INSTANT = Date.UTC(9999, 11, 24, 23, 59, 59);

const tooLate = (path: string) =>
  specError('VALIDATION_ERROR', 'the clock cannot go past 9999-12-24', {
    issues: [
      {
        path: ['body', path],
        message: 'beyond the latest instant the clock can show',
        code: 'too_big',
      },
    ],
  });

export function readClock(clock: ClockState, realNow: Instant): Instant {
  return clock.frozenAt ?? realNow + clock.offsetMs;
}

export function applyClock(
  clock: ClockState,
  command: ClockCommand,
  realNow: Instant,
): Applied<ClockState, Instant> {
  const now = readClock(clock, realNow);
  if (command.type === 'freeze') {
    const at = command.at ?? now;
    if (at < now)
      return fail(
        specError('VALIDATION_ERROR', 'the clock only moves forward', {
          issues: [
            {
              path: ['body', 'at'],
              message: 'before the clock\u2019s current time',
              code: 'too_small',
            },
          ],
        }),
      );
    if (at > LATEST_INSTANT) return fail(tooLate('at'));
    return ok({ ...clock, frozenAt: at }, at);
  }
  if (!(command.seconds >= 0))
    return fail(
      specError('VALIDATION_ERROR', 'the clock only moves forward', {
        issues: [{ path: ['body', 'seconds'], message: 'must be zero or more', code: 'too_small' }],
      }),
    );
  const delta = Math.round(command.seconds * 1000);
  if (now + delta > LATEST_INSTANT) return fail(tooLate('seconds'));
  const next: ClockState =
    clock.frozenAt === null
      ? { ...clock, offsetMs: clock.offsetMs + delta }
      : { ...clock, frozenAt: clock.frozenAt + delta };
  return ok(next, readClock(next, realNow));
}
