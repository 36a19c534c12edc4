import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { checkGrammar, type GrammarReport } from '../suites/harness/event-sequence.ts';
import { readStream, type ReadStream } from '../suites/harness/sse.ts';
import { seeded } from '../suites/harness/random.ts';
import { SECOND_MESSAGE, isChatStream, sseTransforms } from './sse.ts';
import type { Answer, Transform } from './transform.ts';

// The streams the reference recorded (fixtures/streams, recorded-*), and one written here whose
// text holds multi-byte characters and whose events carry ids, run through each transform with
// several seeds: the result must still be a §6 stream with the same events, read by the suites'
// own reader (eventsource-parser underneath) and grammar check.

const STREAMS = fileURLToPath(new URL('../fixtures/streams/', import.meta.url));
const recorded = readdirSync(STREAMS)
  .filter((f) => f.startsWith('recorded-') && f.endsWith('.json'))
  .map((f) => {
    const golden = JSON.parse(readFileSync(join(STREAMS, f), 'utf-8')) as { chunks: string[] };
    return { name: f, text: golden.chunks.join('') };
  });

const line = (json: unknown) => `data: ${JSON.stringify(json)}\n\n`;
const WIDE = {
  name: 'multi-byte text, ids on text events',
  text: [
    { type: 'start' },
    { type: 'tool-call', payload: { toolName: 'generateChart', toolCallId: 'c' } },
    {
      type: 'tool-result',
      payload: {
        toolName: 'generateChart',
        toolCallId: 'c',
        result: {
          chartConfig: { title: 'Umsatz über Zeit €' },
          chartData: [{ région: 'Île-de-France', total: 12 }],
          generatedChartRef: 'ref-ü',
          explanation: 'Summe je Région 😀',
        },
      },
    },
    { type: 'text-start', payload: { id: 'm1' } },
    { type: 'text-delta', payload: { id: 'm1', text: 'Die Summe über ' } },
    { type: 'text-delta', payload: { id: 'm1', text: 'alle Régionen: 12 € 😀' } },
    { type: 'text-end', payload: { id: 'm1' } },
    { type: 'finish' },
  ]
    .map(line)
    .join(''),
};
const CASES = [...recorded, WIDE];
const SEEDS = [1, 2, 3, 17, 4242];

const AGENT = '8d3c5a8e-1111-4222-8333-944455556666';
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

const transform = (id: string): Transform => {
  const found = sseTransforms.find((t) => t.id === id);
  if (found === undefined) throw new Error(`no transform ${id}`);
  return found;
};

interface Read {
  readonly stream: ReadStream;
  readonly grammar: GrammarReport;
  readonly events: Record<string, unknown>[];
}

async function read(answer: Answer): Promise<Read> {
  const pieces = answer.pieces ?? [answer.body];
  expect(Buffer.concat(pieces).equals(answer.body), 'the pieces join into the body').toBe(true);
  expect(
    pieces.every((p) => p.length > 0),
    'no piece is empty',
  ).toBe(true);
  const stream = await readStream(pieces);
  return {
    stream,
    grammar: checkGrammar(stream),
    events: stream.events.map((e) => e.json as Record<string, unknown>),
  };
}

/** The JSON of every SSE message an EventSource client dispatches, with its event name. */
function sseMessages(body: Buffer): { event: string | undefined; data: string }[] {
  const out: { event: string | undefined; data: string }[] = [];
  const parser = createParser({
    onEvent: (m) => out.push({ event: m.event, data: m.data }),
  });
  parser.feed(body.toString('utf-8'));
  parser.feed('\n\n');
  return out;
}

const NAMED = new Set(['text-start', 'text-delta', 'text-end', 'tool-call', 'tool-result']);
const rawResults = (r: Read) =>
  r.stream.events.filter((e) => e.raw.includes('"tool-result"')).map((e) => e.raw);

/** What every transform keeps: §6 holds, tool results arrive byte for byte. */
async function kept(before: Read, after: Answer): Promise<Read> {
  const r = await read(after);
  expect(r.grammar.problems, 'the stream still follows §6').toEqual([]);
  expect(r.grammar.departures, 'and no decision is left').toEqual(before.grammar.departures);
  expect(rawResults(r), 'tool results, as written').toEqual(rawResults(before));
  expect(r.grammar.toolCalls).toEqual(before.grammar.toolCalls);
  return r;
}

