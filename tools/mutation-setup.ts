/**
 * Vitest setup file of mutation mode (stryker.config.vitest.ts). Stryker switches mutants on
 * inside the test worker, so the reference the conformance suites judge must run in that
 * worker too, not in the global-setup process where no mutant is ever active. This starts the
 * embedded reference here, once per worker, and hands it to the suites as the target that
 * `inject('eacTarget')` returns (what suites/runner/global-setup.ts provides in a normal run).
 */
import { afterAll } from 'vitest';
import { startEmbedded, type ResolvedTarget } from '../suites/runner/target.ts';

const KEY = Symbol.for('eac.mutation.reference');
const store = globalThis as unknown as Record<symbol, Promise<ResolvedTarget> | undefined>;
const started = (store[KEY] ??= startEmbedded(Number(process.env['EAC_SEED'] ?? 7)));
const resolved = await started;

// The worker's provided context is where inject() reads; there is no public setter for it
// outside the global setup, so this one test-only file writes the key itself.
const state = (
  globalThis as unknown as Record<string, { providedContext: Record<string, unknown> }>
)['__vitest_worker__'];
if (state === undefined) throw new Error('mutation setup: not inside a vitest worker');
state.providedContext['eacTarget'] = resolved.target;
state.providedContext['eacReplayArgs'] = [];

afterAll(async () => {
  if (store[KEY] === started) {
    store[KEY] = undefined;
    await resolved.close();
  }
});
