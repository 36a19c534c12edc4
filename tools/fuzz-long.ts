/**
 * The long profile of the robustness fuzzer (issue 11 part 3): the requests of
 * suites/robustness/generate.ts, by the hundred thousand, against a reference started in this
 * process, measuring its memory before and after (after a full GC). Memory is a benchmark
 * figure, not an assertion; a 5xx or an error outside the §7 envelope is a finding and makes
 * the command exit 1. Figures go to bench/results/fuzz.json.
 *
 *   npm run fuzz:long [-- --requests 100000 --seed 7 --concurrency 8]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { request } from 'undici';
import { start } from '../reference/server.ts';
import {
  judge,
  loadOperations,
  requestsArb,
  type FuzzContext,
  type FuzzRequest,
} from '../suites/robustness/generate.ts';
import { fuzzWorld } from '../suites/robustness/world.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '7' },
    concurrency: { type: 'string', default: '8' },
  },
});
const total = Number(values.requests);
const seed = Number(values.seed);
const concurrency = Number(values.concurrency);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function memory() {
  gc();
  gc();
  const m = process.memoryUsage();
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return { rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), externalMB: mb(m.external) };
}

const running = await start({ hooks: true, seed });
const base = running.url;
const hooks = running.hooksUrl ?? `${base}/__eac`;

async function call(method: string, url: string, body?: unknown) {
  const res = await request(url, {
    method: method as 'GET',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const json = (await res.body.json()) as { data?: Record<string, unknown> };
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode}`);
  return json.data ?? {};
}

const ctx: FuzzContext = await fuzzWorld(call, { base, hooks });

const { operations, doc } = loadOperations();
const arb = requestsArb(operations, doc, ctx);

const statuses: Record<string, number> = {};
const problems: string[] = [];
let sent = 0;
let transportErrors = 0;

async function send(r: FuzzRequest): Promise<void> {
  try {
    const res = await request(`${base}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body ?? null,
    });
    const text = await res.body.text();
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    const wrong = judge(r, res.statusCode, String(res.headers['content-type'] ?? ''), text);
    if (wrong !== undefined && problems.length < 50) problems.push(`${r.label}: ${wrong}`);
  } catch (error) {
    // The server closing a connection on a request it refuses is allowed; count it.
    transportErrors += 1;
    if (transportErrors <= 5) console.log(`transport: ${r.label}: ${String(error)}`);
  }
  sent += 1;
}

const before = memory();
const started = Date.now();
const CHUNK = 1000;
for (let chunk = 0; sent < total; chunk++) {
  const batch = fc.sample(arb, { seed: seed + chunk, numRuns: Math.min(CHUNK, total - sent) });
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batch.length) {
        const r = batch[next++];
        if (r !== undefined) await send(r);
      }
    }),
  );
  if ((chunk + 1) % 10 === 0)
    console.log(`${sent} requests, ${Math.round((Date.now() - started) / 1000)} s`);
}
const seconds = (Date.now() - started) / 1000;
// The process keeps serving: a plain request still works.
const alive = await request(
  `${base}/v1/api/projects/${ctx.ids['projectId']?.[0] ?? ''}/user-roles?apiKey=${encodeURIComponent(ctx.orgBoundKey)}`,
);
await alive.body.text();
const after = memory();
await running.close();

const figures = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  seed,
  requests: sent,
  concurrency,
  seconds: Math.round(seconds),
  requestsPerSecond: Math.round(sent / seconds),
  operations: operations.length,
  statuses,
  transportErrors,
  serverErrors: Object.entries(statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0),
  problems,
  stillServing: alive.statusCode === 200,
  memory: {
    note: 'this process (reference and fuzzer together), after a full GC',
    before,
    after,
  },
};
mkdirSync(join(import.meta.dirname, '..', 'bench', 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, '..', 'bench', 'results', 'fuzz.json'),
  `${JSON.stringify(figures, null, 2)}\n`,
);
console.log(JSON.stringify({ ...figures, problems: problems.slice(0, 5) }, null, 2));
if (problems.length > 0 || !figures.stillServing) process.exitCode = 1;
