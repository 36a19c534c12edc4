import { specError } from '../errors.ts';
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

type Cmd<T extends ClockCommand['type']> = Extract<ClockCommand, { type: T }>;

const phase = (clock: ClockState) => (clock.frozenAt === null ? 'running' : 'frozen');

const backwards = (field: string, message: string, code: string) =>
  specError('VALIDATION_ERROR', 'the clock only moves forward', {
    issues: [{ path: ['body', field], message, code }],
  });

/** The instant a freeze stops the clock at: the one given, or the clock's current time. */
const freezeAt = (clock: ClockState, command: Cmd<'freeze'>, realNow: Instant) =>
  command.at ?? readClock(clock, realNow);

const deltaOf = (command: Cmd<'advance'>) => Math.round(command.seconds * 1000);

/**
 * The clock's table: each command's moves, the guards that refuse it and its effect
 * (applyClock runs them; the reports draw the rows). The guards read the clock's time.
 */
const CLOCK: MachineTable<ClockState, ClockCommand, { freeze: Instant; advance: Instant }> = {
  freeze: {
    subject: phase,
    guards: [
      {
        name: 'not-before-now',
        refuses: (clock, command, realNow) =>
          freezeAt(clock, command, realNow) < readClock(clock, realNow),
        error: () => backwards('at', 'before the clock\u2019s current time', 'too_small'),
      },
      {
        name: 'not-past-latest',
        refuses: (clock, command, realNow) => freezeAt(clock, command, realNow) > LATEST_INSTANT,
        error: () => tooLate('at'),
      },
    ],
    rows: [
      { from: 'running', to: 'frozen', section: 'hook' },
      { from: 'frozen', to: 'frozen', note: 'only forward', section: 'hook' },
    ],
    effect: (clock, command, realNow) => {
      const at = freezeAt(clock, command, realNow);
      return effected({ ...clock, frozenAt: at }, at);
    },
    landed: phase,
  },
  advance: {
    subject: phase,
    guards: [
      {
        name: 'not-negative',
        refuses: (_, command) => !(command.seconds >= 0),
        error: () => backwards('seconds', 'must be zero or more', 'too_small'),
      },
      {
        name: 'not-past-latest',
        refuses: (clock, command, realNow) =>
          readClock(clock, realNow) + deltaOf(command) > LATEST_INSTANT,
        error: () => tooLate('seconds'),
      },
    ],
    rows: [
      { from: 'running', to: 'running', section: 'hook' },
      { from: 'frozen', to: 'frozen', section: 'hook' },
    ],
    effect: (clock, command, realNow) => {
      const delta = deltaOf(command);
      const next: ClockState =
        clock.frozenAt === null
          ? { ...clock, offsetMs: clock.offsetMs + delta }
          : { ...clock, frozenAt: clock.frozenAt + delta };
      return effected(next, readClock(next, realNow));
    },
    landed: phase,
  },
};

export const clockTransitions: readonly Transition[] = transitionsOf(CLOCK);

/** Applies a command; `realNow` is real time, which the clock shifts or ignores. */
export function applyClock(clock: ClockState, command: ClockCommand, realNow: Instant): Result {
  return applyBy(CLOCK, clock, command, realNow);
}
