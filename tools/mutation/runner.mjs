/**
 * The project's Stryker test runner (tools/mutation/stryker.config.json `testRunner`: "eac-vitest"): Stryker's
 * own vitest runner, with one fault of its judgement closed.
 *
 * Stryker's vitest runner builds a mutant's verdict from the tests that have a result. A test
 * file that fails as a whole (its setup file throws, say because the mutant stops the reference
 * from starting, or one of its imports throws at load) collects no tests, so nothing fails: the
 * run counted as complete and the mutant as survived, although vitest itself reports the run as
 * failed. That is how `render.ts`'s `'success'` -> `""` (which breaks the reference's own start)
 * came out as a survivor whose run stopped after 69 of 885 tests.
 *
 * Here a file that failed as a whole kills the mutant (killed by the tests of that file that the
 * mutant's run was to run, so that the incremental file can reuse the verdict), and in the dry run,
 * where every file must pass, it is an error with the file's message.
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { relative } from 'node:path';

import {
  commonTokens,
  declareFactoryPlugin,
  PluginKind,
  tokens,
} from '@stryker-mutator/api/plugin';
import { strykerPlugins as vitestPlugins } from '@stryker-mutator/vitest-runner';

/**
 * The test files of a vitest run that failed as a whole: the file's own result is a failure
 * although none of its tests failed (a failing test already makes Stryker's verdict).
 * @param {ReadonlyArray<{ filepath: string, result?: { state?: string, errors?: ReadonlyArray<{ message?: string }> }, tasks: ReadonlyArray<unknown> }>} files
 * @returns {Array<{ file: string, message: string }>}
 */
export function wholeFileFailures(files) {
  /** @param {any} task @returns {boolean} */
  const anyTestFailed = (task) =>
    task.type === 'test'
      ? task.result?.state === 'fail'
      : (task.tasks ?? []).some((t) => anyTestFailed(t));
  return files
    .filter((f) => f.result?.state === 'fail' && !anyTestFailed(f))
    .map((f) => ({
      file: relative(process.cwd(), f.filepath).replace(/\\/g, '/'),
      message: f.result?.errors?.[0]?.message ?? 'the test file failed as a whole',
    }));
}

/**
 * The verdict of a mutant run, given the test files that failed as a whole: a survivor becomes
 * killed; other verdicts stand.
 * @param {{ status: string, nrOfTests?: number }} result Stryker's MutantRunResult
 * @param {Array<{ file: string, message: string }>} failures
 * @param {ReadonlyArray<string>} testIds the ids of the tests the run was to run (file#name)
 */
export function judge(result, failures, testIds) {
  if (result.status !== 'survived' || failures.length === 0) return result;
  const files = new Set(failures.map((f) => f.file));
  const first = failures[0];
  return {
    status: 'killed',
    failureMessage: `${first.file} failed as a whole: ${first.message}`,
    killedBy: testIds.filter((id) => files.has(id.split('#')[0] ?? '')),
    nrOfTests: result.nrOfTests ?? 0,
  };
}

const inner = vitestPlugins.find((p) => p.name === 'vitest');
if (inner === undefined || !('factory' in inner)) {
  throw new Error("eac-vitest: @stryker-mutator/vitest-runner no longer declares 'vitest'");
}

class EacVitestRunner {
  /** @param {any} runner the vitest runner */
  constructor(runner) {
    this.runner = runner;
  }

  capabilities() {
    return this.runner.capabilities();
  }

  init() {
    return this.runner.init();
  }

  dispose() {
    return this.runner.dispose?.();
  }

  #failures() {
    const ctx = this.runner.ctx;
    if (ctx?.state?.getFiles === undefined) {
      throw new Error('eac-vitest: the vitest runner no longer exposes its vitest context');
    }
    return wholeFileFailures(ctx.state.getFiles());
  }

  /** @param {any} options */
  async dryRun(options) {
    const result = await this.runner.dryRun(options);
    if (result.status !== 'complete') return result;
    const failures = this.#failures();
    if (failures.length > 0) {
      return {
        status: 'error',
        errorMessage: failures.map((f) => `${f.file} failed as a whole: ${f.message}`).join('\n'),
      };
    }
    return result;
  }

  /** @param {any} options */
  async mutantRun(options) {
    const result = await this.runner.mutantRun(options);
    // A static mutant runs every test (no filter): it is killed by no test in particular, and
    // the next incremental run judges it again.
    return judge(result, this.#failures(), options.testFilter ?? []);
  }
}

createEacVitestRunner.inject = tokens(commonTokens.injector);
/** @param {any} injector */
function createEacVitestRunner(injector) {
  return new EacVitestRunner(injector.injectFunction(inner.factory));
}

export const strykerPlugins = [
  declareFactoryPlugin(PluginKind.TestRunner, 'eac-vitest', createEacVitestRunner),
];
