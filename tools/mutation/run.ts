/**
 * Mutation testing (issue 11 part 1): StrykerJS on spec/machines and reference, the mutants
 * killed by the machines' unit tests and by the conformance suites against the reference
 * started inside the test worker (tools/mutation/stryker.config.json, tools/mutation/stryker.vitest.ts,
 * tools/mutation/setup.ts). Reports go to reports/mutation/ (HTML and JSON, not committed),
 * the score of every file run so far to reports/mutation/scores.json, merged run by run, and
 * each named slice's counts to the small summary bench/results/mutation.json. A score is a
 * diagnostic, not a goal (docs/mutation.md).
 *
 *   npm run mutation -- --concurrency 2                # every slice in turn (SLICES below)
 *   npm run mutation -- --slice reference-chat         # one slice
 *   npm run mutation -- --mutate spec/machines/permissions.ts \
 *        --tests spec/machines/permissions.test.ts,suites/identity/permissions.test.ts
 *
 * Surviving mutants are printed and listed in the results; those judged equivalent or free
 * text are kept, with the reason, in tools/mutation/judgements.json (Stryker reports them as
 * Ignored).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { DETECTED, globRegex, runStryker, SLICES, UNDETECTED } from './slices.ts';

const root = join(import.meta.dirname, '..', '..');
const SUMMARY_ABOUT =
  'Mutation testing, per slice of tools/mutation/slices.ts: the counts of its last run (killed counts timeouts; ignored are the judged mutants of tools/mutation/judgements.json), the seconds it took and the 1-minute load before and after, on the shared 2-core machine. A diagnostic, not a goal: docs/mutation.md. Per-file detail of every run: reports/mutation/ (not committed).';
const { values } = parseArgs({
  options: {
    mutate: { type: 'string' },
    tests: { type: 'string' },
    // One or more named slices (SLICES below), comma-separated, or `all`.
    slice: { type: 'string' },
    // Runs every mutant again instead of reusing the incremental file's results.
    force: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '1' },
  },
});

interface Slice {
  readonly name: string;
  readonly mutate?: string | undefined;
  readonly tests?: string | undefined;
}
// --mutate (with --tests) is a slice of its own; without it and without --slice, every slice.
const named = values.slice ?? (values.mutate === undefined ? 'all' : undefined);
const slices: Slice[] =
  named === undefined
    ? [{ name: 'given', mutate: values.mutate, tests: values.tests }]
    : (named === 'all' ? Object.keys(SLICES) : named.split(',')).map((name) => {
        const preset = SLICES[name];
        if (preset === undefined)
          throw new Error(`unknown slice ${name}; known: ${Object.keys(SLICES).join(', ')}, all`);
        return { name, mutate: preset.mutate.join(','), tests: preset.tests.join(',') };
      });

let failed = false;
for (const slice of slices) {
  console.log(`\nmutation slice ${slice.name}`);
  failed = !runSlice(slice) || failed;
}
process.exitCode = failed ? 1 : 0;

function runSlice(slice: Slice): boolean {
  // A slice of the files replaces the config's list; the test files stay excluded.
  const mutate =
    slice.mutate !== undefined
      ? ['--mutate', [...slice.mutate.split(','), '!**/*.test.ts'].join(',')]
      : [];
  // A failed run writes no report: the one of an earlier run must not pass for this one's.
  const reportFile = join(root, 'reports', 'mutation', 'mutation.json');
  rmSync(reportFile, { force: true });
  const loadBefore = loadavg()[0] ?? 0;
  const started = Date.now();
  const run = runStryker(
    [...mutate, '--concurrency', values.concurrency, ...(values.force ? ['--force'] : [])],
    slice.tests !== undefined ? { EAC_MUTATION_TESTS: slice.tests } : {},
  );
  const seconds = Math.round((Date.now() - started) / 1000);

  interface Mutant {
    readonly id: string;
    readonly mutatorName: string;
    readonly status: string;
    readonly replacement?: string;
    readonly location: { start: { line: number; column: number } };
  }
  if (run.status !== 0 || !existsSync(reportFile)) {
    console.error(`no report at ${reportFile}: Stryker exited ${String(run.status)}`);
    return false;
  }
  // Each slice's own report beside the last one's (reports/mutation/slices/<name>.html|json).
  if (slice.mutate === SLICES[slice.name]?.mutate.join(',')) {
    const dir = join(root, 'reports', 'mutation', 'slices');
    mkdirSync(dir, { recursive: true });
    copyFileSync(reportFile, join(dir, `${slice.name}.json`));
    copyFileSync(join(root, 'reports', 'mutation', 'index.html'), join(dir, `${slice.name}.html`));
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    files: Record<string, { mutants: Mutant[] }>;
  };

  const now = new Date().toISOString();
  const files: Record<string, unknown> = {};
  const survivors: string[] = [];
  // The report also carries every file of the incremental file, as it was when last measured:
  // only the files this slice mutated are measured now.
  const globs = (slice.mutate ?? 'spec/machines/**/*.ts,reference/**/*.ts')
    .split(',')
    .map((g) => globRegex(g.replace(/:\d[\d:-]*$/, '')));
  const measured = Object.entries(report.files).filter(([file]) => globs.some((g) => g.test(file)));
  for (const [file, { mutants }] of measured) {
    const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
    const undetected = mutants.filter((m) => UNDETECTED.has(m.status));
    const valid = detected + undetected.length;
    files[file] = {
      measuredAt: now,
      mutants: mutants.length,
      killed: detected,
      survived: undetected.filter((m) => m.status === 'Survived').length,
      noCoverage: undetected.filter((m) => m.status === 'NoCoverage').length,
      // Mutants a judgement of tools/mutation/judgements.json marks as equivalent or free text:
      // reported, with the reason, not scored.
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

  const out = join(root, 'reports', 'mutation', 'scores.json');
  const before = existsSync(out)
    ? (JSON.parse(readFileSync(out, 'utf8')) as {
        files?: Record<string, unknown>;
        runs?: unknown[];
      })
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
      // The same with every ignored mutant counted as undetected: what the score would be had no
      // mutant been judged equivalent or free text.
      scoreCountingIgnored:
        killed + undetected === 0
          ? null
          : Math.round((killed / (killed + undetected + sum('ignored'))) * 1000) / 10,
    };
  };
  const totals = {
    'spec/machines': folderTotals('spec/machines/'),
    reference: folderTotals('reference/'),
  };
  const tested = measured.flatMap(([, f]) => f.mutants).length;
  const lastRun = {
    at: now,
    slice: slice.name,
    mutate: slice.mutate ?? 'spec/machines/**/*.ts,reference/**/*.ts',
    tests: slice.tests ?? 'spec/machines/**/*.test.ts,suites/*/**/*.test.ts',
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
  if (slice.mutate === SLICES[slice.name]?.mutate.join(','))
    writeSummary(slice.name, Object.values(files) as FileScore[], lastRun);
  console.log(`\nmutation run: ${seconds} s; scores in reports/mutation/scores.json`);
  for (const [file, f] of Object.entries(files))
    console.log(`  ${file}: ${String((f as { score: number | null }).score)}%`);
  if (survivors.length > 0) console.log(`undetected:\n  ${survivors.join('\n  ')}`);
  for (const [folder, t] of Object.entries(totals))
    console.log(`${folder}: ${String(t.score)}% over ${String(t.files)} files measured`);
  return run.status === 0;
}

