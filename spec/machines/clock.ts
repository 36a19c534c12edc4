import { specError } from '../errors.ts';
import {
  applyBy,
  fail,
  ok,
  transitionsOf,
  type Applied,
  type Instant,
  type MachineTable,
  type Transition,
} from './machine.ts';

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

type Result = Applied<ClockState, Instant>;

/**
 * The clock's table: each command's moves and its effect (applyClock runs them; the reports
 * draw the rows). The checks read the clock's time, so they sit in the effects.
 */
const CLOCK: MachineTable<ClockState, ClockCommand, Instant> = {
  freeze: {
    rows: [
      { from: 'running', to: 'frozen', section: 'hook' },
      { from: 'frozen', to: 'frozen', note: 'only forward', section: 'hook' },
    ],
    effect: freeze,
  },
  advance: {
    rows: [
      { from: 'running', to: 'running', section: 'hook' },
      { from: 'frozen', to: 'frozen', section: 'hook' },
    ],
    effect: advance,
  },
};

export const clockTransitions: readonly Transition[] = transitionsOf(CLOCK);

/** Applies a command; `realNow` is real time, which the clock shifts or ignores. */
export function applyClock(clock: ClockState, command: ClockCommand, realNow: Instant): Result {
  return applyBy(CLOCK, clock, command, realNow);
}

type Cmd<T extends ClockCommand['type']> = Extract<ClockCommand, { type: T }>;

function freeze(clock: ClockState, command: Cmd<'freeze'>, realNow: Instant): Result {
  const now = readClock(clock, realNow);
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

function advance(clock: ClockState, command: Cmd<'advance'>, realNow: Instant): Result {
  if (!(command.seconds >= 0))
    return fail(
      specError('VALIDATION_ERROR', 'the clock only moves forward', {
        issues: [{ path: ['body', 'seconds'], message: 'must be zero or more', code: 'too_small' }],
      }),
    );
  const delta = Math.round(command.seconds * 1000);
  if (readClock(clock, realNow) + delta > LATEST_INSTANT) return fail(tooLate('seconds'));
  const next: ClockState =
    clock.frozenAt === null
      ? { ...clock, offsetMs: clock.offsetMs + delta }
      : { ...clock, frozenAt: clock.frozenAt + delta };
  return ok(next, readClock(next, realNow));
}
