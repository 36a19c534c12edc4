/**
 * Not-run tests counted by cause: how many tests each missing host hook cost, how many each
 * part the target's profile does not serve, and the other reasons as they were given.
 */
import { NO_HUB_REASON } from '../suites/harness/target.ts';
import type { NotRunCause, Result } from './schema.ts';

const HOOKS = /lacks the host hooks? ([\w-]+(?:,\s*[\w-]+)*)/;
const PARTS = /profile does not serve ([\w-]+(?:,\s*[\w-]+)*)/;
/** suites/harness/given/accounts.ts: a test needing more accounts than a credentials file holds. */
const NO_HOOK = /\bhas no ([\w-]+) hook\b/;

/** The causes one not-run reason names; the harness words hooks and parts as matched here. */
export function causesOf(reason: string): { kind: NotRunCause['kind']; name: string }[] {
  const names = (match: RegExpExecArray | null) =>
    (match?.[1] ?? '').split(/,\s*/).filter((n) => n !== '');
  const hooks = [...names(HOOKS.exec(reason)), ...names(NO_HOOK.exec(reason))].map((name) => ({
    kind: 'hook' as const,
    name,
  }));
  const parts = names(PARTS.exec(reason)).map((name) => ({ kind: 'part' as const, name }));
  // A run given no --hub leaves the hub part out of its profile: the cause is that part.
  if (reason.includes(NO_HUB_REASON)) parts.push({ kind: 'part', name: 'hub' });
  if (hooks.length + parts.length > 0) return [...parts, ...hooks];
  const first = reason.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return [{ kind: 'other', name: first === '' ? 'not run' : first }];
}

const ORDER: Record<NotRunCause['kind'], number> = { part: 0, hook: 1, other: 2 };

/**
 * Tests counted under each cause they name (a test missing two hooks counts under each): parts
 * first, then hooks, then the other reasons, the costliest first in each. The run's report
 * counts the causes of its not-run results, doctor those it predicts.
 */
export function tallyCauses(
  perTest: Iterable<readonly Omit<NotRunCause, 'tests'>[]>,
): NotRunCause[] {
  const counts = new Map<string, NotRunCause>();
  for (const causes of perTest)
    for (const cause of causes) {
      const key = `${cause.kind}\u0000${cause.name}`;
      const found = counts.get(key);
      if (found) found.tests += 1;
      else counts.set(key, { ...cause, tests: 1 });
    }
  return [...counts.values()].sort(
    (a, b) => ORDER[a.kind] - ORDER[b.kind] || b.tests - a.tests || a.name.localeCompare(b.name),
  );
}

export function countNotRun(results: readonly Pick<Result, 'outcome' | 'reason'>[]): NotRunCause[] {
  return tallyCauses(
    results.filter((r) => r.outcome === 'not-run').map((r) => causesOf(r.reason ?? 'not run')),
  );
}
