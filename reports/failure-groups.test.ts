import { describe, expect, it } from 'vitest';
import { causeOf, failureGroups } from './failure-groups.ts';
import { sampleResults } from './sample-results.ts';

describe('causeOf', () => {
  it('keeps the first line and marks ids, times and numbers', () => {
    expect(
      causeOf(
        'the dashboard is shown: expected +0 to be 1 for 3f2a9c1e-0b1d-4c2e-9f00-0123456789ab\n  seed 4 (test seed 9); replay: x',
      ),
    ).toBe('the dashboard is shown: expected N to be N for {id}');
    expect(causeOf('key eac_us_c750876245b36f0a9203 expired at 2026-11-27T10:32:58.000Z')).toBe(
      'key {id} expired at {time}',
    );
    expect(causeOf('status-code mismatch on ROUTE_NOT_FOUND')).toBe(
      'status-code mismatch on ROUTE_NOT_FOUND',
    );
    expect(causeOf(undefined)).toBe('failed');
  });
});

describe('failureGroups', () => {
  it('puts failures of one cause together, the largest group first', () => {
    const [sample] = sampleResults().results;
    if (sample === undefined) throw new Error('no sample');
    const fail = (id: string, reason: string) => ({
      ...sample,
      id,
      outcome: 'fail' as const,
      reason,
    });
    const groups = failureGroups([
      fail('a', 'other'),
      fail('b', 'expected 200, got 500'),
      fail('c', 'expected 201, got 404'),
    ]);
    expect(groups.map((g) => [g.cause, g.tests.map((t) => t.id)])).toEqual([
      ['expected N, got N', ['b', 'c']],
      ['other', ['a']],
    ]);
  });

  it('heads each group with every value that does not vary within it', () => {
    const [sample] = sampleResults().results;
    if (sample === undefined) throw new Error('no sample');
    const fail = (id: string, reason: string) => ({
      ...sample,
      id,
      outcome: 'fail' as const,
      reason,
    });
    const groups = failureGroups([
      fail('a', 'expected 500 to be less than 500\n  seed 1; replay: x'),
      fail('b', 'expected 500 to be less than 500\n  seed 2; replay: y'),
      fail('c', 'expected 200, got 500 for 3f2a9c1e-0b1d-4c2e-9f00-0123456789ab'),
      fail('d', 'expected 201, got 500 for 3f2a9c1e-0b1d-4c2e-9f00-0123456789ff'),
      fail('e', 'key eac_us_c750876245b36f0a9203 expired at 2026-11-27T10:32:58.000Z'),
    ]);
    expect(groups.map((g) => [g.heading, g.tests.length])).toEqual([
      ['expected 500 to be less than 500', 2],
      ['expected N, got 500 for {id}', 2],
      ['key eac_us_c750876245b36f0a9203 expired at 2026-11-27T10:32:58.000Z', 1],
    ]);
    // What groups them is still the marked cause.
    expect(groups[1]?.cause).toBe('expected N, got N for {id}');
  });
});
