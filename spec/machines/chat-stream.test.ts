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
});
