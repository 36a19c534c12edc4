import { describe, expect, it } from 'vitest';
import { compareRuns, normalise, renderFlaky, type FlakyRun } from './flaky.ts';

const jwt =
  'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMiLCJleHAiOjE3NjM3NzA0MDB9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';

function run(seed: number, results: FlakyRun['results']): FlakyRun {
  return { source: `runs/${seed}`, seed, results };
}

const probe = (id: string, observation: string, matchesDecision = true) => ({
  id,
  outcome: 'probe' as const,
  observations: [{ observation, matchesDecision }],
});

describe('the flakiness gate', () => {
  it('writes what differs on every run as placeholders', () => {
    expect(
      normalise(
        `401 for ${jwt} of org 3f2a1b4c-0d9e-4f00-8a1b-2c3d4e5f6a7b at 2026-11-22T10:00:00.123Z, exp 1763770400, key ak_live_9f8e7d6c5b4a39281706f5e4 in 35 ms, name "Daisha O'Conner"`,
      ),
    ).toBe(
      '401 for {jwt} of org {uuid} at {time}, exp {time}, key {key} in {duration}, name "{text}"',
    );
    // Codes and statuses are what a probe is about: they stay.
    expect(normalise('422 VALIDATION_ERROR details.issues[0].path name')).toBe(
      '422 VALIDATION_ERROR details.issues[0].path name',
    );
  });

  it('finds nothing when runs differ only in ids, times and echoed data', () => {
    const a = run(1, [
      { id: 'roles/renames', outcome: 'pass' },
      probe('errors/status', '404 NOT_FOUND for 3f2a1b4c-0d9e-4f00-8a1b-2c3d4e5f6a7b, name "Kihn"'),
      { id: 'tokens/clock', outcome: 'not-run', reason: 'lacks the host hook clock' },
    ]);
    const b = run(2, [
      { id: 'roles/renames', outcome: 'pass' },
      probe('errors/status', '404 NOT_FOUND for 00000000-1111-4222-8333-444444444444, name "Bo"'),
      { id: 'tokens/clock', outcome: 'not-run', reason: 'lacks the host hook clock' },
    ]);
    const report = compareRuns([a, b]);
    expect(report).toMatchObject({ tests: 3, flaky: [] });
    expect(renderFlaky(report)).toMatch(/^flaky: 0 of 3 tests changed over 2 runs \(seeds 1, 2\)/);
  });

  it('counts one test and one run as one', () => {
    const report = compareRuns([run(7, [{ id: 'roles/renames', outcome: 'pass' }])]);
    expect(renderFlaky(report)).toMatch(/^flaky: 0 of 1 test changed over 1 run \(seed 7\)/);
  });

  it('flags an outcome that changes, an answer that changes, and a test missing from a run', () => {
    const runs = [
      run(1, [
        { id: 'roles/renames', outcome: 'pass' },
        probe('errors/status', '404 NOT_FOUND'),
        probe('errors/matches', '400 VALIDATION_ERROR'),
        { id: 'tokens/only-here', outcome: 'pass' },
      ]),
      run(2, [
        { id: 'roles/renames', outcome: 'fail', reason: 'expected 200, got 500' },
        probe('errors/status', '403 FORBIDDEN'),
        probe('errors/matches', '400 VALIDATION_ERROR', false),
      ]),
      run(3, [
        { id: 'roles/renames', outcome: 'pass' },
        probe('errors/status', '404 NOT_FOUND'),
        probe('errors/matches', '400 VALIDATION_ERROR'),
      ]),
    ];
    const report = compareRuns(runs);
    expect(report.flaky.map((t) => [t.id, t.why, t.outcomes.join(' ')])).toEqual([
      ['errors/matches', 'answer', 'probe probe probe'],
      ['errors/status', 'answer', 'probe probe probe'],
      ['roles/renames', 'outcome', 'pass fail pass'],
      ['tokens/only-here', 'presence', 'pass absent absent'],
    ]);
    expect(report.flaky[1]?.answers).toEqual([
      { answer: '= 404 NOT_FOUND', runs: [0, 2] },
      { answer: '= 403 FORBIDDEN', runs: [1] },
    ]);
    expect(renderFlaky(report)).toContain('  ✗ roles/renames: outcome: pass / fail / pass');
  });
});
