import { join } from 'node:path';

import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// Vitest config of mutation mode (tools/mutation/stryker.config.json): one project holding the unit tests of
// the machines and the conformance suites, with the reference started inside the worker
// (tools/mutation/setup.ts) so that Stryker's active mutant is the one the suites judge.
// EAC_MUTATION_TESTS narrows the test files (comma-separated globs).
const include = (
  process.env['EAC_MUTATION_TESTS'] ?? 'spec/machines/**/*.test.ts,suites/*/**/*.test.ts'
).split(',');

/**
 * The unit tests (of the machines and of the reference's modules) first (no reference to start, a second or two), the suites after:
 * Stryker bails on the first failing test, so a mutant a unit test kills never pays for the
 * reference and the suites.
 */
class UnitFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const unit = (f: TestSpecification) => (/[\\/](spec|reference)[\\/]/.test(f.moduleId) ? 0 : 1);
    return [...sorted].sort((a, b) => unit(a) - unit(b));
  }
}

export default defineConfig({
  // The project root, not this file's folder: the paths below are the root's.
  root: join(import.meta.dirname, '..', '..'),
  test: {
    environment: 'node',
    include,
    exclude: ['node_modules/**', 'runner/**', 'suites/harness/**'],
    // The hub suites' browser broker runs in the main process (it serves pages and a browser,
    // no mutated code); so does the switch that starts a fresh reference for each runtime
    // mutant (tools/mutation/global-setup.ts). Static mutants and the dry run start the
    // reference in the worker (tools/mutation/setup.ts).
    globalSetup: ['suites/harness/browser-setup.ts', 'tools/mutation/global-setup.ts'],
    setupFiles: ['tools/mutation/setup.ts'],
    // One module graph for all the files of a run: the reference starts once per mutant, not
    // once per test file (Stryker gives every mutant a fresh worker, so nothing leaks from one
    // mutant to the next; the suites build their own worlds, as they do against one target).
    isolate: false,
    sequence: { sequencer: UnitFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
