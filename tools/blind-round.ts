/**
 * The pure parts of a blind fault round (tools/blind-faults.ts): reading a round's slips.json,
 * the `--only` selection a slip's clauses give, and the first-pass catch rates.
 *
 * A round is a folder `bench/blind-faults/round-N/` written by an author who has not read the
 * suites: one git patch of the reference per slip and `slips.json`, an array of
 * `{id, patch, section, clauses, level, description}` tagged before any run.
 */
import { z } from 'zod';

import type { ClauseLevel } from '../spec/clauses/index.ts';

const LEVELS = ['must', 'observed', 'unspecified', 'security'] as const;

const SlipSchema = z.object({
  id: z.string().min(1),
  /** The patch file, relative to the round's folder. */
  patch: z.string().min(1),
  section: z.union([z.string(), z.number()]).transform(String),
  /** Clause ids (or id prefixes) the slip breaks; a single id may be given as a string. */
  clauses: z.union([
    z
      .string()
      .min(1)
      .transform((c) => [c]),
    z.array(z.string().min(1)),
  ]),
  level: z.preprocess((l) => (typeof l === 'string' ? l.trim().toLowerCase() : l), z.enum(LEVELS)),
  description: z.string(),
});

export type Slip = z.output<typeof SlipSchema>;

/** Reads slips.json; a malformed file is an error that says which entry and field. */
export function parseSlips(text: string): Slip[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`slips.json is not JSON: ${(error as Error).message}`);
  }
  const parsed = z.array(SlipSchema).safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `  [${i.path.join('.')}] ${i.message}`)
      .join('\n');
    throw new Error(
      `slips.json: not an array of {id, patch, section, clauses, level, description}:\n${issues}`,
    );
  }
  const ids = parsed.data.map((s) => s.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new Error(`slips.json: ids used twice: ${twice.join(', ')}`);
  return parsed.data;
}

/**
 * The first stage's `--only` values of a slip: its clause ids that name at least one clause of
 * the catalogue (`eac run` refuses any other), and the ones that do not, to record.
 */
export function selectionOf(
  slip: Slip,
  clauseIds: readonly string[],
): { only: string[]; unknown: string[] } {
  const known = (c: string) => clauseIds.some((id) => id.startsWith(c));
  return { only: slip.clauses.filter(known), unknown: slip.clauses.filter((c) => !known(c)) };
}

/** The catalogue's levels of the clauses a slip names (a prefix gives every level under it). */
export function catalogueLevels(
  slip: Slip,
  catalogue: readonly { id: string; level: ClauseLevel }[],
): ClauseLevel[] {
  const levels = new Set(
    catalogue.filter((c) => slip.clauses.some((s) => c.id.startsWith(s))).map((c) => c.level),
  );
  return LEVELS.filter((l) => levels.has(l));
}

/** A slip that breaks what the document states or shows, by its author's tag. */
export function mustOrObserved(slip: Pick<Slip, 'level'>): boolean {
  return slip.level === 'must' || slip.level === 'observed';
}

export type SlipStatus = 'caught' | 'missed' | 'error';

export interface Rate {
  readonly caught: number;
  /** Slips judged: caught plus missed (errors are neither). */
  readonly judged: number;
  /** caught / judged, to three places; null when none was judged. */
  readonly rate: number | null;
  readonly errors: number;
}

export function rateOf(outcomes: readonly { readonly status: SlipStatus }[]): Rate {
  const caught = outcomes.filter((o) => o.status === 'caught').length;
  const judged = caught + outcomes.filter((o) => o.status === 'missed').length;
  return {
    caught,
    judged,
    rate: judged === 0 ? null : Math.round((caught / judged) * 1000) / 1000,
    errors: outcomes.filter((o) => o.status === 'error').length,
  };
}

/** The first-pass rates a round reports: over every slip, and over the must/observed ones. */
export function firstPass(
  outcomes: readonly { readonly status: SlipStatus; readonly level: ClauseLevel }[],
): { overall: Rate; mustOrObserved: Rate } {
  return { overall: rateOf(outcomes), mustOrObserved: rateOf(outcomes.filter(mustOrObserved)) };
}
