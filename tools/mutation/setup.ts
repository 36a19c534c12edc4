/**
 * Vitest setup file of mutation mode (tools/mutation/stryker.vitest.ts). Stryker switches mutants on
 * inside the test worker, so the reference the conformance suites judge must run in that
 * worker too, not in the global-setup process where no mutant is ever active. This starts the
 * embedded reference here, once per worker and only for the suites (the machines' unit tests
 * do not need it), and hands it to the suites as the target that `inject('eacTarget')`
 * returns (what runner/global-setup.ts provides in a normal run).
 *
 * EAC_MUTATION_TRACE=<file> appends a line per setup and reference start (where the time of a
 * mutant goes).
 */
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { beforeEach } from 'vitest';
import type { Target } from '../../suites/harness/target.ts';
import { startEmbedded, type ResolvedTarget } from '../../runner/target.ts';

const state = (
  globalThis as unknown as Record<
    string,
    { providedContext: Record<string, unknown>; filepath?: string } | undefined
  >
)['__vitest_worker__'];
if (state === undefined) throw new Error('mutation setup: not inside a vitest worker');

const trace = process.env['EAC_MUTATION_TRACE'];
const log = (what: string, extra: Record<string, unknown> = {}) => {
  if (trace !== undefined)
    appendFileSync(
      trace,
      `${JSON.stringify({ at: Date.now(), pid: process.pid, threadId, what, file: state.filepath, ...extra })}\n`,
    );
};
log('setup');

// Stryker bails on the first failing test, but the cancel reaches the worker after the next
// file's setup has begun: once a test of this run failed (the mutant is killed), no reference
// is started for the files left (their tests are skipped, or fail for want of a target).
const FAILED = Symbol.for('eac.mutation.failed');
const flags = globalThis as unknown as Record<symbol, boolean | undefined>;
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    flags[FAILED] = true;
  });
});

// How Stryker runs this file's tests (stryker-setup.js, provided by its vitest runner): the
// dry run measures coverage per test; a mutant run switches one mutant on, either before the
// modules load ("static": its code runs at load or start) or before the tests ("runtime").
const stryker = state.providedContext as {
  mode?: 'dry-run' | 'mutant';
  mutantActivation?: 'static' | 'runtime';
  activeMutant?: string;
  hitLimit?: number;
  eacMutationSwitch?: string;
};

/**
 * A runtime mutant is judged by the reference of the test-runner process
 * (tools/mutation/global-setup.ts), started afresh for it with the same mutant switched on
 * there: no import and start in this fresh worker. EAC_MUTATION_WORKER_REFERENCE=1 turns that
 * off (every mutant judged by a reference started here, the way to compare the two).
 */
const switchUrl =
  stryker.mode === 'mutant' &&
  stryker.mutantActivation === 'runtime' &&
  process.env['EAC_MUTATION_WORKER_REFERENCE'] !== '1'
    ? stryker.eacMutationSwitch
    : undefined;

async function fromSwitch(url: string): Promise<ResolvedTarget> {
  const res = await fetch(`${url}/mutant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ activeMutant: stryker.activeMutant, hitLimit: stryker.hitLimit }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`mutation switch: ${res.status} ${text}`);
  // Closed by the switch, when the next mutant (or the end of the run) retires it.
  return { target: JSON.parse(text) as Target, embedded: true, close: async () => {} };
}

// The suites read the target; the unit tests (spec/, reference/) do not.
if (flags[FAILED] === true) log('skipped: a test failed already');
else if (!/[\\/](spec|reference)[\\/]/.test(state.filepath ?? '')) {
  // One reference per worker: the config runs the files of a run in one module graph
  // (isolate: false), and the worker ends with the run, taking the reference with it (or, via
  // the switch, leaving it to the switch to retire).
  const KEY = Symbol.for('eac.mutation.reference');
  const store = globalThis as unknown as Record<symbol, Promise<ResolvedTarget> | undefined>;
  const fresh = store[KEY] === undefined;
  const t0 = Date.now();
  const resolved = await (store[KEY] ??=
    switchUrl !== undefined
      ? fromSwitch(switchUrl)
      : startEmbedded(Number(process.env['EAC_SEED'] ?? 7)));
  log(fresh ? (switchUrl !== undefined ? 'switched' : 'started') : 'reused', {
    ms: Date.now() - t0,
    mode: stryker.mode,
    activation: stryker.mutantActivation,
    mutant: stryker.activeMutant,
  });

  // The worker's provided context is where inject() reads; there is no public setter for it
  // outside the global setup, so this one test-only file writes the key itself.
  state.providedContext['eacTarget'] = resolved.target;
  state.providedContext['eacReplayArgs'] = [];
}
