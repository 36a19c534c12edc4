import type { SpecError } from '../spec/errors.ts';

/** What a store operation gives back: a value, or the typed error the machine refused with. */
export type Done<R> =
  { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: SpecError };

export const okDone = <T>(value: T): Done<T> => ({ ok: true, value });
export const errDone = (error: SpecError): Done<never> => ({ ok: false, error });
