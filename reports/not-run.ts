/**
 * Not-run tests counted by what they wait on: the causes the harness gave each one as data
 * (suites/harness/causes.ts), grouped by entry. Nothing here reads a reason's words.
 */
import type { NotRunCause as Cause, NotRunKind } from '../suites/harness/causes.ts';
import type { NotRunCause, Result } from './schema.ts';

const ORDER: Record<NotRunKind, number> = {
  part: 0,
  hook: 1,
  shape: 2,
  follows: 3,
  browser: 4,
  'document-gap': 5,
  other: 6,
};

/**
 * Tests counted under each entry they wait on (a test waiting on two counts under each, and
 * `alone` under neither): by kind (parts, hooks, shapes, follows, browser, document gaps,
 * other), the costliest first in each. The run's report counts the causes of its not-run
 * results, doctor those it predicts.
 */
export function tallyCauses(perTest: Iterable<readonly Cause[]>): NotRunCause[] {
  const counts = new Map<string, NotRunCause>();
  for (const causes of perTest) {
    const entries = new Map(causes.map((c) => [`${c.kind}\u0000${c.entry}`, c]));
    for (const [key, cause] of entries) {
      const found = counts.get(key) ?? { kind: cause.kind, entry: cause.entry, tests: 0, alone: 0 };
      counts.set(key, found);
      found.tests += 1;
      if (entries.size === 1) found.alone += 1;
    }
  }
  return [...counts.values()].sort(
    (a, b) => ORDER[a.kind] - ORDER[b.kind] || b.tests - a.tests || a.entry.localeCompare(b.entry),
  );
}

/** A not-run result's causes; one given none (a run of an older eac) waits on `other`. */
export function causesOfResult(result: Pick<Result, 'reason' | 'causes'>): Cause[] {
  if (result.causes !== undefined && result.causes.length > 0) return result.causes;
  return [{ kind: 'other', entry: firstLineOf(result.reason) }];
}

function firstLineOf(reason: string | undefined): string {
  const first = (reason ?? '').split(/\r?\n/, 1)[0]?.trim() ?? '';
  return first === '' ? 'not run' : first;
}

export function countNotRun(
  results: readonly Pick<Result, 'outcome' | 'reason' | 'causes'>[],
): NotRunCause[] {
  return tallyCauses(results.filter((r) => r.outcome === 'not-run').map(causesOfResult));
}

/** Whether a result waits on the profile: an entry it does not state, a behaviour it does not follow. */
export function waitsOnProfile(result: Pick<Result, 'outcome' | 'reason' | 'causes'>): boolean {
  return (
    result.outcome === 'not-run' &&
    causesOfResult(result).some((c) => c.kind === 'shape' || c.kind === 'follows')
  );
}
