import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Reply } from './http.ts';
import { replyShown, rowSet, runSchedule, scheduleText, schedules } from './metamorphic.ts';

const reply = (status: number, body: unknown): Reply => ({
  status,
  headers: {},
  body,
  text: JSON.stringify(body),
});

describe('metamorphic schedules', () => {
  it('take each step once at most, two at least and `most` at most, in batches of one to `width`', () => {
    const steps = Array.from({ length: 20 }, (_, i) => i);
    fc.assert(
      fc.property(schedules(steps, 3, 12), (batches) => {
        const flat = batches.flat();
        expect(new Set(flat).size, 'no step twice').toBe(flat.length);
        expect(flat.length).toBeGreaterThanOrEqual(2);
        expect(flat.length).toBeLessThanOrEqual(12);
        for (const b of batches) expect(b.length).toBeGreaterThanOrEqual(1);
        for (const b of batches) expect(b.length).toBeLessThanOrEqual(3);
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  it('reach other orders than the one given, and batches of more than one step', () => {
    const seen = fc.sample(schedules([0, 1, 2, 3], 4), { seed: 2, numRuns: 200 });
    expect(
      seen.some((b) => b.flat()[0] !== 0),
      'another step first',
    ).toBe(true);
    expect(
      seen.some((b) => b.some((x) => x.length > 1)),
      'steps at the same time',
    ).toBe(true);
  });

  it('run a batch at once and the batches one after the other, outcomes in schedule order', async () => {
    const log: string[] = [];
    const done = await runSchedule([['a', 'b'], ['c']], async (step) => {
      log.push(`start ${step}`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`end ${step}`);
      return step.toUpperCase();
    });
    expect(log).toEqual(['start a', 'start b', 'end a', 'end b', 'start c', 'end c']);
    expect(done).toEqual([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
    ]);
    expect(scheduleText([['a', 'b'], ['c']], (s) => `read ${s}`)).toBe(
      'read a with read b, then read c',
    );
  });
});

describe('what a comparison sees', () => {
  it('rows as a set: neither the order of rows nor of their members counts, values do', () => {
    expect(
      rowSet([
        { a: 1, b: 'x' },
        { b: 'y', a: 2 },
      ]),
    ).toEqual(
      rowSet([
        { a: 2, b: 'y' },
        { b: 'x', a: 1 },
      ]),
    );
    expect(rowSet([{ a: 1 }])).not.toEqual(rowSet([{ a: 2 }]));
    expect(rowSet([{ a: 1 }, { a: 1 }])).not.toEqual(rowSet([{ a: 1 }]));
  });

  it('a reply: its status, and for an error its code, never its message', () => {
    expect(replyShown(reply(200, { status: 'success', data: {} }))).toBe('200');
    const refused = (message: string) =>
      replyShown(reply(403, { status: 'error', error: { code: 'FORBIDDEN', message } }));
    expect(refused('one wording')).toBe(refused('another'));
    expect(refused('x')).toBe('403 FORBIDDEN');
    expect(replyShown(reply(404, 'not json'))).toBe('404 (no code)');
  });
});
