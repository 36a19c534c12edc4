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

export type Applied<S, R> =
  | { readonly ok: true; readonly state: S; readonly result: R }
  | { readonly ok: false; readonly error: SpecError };

export function ok<S, R>(state: S, result: R): Applied<S, R> {
  return { ok: true, state, result };
}

export function fail<S, R>(error: SpecError): Applied<S, R> {
  return { ok: false, error };
}

/** Milliseconds since the epoch, as the account clock reads it. */
export type Instant = number;

export function iso(now: Instant): string {
  return new Date(now).toISOString();
}
