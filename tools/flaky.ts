/**
 * `npm run flaky`: the flakiness gate. Runs the conformance suites several times with different
 * seeds against the embedded reference and fails on any test whose outcome changes between
 * runs, or whose probe recorded another answer once ids, keys, tokens, times and durations are
 * normalised (reports/flaky.ts). Writes the figures to bench/results/flaky.json.
 *
 *   npx tsx tools/flaky.ts                              20 runs of everything (on demand)
 *   npx tsx tools/flaky.ts --reuse reports/latest --runs 2   CI: the run npm test made + 2 more
 *   npx tsx tools/flaky.ts --runs 3 --only identity     a slice
 *
 * Options: --runs N (new runs; default 20), --reuse RUN (repeatable: run folders or
 * results.json files counted as runs already made), --only X (repeatable, as eac run; with
 * --reuse it defaults to the reused run's selection), --seed S (first seed; the runs take
 * S, S+1, ...; default: random), --out FILE (default bench/results/flaky.json; `-` for none),
 * --report DIR (reports root of the new runs; default: a temporary folder, removed after).
 * Exit: 0 stable, 1 a flaky test (or a run that could not finish), 2 bad arguments.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRun } from '../reports/compare.ts';
import { PROJECT_ROOT } from '../runner/cli.ts';
import { compareRuns, renderFlaky, type FlakyRun } from '../reports/flaky.ts';

function fail(message: string, code = 2): never {
  process.stderr.write(`flaky: ${message}\n`);
  process.exit(code);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        runs: { type: 'string' },
        reuse: { type: 'string', multiple: true },
        only: { type: 'string', multiple: true },
        seed: { type: 'string' },
        out: { type: 'string' },
        report: { type: 'string' },
      },
      strict: true,
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();

const runs = values.runs !== undefined ? Number(values.runs) : 20;
if (!Number.isInteger(runs) || runs < 0 || runs > 200)
  fail(`--runs takes 0..200, got ${values.runs}`);
const firstSeed =
  values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 0xffff0000);
if (!Number.isInteger(firstSeed) || firstSeed < 0 || firstSeed > 0xffff0000)
  fail(`--seed takes an integer from 0, got ${values.seed}`);
const out = values.out ?? path.join(PROJECT_ROOT, 'bench', 'results', 'flaky.json');

const made: FlakyRun[] = [];
for (const source of values.reuse ?? []) {
  const { run } = await readRun(source).catch((error: Error) =>
    fail(`--reuse ${source}: ${error.message}`),
  );
  made.push({ source, seed: run.seed, results: run.results });
}
// A reused run fixes the selection (its --only), so that like is compared with like.
const reused = (values.reuse ?? []).length > 0 ? made[0] : undefined;
const selection =
  values.only ?? (reused !== undefined ? ((await readRun(reused.source)).run.only ?? []) : []);
const seedsTaken = new Set(made.map((r) => r.seed));

const reportRoot = values.report ?? (await mkdtemp(path.join(tmpdir(), 'eac-flaky-')));
await mkdir(reportRoot, { recursive: true });

/** One `eac run` with a seed, in a child process; its results.json. */
async function runOnce(seed: number, index: number): Promise<FlakyRun> {
  const root = path.join(reportRoot, `run-${index}`);
  const args = [
    path.join(PROJECT_ROOT, 'bin', 'eac.mjs'),
    'run',
    '--seed',
    String(seed),
    '--quiet-progress',
    '--report',
    root,
    ...selection.flatMap((value) => ['--only', value]),
  ];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0 && code !== 1)
    fail(`the run with seed ${seed} exited ${code ?? 'on a signal'}`, 1);
  const { run } = await readRun(path.join(root, 'latest'));
  return { source: path.join(root, 'latest'), seed, results: run.results };
}

const started = Date.now();
let seed = firstSeed;
for (let i = 0; i < runs; i += 1) {
  while (seedsTaken.has(seed)) seed += 1;
  seedsTaken.add(seed);
  const t0 = Date.now();
  const run = await runOnce(seed, made.length + 1);
  made.push(run);
  process.stderr.write(
    `flaky: run ${made.length} (seed ${seed}): ${run.results.length} tests in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}
if (made.length < 2) fail('nothing to compare: give --runs and/or --reuse for at least two runs');

const report = compareRuns(made);
process.stdout.write(renderFlaky(report));
if (out !== '-') {
  const figures = {
    measuredAt: new Date().toISOString(),
    command: `npx tsx tools/flaky.ts ${process.argv.slice(2).join(' ')}`.trim(),
    only: selection,
    runs: report.runs,
    newRuns: runs,
    seconds: Math.round((Date.now() - started) / 1000),
    tests: report.tests,
    flaky: report.flaky.length,
    flakyTests: report.flaky,
  };
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(figures, null, 2)}\n`);
  process.stderr.write(`flaky: wrote ${path.relative(process.cwd(), out) || out}\n`);
}
if (values.report === undefined) await rm(reportRoot, { recursive: true, force: true });
process.exit(report.flaky.length > 0 ? 1 : 0);
