/**
 * The kit called from another test runner: `runConformance` runs a slice of the suites against
 * the embedded reference (no `target`) and hands back the results object of results.json.
 * A pipeline would pass `target`, `hooks` or `credentials`, and `expectations`, instead.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConformanceError, runConformance } from 'eac-conformance-kit';

describe('runConformance', () => {
  let reports = '';
  afterAll(async () => {
    if (reports !== '') await rm(reports, { recursive: true, force: true });
  });

  it('runs the protocol area against the embedded reference and returns the run', async () => {
    reports = await mkdtemp(path.join(tmpdir(), 'eac-library-'));
    const { exitCode, results, runDir } = await runConformance({
      only: ['protocol'],
      seed: 20261122,
      reportDir: reports,
    });
    expect(exitCode).toBe(0);
    expect(results.seed).toBe(20261122);
    expect(results.target.embedded).toBe(true);
    expect(results.summary.fail).toBe(0);
    expect(results.summary.total).toBeGreaterThan(0);
    expect(new Set(results.results.map((r) => r.area))).toEqual(new Set(['protocol']));
    // The same run is on disk, as `eac run` would have written it.
    const onDisk = JSON.parse(await readFile(path.join(runDir, 'results.json'), 'utf8')) as {
      summary: unknown;
    };
    expect(onDisk.summary).toEqual(results.summary);
  }, 180_000);

  it('throws ConformanceError when the run cannot start', async () => {
    await expect(runConformance({ only: ['no-such-area-or-clause'] })).rejects.toThrow(
      ConformanceError,
    );
    await expect(runConformance({ only: ['no-such-area-or-clause'] })).rejects.toThrow(
      /matches no suite area/,
    );
  });
});
