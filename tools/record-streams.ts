/**
 * Records golden chat streams (fixtures/streams/recorded-*.json) from a running target with
 * hooks, chunks as they arrived:
 *
 *   npx eac serve --hooks --port 8080 &
 *   npx tsx tools/record-streams.ts --target http://127.0.0.1:8080 --hooks http://127.0.0.1:8080/__eac
 *
 * What each stream must read to is written from the suites' reader and grammar check, and the
 * recording stops if the stream breaks §6; spec/machines/chat-stream.test.ts then holds the
 * model to the same verdict, so the two checks stay honest against each other.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GoldenStream, STREAMS_DIR } from '../fixtures/streams/golden.ts';
import { chartResults, checkGrammar } from '../suites/harness/event-sequence.ts';
import { readStream } from '../suites/harness/sse.ts';

const { values } = parseArgs({
  options: { target: { type: 'string' }, hooks: { type: 'string' } },
});
const target = values.target ?? 'http://127.0.0.1:8080';
const hooks = values.hooks ?? `${target}/__eac`;

async function post<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: T };
  if (!res.ok || json.data === undefined)
    throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const account = await post<{ organizationId: string; orgBoundKey: string }>(`${hooks}/accounts`, {
  name: 'golden streams',
});
const org = account.organizationId;
const apiKey = account.orgBoundKey;
const { projectId } = await post<{ projectId: string }>(`${hooks}/accounts/${org}/projects`, {
  name: 'golden',
});
const { connectionId } = await post<{ connectionId: string }>(
  `${hooks}/accounts/${org}/connections`,
  {
    table: {
      name: 'sales',
      columns: [
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'amount', type: 'number' },
        { name: 'order_date', type: 'date' },
      ],
      rows: [
        { region: 'north', product: 'anvil', amount: 12, order_date: '2025-01-10' },
        { region: 'north', product: 'bolt', amount: 5, order_date: '2025-02-11' },
        { region: 'north', product: 'anvil', amount: 7, order_date: '2025-03-12' },
        { region: 'south', product: 'crate', amount: 900, order_date: '2025-01-13' },
      ],
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  },
);
const { agentId } = await post<{ agentId: string }>(
  `${hooks}/accounts/${org}/projects/${projectId}/agents`,
  { name: 'Golden', connectionId },
);
const { projectOrganizationId } = await post<{ projectOrganizationId: string }>(
  `${target}/v1/api/projects/register-organization`,
  { apiKey, projectId, name: 'Golden customer', externalId: 'golden' },
);
const { userId } = await post<{ userId: string }>(`${target}/v1/api/projects/register-user`, {
  apiKey,
  projectId,
  projectOrganizationId,
  name: 'Golden user',
  properties: { region: 'north' },
});
const { token } = await post<{ token: string }>(`${target}/v1/api/projects/user-token`, {
  apiKey,
  userId,
});

async function record(name: string, description: string, question: string, thread?: string) {
  const res = await fetch(`${target}/v1/api/project-agents/${agentId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      messages: [{ role: 'user', content: question }],
      ...(thread === undefined ? {} : { thread_id: thread }),
      payload: { agent_id: agentId },
    }),
  });
  if (res.body === null) throw new Error(`${name}: no body (${res.status})`);
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const body = res.body as unknown as AsyncIterable<Uint8Array>;
  for await (const bytes of body) chunks.push(decoder.decode(bytes, { stream: true }));
  const tail = decoder.decode();
  if (tail !== '') chunks.push(tail);
  const read = await readStream(chunks);
  const report = checkGrammar(read);
  if (report.problems.length > 0 || report.departures.length > 0)
    throw new Error(`${name}: the stream breaks §6: ${JSON.stringify(report.problems)}`);
  const golden = GoldenStream.parse({
    description,
    clauses: ['events.stream.line-format', 'events.other-types.allowed'],
    source: 'recorded',
    question,
    chunks,
    expect: {
      types: report.types,
      problems: [],
      departures: [],
      sseMessages: read.messages.length,
      chartResults: chartResults(report).length,
    },
  });
  writeFileSync(join(STREAMS_DIR, `recorded-${name}.json`), `${JSON.stringify(golden, null, 2)}\n`);
  console.log(`recorded-${name}: ${read.events.length} events in ${chunks.length} chunks`);
}

const thread = 'golden-thread';
await record(
  'chart',
  'The reference answering a chart question.',
  'total amount by product',
  thread,
);
await record(
  'refinement',
  'A follow-up in the same thread redrawing the chart.',
  'as a pie chart',
  thread,
);
await record(
  'help',
  'Free text outside the grammar: a helpful text answer.',
  'What is the weather like?',
);
await record(
  'top-year',
  'A count per region, top 1, in one year, as a table.',
  'how many sales by region top 1 in 2025 as a table',
);
