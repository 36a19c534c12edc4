import { describe, expect, it } from 'vitest';
import {
  buildStream,
  MESSAGE_PIECES,
  positionCases,
  type Issue,
} from '../../fixtures/streams/positions.ts';
import { checkGrammar, type GrammarIssue } from './event-sequence.ts';
import { readStream, readStreamText } from './sse.ts';

// §6 at every message position: each message of streams of two and three, malformed in each
// way (fixtures/streams/positions.ts), must be reported at its own events, the messages before
// it still complete with their text, whether the stream arrives whole or one byte at a time.

const cases = positionCases();

/** The expected issues, each role expanded to the event indexes it names. */
function expand(issues: readonly Issue[], roles: ReadonlyMap<string, readonly number[]>): string[] {
  return issues
    .flatMap(({ clause, at }) =>
      at === 'end of stream'
        ? [`${clause}@end`]
        : (roles.get(at) ?? []).map((i) => `${clause}@${i}`),
    )
    .sort();
}
const found = (issues: readonly GrammarIssue[]) =>
  issues.map(({ clause, at }) => `${clause}@${at}`).sort();

describe('the §6 grammar at every message position', () => {
  it('covers each position of two and three messages with each kind', () => {
    expect(cases.length).toBe(2 * 6 + 3 * 6 + 2);
  });

  describe.each(cases)('$name', ({ count, position, kind }) => {
    const built = buildStream(count, position, kind);

    it.each([
      ['whole', () => readStreamText(built.text)],
      [
        'byte by byte',
        () => readStream(Array.from(new TextEncoder().encode(built.text), (b) => Uint8Array.of(b))),
      ],
    ] as const)('is reported at its own events (%s)', async (_how, read) => {
      const report = checkGrammar(await read());
      expect(found(report.problems), 'problems').toEqual(expand(kind?.problems ?? [], built.roles));
      expect(found(report.departures), 'departures').toEqual(
        expand(kind?.departures ?? [], built.roles),
      );
      const before = MESSAGE_PIECES.slice(0, position).map((p) => p.join(''));
      expect(report.messages.slice(0, position), 'the messages before it').toEqual(before);
      expect(report.messages, 'every message completed').toEqual(built.messages);
    });
  });
});
