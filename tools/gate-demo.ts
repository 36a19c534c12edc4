/**
 * The CI gate, tried for real (issue 10, Done when): in a scratch copy of the project, a
 * reference with one fault (a wrong variant of tools/variants) is run; an expectations file is
 * written from that run; a second run with it exits 0; a second fault is added and a third run
 * with the same file exits 1; `eac diff` between the first and third runs names exactly the
 * tests the added fault broke, and `eac run --baseline` (the first run) exits 1 naming the same.
 * Figures go to bench/results/gate-demo.json.
 *
 *   npx tsx tools/gate-demo.ts [--first NAME] [--second NAME]
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { applyVariant, loadVariants, type Variant } from './variants/variant.ts';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    first: { type: 'string', default: 'oracles: a 24h token lasts 12 hours' },
    second: { type: 'string', default: 'oracles: a 7d token lasts 7 hours' },
  },
});

const variants = await loadVariants();
function variant(name: string): Variant {
  const found = variants.find((v) => v.name === name);
  if (found === undefined) throw new Error(`no variant named "${name}" in tools/variants`);
  return found;
}
const first = variant(values.first);
const second = variant(values.second);
const only = [...new Set([...(first.only ?? ['identity']), ...(second.only ?? ['identity'])])];

/** The same scratch copy as tools/wrong-variants.ts makes. */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eac-gate-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) =>
      !/[\\/](node_modules|\.git|reports[\\/]runs|reports[\\/]latest|\.eac-tmp)(?:[\\/]|$)/.test(
        src.slice(root.length - 1),
      ),
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  try {
    symlinkSync(join(root, '..', 'shared'), join(dir, '..', 'shared'));
  } catch {
    /* already there */
  }
  return dir;
}

function breakIt(dir: string, v: Variant): void {
  const path = join(dir, v.file);
  const changed = applyVariant(readFileSync(path, 'utf8'), v);
  if ('problem' in changed) throw new Error(`variant "${v.name}" is stale: ${changed.problem}`);
  writeFileSync(path, changed.source);
}

interface Step {
  readonly command: string;
  readonly exit: number | null;
  readonly ms: number;
}

function eac(dir: string, args: readonly string[]): Step & { stdout: string } {
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/eac.ts', ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status === 2 || result.status === null)
    throw new Error(`eac ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return {
    command: `eac ${args.join(' ')}`,
    exit: result.status,
    ms: Date.now() - started,
    stdout: result.stdout,
  };
}

interface RunFile {
  summary: { pass: number; fail: number; notRun: number; probe: number; total: number };
  results: { id: string; outcome: string }[];
  gate?: { expectedFailures: number; unexpectedFailures: number; unexpected: number };
}

function latest(dir: string): { path: string; run: RunFile } {
  const path = realpathSync(join(dir, 'out', 'latest'));
  return { path, run: JSON.parse(readFileSync(join(path, 'results.json'), 'utf8')) as RunFile };
}

function failing(run: RunFile): string[] {
  return run.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
}

const runArgs = [
  ...only.flatMap((o) => ['--only', o]),
  '--seed',
  '7',
  '--report',
  'out',
  '--quiet-progress',
];

const dir = scratchCopy();
try {
  breakIt(dir, first);
  const one = eac(dir, ['run', ...runArgs]);
  const run1 = latest(dir);
  const written = eac(dir, ['expectations', '--from', run1.path, '--out', 'expectations.yaml']);
  const two = eac(dir, ['run', ...runArgs, '--expectations', 'expectations.yaml']);
  const run2 = latest(dir);
  breakIt(dir, second);
  const three = eac(dir, ['run', ...runArgs, '--expectations', 'expectations.yaml']);
  const run3 = latest(dir);
  const diffStep = eac(dir, ['diff', run1.path, run3.path, '--json']);
  const diff = JSON.parse(diffStep.stdout) as {
    regressions: { id: string }[];
    fixes: unknown[];
    newTests: unknown[];
    vanished: unknown[];
    otherChanges: unknown[];
    probeChanges: unknown[];
  };
  const markdown = eac(dir, ['diff', run1.path, run3.path]).stdout;
  const four = eac(dir, ['run', ...runArgs, '--baseline', run1.path]);
  const run4 = latest(dir);
  const baselineDiff = JSON.parse(readFileSync(join(run4.path, 'diff.json'), 'utf8')) as {
    regressions: { id: string }[];
  };

  const added = failing(run3.run).filter((id) => !failing(run1.run).includes(id));
  const named = diff.regressions.map((r) => r.id);
  const checks = {
    firstRunFails: one.exit === 1 && run1.run.summary.fail > 0,
    withExpectationsExits0: two.exit === 0,
    sameFailuresOnRerun: failing(run2.run).join('\n') === failing(run1.run).join('\n'),
    secondFaultExits1: three.exit === 1,
    diffExits1: diffStep.exit === 1,
    diffNamesExactlyTheAddedFailures:
      added.length > 0 && [...named].sort().join('\n') === [...added].sort().join('\n'),
    baselineExits1NamingTheSame:
      four.exit === 1 &&
      baselineDiff.regressions
        .map((r) => r.id)
        .sort()
        .join('\n') === [...named].sort().join('\n'),
    nothingElseChanged:
      diff.fixes.length +
        diff.newTests.length +
        diff.vanished.length +
        diff.otherChanges.length +
        diff.probeChanges.length ===
      0,
  };
  const figures = {
    measuredAt: new Date().toISOString(),
    only,
    seed: 7,
    firstFault: first.name,
    secondFault: second.name,
    steps: [one, written, two, three, diffStep, four].map(({ command, exit, ms }) => ({
      command,
      exit,
      ms,
    })),
    runs: {
      oneFault: { ...run1.run.summary, failing: failing(run1.run) },
      oneFaultWithExpectations: { ...run2.run.summary, gate: run2.run.gate },
      twoFaultsWithExpectations: { ...run3.run.summary, gate: run3.run.gate },
    },
    expectationsEntries: (
      readFileSync(join(dir, 'expectations.yaml'), 'utf8').match(/^ {2}- /gm) ?? []
    ).length,
    diff: {
      regressions: named,
      fixes: diff.fixes.length,
      newTests: diff.newTests.length,
      vanished: diff.vanished.length,
      otherChanges: diff.otherChanges.length,
      probeChanges: diff.probeChanges.length,
    },
    addedFailures: added,
    checks,
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', 'gate-demo.json'),
    `${JSON.stringify(figures, null, 2)}\n`,
  );
  console.log(markdown);
  for (const [name, ok] of Object.entries(checks)) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  console.log(
    `exits: ${figures.steps.map((s) => `${s.command.split(' ')[1]} ${s.exit}`).join(', ')}`,
  );
  if (!Object.values(checks).every(Boolean)) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
