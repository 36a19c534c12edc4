import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  START,
  applyChatStream,
  chatStreamTransitions,
  checkStreamText,
  splitLines,
} from './chat-stream.ts';

// The golden streams (fixtures/streams, validated by their own schema there) read as data: the
// suites' checker judges them too, so the model and the checker are held to the same verdicts.
const DIR = join(import.meta.dirname, '../../fixtures/streams');
interface Golden {
  chunks: string[];
  expect: { types: string[]; problems: string[]; departures: string[] };
}
const golden: [string, Golden][] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Golden]);

const d = (o: unknown) => `data: ${JSON.stringify(o)}`;

describe('chat stream machine', () => {
  it('has a table naming every kind of line', () => {
    const commands = new Set(chatStreamTransitions.map((t) => t.command));
    for (const kind of ['text-start', 'text-delta', 'text-end', 'tool-call', 'tool-result'])
      expect(commands).toContain(kind);
    expect(commands).toContain('not-an-event');
    expect(commands).toContain('end');
  });

  it('splits lines at CRLF, CR and LF', () => {
    expect(splitLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });

  it('skips lines that are not events and types it does not know', () => {
    const step = applyChatStream(START, { type: 'line', line: 'data:{"type":"text-end"}' });
    expect(step.ok && step.kind).toBe('not-an-event');
    const other = applyChatStream(START, { type: 'line', line: d({ type: 'finish' }) });
    expect(other.ok && other.kind).toBe('other-type');
  });

  it('pairs a tool-result with the earliest pending call of its tool', () => {
    const v = checkStreamText(
      [
        d({ type: 'tool-call', payload: { toolName: 'a' } }),
        d({ type: 'tool-call', payload: { toolName: 'a' } }),
        d({ type: 'tool-result', payload: { toolName: 'a', result: 1 } }),
        d({ type: 'tool-result', payload: { toolName: 'a', result: 2 } }),
        d({ type: 'tool-result', payload: { toolName: 'a', result: 3 } }),
      ].join('\n'),
    );
    expect(v.violation?.clause).toBe('events.tool-result.after-call');
    expect(v.violation?.at).toBe(4);
  });

  it('refuses anything after the end', () => {
    const end = applyChatStream(START, { type: 'end' });
    if (!end.ok) throw new Error('an empty stream is a valid stream');
    expect(applyChatStream(end.state, { type: 'line', line: '' }).ok).toBe(false);
  });

  describe.each(golden)('golden stream %s', (_file, g) => {
    it('gets the verdict the fixture states', () => {
      const v = checkStreamText(g.chunks.join(''));
      const broken = [...g.expect.problems, ...g.expect.departures];
      if (broken.length === 0) {
        expect(v.violation).toBeUndefined();
        expect(v.events.map((e) => e['type'])).toEqual(g.expect.types);
      } else {
        expect(broken).toContain(v.violation?.clause);
        // The events read before the first rule broken are the fixture's first ones.
        const typed = g.expect.types.slice(0, v.events.length);
        expect(v.events.map((e) => e['type'])).toEqual(typed);
      }
    });
  });
  // Each rule of §6 a stream can break, with the line where the verdict falls.
  const call = (toolName: unknown) => d({ type: 'tool-call', payload: { toolName } });
  it.each([
    ['a line that is not JSON', ['data: {oops'], 'events.stream.line-format', 0],
    ['JSON null', ['data: null'], 'events.stream.line-format', 0],
    ['a JSON array', ['data: [1]'], 'events.stream.line-format', 0],
    ['a JSON string', ['data: "x"'], 'events.stream.line-format', 0],
    ['a type that is not a string', [d({ type: 1 })], 'events.stream.type-field', 0],
    ['a message never closed', [d({ type: 'text-start' })], 'events.text.closed', 'end'],
    ['a call never answered', [call('a')], 'events.tool-call.answered', 'end'],
    [
      'a message inside a message',
      [d({ type: 'text-start' }), d({ type: 'text-start' })],
      'events.text.bracketing',
      1,
    ],
    [
      'a delta without text',
      [d({ type: 'text-start' }), d({ type: 'text-delta' })],
      'events.text-delta',
      1,
    ],
    [
      'a delta whose payload is an array',
      [d({ type: 'text-start' }), d({ type: 'text-delta', payload: ['x'] })],
      'events.text-delta',
      1,
    ],
    [
      'a delta outside a message',
      [d({ type: 'text-delta', payload: { text: 'x' } })],
      'events.text.bracketing',
      0,
    ],
    ['a text-end with no message open', [d({ type: 'text-end' })], 'events.text.closed', 0],
    ['a call without a tool name', [d({ type: 'tool-call' })], 'events.tool-call', 0],
    ['a call whose tool name is a number', [call(3)], 'events.tool-call', 0],
    [
      'a result without a tool name',
      [call('a'), d({ type: 'tool-result' })],
      'events.tool-result',
      1,
    ],
    [
      'a result with a result but no tool name',
      [call('a'), d({ type: 'tool-result', payload: { result: 1 } })],
      'events.tool-result',
      1,
    ],
    [
      'a result without a result',
      [call('a'), d({ type: 'tool-result', payload: { toolName: 'a' } })],
      'events.tool-result',
      1,
    ],
    [
      'a result of a tool never called',
      [call('a'), d({ type: 'tool-result', payload: { toolName: 'b', result: 1 } })],
      'events.tool-result.after-call',
      1,
    ],
  ] as const)('refuses %s, naming the rule and the line', (_what, lines, clause, at) => {
    const v = checkStreamText(lines.join('\n'));
    expect(v.violation?.clause).toBe(clause);
    expect(v.violation?.at).toBe(at);
    expect(v.violation?.message.trim()).not.toBe('');
  });

  it('names the unanswered tools and refuses with a message after the end', () => {
    const v = checkStreamText([call('alpha'), call('beta')].join('\n'));
    expect(v.violation?.message).toContain('alpha');
    expect(v.violation?.message).toContain('beta');
    const end = applyChatStream(START, { type: 'end' });
    if (!end.ok) throw new Error('an empty stream is a valid stream');
    expect(end.kind).toBe('end');
    const after = applyChatStream(end.state, { type: 'line', line: d({ type: 'text-end' }) });
    expect(!after.ok && after.violation.clause).toBe('events.stream.line-format');
    expect(!after.ok && after.violation.message.trim()).not.toBe('');
  });

  it('counts the events and the lines that are not events', () => {
    const v = checkStreamText(
      ['', ': comment', d({ type: 'text-start' }), 'event: x', d({ type: 'text-end' })].join('\n'),
    );
    expect(v.violation).toBeUndefined();
    expect(v.ignored).toBe(3);
    expect(v.events).toHaveLength(2);
    const one = applyChatStream(START, { type: 'line', line: d({ type: 'finish' }) });
    expect(one.ok && one.state.events).toBe(1);
    const none = applyChatStream(START, { type: 'line', line: 'retry: 1' });
    expect(none.ok && [none.state.events, none.state.ignored]).toEqual([0, 1]);
  });

  it('answers a tool-result with a result, pairing it with its call', () => {
    const v = checkStreamText(
      [call('a'), d({ type: 'tool-result', payload: { toolName: 'a', result: null } })].join('\n'),
    );
    expect(v.violation).toBeUndefined();
  });
});
