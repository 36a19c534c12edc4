/**
 * The vitest reporter of `eac run`: counts tests for the progress line while they run (in all
 * and per area), and reads every test case's final state and `meta.eac` when the run ends.
 */
import path from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import type { Result } from '../reports/schema.ts';
import type { AreaProgress, ProgressCounts } from './progress.ts';
import {
  areaFromFile,
  assignIds,
  outcomeOf,
  toResult,
  type RawCase,
  type Unnamed,
} from '../reports/results.ts';
import { replayLine, runReplayLine, type ReplayContext } from '../reports/replay.ts';

export interface EacReporterOptions extends ReplayContext {
  /** Project root, to make file paths relative. */
  readonly root: string;
  readonly onProgress?: (counts: ProgressCounts) => void;
}

function relativeFile(root: string, moduleId: string): string {
  return path.relative(root, moduleId).split(path.sep).join('/');
}

interface AreaTally {
  pass: number;
  failed: number;
  notRun: number;
  probe: number;
  probeErrors: number;
  filesLeft: number;
}

/** Tests vitest will not run at all (filtered out, `.skip`, `.todo`), unless marked not-run. */
function selected(testCase: TestCase): boolean {
  const mode = testCase.options.mode;
  return mode === 'run' || mode === 'only' || testCase.meta().eac?.outcome === 'not-run';
}

export function rawCase(root: string, testCase: TestCase): RawCase {
  const result = testCase.result();
  const meta = testCase.meta().eac;
  const raw: RawCase = {
    testName: testCase.name,
    file: relativeFile(root, testCase.module.moduleId),
    state: result.state,
    errors: (result.errors ?? []).map((e) => ({ message: e.message })),
    durationMs: testCase.diagnostic()?.duration ?? 0,
    ...(result.state === 'skipped' && result.note !== undefined ? { skipNote: result.note } : {}),
    ...(meta !== undefined ? { meta } : {}),
  };
  return raw;
}

function errorText(
  error: SerializedError | { message?: string; name?: string; stack?: string },
): string {
  const message = error.message ?? String(error.name ?? 'error');
  return error.name !== undefined && error.name !== 'Error' && !message.startsWith(error.name)
    ? `${error.name}: ${message}`
    : message;
}

export class EacReporter implements Reporter {
  #root: string;
  #total = 0;
  #filesPending = 0;
  #done = 0;
  #failed = 0;
  #notRun = 0;
  #results: Result[] | undefined;
  #unhandled: string[] = [];
  /** Per area, in the order their first file started. */
  #areas = new Map<string, AreaTally>();
  #filesPerArea = new Map<string, number>();
  #current: string | undefined;

  constructor(private readonly options: EacReporterOptions) {
    this.#root = options.root;
  }

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestRunStart(specifications: ReadonlyArray<{ readonly moduleId: string }>): void {
    this.#filesPending = specifications.length;
    for (const spec of specifications) {
      const area = this.#areaOf(spec.moduleId);
      this.#filesPerArea.set(area, (this.#filesPerArea.get(area) ?? 0) + 1);
    }
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#tally(this.#areaOf(testModule.moduleId));
  }

  onTestModuleEnd(testModule: TestModule): void {
    const tally = this.#tally(this.#areaOf(testModule.moduleId));
    tally.filesLeft = Math.max(0, tally.filesLeft - 1);
    this.#report();
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#filesPending = Math.max(0, this.#filesPending - 1);
    for (const testCase of testModule.children.allTests()) if (selected(testCase)) this.#total += 1;
    this.#report();
  }

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(rawCase(this.#root, testCase));
    if (outcome === undefined) return;
    const area = this.#areaOf(testCase.module.moduleId);
    const tally = this.#tally(area);
    this.#current = area;
    this.#done += 1;
    if (outcome === 'fail') {
      this.#failed += 1;
      tally.failed += 1;
    } else if (outcome === 'not-run') {
      this.#notRun += 1;
      tally.notRun += 1;
    } else if (outcome === 'probe') tally.probe += 1;
    else if (outcome === 'probe-error') tally.probeErrors += 1;
    else tally.pass += 1;
    this.#report();
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const results: Unnamed[] = [];
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const result = toResult(rawCase(this.#root, testCase), this.options);
        if (result !== undefined) results.push(result);
      }
      // A file that cannot load, or whose hooks throw, must not vanish from the report.
      const errors = testModule.errors();
      if (errors.length > 0) {
        const file = relativeFile(this.#root, testModule.moduleId);
        const area = areaFromFile(file);
        results.push({
          name: `${file} did not run to the end`,
          area,
          file,
          clauses: [],
          relies: [],
          outcome: 'fail',
          reason: errors.map(errorText).join('\n'),
          seed: this.options.runSeed,
          replay: replayLine(this.options, area),
          durationMs: Math.round(testModule.diagnostic().duration),
        });
      }
    }
    unhandledErrors.forEach((error, index) => {
      const text = errorText(error);
      this.#unhandled.push(text);
      results.push({
        name: `unhandled error ${index + 1}`,
        area: 'runner',
        file: '',
        clauses: [],
        relies: [],
        outcome: 'fail',
        reason: text,
        seed: this.options.runSeed,
        replay: runReplayLine(this.options),
        durationMs: 0,
      });
    });
    this.#results = assignIds(results);
    this.#done = this.#results.length;
    this.#failed = this.#results.filter((r) => r.outcome === 'fail').length;
    this.#notRun = this.#results.filter((r) => r.outcome === 'not-run').length;
    this.#total = Math.max(this.#total, this.#done);
  }

  get counts(): ProgressCounts {
    return {
      done: this.#done,
      total: this.#total,
      failed: this.#failed,
      notRun: this.#notRun,
      filesPending: this.#filesPending,
      ...(this.#current !== undefined ? { current: this.#current } : {}),
      areas: [...this.#areas].map(([area, t]): AreaProgress => ({
        area,
        pass: t.pass,
        failed: t.failed,
        notRun: t.notRun,
        probe: t.probe,
        ...(t.probeErrors > 0 ? { probeErrors: t.probeErrors } : {}),
        finished: t.filesLeft === 0,
      })),
    };
  }

  /** Results of the run; empty until vitest reported the end. */
  get results(): readonly Result[] {
    return this.#results ?? [];
  }

  get finished(): boolean {
    return this.#results !== undefined;
  }

  get unhandledErrors(): readonly string[] {
    return this.#unhandled;
  }

  #areaOf(moduleId: string): string {
    return areaFromFile(relativeFile(this.#root, moduleId));
  }

  #tally(area: string): AreaTally {
    let tally = this.#areas.get(area);
    if (tally === undefined) {
      tally = {
        pass: 0,
        failed: 0,
        notRun: 0,
        probe: 0,
        probeErrors: 0,
        filesLeft: this.#filesPerArea.get(area) ?? 1,
      };
      this.#areas.set(area, tally);
    }
    return tally;
  }

  #report(): void {
    if (this.#total === 0 && this.#done === 0) return;
    this.options.onProgress?.(this.counts);
  }
}
