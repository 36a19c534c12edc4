/**
 * `eac run`: resolve the target, run the conformance project of vitest against it with our
 * reporter alone, write the reports and print a closing summary. Returns the exit code.
 */
import { writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import path from 'node:path';
import { createVitest, type TestSpecification } from 'vitest/node';
import { catalogue, clauseById } from '../spec/clauses/index.ts';
import type { ExpectationsFile } from '../spec/expectations.ts';
import {
  isUnexpected,
  verdictOf,
  type Result,
  type Results,
  type RunProfile,
  type RunTarget,
} from '../reports/schema.ts';
import { readRun } from '../reports/compare.ts';
import { diffRuns, hasRegression, renderDiffJson, renderDiffMarkdown } from '../reports/diff.ts';
import { applyExpectations, readExpectations, unexpectedCount } from '../reports/expectations.ts';
import { assembleRun } from '../reports/assemble.ts';
import { causeLabel, coverageLine } from '../reports/outline.ts';
import { firstLine } from '../reports/escape.ts';
import {
  areaOfFile,
  listAreas,
  planFile,
  resolveOnly,
  unmatchedValues,
  type Selection,
} from './only.ts';
import { Progress, type ProgressStream } from './progress.ts';
import { pickShard, type Shard } from './shard.ts';
import { installNetwork } from '../suites/harness/network.ts';
import type { TargetProfile } from '../spec/profile.ts';
import { EacReporter } from './reporter.ts';
import { cause } from '../suites/harness/causes.ts';
import { BROWSER_HINT } from '../suites/harness/browser-setup.ts';
import { causesOfResult, waitsOnProfile } from '../reports/not-run.ts';
import { installLine, PARTS } from './parts.ts';
import { WRITES_NOTHING } from './vitest-options.ts';
import { checkGates, EXIT_THRESHOLD, mostlyNotRun, type Thresholds } from './thresholds.ts';
import { createRunDir, pointLatest, writeReports } from '../reports/report-files.ts';
import { runReplayLine, targetArgsOf } from '../reports/replay.ts';
import { sectionTitles } from '../reports/sections.ts';
import {
  randomSeed,
  resolveTarget,
  TargetError,
  DOCUMENT_ONLY_SOURCE,
  REFERENCE_IMPLEMENTATION,
  type LatitudeRun,
  type ResolvedTarget,
  type RunHandOver,
} from './target.ts';
import { plural } from '../reports/words.ts';
import type { TargetSpec } from './target-spec.ts';
import { UsageError } from './usage.ts';

export interface RunOptions {
  /** The target to test and the files that describe it, as given (target-spec.ts). */
  readonly target: TargetSpec;
  readonly only: readonly string[];
  readonly seed?: number;
  /** Reports root: the run goes to `<report>/runs/<stamp>/`, `<report>/latest` points at it. */
  readonly report: string;
  readonly quietProgress: boolean;
  /** `--expectations FILE`: the exit code counts only unexpected results. */
  readonly expectations?: string;
  /** `--baseline RUN`: diff the run against RUN, exit 1 on a regression. */
  readonly baseline?: string;
  /** `--shard i/n`: run only the test files of shard i of n (see shard.ts). */
  readonly shard?: Shard;
  /** `--concurrency N`: test files run at once (1: one after another); the config's default. */
  readonly concurrency?: number;
  /** `--bail`: stop at the first failing test (vitest's bail); later tests are not reported. */
  readonly bail?: boolean;
  /** `--max-not-run`, `--min-coverage`: what the run must have tested (thresholds.ts). */
  readonly thresholds?: Thresholds;
}

/** Where things are; the defaults are the project's own, tests may point elsewhere. */
export interface RunPlace {
  readonly root: string;
  readonly configFile: string;
  readonly suitesDir: string;
  readonly project: string;
}

export interface RunIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: ProgressStream & Writable;
}

export function defaultPlace(root: string): RunPlace {
  return {
    root,
    configFile: path.join(root, 'vitest.config.ts'),
    suitesDir: path.join(root, 'suites'),
    project: 'conformance',
  };
}

