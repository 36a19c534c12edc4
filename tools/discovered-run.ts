/**
 * The run issue 35 is judged by: a profile as `eac profile discover` writes it, with only the
 * chat examples written by hand, against (a) the reference behind the latitude proxy with every
 * entry on and (b) the blind server of candidates/. Prints, per target, the fails, the
 * probe-errors and the not-runs (those of kind document-gap counted apart) grouped by the entry
 * they wait on, and writes the figures to bench/results/discovered.json.
 *
 *   npx tsx tools/discovered-run.ts [latitude] [blind-1] [--out DIR] [--no-write]
 *
 * The chat examples: fixtures/chat-examples/reference.json for the reference; for a candidate,
 * the `chat.examples` of the profile its author wrote (candidates/NAME/profile.json), nothing
 * else of that profile. Exit 0 when every target has no fail, no probe-error and at most 5% of
 * its tests not-run (document gaps aside), 1 otherwise.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRun } from '../reports/compare.ts';
import { startCandidate } from './candidate.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  options: {
    out: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const loadAtStart = os.loadavg()[0];
const targets = positionals.length > 0 ? positionals : ['latitude', 'blind-1'];
const out = path.resolve(values.out ?? path.join(os.tmpdir(), 'eac-discovered'));
await mkdir(out, { recursive: true });

async function eac(args: readonly string[], log: string): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bin', 'eac.ts'), ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  await writeFile(log, text);
  return code;
}

interface Figures {
  readonly total: number;
  readonly pass: number;
  readonly fail: number;
  readonly probe: number;
  readonly probeErrors: number;
  readonly notRun: number;
  readonly documentGaps: number;
  readonly notRunShare: number;
  readonly byEntry: Record<string, number>;
  readonly fails: readonly string[];
  readonly draft: string;
}

async function judge(name: string, where: string[], examples: unknown): Promise<Figures> {
  const draft = path.join(out, `${name}.draft.json`);
  const profile = path.join(out, `${name}.profile.json`);
  const report = path.join(out, `${name}-report`);
  const code = await eac(
    ['profile', 'discover', ...where, '--out', draft],
    path.join(out, `${name}.discover.log`),
  );
  if (code !== 0)
    throw new Error(`discover on ${name} exited ${String(code)}: see ${out}/${name}.discover.log`);
  const written = JSON.parse(await readFile(draft, 'utf8')) as Record<string, unknown>;
  const chat = { ...((written['chat'] as Record<string, unknown> | undefined) ?? {}), examples };
  await writeFile(
    profile,
    `${JSON.stringify({ ...written, $schema: undefined, chat }, null, 2)}\n`,
  );
  await eac(
    ['run', ...where, '--profile', profile, '--quiet-progress', '--report', report],
    path.join(out, `${name}.run.log`),
  );
  const { run } = await readRun(path.join(report, 'latest'));
  const notRun = run.results.filter((r) => r.outcome === 'not-run');
  const gaps = notRun.filter((r) => (r.causes ?? []).some((c) => c.kind === 'document-gap'));
  const byEntry: Record<string, number> = {};
  for (const r of notRun)
    for (const c of r.causes ?? []) byEntry[c.entry] = (byEntry[c.entry] ?? 0) + 1;
  const s = run.summary;
  return {
    total: s.total,
    pass: s.pass,
    fail: s.fail,
    probe: s.probe,
    probeErrors: s.probeErrors ?? 0,
    notRun: s.notRun,
    documentGaps: gaps.length,
    notRunShare: Math.round((1000 * (s.notRun - gaps.length)) / s.total) / 10,
    byEntry: Object.fromEntries(Object.entries(byEntry).sort(([, a], [, b]) => b - a)),
    fails: run.results
      .filter((r) => r.outcome === 'fail' || r.outcome === 'probe-error')
      .map((r) => `${r.outcome}: ${r.id}: ${(r.reason ?? '').split('\n')[0] ?? ''}`),
    draft: JSON.stringify(written),
  };
}

const figures: Record<string, Figures> = {};
for (const name of targets) {
  if (name === 'latitude') {
    const hand = JSON.parse(
      await readFile(path.join(root, 'fixtures', 'chat-examples', 'reference.json'), 'utf8'),
    ) as { examples: unknown };
    figures[name] = await judge(name, ['--latitude', 'all'], hand.examples);
    continue;
  }
  const folder = path.join(root, 'candidates', name);
  const own = JSON.parse(await readFile(path.join(folder, 'profile.json'), 'utf8')) as {
    chat?: { examples?: unknown };
  };
  const candidate = await startCandidate(folder, name);
  try {
    const { url, hubUrl, hooksUrl } = candidate.at;
    figures[name] = await judge(
      name,
      ['--target', url, '--hub', hubUrl, '--hooks', hooksUrl],
      own.chat?.examples,
    );
  } finally {
    await candidate.stop();
  }
}

let met = true;
for (const [name, f] of Object.entries(figures)) {
  const goal = f.fail === 0 && f.probeErrors === 0 && f.notRunShare <= 5;
  met &&= goal;
  process.stdout.write(
    `${name}: ${f.pass} pass, ${f.fail} fail, ${f.notRun} not-run (${f.documentGaps} document gaps; ${f.notRunShare}% of ${f.total} otherwise), ${f.probe} probe, ${f.probeErrors} probe-error ${goal ? '(goal met)' : '(goal not met)'}\n`,
  );
  for (const line of f.fails) process.stdout.write(`  ${line}\n`);
  for (const [entry, n] of Object.entries(f.byEntry).slice(0, 25))
    process.stdout.write(`  ${String(n).padStart(4)}  ${entry}\n`);
}
process.stdout.write(`drafts, profiles, logs and reports: ${out}\n`);

if (!values['no-write']) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
    .toString()
    .trim();
  const record = {
    what: 'eac run with a profile as eac profile discover wrote it (chat examples by hand): issue 35',
    date: new Date().toISOString(),
    commit,
    loadAtStart,
    cores: os.cpus().length,
    targets: Object.fromEntries(
      Object.entries(figures).map(([name, { draft: _draft, ...f }]) => [name, f]),
    ),
  };
  await writeFile(
    path.join(root, 'bench', 'results', 'discovered.json'),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}
process.exit(met ? 0 : 1);
