/**
 * Doctor's prediction against a real run: the reference, started here, tested as a foreign
 * target given without hooks and without --hub, on a small selection (the hub area, every test
 * of which ends not-run, and protocol). The not-runs the run counts by cause must be those
 * doctor predicted for the same target and selection.
 *
 * Cost: one doctor (a vitest collection) and one `eac run` of the selection, about 30 to 90 s
 * on a loaded two-core machine; most of it is starting vitest twice.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../reference/server.ts';
import { PROJECT_ROOT } from './cli.ts';
import { doctor } from './doctor.ts';
import { defaultPlace, runSuites } from './run.ts';

let running: RunningReference;
beforeAll(async () => {
  running = await start({ hooks: false, seed: 5 });
});
afterAll(() => running.close());

function sink(): Writable & { text: () => string; isTTY: false } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join(''), isTTY: false as const });
}

describe('eac doctor predicts the not-runs of a run', () => {
  it('the same causes and counts, without hooks and without --hub', async () => {
    const only = ['hub', 'protocol'];
    const predicted = await doctor(
      { target: { target: running.url, checkDecisions: false }, only, json: false },
      PROJECT_ROOT,
      path.join(PROJECT_ROOT, 'vitest.config.ts'),
      path.join(PROJECT_ROOT, 'suites'),
    );
    expect(predicted.problems).toEqual([]);
    const stdout = sink();
    const stderr = sink();
    const outcome = await runSuites(
      {
        target: { target: running.url, checkDecisions: false },
        only,
        seed: 5,
        report: await mkdtemp(path.join(tmpdir(), 'eac-doctor-run-')),
        quietProgress: true,
      },
      defaultPlace(PROJECT_ROOT),
      { stdout, stderr },
    );
    expect(outcome.run, stderr.text()).toBeDefined();
    const run = outcome.run;
    if (run === undefined) return;
    expect(run.summary.total).toBe(predicted.tests);
    expect(run.summary.notRun).toBe(predicted.notRun);
    expect(run.notRunCauses).toEqual(predicted.causes);
    // The hub's share of it, named as such at the top of the closing lines.
    const hub = predicted.areas.find((a) => a.area === 'hub')?.tests;
    expect(predicted.causes).toContainEqual({
      kind: 'part',
      entry: 'part:hub',
      tests: hub,
      alone: hub,
    });
    expect(stdout.text()).toMatch(/^\neac: hub pages not tested: no --hub \(\d+ tests not-run\)\n/);
    expect(
      run.results.filter((r) => r.area === 'hub').every((r) => r.reason?.includes('--hub')),
    ).toBe(true);
  }, 300_000);
});