/** The test files of the run, each whole or narrowed to clause-matching test names. */
export function narrow(
  specifications: readonly TestSpecification[],
  selection: Selection,
  suitesDir: string,
): TestSpecification[] {
  const chosen: TestSpecification[] = [];
  for (const spec of specifications) {
    const plan = planFile(selection, areaOfFile(suitesDir, spec.moduleId));
    if (!plan.run) continue;
    chosen.push(
      plan.pattern === undefined
        ? spec
        : spec.project.createSpecification(
            spec.moduleId,
            { testNamePattern: plan.pattern },
            spec.pool,
          ),
    );
  }
  return chosen;
}

/**
 * What results.json says of the profile: the parts served, and where it came from. Without
 * --profile the reference (embedded, or announcing itself) is read with its own profile, any
 * other target with the document-only one (runner/target.ts makes the same choice).
 */
export function profileFacts(resolved: ResolvedTarget, file: string | undefined): RunProfile {
  const target = resolved.target;
  const source =
    file ??
    (resolved.latitude !== undefined
      ? 'printed by the latitude proxy'
      : resolved.embedded || target.implementation === REFERENCE_IMPLEMENTATION
        ? 'reference default'
        : DOCUMENT_ONLY_SOURCE);
  return {
    source,
    ...(target.profile.description !== undefined
      ? { description: target.profile.description }
      : {}),
    serves: [...target.profile.serves],
  };
}

/**
 * What heads the closing lines when the hub pages were not tested for a reason of the set-up:
 * no --hub (the hub part of a run given none), or no browser driver or browser.
 */
export function hubUntested(
  results: readonly Pick<Result, 'outcome' | 'reason' | 'causes'>[],
  target: Pick<RunTarget, 'hubUrl'>,
): string[] {
  const waiting = (entry: string) =>
    results.filter(
      (r) => r.outcome === 'not-run' && causesOfResult(r).some((c) => c.entry === entry),
    ).length;
  const lines: string[] = [];
  const count = (n: number) => `${plural(n, 'test')} not-run`;
  const noHub = target.hubUrl === undefined ? waiting(cause.part('hub').entry) : 0;
  if (noHub > 0) lines.push(`eac: hub pages not tested: no --hub (${count(noHub)})`);
  const noDriver = waiting(cause.browser('driver').entry);
  if (noDriver > 0)
    lines.push(
      `eac: hub pages not tested: no browser driver (${installLine(PARTS.browser.packages)}; ${count(noDriver)})`,
    );
  const noChromium =
    waiting(cause.browser('chromium').entry) + waiting(cause.browser('setup').entry);
  if (noChromium > 0)
    lines.push(`eac: hub pages not tested: no browser (${BROWSER_HINT}; ${count(noChromium)})`);
  return lines;
}

/**
 * Text cut into lines of at most `width` characters at spaces (a word longer than that keeps
 * its own line), the first after `first`, the rest after `rest`: nothing is cut off.
 */
