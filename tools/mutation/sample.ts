/**
 * Mutation testing by sampling (issue 11 part 1): when a whole run (tools/mutation/run.ts) does not
 * fit the time at hand, a seeded uniform sample of the mutants of some slices, each sampled
 * mutant judged by its slice's tests, estimates the score of those slices with a 95 % interval.
 *
 *   npm run mutation:sample -- --slice reference-dashboards,reference-hub --size 300 --seed 1
 *
 * The sample is stratified by slice (each slice's share of the sample is its share of the
 * mutants); a slice's mutants are listed by Stryker's own instrumenter, with the project's
 * ignorer, so judged mutants are never drawn. Stryker mutates the drawn
 * mutants' spans (`file:line:col-line:col`), and the ignorer, told the spans, keeps the other
 * mutants inside them from running (any that still run are left out of the estimate). Figures
 * go to reports/mutation/sample.json (not committed), never into the per-file scores of
 * reports/mutation/scores.json, and the incremental file of whole runs is left alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Instrumenter } from '@stryker-mutator/instrumenter';
import fc from 'fast-check';

import { ignorer } from './ignore.mjs';
import { DETECTED, globRegex, runStryker, SLICES, UNDETECTED } from './slices.ts';

const root = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    slice: { type: 'string' },
    size: { type: 'string', default: '300' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '2' },
    // Lists what would be drawn, runs nothing.
    dry: { type: 'boolean', default: false },
  },
});
if (values.slice === undefined) {
  console.error(`--slice NAME[,NAME] is required; known: ${Object.keys(SLICES).join(', ')}`);
  process.exit(2);
}
const sliceNames = values.slice.split(',');
const size = Number(values.size);
const seed = Number(values.seed);

const tracked = spawnSync('git', ['ls-files', 'spec/machines', 'reference'], { cwd: root })
  .stdout.toString()
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const filesOf = (globs: readonly string[]) =>
  tracked.filter((f) => globs.some((g) => globRegex(g).test(f)));

interface Drawn {
  readonly file: string;
  readonly mutatorName: string;
  readonly replacement: string;
  /** Stryker's own positions: lines from 0, columns from 0. */
  readonly start: { line: number; column: number };
  readonly end: { line: number; column: number };
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
  isDebugEnabled: () => false,
  isTraceEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
};
async function mutantsOf(files: readonly string[]): Promise<Drawn[]> {
  const instrumenter = new Instrumenter(quiet);
  const result = await instrumenter.instrument(
    files.map((name) => ({ name, content: readFileSync(join(root, name), 'utf8'), mutate: true })),
    {
      plugins: null,
      excludedMutations: [],
      // The judgements of tools/mutation/judgements.json, as a run applies them.
      ignorers: [ignorer],
      noHeader: false,
    },
  );
  return result.mutants
    .filter((m) => m.status === undefined)
    .map((m) => ({
      file: m.fileName,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      start: m.location.start,
      end: m.location.end,
    }));
}

/** Seeded: the same seed and sources draw the same mutants. */
function draw<T>(items: readonly T[], n: number, rngSeed: number): T[] {
  const [order] = fc.sample(
    fc.shuffledSubarray([...items.keys()], { minLength: items.length, maxLength: items.length }),
    { seed: rngSeed, numRuns: 1 },
  );
  return (order ?? []).slice(0, n).map((i) => items[i] as T);
}

interface ReportMutant {
  readonly mutatorName: string;
  readonly status: string;
  readonly replacement?: string;
  readonly location: {
    start: { line: number; column: number };
    end: { line: number; column: number };
  };
}

/** Wilson's 95 % interval of a proportion. */
function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(c - r) / d, (c + r) / d];
}

const populations = new Map<string, Drawn[]>();
for (const name of sliceNames) {
  const slice = SLICES[name];
  if (slice === undefined) throw new Error(`unknown slice ${name}`);
  populations.set(name, await mutantsOf(filesOf(slice.mutate)));
}
const population = [...populations.values()].reduce((n, m) => n + m.length, 0);

