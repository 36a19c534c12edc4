/**
 * Fresh-process start-up, side by side: `eac serve` (the bundled CLI, bin/eac.mjs with a fresh
 * dist/), the same through the TypeScript sources (tsx, what runs when dist/ is stale), and a
 * bare node:http server. Each sample spawns a new Node process and times from the spawn to the
 * first answered request; the kinds take turns so they share the machine's load. Goal (issue
 * 10, part 6): the bundled median within 3× the bare server's.
 *
 *   npx tsx bench/startup.ts [samples] [--root DIR]
 *
 * samples defaults to 15; the figures go to this project's bench/results/startup.json. The
 * bundle is rebuilt first. Other work in the tree can make it stale during the run: a bundled
 * sample then exits 2 (EAC_BUNDLE=1) and is retried after a rebuild, never measured through
 * the sources by mistake. On a tree others are editing, `--root DIR` measures a quiet copy
 * instead (`git clone . DIR` with node_modules linked in): it is built and run there.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  options: { root: { type: 'string' } },
  allowPositionals: true,
});
/** The project measured: this one, or the quiet copy `--root` names. */
const ROOT = path.resolve(values.root ?? HERE);
const SAMPLES = Number(positionals[0] ?? 15);
const GOAL_RATIO = 3;
const BIN = path.join(ROOT, 'bin', 'eac.mjs');

/** `npm run build` in ROOT; its line says how many inputs and how long. */
function buildBundle(): { inputs: number; ms: number } {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'tools', 'build.ts')],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(`the build failed: ${run.stderr}`);
  const line = /from (\d+) inputs.* in (\d+) ms/.exec(run.stdout);
  return { inputs: Number(line?.[1] ?? NaN), ms: Number(line?.[2] ?? NaN) };
}

/** A bare server: what Node itself costs to start, listen and answer. */
const BARE = `
import { createServer } from 'node:http';
const server = createServer((req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => console.log('url http://127.0.0.1:' + server.address().port));
`;

interface Kind {
  readonly name: 'bare' | 'bundled' | 'sources';
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Path of the first request, after the URL the process prints. */
  readonly path: string;
}

const KINDS: readonly Kind[] = [
  { name: 'bare', args: ['--input-type=module', '-e', BARE], env: {}, path: '/' },
  {
    name: 'bundled',
    args: [BIN, 'serve', '--hooks', '--port', '0', '--seed', '1'],
    env: { EAC_BUNDLE: '1' },
    path: '/__eac/capabilities',
  },
  {
    name: 'sources',
    args: [BIN, 'serve', '--hooks', '--port', '0', '--seed', '1'],
    env: { EAC_BUNDLE: '0' },
    path: '/__eac/capabilities',
  },
];

class StaleBundle extends Error {}

/** Spawn to first answer, in ms; the process is stopped afterwards. */
/**
 * CPU time (user + system, every thread) a process has used so far, from /proc; undefined
 * elsewhere. Less swayed than wall time by what else the machine runs.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name: state is field 3, utime 14 and stime 15 (in clock ticks).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

interface Sample {
  readonly ms: number;
  readonly cpuMs: number | undefined;
}

async function sample(kind: Kind): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, kind.args, {
    cwd: ROOT,
    env: { ...process.env, ...kind.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /url\s+(http:\/\/\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void exited.then((code) =>
        reject(
          code === 2 && stderr.includes('EAC_BUNDLE=1')
            ? new StaleBundle()
            : new Error(`${kind.name} exited ${String(code)} before listening: ${stderr}`),
        ),
      );
    });
    const response = await fetch(`${url}${kind.path}`);
    await response.text();
    const ms = performance.now() - started;
    const cpu = cpuMs(child.pid);
    if (response.status !== 200) throw new Error(`${kind.name} answered ${response.status}`);
    return { ms, cpuMs: cpu };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

function stats(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: Math.round(percentile(sorted, 50)),
    p90: Math.round(percentile(sorted, 90)),
    min: Math.round(sorted[0] ?? NaN),
    max: Math.round(sorted.at(-1) ?? NaN),
  };
}

const build = buildBundle();
let rebuilds = 0;
const times: Record<Kind['name'], Sample[]> = { bare: [], bundled: [], sources: [] };
// One warm-up round, not counted: the first spawn pays for cold file caches.
for (const kind of KINDS) await sample(kind).catch(() => undefined);
const loadBefore = loadavg()[0] ?? NaN;
for (let i = 0; i < SAMPLES; i++) {
  for (const kind of KINDS) {
    for (;;) {
      try {
        times[kind.name].push(await sample(kind));
        break;
      } catch (error) {
        if (!(error instanceof StaleBundle) || rebuilds >= 20) throw error;
        rebuilds += 1;
        buildBundle();
      }
    }
  }
}

const wall = (name: Kind['name']) => stats(times[name].map((t) => t.ms));
const cpu = (name: Kind['name']) => {
  const known = times[name].map((t) => t.cpuMs).filter((c) => c !== undefined);
  return known.length === times[name].length ? stats(known) : undefined;
};
const [bare, bundled, sources] = [wall('bare'), wall('bundled'), wall('sources')];
const [bareCpu, bundledCpu, sourcesCpu] = [cpu('bare'), cpu('bundled'), cpu('sources')];
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const result = {
  benchmark: 'fresh process to first answered request: eac serve vs a bare node:http server',
  goal: `bundled eac serve within ${GOAL_RATIO}x a bare node:http server (medians)`,
  samples: SAMPLES,
  measuredAt: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    loadAverage1m: {
      before: Math.round(loadBefore * 100) / 100,
      after: Math.round((loadavg()[0] ?? NaN) * 100) / 100,
    },
  },
  project: {
    measured: values.root !== undefined ? `a copy at ${ROOT}` : 'this tree',
    commit: spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
  },
  bundle: { inputs: build.inputs, buildMs: build.ms, rebuildsDuringRun: rebuilds },
  ms: { bare, bundled, sources },
  ratioToBare: {
    bundled: { median: ratio(bundled.median, bare.median), p90: ratio(bundled.p90, bare.p90) },
    sources: { median: ratio(sources.median, bare.median), p90: ratio(sources.p90, bare.p90) },
  },
  meetsGoal: bundled.median <= GOAL_RATIO * bare.median,
  // CPU time each process had used by its first answer (Linux /proc; 10 ms ticks).
  cpuMs:
    bareCpu !== undefined && bundledCpu !== undefined && sourcesCpu !== undefined
      ? {
          bare: bareCpu,
          bundled: bundledCpu,
          sources: sourcesCpu,
          ratioToBare: {
            bundled: ratio(bundledCpu.median, bareCpu.median),
            sources: ratio(sourcesCpu.median, bareCpu.median),
          },
        }
      : 'not measured (no /proc)',
  samplesMs: {
    bare: times.bare.map((t) => Math.round(t.ms)),
    bundled: times.bundled.map((t) => Math.round(t.ms)),
    sources: times.sources.map((t) => Math.round(t.ms)),
  },
};
mkdirSync(path.join(HERE, 'bench', 'results'), { recursive: true });
writeFileSync(
  path.join(HERE, 'bench', 'results', 'startup.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify({ ...result, samplesMs: undefined }, null, 2));