export function wrapLines(text: string, first: string, rest: string, width = 100): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += `${empty ? '' : ' '}${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The lines printed when a run ends; report paths absolute, as they are copied elsewhere. */
export function closingSummary(run: Results, runDir: string, latest: string | undefined): string {
  runDir = path.resolve(runDir);
  latest = latest !== undefined ? path.resolve(latest) : undefined;
  const { summary, target } = run;
  const lines = [
    '',
    ...(run.interrupted === true
      ? [
          `eac: interrupted: a partial report of the ${plural(summary.total, 'test')} that ended before Ctrl-C; the others did not run and are not counted`,
        ]
      : []),
    ...hubUntested(run.results, run.target),
    `eac: ${summary.pass} pass, ${summary.fail} fail, ${summary.notRun} not-run, ${summary.probe} probe${summary.probeErrors > 0 ? `, ${summary.probeErrors} probe-error` : ''} (${plural(summary.total, 'test')})`,
    `     target ${target.baseUrl}${target.implementation !== undefined ? ` (${target.implementation})` : ''}, seed ${run.seed}`,
    ...(target.image !== undefined
      ? [`     image ${target.image.name} (${target.image.id}), stopped after the run`]
      : []),
    ...(run.shard !== undefined
      ? [`     shard ${run.shard.index} of ${run.shard.count}: merge with eac report --merge`]
      : []),
    `     profile ${run.profile.source}: serves ${run.profile.serves.join(', ') || 'nothing'}`,
    `     ${coverageLine(run)}`,
  ];
  if (run.notRunCauses.length > 0) {
    lines.push('     not-run by entry:');
    for (const c of run.notRunCauses)
      lines.push(
        ...wrapLines(
          causeLabel(c, run.target),
          `       ${String(c.tests).padStart(4)}  `,
          ' '.repeat(13),
        ),
      );
  }
  // A foreign target is held to what its profile states; say what a profile would unlock.
  const waitingOnProfile = run.results.filter(waitsOnProfile).length;
  if (waitingOnProfile > 0)
    lines.push(
      `     ${plural(waitingOnProfile, 'not-run test')} wait${waitingOnProfile === 1 ? 's' : ''} on the profile: a --profile stating ${waitingOnProfile === 1 ? 'its shape' : 'their shapes'} would let ${waitingOnProfile === 1 ? 'it' : 'them'} run (suites/INTERPRETING.md)`,
    );
  if (summary.probeErrors > 0)
    lines.push(
      `     ${plural(summary.probeErrors, 'probe-error')}: probes that broke while recording, counted apart and never a fail (outcome probe-error in results.json)`,
    );
  if (run.gate !== undefined) {
    const g = run.gate;
    lines.push(
      `     expectations ${g.expectationsFile}: ${g.unexpected} unexpected (${plural(g.unexpectedFailures, 'unexpected failure')}, ${plural(g.unexpectedPasses, 'unexpected pass', 'unexpected passes')}, ${g.otherUnexpected} other), ${plural(g.expectedFailures, 'expected failure')}${g.unused.length > 0 ? `, ${g.unused.length} entr${g.unused.length === 1 ? 'y' : 'ies'} matched no test` : ''}`,
    );
  }
  for (const g of (run.gates ?? []).filter((x) => x.breached))
    lines.push(`     gate breached: ${g.name}: ${g.detail}`);
  // With expectations, the expected failures are counted above, not listed.
  const failed = run.results.filter(
    (r) => r.outcome === 'fail' && (run.gate === undefined || isUnexpected(verdictOf(r))),
  );
  if (failed.length > 0) {
    lines.push('', run.gate !== undefined ? 'Unexpected failures:' : 'Failures:');
    for (const r of failed) {
      const clauses = r.clauses.length > 0 ? ` {${r.clauses.join(' ')}}` : '';
      lines.push(`  ✗ ${r.area}: ${r.name}${clauses}`);
      lines.push(`      ${firstLine(r.reason ?? 'failed', 160)}`);
      // What each cited clause says (the catalogue's wording), to act on without the document.
      for (const id of r.clauses) {
        const clause = clauseById.get(id);
        if (clause !== undefined)
          lines.push(`      §${clause.section} ${id}: ${firstLine(clause.summary, 200)}`);
      }
      lines.push(`      replay: ${r.replay}`);
    }
  }
  const others = run.results.filter(
    (r) => run.gate !== undefined && r.outcome !== 'fail' && isUnexpected(verdictOf(r)),
  );
  if (others.length > 0) {
    lines.push('', 'Unexpected passes and other outcomes:');
    for (const r of others)
      lines.push(
        `  ! ${r.area}: ${r.name}: ${r.outcome}, expected ${r.expected?.outcome ?? '?'} (${firstLine(r.expected?.reason ?? '', 100)})`,
      );
  }
  lines.push(
    '',
    `Report: ${path.join(runDir, 'index.html')} (also summary.md, junit.xml, results.json)`,
  );
  if (latest !== undefined) lines.push(`        ${latest} -> ${path.basename(runDir)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What a run through the latitude proxy says after its summary: how many answers each chosen
 * entry changed. An entry that changed none was not exercised, so the run proved nothing of it.
 */
export function latitudeReport(
  latitude: LatitudeRun,
  profile?: TargetProfile,
): {
  text: string;
  idle: string[];
  json: unknown;
} {
  const counts = latitude.counts();
  const idle = latitude.chosen.filter((id) => (counts[id] ?? 0) === 0);
  const width = Math.max(...latitude.chosen.map((id) => id.length), 0);
  const lines = [
    '',
    `Latitude (${latitude.vary}): answers each entry changed`,
    ...latitude.chosen.map(
      (id) =>
        `  ${id.padEnd(width)}  ${String(counts[id] ?? 0).padStart(6)}${(counts[id] ?? 0) === 0 ? '  ✗ changed nothing' : ''}`,
    ),
  ];
  if (idle.length > 0)
    lines.push(
      `eac: ${idle.length} latitude entr${idle.length === 1 ? 'y' : 'ies'} changed no answer (${idle.join(', ')}): the run did not exercise ${idle.length === 1 ? 'it' : 'them'}`,
    );
  return {
    text: `${lines.join('\n')}\n`,
    idle,
    json: {
      vary: latitude.vary,
      chosen: latitude.chosen,
      counts,
      idle,
      ...(profile !== undefined ? { profile } : {}),
    },
  };
}

/**
 * The exit code of a run: with expectations, 1 when a result is unexpected; with a baseline,
 * 1 on a regression (and, without expectations, failures the baseline had do not count);
 * with neither, 1 when a test failed.
 */
export function gateExit(
  run: Pick<Results, 'results' | 'gate'>,
  baseline: boolean,
  regression: boolean,
): 0 | 1 {
  if (regression) return 1;
  if (run.gate !== undefined) return run.gate.unexpected > 0 ? 1 : 0;
  if (baseline) return 0;
  return unexpectedCount(run) > 0 ? 1 : 0;
}

/**
 * `--concurrency N`: the conformance project states its own maxWorkers, which vitest reads
 * from the project when it schedules files and which a root option does not override.
 */
export function limitWorkers(
  projects: readonly { readonly config: { maxWorkers: number } }[],
  workers: number,
): void {
  for (const project of projects) project.config.maxWorkers = workers;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** The exit code of a run stopped by Ctrl-C (128 + SIGINT, as a shell reports it). */
export const EXIT_INTERRUPTED = 130;

/**
 * Ctrl-C during the tests: the first says so, cancels the tests still to come (vitest lets the
 * running ones end) and lets the run write a partial report; a second quits at once. Vitest
 * quits on the first without a word; its listeners, added since `known` was taken, go.
 */
export function watchInterrupt(
  signals: Pick<NodeJS.EventEmitter, 'on' | 'off' | 'listeners'>,
  stderr: { write(text: string): unknown },
  act: {
    readonly cancel: () => void;
    readonly quit: (code: number) => void;
    readonly known: ReadonlySet<unknown>;
  },
): { interrupted(): boolean; dispose(): void } {
  for (const listener of signals.listeners('SIGINT'))
    if (!act.known.has(listener)) signals.off('SIGINT', listener as () => void);
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) {
      act.quit(EXIT_INTERRUPTED);
      return;
    }
    interrupted = true;
    stderr.write(
      '\neac: interrupted: letting the running tests end, then writing a partial report (Ctrl-C again quits at once)\n',
    );
    act.cancel();
  };
  signals.on('SIGINT', onSigint);
  return {
    interrupted: () => interrupted,
    dispose: () => signals.off('SIGINT', onSigint),
  };
}

