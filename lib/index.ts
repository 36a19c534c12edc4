/**
 * The kit as a library: run the conformance suites from another program or test runner.
 *
 *   import { runConformance } from 'eac-conformance-kit';
 *   const { exitCode, results } = await runConformance({ only: ['identity'], seed: 1 });
 *
 * It is `eac run` without the process: the same options, the same reports on disk, and the
 * results object of results.json (reports/schema.ts) handed back. Without `target` the
 * embedded reference is started and stopped around the run.
 */
import { Writable } from 'node:stream';
import path from 'node:path';
import type { Results } from '../reports/schema.ts';
import { PROJECT_ROOT } from '../runner/cli.ts';
import { defaultPlace, runSuites, type RunOptions } from '../runner/run.ts';
import { parseShard } from '../runner/shard.ts';
import { readTargetWords, type TargetWords } from '../runner/target-spec.ts';
import { parseThresholds } from '../runner/thresholds.ts';

export type { Outcome, Result, Results, Summary } from '../reports/schema.ts';

/**
 * The options of a run. The target ones are `eac run`'s target flags by their camelCase names
 * (runner/target-spec.ts: `target`, `hub`, `hooks`, `credentials`, `profile`, `ca`,
 * `checkDecisions`, `image` and its `imagePorts`, `imageHooks`, `imageWait`, `imageEnv`, and
 * `latitude`), read by the same rules. Without `target` the embedded reference is started; with
 * `target` and without `hub` the hub tests end not-run (the hub is never assumed to be the
 * target).
 */
export interface ConformanceOptions extends TargetWords {
  /** Areas (folders under suites/) or clause ids / id prefixes; everything when empty. */
  readonly only?: readonly string[];
  /** Seed of the run (0..4294967295); random when absent. */
  readonly seed?: number;
  /** Expectations file: `exitCode` then counts only unexpected results. */
  readonly expectations?: string;
  /** A run folder or results.json to diff against: `exitCode` 1 on a regression. */
  readonly baseline?: string;
  /** Reports root (default `reports` in the current folder): the run goes to `runs/<stamp>/`. */
  readonly reportDir?: string;
  /** Test files at once (default: the conformance project's). */
  readonly concurrency?: number;
  /** `i/n` or `{index, count}`: run one shard of the test files (see `eac report --merge`). */
  readonly shard?: string | { readonly index: number; readonly count: number };
  /** `--max-not-run`: at most this many tests (a number) or this share (`'10%'`) not-run. */
  readonly maxNotRun?: number | string;
  /** `--min-coverage` floors, e.g. `['portable=60%', 'covered@4.6=3']`. */
  readonly minCoverage?: readonly string[];
  /** Where the progress line and closing summary go; nothing is printed when absent. */
  readonly output?: NodeJS.WritableStream;
}

export interface ConformanceRun {
  /**
   * What `eac run` would exit with: 0 no failure, 1 a failure (or unexpected result), 3 no
   * failure but a breached threshold (maxNotRun, minCoverage), 130 stopped by Ctrl-C (the
   * results are then partial, `results.interrupted`).
   */
  readonly exitCode: 0 | 1 | 3 | 130;
  /** The run as results.json holds it. */
  readonly results: Results;
  /** The run's folder, holding results.json, junit.xml, summary.md and index.html. */
  readonly runDir: string;
}

/** The run could not start or finish (bad options, unreachable target, no test selected). */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

function sink(into: NodeJS.WritableStream | undefined, kept: string[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      kept.push(text);
      if (into !== undefined) into.write(text, () => done());
      else done();
    },
  });
}

function shardOf(shard: ConformanceOptions['shard']): RunOptions['shard'] {
  if (shard === undefined || typeof shard === 'object') return shard;
  const parsed = parseShard(shard);
  if (typeof parsed === 'string') throw new ConformanceError(parsed);
  return parsed;
}

/** Runs the suites against a target (or the embedded reference) and returns the run. */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceRun> {
  const shard = shardOf(options.shard);
  const target = readTargetWords(options);
  if (typeof target === 'string') throw new ConformanceError(target);
  const thresholds = parseThresholds(
    options.maxNotRun !== undefined ? String(options.maxNotRun) : undefined,
    options.minCoverage,
  );
  if (typeof thresholds === 'string') throw new ConformanceError(thresholds);
  const run: RunOptions = {
    target,
    only: [...(options.only ?? [])],
    report: path.resolve(options.reportDir ?? 'reports'),
    quietProgress: options.output === undefined,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.expectations !== undefined ? { expectations: options.expectations } : {}),
    ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(shard !== undefined ? { shard } : {}),
    ...(thresholds !== undefined ? { thresholds } : {}),
  };
  const errors: string[] = [];
  const stderr = sink(options.output, errors) as Writable & { isTTY?: boolean };
  const stdout = sink(options.output, []);
  // The runner hands the target to vitest's workers through the environment: leave it as found.
  const saved = ['EAC_RUN', 'EAC_CA'].map((name) => [name, process.env[name]] as const);
  try {
    const outcome = await runSuites(run, defaultPlace(PROJECT_ROOT), { stdout, stderr });
    if (outcome.code === 2 || outcome.run === undefined || outcome.runDir === undefined)
      throw new ConformanceError(errors.join('').trim() || 'the run did not start');
    return { exitCode: outcome.code, results: outcome.run, runDir: outcome.runDir };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