describe('the SSE transforms touch chat streams only', () => {
  const others: [string, Answer][] = [
    ['a JSON answer', { ...chatAnswer('{}'), headers: { 'content-type': 'application/json' } }],
    ['another path', chatAnswer(WIDE.text, { url: '/v1/api/project-agents/x/other' })],
    ['the hub', chatAnswer(WIDE.text, { origin: 'hub' })],
    ['a GET', chatAnswer(WIDE.text, { method: 'GET' })],
  ];
  it.each(others)('%s is left alone', (_what, answer) => {
    expect(isChatStream(answer)).toBe(false);
    for (const t of sseTransforms) expect(t.apply(answer, seeded(1)), t.id).toBeUndefined();
  });
  it('a chat stream with a query and upper-case type is one', () => {
    const answer = chatAnswer(WIDE.text, { url: `/v1/api/project-agents/${AGENT}/chat?x=1` });
    expect(isChatStream({ ...answer, headers: { 'content-type': 'Text/Event-Stream' } })).toBe(
      true,
    );
  });
  it('the catalogue entries are all there', () => {
    expect(sseTransforms.map((t) => t.id).sort()).toEqual(
      [
        'sse.deltas-recut',
        'sse.non-data-lines',
        'sse.other-types',
        'sse.rechunked',
        'sse.second-message',
      ].sort(),
    );
  });
});