/**
 * The results of an interrupted run without the test workers' deaths: a terminal's Ctrl-C
 * reaches vitest's worker processes too, and their ending is the interrupt, not a failure.
 */
export function withoutWorkerDeaths(results: readonly Result[]): {
  readonly kept: readonly Result[];
  readonly dropped: number;
} {
  const death = (r: Result) =>
    r.area === 'runner' && /^\[vitest-pool\]: Worker .* emitted error/.test(r.reason ?? '');
  const kept = results.filter((r) => !death(r));
  return { kept, dropped: results.length - kept.length };
}

export async function runCommand(options: RunOptions, place: RunPlace, io: RunIo): Promise<number> {
  return (await runSuites(options, place, io)).code;
}

/** What a run ended with: the exit code, and the run and its folder when it got that far. */
export interface RunOutcome {
  /**
   * 0 passed, 1 a failure (or regression), 2 a usage error, 3 a breached threshold, 130
   * interrupted (Ctrl-C; the partial report is written).
   */
  readonly code: 0 | 1 | 2 | typeof EXIT_THRESHOLD | typeof EXIT_INTERRUPTED;
  readonly run?: Results;
  readonly runDir?: string;
}

/** What the run will do, checked before anything starts. */
interface RunPlan {
  readonly options: RunOptions;
  readonly seed: number;
  readonly selection: Selection;
  readonly expectations?: ExpectationsFile;
  readonly baseline?: Awaited<ReturnType<typeof readRun>>;
  /** Files as absolute paths: a replay line must work from any folder. */
  readonly credentialsFile?: string;
  readonly profileFile?: string;
  readonly caFile?: string;
}

