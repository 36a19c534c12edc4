/**
 * Failures grouped by cause, for the reports a person reads: fifty-five tests that fail on the
 * same assertion are one problem, not fifty-five. A cause is the first line of the failure
 * message with what may differ from test to test (ids, numbers, times) replaced by a mark; a
 * group's heading puts back every value that is the same in all its tests.
 */
import type { Result } from './schema.ts';
import { firstLine } from './escape.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?/g;
/** A token that mixes letters and at least one digit and is long enough to be an id or key. */
const TOKEN = /\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{12,}\b/gi;
const NUMBER = /[+-]?\b\d+(?:\.\d+)?\b/g;

/** What is marked, in this order, and the mark it gets. */
const MARKS: readonly (readonly [RegExp, string])[] = [
  [UUID, '{id}'],
  [TIME, '{time}'],
  [TOKEN, '{id}'],
  [NUMBER, 'N'],
];

/** Letters only, so no later mark (all need a digit) can match inside a stand-in. */
function letters(n: number): string {
  let out = '';
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26))
    out = String.fromCharCode(97 + ((k - 1) % 26)) + out;
  return out;
}

/**
 * A failure message's first line cut at what it marks: `texts` around the marked values, and
 * each value with its mark, in the order they appear.
 */
interface Marked {
  readonly texts: readonly string[];
  readonly values: readonly { readonly mark: string; readonly value: string }[];
}

function marked(reason: string | undefined): Marked {
  const found: { mark: string; value: string }[] = [];
  let text = firstLine(reason ?? 'failed', 300).trim();
  for (const [pattern, mark] of MARKS)
    text = text.replace(pattern, (value) => {
      found.push({ mark, value });
      return `\uE000${letters(found.length - 1)}\uE001`;
    });
  const parts = text.split(/\uE000([a-z]+)\uE001/);
  const texts = parts.filter((_, i) => i % 2 === 0);
  const values = parts
    .filter((_, i) => i % 2 === 1)
    .map((stand) => {
      let n = 0;
      for (const c of stand) n = n * 26 + (c.charCodeAt(0) - 96);
      return found[n - 1] ?? { mark: '', value: '' };
    });
  return { texts, values };
}

function joined(m: Marked, pick: (k: number) => string): string {
  return m.texts.map((t, k) => (k < m.values.length ? t + pick(k) : t)).join('');
}

/** The cause of a failure: its message's first line, with ids, times and numbers marked. */
export function causeOf(reason: string | undefined): string {
  const m = marked(reason);
  const cause = joined(m, (k) => m.values[k]?.mark ?? '');
  return cause === '' ? 'failed without a message' : cause;
}

export interface FailureGroup {
  /** What groups the failures: the first line with every id, time and number marked. */
  readonly cause: string;
  /** What a reader sees: the cause with each value that is the same in every test put back. */
  readonly heading: string;
  readonly tests: readonly Result[];
}

/** The cause with the values every test of the group shares written out. */
function headingOf(tests: readonly Result[], cause: string): string {
  const all = tests.map((t) => marked(t.reason));
  const [first] = all;
  if (first === undefined) return cause;
  const heading = joined(first, (k) => {
    const value = first.values[k]?.value ?? '';
    return all.every((m) => m.values[k]?.value === value) ? value : (first.values[k]?.mark ?? '');
  });
  return heading === '' ? cause : heading;
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
    .map(([cause, tests]) => ({ cause, heading: headingOf(tests, cause), tests }))
    .sort((a, b) => b.tests.length - a.tests.length || a.cause.localeCompare(b.cause));
}
