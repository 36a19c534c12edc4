import { describe, expect, it } from 'vitest';
import { recordProbeError } from '../suites/harness/conformance.ts';
import type { EacMeta, Observation } from '../suites/harness/meta.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { readResultsFile } from './report-files.ts';
import { summarize, toResult } from './results.ts';
import { sampleResults } from './sample-results.ts';
import { ResultsSchema, type Result, type Results } from './schema.ts';
import { renderSummary } from './summary-md.ts';
import { closingSummary } from '../runner/run.ts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A probe whose body threw before it recorded anything, as the harness absorbs it. */
function brokenProbe(): Result {
  const meta: EacMeta = {
    clauses: ['x.y'],
    relies: [],
    kind: 'probe',
    name: 'reads the answer',
    area: 'protocol',
    seed: 5,
  };
  const observations: Observation[] = [];
  recordProbeError(meta, observations, new TypeError('cannot read properties of undefined'), {
    exchanges: [],
    decision: '400',
  });
  const result = toResult(
    {
      testName: 'reads the answer {x.y}',
      file: 'suites/protocol/p.test.ts',
      state: 'passed',
      errors: [],
      meta,
      durationMs: 3,
    },
    { runSeed: 1, targetArgs: [] },
  );
  if (result === undefined) throw new Error('no result');
  return { ...result, id: 'protocol/reads-the-answer' };
}

function withBroken(): Results {
  const run = sampleResults();
  const results = [...run.results, brokenProbe()];
  return { ...run, results, summary: summarize(results) };
}

describe('a probe that cannot record', () => {
  it('is its own outcome, probe-error, counted apart from the probes', () => {
    const r = brokenProbe();
    expect(r.outcome).toBe('probe-error');
    expect(r.reason).toContain('cannot read properties of undefined');
    const run = withBroken();
    expect(run.summary.probeErrors).toBe(1);
    expect(run.summary.probe).toBe(sampleResults().summary.probe);
    expect(ResultsSchema.safeParse(run).success).toBe(true);
  });

  it('shows in the headline of every report and in the closing lines, never as a fail', () => {
    const run = withBroken();
    expect(renderSummary(run)).toMatch(
      /\*\*\d+ pass, 1 fail, 1 not-run, 1 probe, 1 probe-error\*\*/,
    );
    expect(renderHtml(run)).toContain('1 probe-error');
    expect(closingSummary(run, '/r/x', undefined)).toMatch(
      /eac: \d+ pass, 1 fail, 1 not-run, 1 probe, 1 probe-error \(/,
    );
    const junit = renderJunit(run);
    const testcase = /<testcase [^>]*name="reads the answer \{x\.y\}"[^]*?<\/testcase>/.exec(
      junit,
    )?.[0];
    expect(testcase).toContain('<skipped message="probe-error');
    expect(testcase).not.toContain('<failure');
  });

  it('an older results.json, where a broken probe was a probe, reads as probe-error', async () => {
    const run = withBroken();
    const old = {
      ...run,
      schemaVersion: 4,
      results: run.results.map((r) =>
        r.outcome === 'probe-error' ? { ...r, outcome: 'probe' } : r,
      ),
      summary: { ...run.summary, probe: run.summary.probe + 1 },
    };
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-pe-'));
    await writeFile(path.join(dir, 'results.json'), JSON.stringify(old));
    const read = await readResultsFile(path.join(dir, 'results.json'));
    expect(read.summary.probeErrors).toBe(1);
    expect(read.results.find((r) => r.id === 'protocol/reads-the-answer')?.outcome).toBe(
      'probe-error',
    );
  });
});