/** What the tests left: their results, and where the run's reports go. */
interface Launched {
  /** The target as results.json describes it (and as a replay line re-targets it). */
  readonly target: RunTarget;
  readonly results: readonly Result[];
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly reportsRoot: string;
  readonly runDir: string;
  /** Ctrl-C stopped the tests: the results are those that ended before. */
  readonly interrupted: boolean;
}

/**
 * `eac run` without the process: the CLI and the library API (lib/index.ts) both call it.
 * A pipeline: plan → resolve the target → launch the tests → assemble → gate → write.
 */
export async function runSuites(
  options: RunOptions,
  place: RunPlace,
  io: RunIo,
): Promise<RunOutcome> {
  const usage = (error: unknown): RunOutcome => {
    if (!(error instanceof UsageError || error instanceof TargetError)) throw error;
    io.stderr.write(`eac: ${error.message}\n`);
    return { code: 2 };
  };
  let plan: RunPlan;
  let resolved: ResolvedTarget;
  try {
    plan = await planRun(options, place);
    resolved = await resolveRunTarget(plan);
  } catch (error) {
    return usage(error);
  }
  try {
    const launched = await launch(plan, resolved, place, io);
    const run = gate(plan, assemble(plan, resolved, launched));
    return await write(plan, resolved, launched, run, io);
  } catch (error) {
    return usage(error);
  } finally {
    await resolved.close();
  }
}

