/**
 * Failures grouped by cause, for the reports a person reads: fifty-five tests that fail on the
 * same assertion are one problem, not fifty-five. A cause is the first line of the failure
 * message with what differs from test to test (ids, numbers, times) replaced by a mark.
 */
import type { Result } from './schema.ts';
import { firstLine } from './escape.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?/g;
/** A token that mixes letters and at least one digit and is long enough to be an id or key. */
const TOKEN = /\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{12,}\b/gi;
const NUMBER = /[+-]?\b\d+(?:\.\d+)?\b/g;

/** The cause of a failure: its message's first line, with ids, times and numbers marked. */
export function causeOf(reason: string | undefined): string {
  const line = firstLine(reason ?? 'failed', 300).trim();
  const cause = line
    .replace(UUID, '{id}')
    .replace(TIME, '{time}')
    .replace(TOKEN, '{id}')
    .replace(NUMBER, 'N');
  return cause === '' ? 'failed without a message' : cause;
}

export interface FailureGroup {
  readonly cause: string;
  readonly tests: readonly Result[];
}

/** The results grouped by cause: the largest group first, then by cause. */
export function failureGroups(failed: readonly Result[]): FailureGroup[] {
  const groups = new Map<string, Result[]>();
  for (const result of failed) {
    const cause = causeOf(result.reason);
    const tests = groups.get(cause);
    if (tests === undefined) groups.set(cause, [result]);
    else tests.push(result);
  }
  return [...groups]
    .map(([cause, tests]) => ({ cause, tests }))
    .sort((a, b) => b.tests.length - a.tests.length || a.cause.localeCompare(b.cause));
}
