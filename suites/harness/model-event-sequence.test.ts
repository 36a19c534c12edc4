import { describe, expect, it } from 'vitest';
import { goldenStreams, replays } from '../../fixtures/streams/golden.ts';
import { buildStream, positionCases, type Issue } from '../../fixtures/streams/positions.ts';
import { clauseById } from '../../spec/clauses/index.ts';
import {
  START,
  applyChatStream,
  checkStreamText,
  type ChatStreamState,
} from '../../spec/machines/chat-stream.ts';
import { checkGrammar } from './event-sequence.ts';
import { readStream, readStreamText, type ReadStream } from './sse.ts';

// The suites' §6 checker (event-sequence.ts) and the model (spec/machines/chat-stream.ts) were
// written apart; here both judge the same streams, so a slip in one shows against the other.
// The model stops at the first rule broken: it is compared there.

/** The model's verdict on the lines the suites' reader cut: the first rule broken and its line. */
function modelVerdict(read: ReadStream): { clause: string; line: number | 'end' } | undefined {
  let state: ChatStreamState = START;
  for (const { text, index } of read.lines) {
    const step = applyChatStream(state, { type: 'line', line: text });
    if (!step.ok) return { clause: step.violation.clause, line: index };
    state = step.state;
  }
  const end = applyChatStream(state, { type: 'end' });
  return end.ok ? undefined : { clause: end.violation.clause, line: 'end' };
}

const isMust = (clause: string) => clauseById.get(clause)?.level === 'must';

describe('golden streams: the model reads the lines the reader cut, whatever the chunking', () => {
  it.each(goldenStreams())('%s', async (_name, golden) => {
    const stated = [...golden.expect.problems, ...golden.expect.departures];
    for (const [how, read] of await replays(golden)) {
      const verdict = modelVerdict(read);
      if (stated.length === 0) expect(verdict, how).toBeUndefined();
      else expect(stated, how).toContain(verdict?.clause);
      if (verdict !== undefined && isMust(verdict.clause))
        expect(golden.expect.problems, `${how}: a must broken is a problem`).toContain(
          verdict.clause,
        );
    }
  });
});

describe('every message position: the model stops where the checker says', () => {
  it.each(positionCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const built = buildStream(c.count, c.position, c.kind);
    const whole = readStreamText(built.text);
    const bytes = await readStream(
      Array.from(new TextEncoder().encode(built.text), (b) => Uint8Array.of(b)),
    );
    const report = checkGrammar(whole);
    const last = c.position === c.count - 1;
    const first: Issue | undefined =
      c.kind === undefined ? undefined : last ? c.kind.firstBroken.last : c.kind.firstBroken.other;
    const lineOf = (issue: Issue) => {
      if (issue.at === 'end of stream') return 'end' as const;
      const event = built.roles.get(issue.at)?.[0];
      return event === undefined ? undefined : whole.events[event]?.line;
    };
    const expected =
      first === undefined ? undefined : { clause: first.clause, line: lineOf(first) };
    const byText = checkStreamText(built.text).violation;
    expect(
      byText === undefined ? undefined : { clause: byText.clause, line: byText.at },
      'the model, whole',
    ).toEqual(expected);
    expect(modelVerdict(bytes), 'the model, on the lines read byte by byte').toEqual(expected);
    // Problem or not: a must the model sees broken is a problem the checker reports there; a
    // stream the checker finds no problem in breaks no must for the model.
    const verdict = modelVerdict(whole);
    if (verdict !== undefined && isMust(verdict.clause)) {
      const at = report.problems
        .filter((p) => p.clause === verdict.clause)
        .map((p) => (p.at === 'end' ? 'end' : whole.events[p.at]?.line));
      // What the model sees only at the end, the checker reports at the message left open.
      if (verdict.line === 'end')
        expect(at.length, 'the checker reports the must broken').toBeGreaterThan(0);
      else expect(at, 'the checker reports the must broken on that line').toContain(verdict.line);
    }
    if (report.problems.length === 0)
      expect(verdict === undefined || !isMust(verdict.clause), 'no must broken').toBe(true);
  });
});
