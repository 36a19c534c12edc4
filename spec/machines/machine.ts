import type { SpecError } from '../errors.ts';

/**
 * The shape every state machine of spec/machines follows: a transition table as data (so a
 * report can draw it and count what a run covered) and a pure `apply(state, command, now)`.
 * No I/O, no randomness: ids and time are passed in.
 */
export interface Transition {
  /** Name of the command, as in the command union's `type`. */
  readonly command: string;
  /**
   * State the subject must be in; `absent` means it does not exist yet, `any` that the move
   * does not depend on it.
   */
  readonly from: string;
  /** State the effect leaves the subject in; `same` is the state it was in. */
  readonly to: string;
  /** Condition or side effect worth naming, in our words. */
  readonly note?: string;
  /** Section of the document the move follows (or `decision`). */
  readonly section: string;
  /** The names of the guards that may refuse the move, in the order they are asked. */
  readonly guards?: readonly string[];
}

/**
 * A named refusal: while `refuses` holds, the command changes nothing and answers `error` (a
 * §7 error, unless the machine names its own).
 */
export interface Guard<S, C, E = SpecError> {
  /** Kebab-case, unique within its machine (the report lists it beside the rows). */
  readonly name: string;
  readonly refuses: (state: S, command: C, now: Instant) => boolean;
  readonly error: (state: S, command: C, now: Instant) => E;
}

/** One row of a command's move: from which state to which, and the guards of that row. */
export interface Row<S, C, E = SpecError> {
  readonly from: string;
  readonly to: string;
  readonly note?: string;
  readonly section: string;
  /** Asked after the move's own guards, in order (rows sharing a `from` share them). */
  readonly guards?: readonly Guard<S, C, E>[];
}

/** What an effect makes: it cannot refuse (every refusal is a guard). */
export interface Effected<S, R> {
  readonly state: S;
  readonly result: R;
}

/**
 * One command of a machine as its table states it. `applyBy` reads the subject's state
 * (`subject`), asks the move's guards, picks the rows whose `from` is that state, asks their
 * guards, runs the effect, and checks that it landed (`landed`) in one of those rows' `to`.
 * Nothing restates a rule beside the table.
 */
export interface Move<S, C, R, E = SpecError> {
  /** The state of the command's subject before it (a row's `from`). */
  readonly subject: (state: S, command: C, now: Instant) => string;
  /** Asked first, in order, whatever the subject's state (e.g. the project exists). */
  readonly guards?: readonly Guard<S, C, E>[];
  readonly rows: readonly Row<S, C, E>[];
  readonly effect: (state: S, command: C, now: Instant) => Effected<S, R>;
  /** The state the subject is in after the effect (a row's `to`). */
  readonly landed: (after: S, command: C, result: R) => string;
}

/**
 * A machine's table: one move per command of its command union, each with its own result
 * type (`Results` maps a command's `type` to what it gives back).
 */
export type MachineTable<
  S,
  C extends { readonly type: string },
  Results extends { readonly [K in C['type']]: unknown },
  E = SpecError,
> = {
  readonly [K in C['type']]: Move<S, Extract<C, { readonly type: K }>, Results[K], E>;
};

/** The rows of a machine's table, as data (the reports draw them and count those a run took). */
export function transitionsOf<
  S,
  C extends { readonly type: string },
  Results extends { readonly [K in C['type']]: unknown },
  E,
>(table: MachineTable<S, C, Results, E>): Transition[] {
  return Object.entries(table as unknown as Record<string, Move<S, never, never, E>>).flatMap(
    ([command, move]) =>
      move.rows.map((row) => {
        const guards = [...(move.guards ?? []), ...(row.guards ?? [])].map((g) => g.name);
        return {
          command,
          from: row.from,
          to: row.to,
          ...(row.note !== undefined ? { note: row.note } : {}),
          section: row.section,
          ...(guards.length > 0 ? { guards } : {}),
        };
      }),
  );
}

/** How a report names a row: `command: from -> to`. */
export function rowKey(row: Pick<Transition, 'command' | 'from' | 'to'>): string {
  return `${row.command}: ${row.from} -> ${row.to}`;
}

/**
 * Applies a command by its move in the table: the move's guards, then the guards of the rows
 * whose `from` is the subject's state, then the effect, which must land in one of their `to`.
 * A subject in a state no row leaves, or an effect that lands where no row goes, is a defect
 * of the table, not a refusal: it throws.
 */
export function applyBy<
  S,
  C extends { readonly type: string },
  Results extends { readonly [K in C['type']]: unknown },
  E,
  X extends C,
>(
  table: MachineTable<S, C, Results, E>,
  state: S,
  command: X,
  now: Instant,
): Applied<S, Results[X['type']], E> {
  const move = table[command.type as X['type']] as unknown as Move<S, X, Results[X['type']], E>;
  const from = move.subject(state, command, now);
  const rows = move.rows.filter((row) => row.from === from || row.from === 'any');
  const guards = [...(move.guards ?? [])];
  for (const row of rows) for (const g of row.guards ?? []) if (!guards.includes(g)) guards.push(g);
  for (const guard of guards) {
    if (guard.refuses(state, command, now)) {
      return { ok: false, error: guard.error(state, command, now), guard: guard.name };
    }
  }
  if (rows.length === 0) throw new Error(`${command.type}: no row leaves ${from}`);
  const done = move.effect(state, command, now);
  const to = move.landed(done.state, command, done.result);
  // A row naming the landing itself wins over one that reads `same` or `any` (a switch may
  // land on either of two rows leaving one state: `landed` names which).
  const row =
    rows.find((r) => r.to === to) ??
    rows.find((r) => r.to === 'any' || (r.to === 'same' && to === from));
  if (row === undefined) throw new Error(`${command.type}: no row from ${from} lands in ${to}`);
  return {
    ok: true,
    state: done.state,
    result: done.result,
    row: rowKey({ command: command.type, from: row.from, to: row.to }),
  };
}

export type Applied<S, R, E = SpecError> =
  | {
      readonly ok: true;
      readonly state: S;
      readonly result: R;
      /** The row the move took (`rowKey`), when a table's move made it. */
      readonly row?: string;
    }
  | {
      readonly ok: false;
      readonly error: E;
      /** The guard that refused, when a table's guard did. */
      readonly guard?: string;
    };

export function ok<S, R, E = SpecError>(state: S, result: R): Applied<S, R, E> {
  return { ok: true, state, result };
}

export function fail<S, R, E = SpecError>(error: E): Applied<S, R, E> {
  return { ok: false, error };
}

/** The effect's outcome: the state it leaves and what it gives back. */
export function effected<S, R>(state: S, result: R): Effected<S, R> {
  return { state, result };
}

/**
 * A guard from a check that gives the error it refuses with, or undefined (for checks whose
 * error depends on what they found, such as the §2.2 write checks).
 */
export function guardOf<S, C, E = SpecError>(
  name: string,
  check: (state: S, command: C, now: Instant) => E | undefined,
): Guard<S, C, E> {
  return {
    name,
    refuses: (state, command, now) => check(state, command, now) !== undefined,
    error: (state, command, now) => {
      const error = check(state, command, now);
      if (error === undefined) throw new Error(`guard ${name} gave no error`);
      return error;
    },
  };
}

/** Milliseconds since the epoch, as the account clock reads it. */
export type Instant = number;

export function iso(now: Instant): string {
  return new Date(now).toISOString();
}
