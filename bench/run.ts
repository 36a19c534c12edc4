/**
 * Where a full `eac run` spends its time: the run against the embedded reference, timed from
 * outside (wall, CPU of the whole process tree, peak memory), with the time its tests took per
 * area and per file, and what the run checked (tests, clauses covered portably and through a
 * decision, probes) so that a faster run can be shown to check no less.
 *
 *   npx tsx bench/run.ts --label before|after [--seed N] [--unit] [--profile] [--root DIR]
 *
 * `--unit` also times the unit tests (`vitest --project unit`). `--profile` runs once more
 * under V8's CPU profiler (`node --cpu-prof`, which the test workers inherit) and writes where
 * the CPU of the run's own process and of its test workers went, by part of the house and by
 * package (bench/profile.ts); the profiler slows that run, so its figures are shares, not
 * times. `--root DIR` measures a quiet copy (`git clone . DIR` with node_modules linked in).
 * Figures go to bench/results/run.json, one entry per label (a new measurement of a label
 * replaces the old one), with the machine's load before and after: a figure taken under load
 * says so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { coverageTotals } from '../reports/outline.ts';
import { addParts, cpuByPart, type CpuProfile } from './profile.ts';
import type { Results } from '../reports/schema.ts';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    label: { type: 'string', default: 'now' },
    seed: { type: 'string', default: '1' },
    unit: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const ROOT = path.resolve(values.root ?? HERE);
const RESULTS_FILE = path.join(HERE, 'bench', 'results', 'run.json');

interface Timed {
  readonly wallSeconds: number;
  /** User + system CPU as GNU time reports it: only processes waited for (not the browser's). */
  readonly cpuSeconds: number;
  /**
   * CPU of every process of the tree, sampled from /proc while the run lasts (the browser's
   * processes outlive the server that started them and are not counted by GNU time), by kind.
   */
  readonly cpuSampled: Readonly<Record<ProcessKind | 'total', number>>;
  readonly maxRssMb: number;
  readonly exitCode: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

type ProcessKind = 'eac' | 'testWorkers' | 'browserServer' | 'browser' | 'other';

function kindOf(cmdline: string): ProcessKind {
  // The browser server's program names chromium too: it is told apart first.
  if (cmdline.includes('launchServer')) return 'browserServer';
  if (cmdline.includes('chrom')) return 'browser';
  if (cmdline.includes('vitest')) return 'testWorkers';
  if (/\bnode\b|eac/.test(cmdline)) return 'eac';
  return 'other';
}

const TICKS = 100; // USER_HZ on Linux

/** One look at /proc: every process's parent, CPU seconds and command line. */
function processes(): Map<number, { ppid: number; cpu: number; cmdline: string }> {
  const all = new Map<number, { ppid: number; cpu: number; cmdline: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      all.set(Number(name), {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / TICKS,
        cmdline,
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return all;
}

/** Samples the CPU of `root` and its descendants until stopped; the last figure of each pid. */
function sampleTree(root: number): () => Timed['cpuSampled'] {
  const seen = new Map<number, { cpu: number; kind: ProcessKind }>();
  const look = () => {
    const all = processes();
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 20; hops += 1) {
        if (p === root) return true;
        p = all.get(p)?.ppid ?? 0;
      }
      return false;
    };
    for (const [pid, p] of all)
      if (inTree(pid))
        seen.set(pid, { cpu: p.cpu, kind: seen.get(pid)?.kind ?? kindOf(p.cmdline) });
  };
  const timer = setInterval(look, 250);
  return () => {
    clearInterval(timer);
    const by: Record<ProcessKind | 'total', number> = {
      eac: 0,
      testWorkers: 0,
      browserServer: 0,
      browser: 0,
      other: 0,
      total: 0,
    };
    for (const { cpu, kind } of seen.values()) {
      by[kind] += cpu;
      by.total += cpu;
    }
    for (const k of Object.keys(by) as (keyof typeof by)[]) by[k] = Math.round(by[k] * 10) / 10;
    return by;
  };
}

/**
 * Runs a command under GNU time: wall clock, user+system CPU, peak resident memory; and the
 * CPU of the whole process tree, sampled.
 */
async function timed(command: string, args: readonly string[]): Promise<Timed> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'eac-bench-run-')), 'time.txt');
  const loadBefore = loadavg()[0] ?? 0;
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, command, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CI: 'true' },
  });
  const stop = sampleTree(child.pid ?? -1);
  const [code] = (await once(child, 'exit')) as [number | null];
  const cpuSampled = stop();
  const loadAfter = loadavg()[0] ?? 0;
  const [wall, user, sys, rssKb] = readFileSync(out, 'utf8').trim().split('\n').at(-1)!.split(' ');
  rmSync(path.dirname(out), { recursive: true, force: true });
  return {
    wallSeconds: Number(wall),
    cpuSeconds: Math.round((Number(user) + Number(sys)) * 10) / 10,
    cpuSampled,
    maxRssMb: Math.round(Number(rssKb) / 1024),
    exitCode: code ?? -1,
    loadBefore: Math.round(loadBefore * 100) / 100,
    loadAfter: Math.round(loadAfter * 100) / 100,
  };
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/** What the run checked and where its tests spent their time. */
function checked(run: Results) {
  const byArea = new Map<string, { tests: number; testSeconds: number; files: Set<string> }>();
  const byFile = new Map<string, number>();
  for (const r of run.results) {
    const a = byArea.get(r.area) ?? { tests: 0, testSeconds: 0, files: new Set<string>() };
    a.tests += 1;
    a.testSeconds += r.durationMs;
    a.files.add(r.file);
    byArea.set(r.area, a);
    byFile.set(r.file, (byFile.get(r.file) ?? 0) + r.durationMs);
  }
  const t = coverageTotals(run);
  return {
    summary: run.summary,
    coverage: {
      mustObserved: t.firm,
      portable: t.portable,
      throughDecision: t.throughDecision,
      unspecified: t.unspecified,
      probed: t.probed,
      security: t.security,
      securityCovered: t.securityCovered,
    },
    testSecondsTotal: seconds(run.results.reduce((n, r) => n + r.durationMs, 0)),
    byArea: Object.fromEntries(
      [...byArea.entries()]
        .sort((x, y) => y[1].testSeconds - x[1].testSeconds)
        .map(([area, a]) => [
          area,
          { tests: a.tests, files: a.files.size, testSeconds: seconds(a.testSeconds) },
        ]),
    ),
    slowestFiles: Object.fromEntries(
      [...byFile.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 15)
        .map(([file, ms]) => [file, seconds(ms)]),
    ),
  };
}