/** The selection and the gate's inputs, read before anything starts: a bad one is a usage error. */
async function planRun(options: RunOptions, place: RunPlace): Promise<RunPlan> {
  const areas = listAreas(place.suitesDir);
  const selection = resolveOnly(options.only, areas);
  const unknown = unmatchedValues(
    selection,
    catalogue.map((c) => c.id),
  );
  if (unknown.length > 0)
    throw new UsageError(
      `--only ${unknown.join(', ')} matches no suite area (${areas.join(', ') || 'none'}) and no clause id; see \`eac clauses\``,
    );
  const expectations =
    options.expectations !== undefined ? await readExpectations(options.expectations) : undefined;
  let baseline: RunPlan['baseline'];
  try {
    if (options.baseline !== undefined) baseline = await readRun(options.baseline);
  } catch (error) {
    throw new UsageError(`--baseline: ${(error as Error).message}`);
  }
  return {
    options,
    seed: options.seed ?? randomSeed(),
    selection,
    ...(expectations !== undefined ? { expectations } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(options.target.credentials !== undefined
      ? { credentialsFile: path.resolve(options.target.credentials) }
      : {}),
    ...(options.target.profile !== undefined
      ? { profileFile: path.resolve(options.target.profile) }
      : {}),
    ...(options.target.ca !== undefined ? { caFile: path.resolve(options.target.ca) } : {}),
  };
}

/** The network settings (proxy variables, `--ca`), then the target: given, embedded or started. */
async function resolveRunTarget(plan: RunPlan): Promise<ResolvedTarget> {
  const spec = plan.options.target;
  try {
    // EAC_CA is inherited by every test worker.
    if (spec.ca !== undefined) process.env['EAC_CA'] = path.resolve(spec.ca);
    installNetwork();
  } catch (error) {
    throw new UsageError(`--ca: ${(error as Error).message}`);
  }
  return resolveTarget(spec, plan.seed);
}

/** The target as results.json describes it (and as a replay line re-targets it). */
function describeTarget(plan: RunPlan, resolved: ResolvedTarget): RunTarget {
  const { target } = resolved;
  return {
    baseUrl: target.baseUrl,
    hubUrl: target.hubUrl,
    ...(target.hooksUrl !== undefined ? { hooksUrl: target.hooksUrl } : {}),
    ...(target.implementation !== undefined ? { implementation: target.implementation } : {}),
    hooks: [...target.hooks],
    checkDecisions: target.checkDecisions,
    embedded: resolved.embedded,
    ...(resolved.image !== undefined
      ? {
          image: {
            name: resolved.image.name,
            id: resolved.image.id,
            args: [...resolved.image.args],
          },
        }
      : {}),
    ...(plan.credentialsFile !== undefined ? { credentialsFile: plan.credentialsFile } : {}),
    ...(plan.profileFile !== undefined ? { profileFile: plan.profileFile } : {}),
    ...(plan.caFile !== undefined ? { caFile: plan.caFile } : {}),
    ...(plan.options.target.checkDecisions ? { checkDecisionsAsked: true } : {}),
    ...(resolved.latitude !== undefined ? { latitude: resolved.latitude.vary } : {}),
  };
}

/**
 * The conformance project of vitest with our reporter alone. The target, the replay arguments
 * and the report folder cross to the workers once, in `EAC_RUN` (read by global-setup.ts).
 */
async function launch(
  plan: RunPlan,
  resolved: ResolvedTarget,
  place: RunPlace,
  io: RunIo,
): Promise<Launched> {
  const { options, seed, selection } = plan;
  const target = describeTarget(plan, resolved);
  const replayArgs = targetArgsOf(target);
  const startedAt = new Date();
  // Made before the tests run: the hub tests put screenshots of failures in it. A relative
  // --report is the user's folder's, like every path they give, never the kit's.
  const reportsRoot = path.resolve(options.report);
  const runDir = await createRunDir(reportsRoot, startedAt, seed);
  const handOver: RunHandOver = { target: resolved.target, replayArgs, reportDir: runDir };
  process.env['EAC_RUN'] = JSON.stringify(handOver);

  const progress = options.quietProgress ? undefined : new Progress(io.stderr);
  const reporter = new EacReporter({
    root: place.root,
    runSeed: seed,
    targetArgs: replayArgs,
    ...(progress !== undefined ? { onProgress: (counts) => progress.update(counts) } : {}),
  });
  const known = new Set(process.listeners('SIGINT'));
  const vitest = await createVitest(
    'test',
    {
      root: place.root,
      config: place.configFile,
      project: [place.project],
      watch: false,
      reporters: [reporter],
      ...WRITES_NOTHING,
      ...(options.concurrency !== undefined ? { maxWorkers: options.concurrency } : {}),
      ...(options.bail === true ? { bail: 1 } : {}),
    },
    {},
    // Vitest's own chatter goes nowhere; its errors still reach stderr.
    { stdout: discard, stderr: io.stderr },
  );
  if (options.concurrency !== undefined) limitWorkers(vitest.projects, options.concurrency);
  const watch = watchInterrupt(process, io.stderr, {
    cancel: () => void vitest.cancelCurrentRun('keyboard-input'),
    quit: (code) => process.exit(code),
    known,
  });
  try {
    await vitest.standalone();
    const selected = narrow(
      await vitest.getRelevantTestSpecifications(),
      selection,
      place.suitesDir,
    );
    if (selected.length === 0) throw new UsageError('no test file matches the selection');
    const chosen =
      options.shard === undefined
        ? selected
        : pickShard(selected, (spec) => spec.moduleId, place.root, options.shard);
    // A shard with no file (more shards than files) still writes its empty run, so that
    // the matrix merges.
    if (chosen.length > 0)
      await vitest.runTestSpecifications(
        chosen,
        selection.areas.length +
          selection.clausePrefixes.length +
          (selection.tests?.length ?? 0) ===
          0,
      );
    else reporter.onTestRunEnd([], []);
  } finally {
    watch.dispose();
    await vitest.close();
  }
  progress?.finish(reporter.counts);
  const interrupted = watch.interrupted();
  if (!reporter.finished && !interrupted)
    throw new UsageError('the test run ended without results (see errors above)');
  if (reporter.results.length === 0 && options.shard === undefined && !interrupted)
    throw new UsageError('no test matched the selection');
  const { kept, dropped } = interrupted
    ? withoutWorkerDeaths(reporter.results)
    : { kept: reporter.results, dropped: 0 };
  if (dropped > 0)
    io.stderr.write(
      `eac: ${plural(dropped, 'test worker')} ended with the Ctrl-C; the tests they were running are not counted\n`,
    );
  return {
    target,
    results: kept,
    startedAt,
    finishedAt: new Date(),
    reportsRoot,
    runDir,
    interrupted,
  };
}

/** results.json's whole content: the results, and everything derived from them and the catalogue. */
function assemble(plan: RunPlan, resolved: ResolvedTarget, launched: Launched): Results {
  const run = assembleRun(
    {
      target: launched.target,
      profile: profileFacts(resolved, plan.profileFile),
      startedAt: launched.startedAt,
      finishedAt: launched.finishedAt,
      seed: plan.seed,
      only: plan.options.only,
      results: launched.results,
      ...(resolved.machineRows !== undefined ? { machineRows: resolved.machineRows() } : {}),
    },
    catalogue,
    sectionTitles,
  );
  const shard = plan.options.shard;
  const marked = launched.interrupted ? { ...run, interrupted: true } : run;
  return shard !== undefined
    ? { ...marked, shard: { index: shard.index, count: shard.count } }
    : marked;
}

/**
 * With `--expectations`, each result judged against the file, and the gate's counts; then every
 * gate (expectations, thresholds) with whether it was breached, for the reports.
 */
function gate(plan: RunPlan, run: Results): Results {
  let gated = run;
  if (plan.expectations !== undefined && plan.options.expectations !== undefined) {
    const file = path.resolve(plan.options.expectations);
    const judged = applyExpectations(run.results, plan.expectations, file);
    gated = { ...run, results: judged.results, gate: judged.gate };
  }
  const gates = checkGates(gated, plan.options.thresholds, catalogue);
  return gates.length > 0 ? { ...gated, gates } : gated;
}

/** The reports, the `latest` link, the closing lines, the latitude report and the diff; the exit code. */
async function write(
  plan: RunPlan,
  resolved: ResolvedTarget,
  launched: Launched,
  run: Results,
  io: RunIo,
): Promise<RunOutcome> {
  const { runDir, reportsRoot } = launched;
  await writeReports(runDir, run);
  let latest: string | undefined;
  try {
    // `latest` is the last run that finished; a partial one stays in its own folder.
    if (run.interrupted !== true) latest = await pointLatest(reportsRoot, runDir);
    if (latest === undefined && run.interrupted !== true)
      io.stderr.write(
        `eac: ${path.join(reportsRoot, 'latest')} stays on a run that finished after this one\n`,
      );
  } catch (error) {
    io.stderr.write(
      `eac: could not point ${path.join(reportsRoot, 'latest')} at the run: ${(error as Error).message}\n`,
    );
  }
  io.stdout.write(closingSummary(run, runDir, latest));
  let idle = false;
  if (resolved.latitude !== undefined) {
    const report = latitudeReport(resolved.latitude, resolved.target.profile);
    idle = report.idle.length > 0;
    await writeFile(
      path.join(runDir, 'latitude.json'),
      `${JSON.stringify(report.json, null, 2)}\n`,
    );
    io.stdout.write(report.text);
  }
  if (run.summary.fail === 0 && run.summary.total > 0) {
    io.stdout.write(
      `Replay: ${runReplayLine({ runSeed: plan.seed, targetArgs: targetArgsOf(run.target) }, plan.options.only)}\n`,
    );
  }
  let regression = false;
  if (plan.baseline !== undefined && plan.options.baseline !== undefined) {
    const diff = diffRuns(plan.baseline.run, run, { base: plan.options.baseline, next: runDir });
    regression = hasRegression(diff);
    const markdown = renderDiffMarkdown(diff);
    await writeFile(path.join(runDir, 'diff.md'), markdown);
    await writeFile(path.join(runDir, 'diff.json'), renderDiffJson(diff));
    io.stdout.write(`\n${markdown}`);
    io.stdout.write(`(also ${path.join(runDir, 'diff.md')} and diff.json)\n`);
  }
  if (run.interrupted === true) return { code: EXIT_INTERRUPTED, run, runDir };
  const code = idle ? 1 : gateExit(run, plan.baseline !== undefined, regression);
  const thresholds = plan.options.thresholds;
  // The closing lines named each breached gate; the exit code says failure first.
  if ((run.gates ?? []).some((g) => g.breached && g.kind !== 'expectations'))
    return { code: code === 1 ? 1 : EXIT_THRESHOLD, run, runDir };
  if (thresholds === undefined && mostlyNotRun(run))
    io.stdout.write(
      `\neac: warning: ${run.summary.notRun} of ${plural(run.summary.total, 'test')} ${run.summary.notRun === 1 ? 'was' : 'were'} not run; the exit code does not count them. Gate on them with --max-not-run or --min-coverage (suites/INTERPRETING.md)\n`,
    );
  return { code, run, runDir };
}
