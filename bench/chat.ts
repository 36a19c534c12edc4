/**
 * Chat benchmark (issue 8, part 12): time to the first event of a chat stream, events per
 * second, and the chart query on the full seeded dataset, each beside DuckDB's own time for
 * the same SQL, so the reference's overhead is visible. Writes bench/results/chat.json; no
 * test asserts a time.
 *
 *   npx tsx bench/chat.ts [--samples 40]
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, uptime } from 'node:os';
import { parseArgs } from 'node:util';
import { answer } from '../reference/chat/agent.ts';
import { DataStore } from '../reference/data/database.ts';
import { ORDER_ROWS } from '../reference/data/seed.ts';
import { bindUserPlaceholders, rowFiltersOf, wrapWithTables } from '../reference/data/sql.ts';
import { start } from '../reference/server.ts';

const { values } = parseArgs({ options: { samples: { type: 'string', default: '40' } } });
const samples = Number(values.samples);
const GOAL_MS = 20;
const QUESTION = 'total amount by region';
const PROPERTIES = { organization: 'Acme' };

const round = (x: number) => Math.round(x * 100) / 100;
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    min: round(s[0] ?? NaN),
    max: round(s.at(-1) ?? NaN),
  };
}
const load = () => loadavg().map(round);
const loadAtStart = load();

// ---------------------------------------------------------------- the query, in process
const data = new DataStore();
let t = performance.now();
await data.start();
const seedMs = performance.now() - t;
const connection = data.seedConnection('bench');
const said = await answer(data, connection, QUESTION, PROPERTIES, undefined);
if (said.kind !== 'chart') throw new Error(`the agent did not chart "${QUESTION}"`);
const bound = bindUserPlaceholders(said.sql, PROPERTIES);
if (!bound.ok) throw new Error(bound.error.message);
const wrapped = wrapWithTables(
  bound.value.sql,
  connection.tables,
  rowFiltersOf(connection),
  PROPERTIES,
  bound.value.params.length + 1,
);
if (!wrapped.ok) throw new Error(wrapped.error.message);
const finalSql = wrapped.value.sql;
const finalParams = [...bound.value.params, ...wrapped.value.params];
const unfilteredSql = `SELECT region, round(sum(amount), 2) AS total_amount FROM seed.orders GROUP BY 1 ORDER BY 2 DESC`;

const throughStore: number[] = [];
const duckdbOwn: number[] = [];
const duckdbUnfiltered: number[] = [];
for (let i = 0; i < 5; i++) await data.query(connection, said.sql, PROPERTIES); // warm-up
for (let i = 0; i < samples; i++) {
  t = performance.now();
  const done = await data.query(connection, said.sql, PROPERTIES);
  throughStore.push(performance.now() - t);
  if (!done.ok) throw new Error(done.error.message);
  t = performance.now();
  await data.raw(finalSql, finalParams);
  duckdbOwn.push(performance.now() - t);
  t = performance.now();
  await data.raw(unfilteredSql);
  duckdbUnfiltered.push(performance.now() - t);
}

// ---------------------------------------------------------------- the stream, over HTTP
const running = await start({ hooks: true, seed: 5 });
const hooks = running.hooksUrl ?? '';
async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  if (res.status >= 300 || json.data === undefined)
    throw new Error(`${url}: ${String(res.status)}`);
  return json.data;
}
const account = await post(`${hooks}/accounts`, {});
const org = String(account['organizationId']);
const apiKey = String(account['orgBoundKey']);
const projectId = String((await post(`${hooks}/accounts/${org}/projects`, {}))['projectId']);
const agentId = String(
  (await post(`${hooks}/accounts/${org}/projects/${projectId}/agents`, {}))['agentId'],
);
const pog = String(
  (
    await post(`${running.url}/v1/api/projects/register-organization`, {
      apiKey,
      projectId,
      name: 'Acme',
    })
  )['projectOrganizationId'],
);
async function tokenOf(): Promise<string> {
  const userId = String(
    (
      await post(`${running.url}/v1/api/projects/register-user`, {
        apiKey,
        projectId,
        name: 'Bench',
        properties: PROPERTIES,
        projectOrganizationId: pog,
      })
    )['userId'],
  );
  return String(
    (await post(`${running.url}/v1/api/projects/user-token`, { apiKey, userId }))['token'],
  );
}

interface Timed {
  firstEventMs: number;
  totalMs: number;
  events: number;
}
async function chat(token: string, content: string): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(`${running.url}/v1/api/project-agents/${agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ messages: [{ role: 'user', content }], payload: { agent_id: agentId } }),
  });
  if (res.status !== 200 || res.body === null)
    throw new Error(`chat answered ${String(res.status)}`);
  let first = NaN;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    if (Number.isNaN(first) && text.includes('data: ')) first = performance.now() - started;
  }
  const events = text.split('\n').filter((l) => l.startsWith('data: ')).length;
  return { firstEventMs: first, totalMs: performance.now() - started, events };
}

// The rate limit (§8) counts per user per minute: a fresh user every 150 requests.
let token = await tokenOf();
let used = 0;
const next = async () => {
  if (++used > 150) {
    token = await tokenOf();
    used = 1;
  }
  return token;
};
for (let i = 0; i < 5; i++) await chat(await next(), QUESTION); // warm-up
const charts: Timed[] = [];
const texts: Timed[] = [];
for (let i = 0; i < samples; i++) {
  charts.push(await chat(await next(), QUESTION));
  texts.push(await chat(await next(), 'hello'));
}
const saved = await post(`${running.url}/v1/api/chart/save-from-chat`, {
  apiKey,
  chartConfig: said.chartConfig,
  name: 'Bench',
});
const chartDataMs: number[] = [];
const hookToken = await tokenOf();
for (let i = 0; i < samples; i++) {
  t = performance.now();
  await post(`${hooks}/accounts/${org}/charts/${String(saved['chartId'])}/data`, {
    token: hookToken,
  });
  chartDataMs.push(performance.now() - t);
}
await running.close();

const totalEvents = charts.reduce((n, c) => n + c.events, 0);
const totalSeconds = charts.reduce((n, c) => n + c.totalMs, 0) / 1000;
const firstEvent = stats(charts.map((c) => c.firstEventMs));
const query = stats(throughStore);
const result = {
  benchmark: 'agent chat: first event, events per second, the chart query on the full dataset',
  measuredAt: new Date().toISOString(),
  samples,
  machine: {
    node: process.version,
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    uptimeSeconds: Math.round(uptime()),
    loadAverage1m5m15m: { atStart: loadAtStart, atEnd: load() },
  },
  dataset: { table: 'orders', rows: ORDER_ROWS, seedBuildMs: Math.round(seedMs) },
  question: QUESTION,
  sql: finalSql,
  timeToFirstEventMs: {
    goal: GOAL_MS,
    chart: firstEvent,
    text: stats(texts.map((c) => c.firstEventMs)),
  },
  wholeStreamMs: {
    chart: stats(charts.map((c) => c.totalMs)),
    text: stats(texts.map((c) => c.totalMs)),
  },
  eventsPerStream: charts[0]?.events ?? 0,
  eventsPerSecond: Math.round(totalEvents / totalSeconds),
  chartQueryMs: {
    goal: GOAL_MS,
    throughReference: query,
    duckdbOwnSameSql: stats(duckdbOwn),
    duckdbOwnWithoutRowFilter: stats(duckdbUnfiltered),
    chartDataHookOverHttp: stats(chartDataMs),
    note: 'throughReference = placeholders bound, the read-only/tables check (json_serialize_sql), the row-filter CTE, prepare and run; duckdbOwnSameSql = the same final SQL and parameters run directly.',
  },
  meetsGoal: { timeToFirstEvent: firstEvent.p50 <= GOAL_MS, chartQuery: query.p50 <= GOAL_MS },
};
writeFileSync(
  new URL('./results/chat.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
