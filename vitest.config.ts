import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Two projects: `unit` checks our own code; `conformance` checks a target. `eac run` drives
// the latter with the target resolved and its own reporter (runner/run.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'spec/**/*.test.ts',
            'reference/**/*.test.ts',
            'runner/**/*.test.ts',
            'suites/harness/**/*.test.ts',
            'reports/**/*.test.ts',
            'fixtures/**/*.test.ts',
            'bench/**/*.test.ts',
            'bin/**/*.test.ts',
            'tools/**/*.test.ts',
            'latitude/**/*.test.ts',
          ],
          // A worker runs its files one after another without a fresh module graph each: zod,
          // the clause catalogue and the reference load once per worker, not once per file
          // (that import took most of the unit run). No unit test mocks a module or leaves
          // global state behind for the next file.
          isolate: false,
        },
      },
      {
        test: {
          name: 'conformance',
          environment: 'node',
          include: ['suites/*/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'suites/harness/**'],
          // The hub suites' one browser and their embedding parent page (launched on first use).
          globalSetup: ['runner/global-setup.ts', 'suites/harness/browser-setup.ts'],
          // Tests talk to a live target over HTTP; each builds its own world, so files run
          // in parallel against one target. They mostly wait on the network, so use at least
          // four workers even on a small CI machine (the default there would be one).
          testTimeout: 30_000,
          hookTimeout: 30_000,
          fileParallelism: true,
          // A worker runs its files one after another without a fresh module graph each: the
          // harness, the target and the browser connection are loaded once per worker, not
          // once per file (they cost most of the workers' CPU). Tests keep no state between
          // files but what the harness shares on purpose (suites/harness/browser.ts).
          isolate: false,
          maxWorkers: Math.max(4, availableParallelism()),
        },
      },
    ],
  },
});
