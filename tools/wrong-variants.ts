/**
 * Wrong variants of the reference: each one breaks a single rule on purpose, in a scratch
 * copy of the project, and runs the suites against it. A variant the suites do not catch is
 * a hole in the suites. Figures go to bench/results/wrong-variants.json.
 *
 *   npx tsx tools/wrong-variants.ts [--only NAME] [--area A,B] [--stale DATE] [--suite AREA] [--faults] [--jobs N]
 *                                   [--at COMMIT]
 *
 * The variants live in tools/variants/*.ts, one file per area; each names the `--only`
 * selection that must catch it.
 *
 * `--faults` (npm run faults) runs the same list as a fault catalogue: each broken reference is
 * started as a server announcing another implementation's name (`eac serve --announce`; the
 * machinery is tools/fault-run.ts, shared with the blind rounds), and the suites judge it as an
 * outside target (`--target`), so probes only record and a fault counts as caught only when a
 * conformance test fails. A fault is judged by the whole suite, in two stages that stop at the
 * first failing test (`eac run --bail`): first the variant's own selection, then, only when that
 * passes, every other area; it is missed only when the whole suite passes. Tests that fail on
 * the unbroken reference (the baseline, a whole-suite run) are left out of every verdict. It
 * prints caught/total per area and kind and writes bench/results/faults.json.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import {
  baselineRun,
  commitOf,
  judgeAsCandidate,
  ownFailures,
  removeCopy,
  root,
  runOnce,
  scratchCopy,
  type Baseline,
} from './fault-run.ts';
import { applyVariant, loadVariants, type AreaVariant } from './variants/variant.ts';

/** Every variant of tools/variants/*.ts (one file per area, so they can grow apart). */
export const variants: readonly AreaVariant[] = await loadVariants();

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    suite: { type: 'string' },
    faults: { type: 'boolean' },
    jobs: { type: 'string' },
    area: { type: 'string' },
    'no-baseline': { type: 'boolean' },
    stale: { type: 'string' },
    at: { type: 'string' },
  },
});
const faults = values.faults === true;
/**
 * `--at REF`: copies of that commit's tree instead of the working tree (where others' edits
 * under way would be judged too).
 */
const at = values.at !== undefined ? commitOf(values.at) : undefined;

interface Outcome {
  readonly variant: string;
  readonly area: string;
  readonly kind?: string;
  readonly file: string;
  readonly pass: number;
  readonly fail: number;
  readonly failing: readonly string[];
  readonly caught: boolean;
  /** The variant's text is no longer in the file: update the variant. */
  readonly stale?: boolean;
  readonly seconds?: number;
  /** Failing tests left out because they fail on the unbroken reference too (--faults). */
  readonly failingUnbrokenToo?: number;
  /** --faults: which stage found it (the variant's selection, or the rest of the suite). */
  readonly caughtIn?: 'selection' | 'rest of the suite';
  /** --faults: the one-minute load average when the variant started. */
  readonly loadAverage?: number;
  /** The run itself failed (not a verdict on the variant). */
  readonly error?: string;
}

/**
 * Runs the suites a variant must be caught by: in the default mode its selection against the
 * embedded reference; with --faults the whole suite against the served copy, in two stages
 * that each stop at the first failure (the selection, then the rest).
 */
