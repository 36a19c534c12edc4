/**
 * Wrong variants of the reference: each one breaks a single rule on purpose, in a scratch
 * copy of the project, and runs the suites against it. A variant the suites do not catch is
 * a hole in the suites. Figures go to bench/results/wrong-variants.json.
 *
 *   npx tsx tools/wrong-variants.ts [--only NAME] [--suite AREA]
 *
 * The variants live in tools/variants/*.ts, one file per area; each names the `--only`
 * selection that must catch it.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadVariants, type Variant } from './variants/variant.ts';

/** Every variant of tools/variants/*.ts (one file per area, so they can grow apart). */
export const variants: readonly Variant[] = await loadVariants();

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: { only: { type: 'string' }, suite: { type: 'string' } },
});

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eac-variant-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) =>
      !/[\\/](node_modules|\.git|reports[\\/]runs|reports[\\/]latest|\.eac-tmp)(?:[\\/]|$)/.test(
        src.slice(root.length - 1),
      ),
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The service document sits beside the project; the copy needs it at the same distance.
  const shared = join(root, '..', 'shared');
  try {
    symlinkSync(shared, join(dir, '..', 'shared'));
  } catch {
    /* already there: tmpdir() holds one shared link for every copy */
  }
  return dir;
}

interface Outcome {
  readonly variant: string;
  readonly file: string;
  readonly pass: number;
  readonly fail: number;
  readonly failing: readonly string[];
  readonly caught: boolean;
  /** The variant's text is no longer in the file: update the variant. */
  readonly stale?: boolean;
}

const outcomes: Outcome[] = [];
for (const v of variants.filter((x) => values.only === undefined || x.name.includes(values.only))) {
  const dir = scratchCopy();
  try {
    const path = join(dir, v.file);
    const source = readFileSync(path, 'utf8');
    if (source.split(v.from).length !== 2) {
      // The code moved on: say so and go on, so one stale variant does not hide the others.
      outcomes.push({
        variant: v.name,
        file: v.file,
        pass: 0,
        fail: 0,
        failing: [],
        caught: false,
        stale: true,
      });
      console.log(`STALE   ${v.name}: the text to replace is not in ${v.file} exactly once`);
      continue;
    }
    writeFileSync(path, source.replace(v.from, v.to));
    try {
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'bin/eac.ts',
          'run',
          ...(values.suite !== undefined ? [values.suite] : (v.only ?? ['identity'])).flatMap(
            (only) => ['--only', only],
          ),
          '--report',
          'out',
          '--quiet-progress',
          '--seed',
          '7',
        ],
        {
          cwd: dir,
          stdio: 'pipe',
        },
      );
    } catch {
      /* exit 1 is what a caught variant looks like */
    }
    const results = JSON.parse(
      readFileSync(join(dir, 'out', 'latest', 'results.json'), 'utf8'),
    ) as {
      summary: { pass: number; fail: number };
      results: { name: string; outcome: string }[];
    };
    const failing = results.results.filter((r) => r.outcome === 'fail').map((r) => r.name);
    const outcome = {
      variant: v.name,
      file: v.file,
      pass: results.summary.pass,
      fail: results.summary.fail,
      failing,
      caught: failing.length > 0,
    };
    outcomes.push(outcome);
    console.log(`${outcome.caught ? 'caught ' : 'MISSED '} ${v.name}: ${outcome.fail} failing`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A run of some variants (`--only`) updates their lines and keeps the others' earlier figures,
 * each with the time it was measured; a run of all of them writes the file anew.
 */
function merged(file: string, measuredAt: string): (Outcome & { measuredAt: string })[] {
  const fresh = outcomes.map((o) => ({ ...o, measuredAt }));
  if (values.only === undefined || !existsSync(file)) return fresh;
  const before = JSON.parse(readFileSync(file, 'utf8')) as {
    measuredAt: string;
    outcomes: (Outcome & { measuredAt?: string })[];
  };
  const known = new Set(variants.map((v) => v.name));
  const redone = new Set(fresh.map((o) => o.variant));
  const kept = before.outcomes
    .filter((o) => known.has(o.variant) && !redone.has(o.variant))
    .map((o) => ({ ...o, measuredAt: o.measuredAt ?? before.measuredAt }));
  const order = new Map(variants.map((v, i) => [v.name, i]));
  return [...kept, ...fresh].sort(
    (a, b) => (order.get(a.variant) ?? 0) - (order.get(b.variant) ?? 0),
  );
}

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const resultsFile = join(root, 'bench', 'results', 'wrong-variants.json');
const now = new Date().toISOString();
const all = merged(resultsFile, now);
writeFileSync(
  resultsFile,
  `${JSON.stringify(
    {
      measuredAt: now,
      suite: values.suite ?? 'per variant',
      caught: all.filter((o) => o.caught).length,
      total: all.length,
      outcomes: all,
    },
    null,
    2,
  )}\n`,
);
if (outcomes.some((o) => !o.caught)) process.exitCode = 1;