const perSlice: Record<string, unknown>[] = [];
const undetectedList: string[] = [];
let estimateSum = 0;
let variance = 0;
const started = Date.now();
const loadBefore = loadavg()[0] ?? 0;
for (const [index, name] of sliceNames.entries()) {
  const all = populations.get(name) ?? [];
  const slice = SLICES[name];
  if (slice === undefined || all.length === 0) continue;
  const n = Math.max(1, Math.round((size * all.length) / population));
  const drawn = draw(all, n, seed + index);
  const ranges = drawn.map(
    (m) => `${m.file}:${m.start.line + 1}:${m.start.column}-${m.end.line + 1}:${m.end.column}`,
  );
  if (values.dry) {
    console.log(`\nmutation sample ${name}: ${String(n)} of ${String(all.length)} mutants`);
    console.log(ranges.map((r) => `  ${r}`).join('\n'));
    continue;
  }
  // Only the drawn mutants run, not the others inside their spans (tools/mutation/ignore.mjs).
  const spansFile = join(root, 'reports', 'mutation', 'sample-spans.json');
  mkdirSync(join(root, 'reports', 'mutation'), { recursive: true });
  writeFileSync(
    spansFile,
    JSON.stringify(
      drawn.map((m) => [m.start.line + 1, m.start.column, m.end.line + 1, m.end.column]),
    ),
  );
  const reportFile = join(root, 'reports', 'mutation', 'mutation.json');
  rmSync(reportFile, { force: true });
  const t0 = Date.now();
  console.log(`\nmutation sample ${name}: ${String(n)} of ${String(all.length)} mutants`);
  const run = runStryker(
    [
      '--mutate',
      ranges.join(','),
      '--concurrency',
      values.concurrency ?? '2',
      '--incrementalFile',
      'reports/mutation/sample-incremental.json',
      '--force',
    ],
    { EAC_MUTATION_TESTS: slice.tests.join(','), EAC_MUTATION_SAMPLE: spansFile },
  );

  if (run.status !== 0 || !existsSync(reportFile)) {
    console.error(`Stryker failed on the sample of ${name} (exit ${String(run.status)})`);
    process.exitCode = 1;
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    files: Record<string, { mutants: ReportMutant[] }>;
  };
  let killed = 0;
  let undetected = 0;
  let missing = 0;
  for (const m of drawn) {
    // The report counts lines and columns from 1.
    const found = report.files[m.file]?.mutants.find(
      (r) =>
        r.mutatorName === m.mutatorName &&
        r.location.start.line === m.start.line + 1 &&
        r.location.start.column === m.start.column + 1 &&
        r.location.end.line === m.end.line + 1 &&
        r.location.end.column === m.end.column + 1 &&
        (r.replacement ?? '') === m.replacement,
    );
    if (found === undefined) missing += 1;
    else if (DETECTED.has(found.status)) killed += 1;
    else if (UNDETECTED.has(found.status)) {
      undetected += 1;
      undetectedList.push(
        `${m.file}:${String(m.start.line + 1)}:${String(m.start.column + 1)} ${m.mutatorName} ${found.status} -> ${m.replacement.replace(/\s+/g, ' ').slice(0, 80)}`,
      );
    } else missing += 1;
  }
  const judged = killed + undetected;
  if (judged === 0) {
    console.error(`no drawn mutant of ${name} was judged`);
    process.exitCode = 1;
    continue;
  }
  const p = judged === 0 ? 0 : killed / judged;
  const weight = all.length / population;
  estimateSum += weight * p;
  // Agresti–Coull's p̃ in the variance: a slice at 0 % or 100 % still adds its uncertainty.
  const pTilde = (killed + 2) / (judged + 4);
  variance += (weight * weight * pTilde * (1 - pTilde)) / judged;
  const [low, high] = wilson(killed, judged);
  perSlice.push({
    slice: name,
    files: filesOf(slice.mutate).length,
    mutants: all.length,
    drawn: n,
    killed,
    undetected,
    // Drawn mutants not judged: not in the report, or reported as an error or ignored.
    notJudged: missing,
    score: Math.round(p * 1000) / 10,
    interval95: [Math.round(low * 1000) / 10, Math.round(high * 1000) / 10],
    seconds: Math.round((Date.now() - t0) / 1000),
  });
}

if (values.dry) process.exit(0);
if (process.exitCode === 1) {
  console.error('a slice failed: no estimate written (the weights would not add up)');
  process.exit(1);
}
const sd = Math.sqrt(variance);
const summary = {
  measuredAt: new Date().toISOString(),
  seed,
  size,
  slices: sliceNames,
  population,
  estimate: Math.round(estimateSum * 1000) / 10,
  interval95: [
    Math.round(Math.max(0, estimateSum - 1.96 * sd) * 1000) / 10,
    Math.round(Math.min(1, estimateSum + 1.96 * sd) * 1000) / 10,
  ],
  seconds: Math.round((Date.now() - started) / 1000),
  concurrency: Number(values.concurrency),
  load: [Math.round(loadBefore * 10) / 10, Math.round((loadavg()[0] ?? 0) * 10) / 10],
  perSlice,
  undetected: undetectedList,
};
const out = join(root, 'reports', 'mutation', 'sample.json');
mkdirSync(join(root, 'reports', 'mutation'), { recursive: true });
const before = existsSync(out)
  ? (JSON.parse(readFileSync(out, 'utf8')) as { samples?: unknown[] })
  : {};
writeFileSync(
  out,
  `${JSON.stringify({ latest: summary, samples: [...(before.samples ?? []), summary].slice(-20) }, null, 2)}\n`,
);
console.log(
  `\nsampled score of ${sliceNames.join(', ')}: ${String(summary.estimate)}% (95%: ${summary.interval95.join('–')}) over ${String(population)} mutants; reports/mutation/sample.json`,
);
