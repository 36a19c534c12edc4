import { describe, expect, it } from 'vitest';
import { ChatResult } from '../spec/schemas/chat.ts';
import { checkGrammar } from '../suites/harness/event-sequence.ts';
import { readStreamText } from '../suites/harness/sse.ts';
import { seeded } from '../suites/harness/random.ts';
import {
  CHAT_STREAM_STATUS,
  OUTSIDE_TEXT,
  chatStreamTransforms,
  sseMembersExtra,
  sseRowsReordered,
  sseTextOutside,
  sseUnansweredCall,
  statusChatStream,
} from './chat-stream.ts';
import type { Answer } from './transform.ts';

const AGENT = '8d3c5a8e-1111-4222-8333-944455556666';
const line = (json: unknown) => `data: ${JSON.stringify(json)}\n\n`;

const ROWS = [
  { region: 'North', total: 12 },
  { region: 'South', total: 7 },
  { region: 'East', total: 3 },
];

function streamOf(config: Record<string, unknown>, rows: unknown[] = ROWS): string {
  return [
    { type: 'start' },
    { type: 'tool-call', payload: { toolName: 'generateSql' } },
    { type: 'tool-result', payload: { toolName: 'generateSql', result: { sql: 'select 1' } } },
    { type: 'tool-call', payload: { toolName: 'generateChart' } },
    {
      type: 'tool-result',
      payload: {
        toolName: 'generateChart',
        result: {
          chartConfig: { title: 'Total by region', ...config },
          chartData: rows,
          generatedChartRef: 'ref-a',
          explanation: 'The total amount by region.',
        },
      },
    },
    { type: 'text-start' },
    { type: 'text-delta', payload: { text: 'Here is ' } },
    { type: 'text-delta', payload: { text: 'the chart.' } },
    { type: 'text-end' },
    { type: 'finish' },
  ]
    .map(line)
    .join('');
}

function chatAnswer(text: string, over: Partial<Answer['request']> = {}): Answer {
  return {
    request: {
      method: 'POST',
      url: `/v1/api/project-agents/${AGENT}/chat`,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{}'),
      origin: 'api',
      ...over,
    },
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    body: Buffer.from(text, 'utf-8'),
  };
}

const read = (answer: Answer | undefined) => {
  expect(answer, 'the transform changed the answer').toBeDefined();
  const stream = readStreamText(answer!.body.toString('utf-8'));
  return { stream, grammar: checkGrammar(stream) };
};

const chartOf = (answer: Answer | undefined) => {
  const { grammar } = read(answer);
  const results = grammar.toolResults.filter((r) => r.toolName === 'generateChart');
  expect(results).toHaveLength(1);
  return ChatResult.parse(results[0]!.result);
};

const PLAIN = streamOf({});

describe('the chat-stream transforms touch chat streams only', () => {
  it.each([
    ['a JSON answer', { ...chatAnswer(PLAIN), headers: { 'content-type': 'application/json' } }],
    ['the hub', chatAnswer(PLAIN, { origin: 'hub' })],
    ['another path', chatAnswer(PLAIN, { url: '/v1/api/project-agents/x/other' })],
  ])('%s is left alone', (_what, answer) => {
    for (const t of chatStreamTransforms) expect(t.apply(answer, seeded(1)), t.id).toBeUndefined();
  });
});

describe('sse.members-extra', () => {
  it('adds members to events, payloads and the chat result; §6 and §2.7 still hold', () => {
    const out = sseMembersExtra.apply(chatAnswer(PLAIN), seeded(3));
    const { stream, grammar } = read(out);
    expect(grammar.problems).toEqual([]);
    expect(grammar.messages).toEqual(['Here is the chart.']);
    for (const event of stream.events) {
      const json = event.json as Record<string, unknown>;
      expect(typeof json['id'], event.raw).toBe('string');
      expect(json['role']).toBe('assistant');
      expect(event.raw, 'no digit added').not.toMatch(/evt-\S*\d/);
    }
    const textStart = stream.events.find((e) => (e.json as { type: string }).type === 'text-start');
    expect(textStart?.json, 'text-start keeps no payload').not.toHaveProperty('payload');
    const result = grammar.toolResults.find((r) => r.toolName === 'generateChart')!.result;
    expect(result).toMatchObject({ dataSource: 'warehouse', chartData: ROWS });
    expect((result as { chartConfig: unknown }).chartConfig, 'chartConfig as it came').toEqual({
      title: 'Total by region',
    });
    expect(ChatResult.safeParse(result).success).toBe(true);
  });
});

