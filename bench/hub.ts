/**
 * The hub browser suite's time and CPU: runs `eac run --only hub --quiet-progress`, samples the
 * CPU of its whole process tree from /proc every half second (chromium's renderers included,
 * which `/usr/bin/time` does not count: they are not reaped by the run), and adds a run to
 * bench/results/hub.json with the load average before and after.
 *
 *   npx tsx bench/hub.ts [--note TEXT]
 *
 * Linux only (/proc). The suite's goal: under 60 s on two quiet cores (issue 9, item 11).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { note: { type: 'string' } } });
const TICK = 100; // USER_HZ on Linux

interface Seen {
  readonly kind: string;
  readonly first: number;
  last: number;
}

function stat(pid: string): { ppid: string; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: f[1] ?? '0', ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}

function kindOf(pid: string): string {
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'other';
  }
  // The browser server (suites/harness/browser-setup.ts) names chromium in its arguments.
  if (cmd.includes('launchServer')) return 'browserServer';
  if (cmd.includes('chromium')) {
    if (cmd.includes('--type=renderer')) return 'chromiumRenderers';
    return cmd.includes('--type=') ? 'chromiumOther' : 'chromiumBrowser';
  }
  if (cmd.includes('vitest')) return 'vitestWorkers';
  if (cmd.includes('bin/eac.ts')) return 'eacMain';
  return 'other';
}

const rootLoad = loadavg()[0] ?? 0;
const started = Date.now();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'bin/eac.ts', 'run', '--only', 'hub', '--quiet-progress'],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
let out = '';
child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
const seen = new Map<string, Seen>();
const sample = () => {
  const parents = new Map<string, string>();
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const s = stat(pid);
    if (s === undefined) continue;
    parents.set(pid, s.ppid);
    ticks.set(pid, s.ticks);
  }
  const mine = (pid: string): boolean => {
    for (let p: string | undefined = pid, n = 0; p !== undefined && n < 40; n++) {
      if (p === String(child.pid)) return true;
      p = parents.get(p);
    }
    return false;
  };
  for (const [pid, t] of ticks) {
    const known = seen.get(pid);
    if (known !== undefined) known.last = t;
    else if (mine(pid)) seen.set(pid, { kind: kindOf(pid), first: 0, last: t });
  }
};
const timer = setInterval(sample, 500);
const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
clearInterval(timer);
const runSeconds = Math.round((Date.now() - started) / 100) / 10;

const cpu: Record<string, number> = {};
let renderers = 0;
for (const s of seen.values()) {
  cpu[s.kind] = (cpu[s.kind] ?? 0) + (s.last - s.first) / TICK;
  if (s.kind === 'chromiumRenderers') renderers += 1;
}
for (const k of Object.keys(cpu)) cpu[k] = Math.round((cpu[k] ?? 0) * 10) / 10;
const total = Math.round(Object.values(cpu).reduce((a, b) => a + b, 0) * 10) / 10;
const counts = /eac: (\d+) pass, (\d+) fail, (\d+) not-run, (\d+) probe \((\d+) tests?\)/.exec(out);
const run = {
  measuredAt: new Date().toISOString(),
  outcomes:
    counts === null
      ? null
      : {
          pass: Number(counts[1]),
          fail: Number(counts[2]),
          notRun: Number(counts[3]),
          probe: Number(counts[4]),
        },
  tests: counts === null ? null : Number(counts[5]),
  runSeconds,
  cpuSecondsSampled: { ...cpu, total },
  rendererProcesses: renderers,
  loadAverage1m: {
    before: Math.round(rootLoad * 100) / 100,
    after: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  },
  note: values.note ?? 'bench/hub.ts',
};
const file = join(root, 'bench', 'results', 'hub.json');
const record = JSON.parse(readFileSync(file, 'utf8')) as { runs: unknown[] };
record.runs = [run, ...record.runs];
writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
console.log(JSON.stringify(run, null, 2));
process.exitCode = code ?? 1;
