/**
 * Start-up to first response of the reference (goal: under 300 ms). Each sample runs in a
 * fresh Node process, so module loading counts, as it does for `eac serve` and `eac run`.
 * Figures go to bench/results/startup.json; nothing here asserts a time.
 *
 *   npx tsx bench/startup.ts [samples]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

const SAMPLES = Number(process.argv[2] ?? 15);
const GOAL_MS = 300;

const probe = `
const t0 = performance.now();
const { start } = await import(${JSON.stringify(new URL('../reference/server.ts', import.meta.url).href)});
const tImported = performance.now();
const ref = await start({ hooks: true, seed: 1 });
const tListening = performance.now();
const res = await fetch(ref.url + '/__eac/capabilities');
await res.text();
const tFirst = performance.now();
await ref.close();
console.log(JSON.stringify({ importMs: tImported - t0, listenMs: tListening - tImported, startToFirstResponseMs: tFirst - tImported, firstResponseMs: tFirst - t0, status: res.status }));
`;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

interface Sample {
  importMs: number;
  listenMs: number;
  startToFirstResponseMs: number;
  firstResponseMs: number;
  processMs: number;
}
const samples: Sample[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const started = performance.now();
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', probe],
    {
      encoding: 'utf8',
    },
  );
  const processMs = performance.now() - started;
  const line = out.trim().split('\n').pop() ?? '{}';
  const sample = JSON.parse(line) as Omit<Sample, 'processMs'> & { status: number };
  if (sample.status !== 200) throw new Error(`capabilities answered ${sample.status}`);
  samples.push({ ...sample, processMs });
}

const summary = (key: keyof Sample) => {
  const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
  return {
    p50: Math.round(percentile(sorted, 50)),
    p95: Math.round(percentile(sorted, 95)),
    max: Math.round(sorted.at(-1) ?? NaN),
  };
};

const result = {
  benchmark: 'reference start-up to first response',
  goalMs: GOAL_MS,
  samples: SAMPLES,
  measuredAt: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown' },
  // start() called (modules loaded) to the first answer received: the server's own start-up.
  startToFirstResponseMs: summary('startToFirstResponseMs'),
  // The same plus loading the modules through tsx: what a fresh `eac serve` costs.
  importToFirstResponseMs: summary('firstResponseMs'),
  importMs: summary('importMs'),
  listenMs: summary('listenMs'),
  // Spawning node, registering tsx, loading, starting, answering and closing.
  wholeProcessMs: summary('processMs'),
  meetsGoal: {
    serverStartUp: summary('startToFirstResponseMs').p95 < GOAL_MS,
    freshProcess: summary('firstResponseMs').p95 < GOAL_MS,
  },
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/startup.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
