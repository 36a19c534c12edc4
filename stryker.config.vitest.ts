import { defineConfig } from 'vitest/config';

// Vitest config of mutation mode (stryker.config.json): one project holding the unit tests of
// the machines and the conformance suites, with the reference started inside the worker
// (tools/mutation-setup.ts) so that Stryker's active mutant is the one the suites judge.
// EAC_MUTATION_TESTS narrows the test files (comma-separated globs).
const include = (
  process.env['EAC_MUTATION_TESTS'] ?? 'spec/machines/**/*.test.ts,suites/*/**/*.test.ts'
).split(',');

export default defineConfig({
  test: {
    environment: 'node',
    include,
    exclude: ['node_modules/**', 'suites/runner/**', 'suites/harness/**', 'suites/hub/**'],
    setupFiles: ['tools/mutation-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
