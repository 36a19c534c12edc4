import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { checkStreamText } from '../../spec/machines/chat-stream.ts';
import { DataStore, type DataConnection } from '../data/database.ts';
import { sseLine } from './events.ts';
import { plainAnswer, plainEvents, smallDeltas, type PlainAnswer } from './second-agent.ts';

// The second agent (latitude chat.second-agent): its streams follow §6 as the reference's model
// reads them, its chartData is what its SQL returns for the user, its row filters are as strict
// as the data store's, a thread or a history gives a follow-up its context, and it says which
// version answered.

const data = new DataStore({ rows: 10 });
let connection: DataConnection;

const ROWS = [
  { tenant: 'acme', region: 'north', product: 'anvil', amount: 10, order_date: '2025-01-05' },
  { tenant: 'acme', region: 'north', product: 'anvil', amount: 5.5, order_date: '2025-02-05' },
  { tenant: 'acme', region: 'north', product: 'bolt', amount: 2.25, order_date: '2025-02-07' },
  { tenant: 'acme', region: 'south', product: 'crate', amount: 700, order_date: '2025-03-01' },
  { tenant: 'globex', region: 'north', product: 'drum', amount: 9000, order_date: '2025-03-02' },
];
const NORTH = { tenant: 'acme', region: 'north' };

beforeAll(async () => {
  const made = await data.createConnection('org-2', 'conn-2', {
    table: {
      name: 'sales',
      columns: [
        { name: 'tenant', type: 'text' },
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'amount', type: 'number' },
        { name: 'order_date', type: 'date' },
      ],
      rows: ROWS,
    },
    rowFilters: [
      { column: 'tenant', property: 'tenant' },
      { column: 'region', property: 'region' },
    ],
  });
  if (!made.ok) throw new Error(made.error.message);
  connection = made.value;
});
afterAll(async () => {
  await data.dropAccount('org-2');
});

const ask = (question: string, more: { previous?: PlainAnswer; history?: string[] } = {}) =>
  plainAnswer(data, connection, {
    messages: [
      ...(more.history ?? []).flatMap((content) => [
        { role: 'user', content },
        { role: 'assistant', content: 'Here it is.' },
      ]),
      { role: 'user', content: question },
    ],
    properties: NORTH,
    previous: more.previous?.kind === 'chart' ? more.previous.plan : undefined,
  });

const chart = async (question: string, more: Parameters<typeof ask>[1] = {}) => {
  const said = await ask(question, more);
  if (said.kind !== 'chart') throw new Error(`"${question}" answered text: ${said.text}`);
  return said;
};

const streamOf = (said: PlainAnswer, version = 3) =>
  plainEvents(said, { version, threadId: 't-1', question: 'q', chartRef: 'ref-1' })
    .map(sseLine)
    .join('');

