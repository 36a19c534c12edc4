import { describe, expect, it } from 'vitest';
import { Progress, progressText } from './progress.ts';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => writes.push(text) };
}

const counts = (done: number) => ({ done, total: 10, failed: 1, notRun: 2 });

describe('Progress', () => {
  it('formats the line', () => {
    expect(progressText({ done: 3, total: 40, failed: 0, notRun: 0, filesPending: 2 })).toBe(
      'eac: 3/40+ tests, 0 failed, 0 not-run',
    );
    expect(progressText({ done: 37, total: 120, failed: 0, notRun: 2 })).toBe(
      'eac: 37/120 tests, 0 failed, 2 not-run',
    );
  });

  it('rewrites one line in place on a terminal and ends it at the finish', () => {
    const out = stream(true);
    const progress = new Progress(out);
    progress.update(counts(1));
    progress.update(counts(2));
    progress.finish(counts(10));
    expect(out.writes.every((w) => w.startsWith('\r') || w === '\n')).toBe(true);
    expect(out.writes.at(-2)).toContain('10/10');
    expect(out.writes.at(-1)).toBe('\n');
  });

  it('prints at most one line per interval elsewhere, and the final state once', () => {
    const out = stream(false);
    let now = 0;
    const progress = new Progress(out, { intervalMs: 2000, now: () => now });
    progress.update(counts(1));
    now = 500;
    progress.update(counts(2));
    now = 1500;
    progress.update(counts(3));
    now = 2100;
    progress.update(counts(4));
    progress.finish(counts(10));
    progress.finish(counts(10));
    expect(out.writes).toEqual([
      `${progressText(counts(1))}\n`,
      `${progressText(counts(4))}\n`,
      `${progressText(counts(10))}\n`,
    ]);
  });
});
