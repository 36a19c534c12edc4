import { describe, expect, it } from 'vitest';

import { readLive, summarise } from './live.ts';

const line = (status: string, line: number, file = 'reference/a.ts') =>
  JSON.stringify({
    file,
    line,
    column: 4,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    status,
  });

describe('the live mutation file', () => {
  it('counts the judged mutants per file and lists the undetected ones', () => {
    const text = [
      JSON.stringify({ startedAt: '2026-11-22T21:00:00.000Z', mutants: 9 }),
      line('Killed', 1),
      line('Timeout', 2),
      line('Survived', 3),
      line('NoCoverage', 4),
      line('Ignored', 5),
      line('Killed', 1, 'reference/b.ts'),
      '',
    ].join('\n');
    const { header, mutants } = readLive(text);
    expect(header.mutants).toBe(9);
    expect(mutants).toHaveLength(6);
    expect(summarise(mutants)).toEqual([
      [
        'reference/a.ts',
        {
          judged: 4,
          detected: 2,
          undetected: [
            '3:4 ConditionalExpression Survived -> true',
            '4:4 ConditionalExpression NoCoverage -> true',
          ],
        },
      ],
      ['reference/b.ts', { judged: 1, detected: 1, undetected: [] }],
    ]);
  });

  it('refuses an empty file: no run has started', () => {
    expect(() => readLive('\n')).toThrow(/no run has started/);
  });
});