describe('sse.rows-reordered', () => {
  const SQL = 'SELECT region, sum(amount) AS total\nFROM sales\nGROUP BY 1';
  const presented = streamOf({ orderBy: [{ field: 'region' }], sqlOverride: `${SQL}\nORDER BY 1` });

  it('a chart ordered for presentation only comes with no order and its rows moved', () => {
    const out = sseRowsReordered.apply(chatAnswer(presented), seeded(1));
    const chart = chartOf(out);
    expect(chart.chartData).toEqual([ROWS[1], ROWS[2], ROWS[0]]);
    chart.chartData.forEach((row, i) => expect(row).not.toEqual(ROWS[i]));
    expect(chart.chartConfig.orderBy).toEqual([]);
    expect(chart.chartConfig.sqlOverride).toBe(SQL);
    expect(read(out).grammar.problems).toEqual([]);
  });
  it('the SQL is the same wherever the stream repeats it', () => {
    const text = presented.replace(
      '"result":{"sql":"select 1"}',
      `"result":${JSON.stringify({ sql: `${SQL}\nORDER BY 1` })}`,
    );
    const { grammar } = read(sseRowsReordered.apply(chatAnswer(text), seeded(1)));
    expect(grammar.toolResults[0]!.result).toEqual({ sql: SQL });
  });
  it('leaves an order a LIMIT makes part of the answer, a chart with no ORDER BY, one row', () => {
    const top = streamOf({
      orderBy: [{ field: 'total' }],
      sqlOverride: `${SQL}\nORDER BY 2 DESC LIMIT 2`,
    });
    expect(sseRowsReordered.apply(chatAnswer(top), seeded(1))).toBeUndefined();
    expect(sseRowsReordered.apply(chatAnswer(PLAIN), seeded(1))).toBeUndefined();
    const one = streamOf({ sqlOverride: `${SQL}\nORDER BY 1` }, [ROWS[0]]);
    expect(sseRowsReordered.apply(chatAnswer(one), seeded(1))).toBeUndefined();
  });
});

describe('sse.unanswered-call', () => {
  it('a tool call never answered, before the first named event; nothing else changes', () => {
    const before = read(chatAnswer(PLAIN));
    const { grammar } = read(sseUnansweredCall.apply(chatAnswer(PLAIN), seeded(1)));
    expect(grammar.problems).toEqual([]);
    expect(grammar.toolCalls.map((c) => c.toolName)).toEqual([
      'searchDocumentation',
      'generateSql',
      'generateChart',
    ]);
    expect(grammar.departures.map((d) => d.clause)).toEqual(['events.tool-call.answered']);
    expect(grammar.toolResults).toEqual(
      before.grammar.toolResults.map((r) => ({ ...r, at: r.at + 1 })),
    );
    expect(grammar.messages).toEqual(before.grammar.messages);
  });
});

describe('sse.text-outside', () => {
  it('a text-delta before the first message; the messages stay as they were', () => {
    const { grammar, stream } = read(sseTextOutside.apply(chatAnswer(PLAIN), seeded(1)));
    expect(grammar.problems).toEqual([]);
    expect(grammar.departures.map((d) => d.clause)).toEqual(['events.text.bracketing']);
    expect(grammar.messages).toEqual(['Here is the chart.']);
    const at = grammar.types.indexOf('text-delta');
    expect(grammar.types[at + 1]).toBe('text-start');
    expect(stream.events[at]!.json).toEqual({
      type: 'text-delta',
      payload: { text: OUTSIDE_TEXT },
    });
  });
  it('a stream without a message gets the delta at its end', () => {
    const text = [{ type: 'start' }, { type: 'finish' }].map(line).join('');
    const { grammar } = read(sseTextOutside.apply(chatAnswer(text), seeded(1)));
    expect(grammar.types).toEqual(['start', 'finish', 'text-delta']);
  });
});

describe('status.chat-stream', () => {
  it('a 200 stream is answered with another 2xx, its body as it was', () => {
    const answer = chatAnswer(PLAIN);
    const out = statusChatStream.apply(answer, seeded(1));
    expect(out?.status).toBe(CHAT_STREAM_STATUS);
    expect(out?.body.equals(answer.body)).toBe(true);
    expect(statusChatStream.apply({ ...answer, status: 206 }, seeded(1))).toBeUndefined();
  });
});
