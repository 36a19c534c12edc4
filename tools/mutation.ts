/**
 * Mutation testing (issue 11 part 1): StrykerJS on spec/machines and reference, the mutants
 * killed by the machines' unit tests and by the conformance suites against the reference
 * started inside the test worker (stryker.config.json, stryker.config.vitest.ts,
 * tools/mutation-setup.ts). Reports go to reports/mutation/ (HTML and JSON, not committed);
 * the score of every file run so far to bench/results/mutation.json, merged run by run.
 *
 *   npm run mutation                                   # everything (about an hour or more)
 *   npm run mutation -- --mutate spec/machines/permissions.ts \
 *        --tests spec/machines/permissions.test.ts,suites/identity/permissions.test.ts
 *
 * Surviving mutants are printed and listed in the results; those judged equivalent are kept,
 * with the reason, in bench/results/mutation-equivalent.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    mutate: { type: 'string' },
    tests: { type: 'string' },
    // Runs every mutant again instead of reusing the incremental file's results.
    force: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '1' },
  },
});

const env = {
  ...process.env,
  ...(values.tests !== undefined ? { EAC_MUTATION_TESTS: values.tests } : {}),
};
// A slice of the files replaces the config's list; the test files stay excluded.
const mutate =
  values.mutate !== undefined
    ? ['--mutate', [...values.mutate.split(','), '!**/*.test.ts'].join(',')]
    : [];
const loadBefore = loadavg()[0] ?? 0;
const started = Date.now();
const run = spawnSync(
  'nice',
  [
    process.execPath,
    join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
    'run',
    'stryker.config.json',
    ...mutate,
    '--concurrency',
    values.concurrency,
    ...(values.force ? ['--force'] : []),
  ],
  { cwd: root, env, stdio: 'inherit' },
);
const seconds = Math.round((Date.now() - started) / 1000);

interface Mutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly status: string;
  readonly replacement?: string;
  readonly location: { start: { line: number; column: number } };
}
const reportFile = join(root, 'reports', 'mutation', 'mutation.json');
if (!existsSync(reportFile)) {
  console.error(`no report at ${reportFile}: Stryker exited ${String(run.status)}`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
  files: Record<string, { mutants: Mutant[] }>;
};

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const now = new Date().toISOString();
const files: Record<string, unknown> = {};
const survivors: string[] = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const undetected = mutants.filter((m) => UNDETECTED.has(m.status));
  const valid = detected + undetected.length;
  files[file] = {
    measuredAt: now,
    mutants: mutants.length,
    killed: detected,
    survived: undetected.filter((m) => m.status === 'Survived').length,
    noCoverage: undetected.filter((m) => m.status === 'NoCoverage').length,
    // Free-text messages (tools/mutation-ignore.mjs): reported, not scored.
    ignored: mutants.filter((m) => m.status === 'Ignored').length,
    score: valid === 0 ? null : Math.round((detected / valid) * 1000) / 10,
    undetected: undetected.map(
      (m) =>
        `${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${m.status}${m.replacement !== undefined ? ` -> ${m.replacement.replace(/\s+/g, ' ').slice(0, 80)}` : ''}`,
    ),
  };
  for (const m of undetected)
    survivors.push(`${file}:${m.location.start.line} ${m.mutatorName} ${m.status}`);
}

const out = join(root, 'bench', 'results', 'mutation.json');
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const before = existsSync(out)
  ? (JSON.parse(readFileSync(out, 'utf8')) as { files?: Record<string, unknown>; runs?: unknown[] })
  : {};
const merged = { ...(before.files ?? {}), ...files } as Record<string, FileScore>;

interface FileScore {
  readonly killed: number;
  readonly survived: number;
  readonly noCoverage: number;
  readonly ignored?: number;
}
/** The goals of issue 11 are per folder: the sum over every file measured so far. */
const folderTotals = (prefix: string) => {
  const scored = Object.entries(merged).filter(([f]) => f.startsWith(prefix));
  const sum = (k: keyof FileScore) => scored.reduce((n, [, f]) => n + (f[k] ?? 0), 0);
  const killed = sum('killed');
  const undetected = sum('survived') + sum('noCoverage');
  return {
    files: scored.length,
    killed,
    undetected,
    ignored: sum('ignored'),
    score:
      killed + undetected === 0 ? null : Math.round((killed / (killed + undetected)) * 1000) / 10,
  };
};
const totals = {
  'spec/machines': folderTotals('spec/machines/'),
  reference: folderTotals('reference/'),
};
const tested = Object.values(report.files).flatMap((f) => f.mutants).length;
const lastRun = {
  at: now,
  mutate: values.mutate ?? 'spec/machines/**/*.ts,reference/**/*.ts',
  tests: values.tests ?? 'spec/machines/**/*.test.ts,suites/*/**/*.test.ts',
  force: values.force,
  mutantsInReport: tested,
  seconds,
  concurrency: Number(values.concurrency),
  // The 1-minute load average before and after: the machine is shared, so a slice's seconds
  // say little without it.
  load: [Math.round(loadBefore * 10) / 10, Math.round((loadavg()[0] ?? 0) * 10) / 10],
};
writeFileSync(
  out,
  `${JSON.stringify(
    {
      measuredAt: now,
      lastRun,
      // Every slice run so far (the newest last), for the seconds a slice takes.
      runs: [...(before.runs ?? []), lastRun].slice(-50),
      totals,
      files: merged,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nmutation run: ${seconds} s; scores in bench/results/mutation.json`);
for (const [file, f] of Object.entries(files))
  console.log(`  ${file}: ${String((f as { score: number | null }).score)}%`);
if (survivors.length > 0) console.log(`undetected:\n  ${survivors.join('\n  ')}`);
for (const [folder, t] of Object.entries(totals))
  console.log(`${folder}: ${String(t.score)}% over ${String(t.files)} files measured`);
process.exitCode = run.status === 0 ? 0 : 1;