async function runSuites(
  dir: string,
  only: readonly string[],
  latitude: readonly string[] = [],
): Promise<Omit<Outcome, 'variant' | 'area' | 'file'>> {
  if (faults) return judgeAsCandidate(dir, only, baseline);
  const started = Date.now();
  const ran = await runOnce(dir, only, undefined, false, latitude);
  return {
    ...ran,
    caught: ran.failing.length > 0,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/**
 * Applies a variant in the copy, inside the declaration it is anchored in; says why not when
 * its text is not there exactly once (or the declaration is gone).
 */
function patch(dir: string, v: AreaVariant): string | undefined {
  const path = join(dir, v.file);
  const changed = applyVariant(readFileSync(path, 'utf8'), v);
  if ('problem' in changed) return changed.problem;
  writeFileSync(path, changed.source);
  return undefined;
}

function onlyOf(v: AreaVariant): readonly string[] {
  return values.suite !== undefined ? [values.suite] : (v.only ?? ['identity']);
}

/** `--area a,b`: only the variants of those files of tools/variants/. */
const areas = values.area?.split(',').map((a) => a.trim());
const stale = staleVariants(values.stale);
const chosen = variants.filter(
  (x) =>
    (values.only === undefined || x.name.includes(values.only)) &&
    (areas === undefined || areas.includes(x.area)) &&
    (stale === undefined || stale.has(x.name)) &&
    !(faults && x.decision !== undefined) &&
    // A variant judged with latitude entries on needs the proxy's printed profile, which an
    // outside candidate (--faults) is not read with: it is judged in the default mode only.
    !(faults && x.latitude !== undefined),
);
/**
 * `--stale DATE`: only the variants the results file holds no measurement of, or one taken
 * before DATE (after the suites changed, these are the ones whose verdict is not known).
 */
function staleVariants(date: string | undefined): ReadonlySet<string> | undefined {
  if (date === undefined) return undefined;
  const since = Date.parse(date);
  if (Number.isNaN(since)) throw new Error(`--stale ${date}: not a date (e.g. 2026-11-24)`);
  const file = join(root, 'bench', 'results', faults ? 'faults.json' : 'wrong-variants.json');
  const measured = new Map<string, string | undefined>();
  if (existsSync(file)) {
    const before = JSON.parse(readFileSync(file, 'utf8')) as {
      measuredAt: string;
      outcomes: { variant: string; measuredAt?: string }[];
    };
    for (const o of before.outcomes) measured.set(o.variant, o.measuredAt ?? before.measuredAt);
  }
  return new Set(
    variants
      .filter((v) => {
        const at = measured.get(v.name);
        return at === undefined || Date.parse(at) < since;
      })
      .map((v) => v.name),
  );
}

/** `--faults` leaves out the variants that break only a decision of ours (see Variant.decision). */
const decisionOnly = faults
  ? variants
      .filter((x) => x.decision !== undefined)
      .map((x) => ({ variant: x.name, decision: x.decision }))
  : [];

/**
 * Before the faults, the unbroken reference as a candidate over the whole suite (a fault may be
 * caught anywhere in it): a test failing there says nothing about a fault.
 */
let baseline: Baseline | undefined;
const catalogueStarted = Date.now();
const loadAtStart = loadavg()[0] ?? 0;
if (faults && values['no-baseline'] !== true) {
  baseline = await baselineRun(at);
  console.log(
    `baseline (unbroken reference as a candidate): ${baseline.pass} pass, ${baseline.fail} fail`,
  );
  // Tests that fail on the unbroken reference too say nothing about a fault: they are left
  // out of every fault's verdict below, and listed here for whoever owns them.
  for (const f of baseline.failing) console.log(`  fails unbroken: ${f}`);
}

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const resultsFile = join(root, 'bench', 'results', faults ? 'faults.json' : 'wrong-variants.json');
const areaOf = new Map(variants.map((v) => [v.name, v.area]));

/** Writes the figures so far (after every variant, so a long run interrupted keeps them). */
function save(final: boolean): void {
  const now = new Date().toISOString();
  const all = merged(resultsFile, now).map((o) => ({
    ...o,
    area: areaOf.get(o.variant) ?? o.area,
  }));
  const byArea = groups(all, (o) => o.area);
  const byKind = groups(all, (o) => o.kind ?? 'unclassified');
  const missed = all.filter((o) => !o.caught).map((o) => o.variant);
  if (faults && final) {
    console.log(
      '\nfault catalogue (the reference as an outside candidate; probes not held to decisions)',
    );
    for (const [area, t] of Object.entries(byArea))
      console.log(`  ${area.padEnd(18)} ${t.caught}/${t.total}`);
    for (const [kind, t] of Object.entries(byKind))
      console.log(`  kind ${kind.padEnd(13)} ${t.caught}/${t.total}`);
    console.log(`  ${'all'.padEnd(18)} ${tally(all).caught}/${all.length}`);
    for (const m of missed) console.log(`  missed: ${m}`);
  }
  const loads = all.flatMap((o) => (o.loadAverage === undefined ? [] : [o.loadAverage]));
  writeFileSync(
    resultsFile,
    `${JSON.stringify(
      {
        measuredAt: now,
        mode: faults ? 'outside candidate (--target, decisions not checked)' : 'embedded reference',
        suite: values.suite ?? 'per variant',
        ...(faults
          ? {
              judged:
                'whole suite, in two stages stopping at the first failing test (eac run --bail): the variant\u2019s selection, then every other area; missed only when the whole suite passes',
            }
          : {}),
        ...(baseline !== undefined ? { baseline } : {}),
        ...tally(all),
        ...(faults
          ? {
              seconds: Math.round((Date.now() - catalogueStarted) / 1000),
              loadAverage: {
                atStart: Math.round(loadAtStart * 10) / 10,
                atEnd: Math.round((loadavg()[0] ?? 0) * 10) / 10,
                meanAtVariantStart:
                  loads.length === 0
                    ? null
                    : Math.round((loads.reduce((a, b) => a + b, 0) / loads.length) * 10) / 10,
              },
              cores: availableParallelism(),
              missed,
              decisionOnly,
            }
          : {}),
        byArea,
        ...(faults ? { byKind } : {}),
        outcomes: all,
      },
      null,
      2,
    )}\n`,
  );
}

const outcomes: Outcome[] = [];
/** Judges one variant in a scratch copy of its own; pushes its outcome. */
async function judge(v: AreaVariant): Promise<void> {
  const dir = scratchCopy(at);
  try {
    const named = {
      variant: v.name,
      area: v.area,
      ...(v.kind ? { kind: v.kind } : {}),
      file: v.file,
    };
    const problem = patch(dir, v);
    if (problem !== undefined) {
      // The code moved on: say so and go on, so one stale variant does not hide the others.
      outcomes.push({ ...named, pass: 0, fail: 0, failing: [], caught: false, stale: true });
      console.log(`STALE   ${v.name}: ${problem}`);
      return;
    }
    let ran: Awaited<ReturnType<typeof runSuites>>;
    try {
      ran = await runSuites(dir, onlyOf(v), v.latitude ?? []);
    } catch (error) {
      // A run that could not be made (the machine too loaded to start the server) says so.
      outcomes.push({
        ...named,
        pass: 0,
        fail: 0,
        failing: [],
        caught: false,
        error: String(error).slice(0, 300),
      });
      console.log(`ERROR   ${v.name}: ${String(error).slice(0, 200)}`);
      return;
    }
    const own = ownFailures(ran, baseline);
    const outcome = {
      ...named,
      ...ran,
      failing: own,
      caught: own.length > 0,
      ...(own.length < ran.failing.length
        ? { failingUnbrokenToo: ran.failing.length - own.length }
        : {}),
    };
    outcomes.push(outcome);
    save(false);
    console.log(
      `${outcome.caught ? 'caught ' : 'MISSED '} [${v.area}] ${v.name}: ${outcome.fail} failing${outcome.caughtIn !== undefined ? ` (${outcome.caughtIn})` : ''}${outcome.seconds !== undefined ? `, ${outcome.seconds} s` : ''}`,
    );
  } finally {
    removeCopy(dir);
  }
}

/**
 * `--jobs N` judges N variants at once, each in its own copy with its own server (default 1:
 * on a loaded machine more jobs only share the same cores).
 */
const jobs = Math.max(1, Number.parseInt(values.jobs ?? '1', 10) || 1);
const queue = [...chosen];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let v = queue.shift(); v !== undefined; v = queue.shift()) await judge(v);
  }),
);