describe('the second agent', () => {
  it('imports no part of the grammar agent', () => {
    const source = readFileSync(new URL('./second-agent.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports).not.toContain('./grammar.ts');
    expect(imports).not.toContain('./agent.ts');
  });

  it('streams several messages, a late tool result and types of its own, all as §6 reads them', async () => {
    for (const question of [
      'Show the total amount per product',
      'What is the average amount for each region?',
      'How many orders per tenant?',
      'Largest amount across regions as a table',
      'total amount per month as a line',
      'Which products have the highest amounts?',
      'How much did each region sell?',
      'Break the amount down by month',
      'Hello! What can you do?',
    ]) {
      const said = await ask(question);
      const verdict = checkStreamText(streamOf(said));
      expect(verdict.violation, question).toBeUndefined();
      const types = verdict.events.map((e) => e['type']);
      expect(types).toContain('reasoning');
      expect(types.at(-1)).toBe('finish');
      if (question.startsWith('Hello')) {
        expect(said.kind).toBe('text');
        continue;
      }
      expect(said.kind, question).toBe('chart');
      expect(types.filter((t) => t === 'text-start').length, question).toBe(3);
      // The generateSql result arrives after a message that follows its call.
      const call = types.indexOf('tool-call');
      expect(types.slice(call + 1, types.indexOf('tool-result'))).toContain('text-start');
      const result = verdict.events.find(
        (e) =>
          (e['payload'] as { toolName?: string } | undefined)?.toolName === 'generateChart' &&
          e['type'] === 'tool-result',
      );
      expect(
        ChatResult.safeParse((result?.['payload'] as { result: unknown }).result).success,
      ).toBe(true);
    }
  });

  it('cuts text into small deltas that join back to it', () => {
    const text = 'Looking at sum of amount per product in sales.';
    const parts = smallDeltas(text);
    expect(parts.join('')).toBe(text);
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(6);
  });

  it("answers with chartData that is exactly its SQL's rows for the user, and only the user's rows", async () => {
    const said = await chart('Show the total amount per product');
    expect(said.chartData).toEqual([
      { label: 'anvil', value: 15.5 },
      { label: 'bolt', value: 2.25 },
    ]);
    const again = await data.query(connection, said.sql, NORTH);
    expect(again.ok && again.value.rows).toEqual(said.chartData);
    expect(said.chartConfig['sqlOverride']).toBe(said.sql);
  });

  it('writes every row filter into its SQL, so the SQL alone keeps other rows out', async () => {
    const said = await chart('How many orders per region?');
    expect(said.sql).toContain(`"tenant" = '{{user.tenant}}'`);
    expect(said.sql).toContain(`"region" = '{{user.region}}'`);
    const unfiltered = { ...connection, rowFilters: [] };
    const rows = await data.query(unfiltered, said.sql, NORTH);
    expect(rows.ok && rows.value.rows).toEqual([{ label: 'north', value: 3 }]);
    // A value only hidden rows hold is never found as a filter either.
    const hidden = await ask('now only for drum', { previous: said });
    expect(hidden.kind === 'chart' ? hidden.chartData : []).toEqual([{ label: 'north', value: 3 }]);
  });

  it('changes the last chart of a thread and keeps its measure and dimension', async () => {
    const first = await chart('Show the total amount per region');
    const pie = await chart('now as a pie chart', { previous: first });
    expect(pie.chartConfig['type']).toBe('pie');
    expect(pie.chartConfig['dimensions']).toEqual(first.chartConfig['dimensions']);
    expect(pie.chartConfig['measures']).toEqual(first.chartConfig['measures']);
    expect(pie.chartData).toEqual(first.chartData);
    const only = await chart('only for anvil', { previous: first });
    expect(only.chartConfig['filters']).toEqual([{ field: 'product', value: 'anvil' }]);
    expect(only.chartData).toEqual([{ label: 'north', value: 15.5 }]);
    const regrouped = await chart('and per product instead', { previous: first });
    expect(regrouped.chartConfig['measures']).toEqual(first.chartConfig['measures']);
    expect((regrouped.chartConfig['dimensions'] as { field: string }[])[0]?.field).toBe('product');
  });

  it('answers a follow-up without context with text, and takes the context from the history too', async () => {
    expect((await ask('now as a pie chart')).kind).toBe('text');
    expect((await ask('and per product instead')).kind).toBe('text');
    const first = await chart('Show the total amount per region');
    const fromHistory = await chart('now as a pie chart', {
      history: ['Show the total amount per region'],
    });
    expect(fromHistory.chartConfig['dimensions']).toEqual(first.chartConfig['dimensions']);
    expect(fromHistory.chartConfig['measures']).toEqual(first.chartConfig['measures']);
    expect(fromHistory.chartConfig['type']).toBe('pie');
  });

  it('reports the answering version in its start event', async () => {
    const said = await ask('Hello');
    const start = checkStreamText(streamOf(said, 2)).events[0];
    expect(start).toEqual({
      type: 'start',
      payload: { agent: { kind: 'plain', version: 2 }, conversation: 't-1' },
    });
  });
});