/**
 * How fast the machine runs now: milliseconds for a fixed piece of single-threaded work (JSON,
 * strings, hashing, as the run does), the best of seven. The same commit measured an hour apart
 * on this virtual machine took from 36 s to 77 s at load 0.3, with this figure moving alike: a
 * run's wall divided by it compares across hours better than the wall alone.
 */
function calibrate(): number {
  const once = () => {
    const started = performance.now();
    for (let i = 0; i < 20_000; i += 1) {
      const row = { id: `id-${String(i)}`, n: i, tags: ['a', 'b', String(i % 7)], ok: i % 2 === 0 };
      createHash('sha256')
        .update(JSON.stringify(JSON.parse(JSON.stringify(row))))
        .digest('hex');
    }
    return performance.now() - started;
  };
  // The first rounds warm the JIT up: the best of seven is steady within a few percent.
  return Math.round(Math.min(...Array.from({ length: 7 }, once)));
}

const reportDir = mkdtempSync(path.join(tmpdir(), 'eac-bench-run-report-'));
const calibrationBefore = calibrate();
const eacRun = (report: string) => [
  path.join(ROOT, 'bin', 'eac.mjs'),
  'run',
  '--quiet-progress',
  '--seed',
  values.seed,
  '--report',
  report,
];
const run = await timed(process.execPath, eacRun(reportDir));
const calibrationAfter = calibrate();
const results = JSON.parse(
  readFileSync(path.join(reportDir, 'latest', 'results.json'), 'utf8'),
) as Results;
rmSync(reportDir, { recursive: true, force: true });
const unit = values.unit
  ? await timed(process.execPath, [
      path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--project',
      'unit',
    ])
  : undefined;

/**
 * The run once more under the CPU profiler: CPU seconds by part, of the run's own process (the
 * runner, vitest's main thread and the embedded reference) and of the test workers together.
 * From the sources (EAC_BUNDLE=0): in the bundle every part of the house is one file.
 */
async function profiled() {
  const dir = mkdtempSync(path.join(tmpdir(), 'eac-bench-profile-'));
  const report = path.join(dir, 'report');
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...eacRun(report)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CI: 'true', EAC_BUNDLE: '0' },
    },
  );
  await once(child, 'exit');
  const wallSeconds = seconds(Date.now() - started);
  const eac: Record<string, number> = {};
  const testWorkers: Record<string, number> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as CpuProfile;
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile
    const owner = Number(name.split('.')[3]);
    addParts(owner === child.pid ? eac : testWorkers, cpuByPart(profile, ROOT));
  }
  rmSync(dir, { recursive: true, force: true });
  const sorted = (parts: Record<string, number>) =>
    Object.fromEntries(Object.entries(parts).sort((a, b) => b[1] - a[1]));
  return { wallSeconds, eac: sorted(eac), testWorkers: sorted(testWorkers) };
}
const profile = values.profile ? await profiled() : undefined;

const entry = {
  label: values.label,
  measuredAt: new Date().toISOString(),
  machine: { cores: cpus().length },
  commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim(),
  seed: Number(values.seed),
  run,
  calibrationMs: { before: calibrationBefore, after: calibrationAfter },
  ...(unit !== undefined ? { unit } : {}),
  ...(profile !== undefined ? { cpuProfile: profile } : {}),
  ...checked(results),
};
const before = existsSync(RESULTS_FILE)
  ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as { runs: { label: string }[] })
  : { runs: [] };
const file = {
  goal: 'eac run against the embedded reference, every area, browser included: <= 60 s wall on the 2-core machine at rest; npm test <= 5 min (issue 24)',
  runs: [...before.runs.filter((r) => r.label !== values.label), entry],
};
writeFileSync(RESULTS_FILE, `${JSON.stringify(file, null, 2)}\n`);
console.log(
  `eac run: ${run.wallSeconds} s wall (calibration ${calibrationBefore} → ${calibrationAfter} ms), ${run.cpuSeconds} s CPU (${run.cpuSampled.total} s sampled, the browser ${run.cpuSampled.browser} s), ${run.maxRssMb} MB peak, load ${run.loadBefore} → ${run.loadAfter}; ${results.summary.total} tests; written to ${path.relative(HERE, RESULTS_FILE)}`,
);
if (unit !== undefined)
  console.log(`unit: ${unit.wallSeconds} s wall, ${unit.cpuSeconds} s CPU (exit ${unit.exitCode})`);
