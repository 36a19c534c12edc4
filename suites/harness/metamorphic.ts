import fc from 'fast-check';
import type { Reply } from './http.ts';

/**
 * Metamorphic relations (issue 34): where the document gives no value to compare an answer
 * with, two observations of the same target are compared with each other. A reader's view
 * taken alone is its baseline; the same reads made again in another order, at the same time as
 * other users' reads and writes, or with another of the reader's tokens, must observe the
 * same. What a schedule is and how it runs is all the tests share; what is observed, and how
 * open its form is, stays in each test.
 */

/** Rows as a set: each row's members sorted, then the rows sorted (an order is left open). */
export function rowSet(rows: readonly unknown[]): string[] {
  return rows
    .map((r) =>
      JSON.stringify(
        typeof r === 'object' && r !== null && !Array.isArray(r)
          ? Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))
          : r,
      ),
    )
    .sort();
}

/**
 * What a reply shows of itself for a comparison: its status, and for an error the §7 code
 * (its message is words, free to differ from one answer to the next).
 */
export function replyShown(res: Reply): string {
  if (res.status < 300) return String(res.status);
  const code = (res.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return `${res.status} ${typeof code === 'string' ? code : '(no code)'}`;
}

/**
 * Schedules of some of `steps` (two at least, `most` at most, each step once at most) in any
 * order, cut into batches of one to `width` steps; a batch's steps are sent at the same time.
 */
export function schedules<T>(steps: readonly T[], width = 4, most = 12): fc.Arbitrary<T[][]> {
  return fc
    .tuple(
      fc.shuffledSubarray([...steps], {
        minLength: Math.min(2, steps.length),
        maxLength: Math.min(most, steps.length),
      }),
      fc.array(fc.integer({ min: 1, max: width }), {
        minLength: steps.length,
        maxLength: steps.length,
      }),
    )
    .map(([order, sizes]) => {
      const batches: T[][] = [];
      for (let at = 0, i = 0; at < order.length; i++) {
        const size = sizes[i] ?? 1;
        batches.push(order.slice(at, at + size));
        at += size;
      }
      return batches;
    });
}

/** Runs the batches one after the other, each batch's steps at once; outcomes in order. */
export async function runSchedule<T, O>(
  batches: readonly (readonly T[])[],
  run: (step: T) => Promise<O>,
): Promise<[T, O][]> {
  const out: [T, O][] = [];
  for (const batch of batches) {
    const done = await Promise.all(batch.map(async (step) => [step, await run(step)] as const));
    out.push(...done.map(([step, o]): [T, O] => [step, o]));
  }
  return out;
}

/** A schedule in one line: batches joined by `then`, a batch's steps by `with`. */
export function scheduleText<T>(
  batches: readonly (readonly T[])[],
  text: (step: T) => string,
): string {
  return batches.map((b) => b.map(text).join(' with ')).join(', then ');
}
