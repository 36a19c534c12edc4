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
            { path: ['at'], message: 'before the clock\u2019s current time', code: 'too_small' },
          ],
        }),
      );
    return ok({ ...clock, frozenAt: at }, at);
  }
  if (!(command.seconds >= 0))
    return fail(
      specError('VALIDATION_ERROR', 'the clock only moves forward', {
        issues: [{ path: ['seconds'], message: 'must be zero or more', code: 'too_small' }],
      }),
    );
  const delta = Math.round(command.seconds * 1000);
  const next: ClockState =
    clock.frozenAt === null
      ? { ...clock, offsetMs: clock.offsetMs + delta }
      : { ...clock, frozenAt: clock.frozenAt + delta };
  return ok(next, readClock(next, realNow));
}