/**
 * bench/results/mutation.json: one line per slice, the counts of its last run (an incremental
 * run counts the mutants it reused too) with the seconds and the machine's load.
 */
function writeSummary(
  name: string,
  files: readonly { killed: number; survived: number; noCoverage: number; ignored?: number }[],
  run: { at: string; seconds: number; concurrency: number; force: boolean; load: number[] },
): void {
  const out = join(root, 'bench', 'results', 'mutation.json');
  const before = existsSync(out)
    ? (JSON.parse(readFileSync(out, 'utf8')) as { slices?: Record<string, unknown> })
    : {};
  const sum = (k: 'killed' | 'survived' | 'noCoverage' | 'ignored') =>
    files.reduce((n, f) => n + (f[k] ?? 0), 0);
  const killed = sum('killed');
  const undetected = sum('survived') + sum('noCoverage');
  const slices = {
    ...before.slices,
    [name]: {
      measuredAt: run.at.slice(0, 10),
      files: files.length,
      killed,
      survived: sum('survived'),
      noCoverage: sum('noCoverage'),
      ignored: sum('ignored'),
      score:
        killed + undetected === 0 ? null : Math.round((killed / (killed + undetected)) * 1000) / 10,
      run: {
        seconds: run.seconds,
        concurrency: run.concurrency,
        incremental: !run.force,
        load: run.load,
      },
    },
  };
  const lines = Object.entries(slices).map(
    ([n, v]) => `    ${JSON.stringify(n)}: ${JSON.stringify(v)}`,
  );
  writeFileSync(
    out,
    `{\n  "about": ${JSON.stringify(SUMMARY_ABOUT)},\n  "slices": {\n${lines.join(',\n')}\n  }\n}\n`,
  );
}