describe.each(CASES)('$name', ({ text }) => {
  const input = chatAnswer(text);

  it.each(SEEDS)('sse.rechunked (seed %i) cuts at awkward places, same bytes', async (seed) => {
    const before = await read(input);
    const out = transform('sse.rechunked').apply(input, seeded(seed))!;
    expect(out.body.equals(input.body)).toBe(true);
    expect(out.pieces!.length, 'many writes').toBeGreaterThan(5);
    const ends = new Set<number>();
    let at = 0;
    for (const p of out.pieces!) ends.add((at += p.length));
    const body = input.body;
    const insidePrefix = [...ends].some((e) => {
      const start = body.lastIndexOf('data: ', e - 1);
      return start !== -1 && e > start && e < start + 6;
    });
    expect(insidePrefix, 'a cut inside "data: "').toBe(true);
    if (body.some((b) => b >= 0x80))
      expect(
        [...ends].some((e) => e < body.length && (body[e]! & 0xc0) === 0x80),
        'a cut inside a multi-byte character',
      ).toBe(true);
    const r = await kept(before, out);
    expect(r.events).toEqual(before.events);
    expect(r.grammar.messages).toEqual(before.grammar.messages);
  });

  it.each(SEEDS)('sse.non-data-lines (seed %i): comments, event: and id: lines', async (seed) => {
    const before = await read(input);
    const out = transform('sse.non-data-lines').apply(input, seeded(seed))!;
    const r = await kept(before, out);
    const kinds = new Set(r.stream.lines.map((l) => l.kind));
    expect(kinds.has('comment'), 'a comment line').toBe(true);
    const others = r.stream.lines.filter((l) => l.kind === 'not-an-event').map((l) => l.text);
    expect(others.some((l) => l === 'event: message')).toBe(true);
    expect(others.some((l) => /^id: \d+$/.test(l))).toBe(true);
    expect(r.stream.unknownFields, 'only fields SSE knows').toBe(0);
    expect(r.events, 'the same events').toEqual(before.events);
    expect(r.grammar.messages).toEqual(before.grammar.messages);
    // An EventSource client sees one message per event, each its JSON, all of type message.
    const messages = sseMessages(out.body);
    expect(messages.map((m) => JSON.parse(m.data) as unknown)).toEqual(before.events);
    expect(messages.every((m) => m.event === undefined || m.event === 'message')).toBe(true);
  });

  it.each(SEEDS)('sse.other-types (seed %i): other types throughout', async (seed) => {
    const before = await read(input);
    const out = transform('sse.other-types').apply(input, seeded(seed))!;
    const r = await kept(before, out);
    const types = new Set(before.grammar.types);
    const added = r.events.filter((e) => !types.has(e['type'] as string));
    expect(added.length, 'events of other types').toBeGreaterThan(2);
    expect(added.every((e) => !NAMED.has(e['type'] as string))).toBe(true);
    expect(
      r.events.filter((e) => types.has(e['type'] as string)),
      'the stream own events, in order',
    ).toEqual(before.events);
    expect(r.grammar.messages).toEqual(before.grammar.messages);
    // One of them inside every text message.
    const start = r.grammar.types.indexOf('text-start');
    const end = r.grammar.types.indexOf('text-end');
    expect(
      r.grammar.types.slice(start, end).some((t) => !types.has(t)),
      'inside a message',
    ).toBe(true);
    expect(JSON.stringify(added), 'no digit a row could be read in').not.toMatch(/\d/);
  });

  it.each(SEEDS)('sse.second-message (seed %i): a second message follows', async (seed) => {
    const before = await read(input);
    const out = transform('sse.second-message').apply(input, seeded(seed))!;
    const r = await kept(before, out);
    expect(r.grammar.messages).toEqual([...before.grammar.messages, SECOND_MESSAGE]);
    // Right after the first text-end, before the finish markers.
    const ends = r.grammar.types.flatMap((t, i) => (t === 'text-end' ? [i] : []));
    expect(r.grammar.types[ends[0]! + 1]).toBe('text-start');
    expect(r.grammar.types.at(-1)).toBe(before.grammar.types.at(-1));
  });

  it.each(SEEDS)('sse.deltas-recut (seed %i): other cuts, same text', async (seed) => {
    const before = await read(input);
    const out = transform('sse.deltas-recut').apply(input, seeded(seed))!;
    const r = await kept(before, out);
    expect(r.grammar.messages).toEqual(before.grammar.messages);
    const deltas = (x: Read) =>
      x.events
        .filter((e) => e['type'] === 'text-delta')
        .map((e) => (e['payload'] as { text: string }).text);
    expect(deltas(r), 'cut elsewhere').not.toEqual(deltas(before));
    expect(
      deltas(r).every((d) => d !== ''),
      'no empty delta',
    ).toBe(true);
    expect(
      r.events.filter((e) => e['type'] !== 'text-delta'),
      'every other event kept',
    ).toEqual(before.events.filter((e) => e['type'] !== 'text-delta'));
    // Members beside text ride along (the ids of the hand-written stream).
    const others = (x: Read) =>
      new Set(
        x.events
          .filter((e) => e['type'] === 'text-delta')
          .map((e) => JSON.stringify({ ...(e['payload'] as object), text: '' })),
      );
    expect(others(r)).toEqual(others(before));
  });

  it('every transform, one after the other in either order, keeps the stream', async () => {
    const before = await read(input);
    for (const order of [sseTransforms, [...sseTransforms].reverse()]) {
      let answer = input;
      for (const t of order) answer = t.apply(answer, seeded(7)) ?? answer;
      const r = await kept(before, answer);
      expect(r.grammar.messages).toEqual([...before.grammar.messages, SECOND_MESSAGE]);
      expect(answer.pieces?.length ?? 0, 'still cut in many writes').toBeGreaterThan(5);
    }
  });
});

describe('a stream the reference never writes', () => {
  it('CRLF line ends and a last line without its end stay readable', async () => {
    const text = WIDE.text.replace(/\n/g, '\r\n').replace(/\r\n\r\n$/, '');
    const input = chatAnswer(text);
    const before = await read(input);
    expect(before.grammar.problems).toEqual([]);
    for (const t of sseTransforms) {
      const out = t.apply(input, seeded(3));
      expect(out, t.id).toBeDefined();
      const r = await kept(before, out!);
      expect(r.stream.lines.some((l) => l.text.includes('\r'))).toBe(false);
    }
  });
  it('a stream with no text message gets no second message and no recut', () => {
    const input = chatAnswer([{ type: 'start' }, { type: 'finish' }].map(line).join(''));
    expect(transform('sse.second-message').apply(input, seeded(1))).toBeUndefined();
    expect(transform('sse.deltas-recut').apply(input, seeded(1))).toBeUndefined();
  });
});
