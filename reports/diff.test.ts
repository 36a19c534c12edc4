import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../runner/cli.ts';
import type { Result, Results } from './schema.ts';
import { summarize } from './results.ts';
import { diffRuns, hasRegression, renderDiffJson, renderDiffMarkdown, stableKey } from './diff.ts';
import { sampleResults } from './sample-results.ts';

function withResults(run: Results, results: Result[]): Results {
  return { ...run, results, summary: summarize(results) };
}

function change(run: Results, id: string, patch: Partial<Result>): Result[] {
  return run.results.map((r) => (r.id === id ? { ...r, ...patch } : r));
}

describe('eac diff', () => {
  it('finds nothing between a run and itself, even with fresh service ids and times', () => {
    const base = sampleResults();
    const next = withResults(
      base,
      change(base, 'errors/validation-status', {
        observations: [
          {
            observation: 'answered 422',
            matchesDecision: false,
            endpoint: 'POST /v1/x/{id}',
          },
        ],
      }),
    );
    const diff = diffRuns(base, next);
    expect(diff.unchanged).toBe(base.results.length);
    expect(hasRegression(diff)).toBe(false);
    expect(renderDiffMarkdown(diff)).toMatch(/^## eac diff: No regression/);
    expect(stableKey('made 0b7e3c1a-1111-4222-8333-944445555666 at 2025-01-02T03:04:05.678Z')).toBe(
      'made {uuid} at {time}',
    );
    expect(stableKey('x/created-2025-01-02t03-04-05-678z-ok')).toBe('x/created-{time}-ok');
    expect(stableKey('exp 1795380849, at 1795380849123, 3600 s')).toBe(
      'exp {time}, at {time}, 3600 s',
    );
  });

  it('names regressions, fixes, new, vanished, other changes and changed probes', () => {
    const base = sampleResults();
    let results = change(base, 'roles/renames-a-role', {
      outcome: 'fail',
      reason: 'got 500\nmore',
    });
    results = results.map((r) =>
      r.id === 'roles/hostile' ? { ...r, outcome: 'pass' as const } : r,
    );
    results = change({ ...base, results }, 'tokens/needs-clock', { outcome: 'pass' });
    results = change({ ...base, results }, 'errors/validation-status', {
      observations: [{ observation: 'answered 400', matchesDecision: true }],
    });
    results = results.filter((r) => r.id !== 'security/alg-none');
    const first = base.results[0];
    if (first === undefined) throw new Error('sample has results');
    results.push({ ...first, id: 'roles/a-new-test', name: 'a new test', outcome: 'fail' });
    const diff = diffRuns(base, withResults(base, results), { base: 'a', next: 'b' });
    expect(diff.regressions.map((t) => [t.id, t.from, t.to, t.reason])).toEqual([
      ['roles/renames-a-role', 'pass', 'fail', 'got 500'],
    ]);
    expect(diff.fixes.map((t) => t.id)).toEqual(['roles/hostile']);
    expect(diff.otherChanges.map((t) => [t.id, t.from, t.to])).toEqual([
      ['tokens/needs-clock', 'not-run', 'pass'],
    ]);
    expect(diff.probeChanges).toEqual([
      expect.objectContaining({
        id: 'errors/validation-status',
        before: ['✗ answered 422'],
        after: ['✓ answered 400'],
      }),
    ]);
    expect(diff.newTests.map((t) => [t.id, t.to])).toEqual([['roles/a-new-test', 'fail']]);
    expect(diff.vanished.map((t) => [t.id, t.from])).toEqual([['security/alg-none', 'pass']]);
    expect(diff.unchanged).toBe(1);
    expect(hasRegression(diff)).toBe(true);

    const md = renderDiffMarkdown(diff);
    expect(md).toMatch(/^## eac diff: \*\*1 regression\*\*/);
    expect(md).toContain('1 fix, 1 new test, 1 vanished test, 1 other outcome change, 1 probe');
    expect(md).toContain('### Regressions: now fail (1)');
    expect(md).toContain('`roles/renames-a-role`');
    expect(md).toContain('### Probes whose recorded behaviour changed (1)');
    const json = JSON.parse(renderDiffJson(diff)) as {
      regression: boolean;
      base: { source: string };
    };
    expect(json.regression).toBe(true);
    expect(json.base.source).toBe('a');
  });

  it('counts any outcome that turns to fail as a regression, listed first, and exits 1 on it', async () => {
    const base = sampleResults();
    const broken: Result = {
      ...(base.results[2] as Result),
      id: 'errors/broken-probe',
      outcome: 'probe-error',
      reason: 'probe-error: x',
    };
    const before = withResults(base, [...base.results, broken]);
    let results = change(before, 'errors/validation-status', { outcome: 'fail' });
    results = change({ ...before, results }, 'tokens/needs-clock', { outcome: 'fail' });
    results = change({ ...before, results }, 'errors/broken-probe', { outcome: 'fail' });
    const after = withResults(base, results);
    const diff = diffRuns(before, after);
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-diff-'));
    await writeFile(path.join(dir, 'a.json'), JSON.stringify(before));
    await writeFile(path.join(dir, 'b.json'), JSON.stringify(after));
    const args = ['diff', path.join(dir, 'a.json'), path.join(dir, 'b.json')];
    expect(await main([...args, '--out', path.join(dir, 'd.md')])).toBe(1);
    expect(diff.regressions.map((t) => [t.id, t.from])).toEqual([
      ['errors/validation-status', 'probe'],
      ['tokens/needs-clock', 'not-run'],
      ['errors/broken-probe', 'probe-error'],
    ]);
    expect(diff.otherChanges).toEqual([]);
    expect(hasRegression(diff)).toBe(true);
    const md = renderDiffMarkdown(diff);
    expect(md).toMatch(/^## eac diff: \*\*3 regressions\*\*/);
    // Listed before every other table.
    expect(md.split('\n').find((l) => l.startsWith('### '))).toBe('### Regressions: now fail (3)');
  });
});
