import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import type { Result, Results } from './schema.ts';
import { PROJECT_ROOT } from '../runner/cli.ts';
import { applyExpectations } from './expectations.ts';
import { mergeResults, mergeShards, type ShardRun } from './merge.ts';
import { readResultsFile } from './report-files.ts';
import { sampleResults } from './sample-results.ts';
import { sectionTitles } from './sections.ts';

const run = promisify(execFile);

function shardOf(results: Results, index: number, count: number, keep: (r: Result) => boolean) {
  const kept = results.results.filter(keep);
  return {
    source: `shard-${index}`,
    run: { ...results, results: kept, shard: { index, count } },
  } satisfies ShardRun;
}

describe('merging shard runs', () => {
  const sample = sampleResults();
  const byFile = (file: string) => (r: Result) => r.file === file;
  const files = [...new Set(sample.results.map((r) => r.file))];

  it('gives back the unsharded counts, coverage and register', () => {
    const shards = files.map((file, i) => shardOf(sample, i + 1, files.length, byFile(file)));
    const merged = mergeShards(shards, catalogue, sectionTitles);
    expect(merged.summary).toEqual(sample.summary);
    expect(merged.coverage).toEqual(sample.coverage);
    expect(merged.register).toEqual(sample.register);
    expect(merged.mergedFrom).toEqual(shards.map((s) => s.source));
    expect(merged.shard).toBeUndefined();
  });

  it('refuses shards of different seeds, a missing or doubled shard, a run that is no shard', () => {
    const one = shardOf(sample, 1, 2, () => true);
    const two = shardOf(sample, 2, 2, () => false);
    const merge = (shards: ShardRun[]) => () => mergeShards(shards, catalogue, sectionTitles);
    expect(merge([one])).toThrow(/shard 2 of 2 missing/);
    expect(merge([one, { ...one, source: 'again' }])).toThrow(/both shard 1\/2/);
    expect(merge([one, { ...two, run: { ...two.run, seed: 8 } }])).toThrow(/seed 8/);
    expect(merge([one, { source: 'plain', run: sample }])).toThrow(/plain is not a shard run/);
    expect(merge([one, { ...one, run: { ...one.run, shard: { index: 2, count: 2 } } }])).toThrow(
      /ran in shard-1 and in shard-1/,
    );
  });

  it('recounts the gate over all shards; an entry is unused only when no shard used it', () => {
    const { results, gate } = applyExpectations(
      sample.results,
      {
        expectations: [
          { test: 'roles/hostile', outcome: 'fail', reason: 'known' },
          { test: 'nowhere/at-all', outcome: 'fail', reason: 'gone' },
        ],
      },
      '/x/exp.yaml',
    );
    const gated = { ...sample, results, gate };
    const shards = files.map((file, i) => {
      const shard = shardOf(gated, i + 1, files.length, byFile(file));
      const used = shard.run.results.some((r) => r.id === 'roles/hostile');
      return {
        ...shard,
        run: {
          ...shard.run,
          gate: { ...gate, unused: used ? gate.unused : [...gate.unused, 'test roles/hostile'] },
        },
      };
    });
    const merged = mergeShards(shards, catalogue, sectionTitles);
    expect(merged.gate).toEqual(gate);
  });

  it('renames a second holder of one id as an unsharded run would (next free -N)', () => {
    const base = sample.results[0] as Result;
    const a = { ...base, id: 'x/same', file: 'suites/x/a.test.ts', name: 'same' };
    const a2 = { ...base, id: 'x/same-2', file: 'suites/x/a.test.ts', name: 'same ' };
    const b = { ...base, id: 'x/same', file: 'suites/x/b.test.ts', name: 'same' };
    expect(mergeResults([[b], [a, a2]]).map((r) => `${r.file.slice(-9)} ${r.id}`)).toEqual([
      'a.test.ts x/same',
      'a.test.ts x/same-2',
      'b.test.ts x/same-3',
    ]);
  });
});

describe('eac run --shard and eac report --merge, for real', () => {
  let dir = '';
  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('two shards of one seed merge into the counts and ids of the unsharded run', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eac-shards-'));
    const cli = [path.join(PROJECT_ROOT, 'bin', 'eac.mjs')];
    const eac = (...args: string[]) =>
      run(process.execPath, [...cli, ...args], { cwd: PROJECT_ROOT, maxBuffer: 1 << 24 }).catch(
        (error: { code?: number; stdout?: string; stderr?: string }) => {
          // A failing test is not the point here: the runs must agree, whatever they say.
          if (error.code === 1) return { stdout: error.stdout ?? '', stderr: '' };
          throw new Error(`eac ${args.join(' ')} failed: ${error.stderr ?? `exit ${error.code}`}`);
        },
      );
    const slice = ['run', '--only', 'security', '--seed', '1122', '--quiet-progress'];
    await Promise.all([
      eac(...slice, '--report', path.join(dir, 'full')),
      eac(...slice, '--shard', '1/2', '--report', path.join(dir, 's1')),
    ]);
    await eac(...slice, '--shard', '2/2', '--report', path.join(dir, 's2'));
    const merged = path.join(dir, 'merged');
    const { stdout } = await eac(
      'report',
      '--merge',
      path.join(dir, 's1', 'latest'),
      path.join(dir, 's2', 'latest'),
      '--out',
      merged,
    );
    expect(stdout).toMatch(/merged 2 shards/);
    const full = await readResultsFile(path.join(dir, 'full', 'latest', 'results.json'));
    const one = await readResultsFile(path.join(dir, 's1', 'latest', 'results.json'));
    const back = await readResultsFile(path.join(merged, 'results.json'));
    expect(one.shard).toEqual({ index: 1, count: 2 });
    expect(one.summary.total).toBeGreaterThan(0);
    expect(one.summary.total).toBeLessThan(full.summary.total);
    expect(back.summary).toEqual(full.summary);
    const outcomes = (r: Results) => Object.fromEntries(r.results.map((x) => [x.id, x.outcome]));
    expect(outcomes(back)).toEqual(outcomes(full));
    for (const file of ['junit.xml', 'summary.md', 'index.html'])
      expect((await readFile(path.join(merged, file), 'utf8')).length).toBeGreaterThan(100);
  }, 240_000);
});