/**
 * A run of some variants (`--only`) updates their lines and keeps the others' earlier figures,
 * each with the time it was measured; a run of all of them writes the file anew.
 */
function merged(file: string, measuredAt: string): (Outcome & { measuredAt: string })[] {
  const order = new Map(variants.map((v, i) => [v.name, i]));
  const fresh = outcomes
    .map((o) => ({ ...o, measuredAt }))
    .sort((a, b) => (order.get(a.variant) ?? 0) - (order.get(b.variant) ?? 0));
  if (
    (values.only === undefined && areas === undefined && stale === undefined) ||
    !existsSync(file)
  )
    return fresh;
  const before = JSON.parse(readFileSync(file, 'utf8')) as {
    measuredAt: string;
    outcomes: (Outcome & { measuredAt?: string })[];
  };
  const known = new Set(
    variants.filter((v) => !(faults && v.decision !== undefined)).map((v) => v.name),
  );
  const redone = new Set(fresh.map((o) => o.variant));
  const kept = before.outcomes
    .filter((o) => known.has(o.variant) && !redone.has(o.variant))
    .map((o) => ({ ...o, measuredAt: o.measuredAt ?? before.measuredAt }));
  return [...kept, ...fresh].sort(
    (a, b) => (order.get(a.variant) ?? 0) - (order.get(b.variant) ?? 0),
  );
}

/** caught/total of some outcomes. */
function tally(list: readonly Outcome[]): { caught: number; total: number } {
  return { caught: list.filter((o) => o.caught).length, total: list.length };
}

function groups(list: readonly Outcome[], key: (o: Outcome) => string | undefined) {
  const out: Record<string, { caught: number; total: number }> = {};
  for (const k of [...new Set(list.map(key))].filter((x): x is string => x !== undefined).sort())
    out[k] = tally(list.filter((o) => key(o) === k));
  return out;
}

save(true);
if (outcomes.some((o) => !o.caught)) process.exitCode = 1;
