import type { SpecError } from '../errors.ts';

/**
 * The shape every state machine of spec/machines follows: a transition table as data (so a
 * report can draw it and count what a run covered) and a pure `apply(state, command, now)`.
 * No I/O, no randomness: ids and time are passed in.
 */
export interface Transition {
  /** Name of the command, as in the command union's `type`. */
  readonly command: string;
  /** State the subject must be in; `absent` means it does not exist yet. */
  readonly from: string;
  readonly to: string;
  /** Condition or side effect worth naming, in our words. */
  readonly note?: string;
  /** Section of the document the move follows (or `decision`). */
  readonly section: string;
}

/**
 * One command of a machine as its table states it: the rows it may take (from which state to
 * which), the check that refuses it before anything changes, and its effect. `apply` looks all
 * three up here; nothing restates them beside the table.
 */
export interface Move<S, C, R, E = SpecError> {
  readonly rows: readonly Omit<Transition, 'command'>[];
  readonly guard?: (state: S, command: C) => E | undefined;
  readonly effect: (state: S, command: C, now: Instant) => Applied<S, R, E>;
}

/**
 * A machine's table: one move per command of its command union. A refusal is a §7 error,
 * unless the machine names its own (the chat stream names the clause a line breaks).
 */
export type MachineTable<S, C extends { readonly type: string }, R, E = SpecError> = {
  readonly [K in C['type']]: Move<S, Extract<C, { readonly type: K }>, R, E>;
};

/** The rows of a machine's table, as data (the reports draw them). */
export function transitionsOf<S, C extends { readonly type: string }, R, E>(
  table: MachineTable<S, C, R, E>,
): Transition[] {
  return Object.entries<Move<S, never, R, E>>(table).flatMap(([command, move]) =>
    move.rows.map((row) => ({ command, ...row })),
  );
}

/** Applies a command by its move in the table: the guard first, then the effect. */
export function applyBy<S, C extends { readonly type: string }, R, E>(
  table: MachineTable<S, C, R, E>,
  state: S,
  command: C,
  now: Instant,
): Applied<S, R, E> {
  const move = table[command.type as C['type']] as unknown as Move<S, C, R, E>;
  const refused = move.guard?.(state, command);
  return refused === undefined ? move.effect(state, command, now) : fail(refused);
}

export type Applied<S, R, E = SpecError> =
  | { readonly ok: true; readonly state: S; readonly result: R }
  | { readonly ok: false; readonly error: E };

export function ok<S, R, E = SpecError>(state: S, result: R): Applied<S, R, E> {
  return { ok: true, state, result };
}

export function fail<S, R, E = SpecError>(error: E): Applied<S, R, E> {
  return { ok: false, error };
}

/** Milliseconds since the epoch, as the account clock reads it. */
export type Instant = number;

export function iso(now: Instant): string {
  return new Date(now).toISOString();
}
