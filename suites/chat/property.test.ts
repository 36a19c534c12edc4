import fc from 'fast-check';
import { expect } from 'vitest';
import { conformance } from '../harness/conformance.ts';
import { chatWorld, leaks, parts, userOf } from './kit.ts';
import { CHAT, GRAMMAR, chat, chatBody, expectStream } from '../harness/chat.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';

// Properties of §6 and §2.7 over arbitrary questions: questions built from the words of the
// reference agent's grammar (docs/reference-agent.md) and arbitrary free text. Whatever the question, the answer
// is a stream that follows the grammar, every generateChart result is a chat result, and no
// value of rows hidden from the user appears. Seeded per test (t.fc()).

const MEASURES = [
  'total amount',
  'average amount',
  'maximum amount',
  'lowest amount',
  'count of sales',
  'how many sales',
  'amount',
  'revenue',
];
const DIMENSIONS = [
  '',
  ' by product',
  ' by region',
  ' per tenant',
  ' by month',
  ' quarterly',
  ' by year',
  ' daily',
];
const TOPS = ['', ' top 2', ' top 10'];
const YEARS = ['', ' in 2025', ' only 2024'];
const TYPES = [
  '',
  ' as a bar chart',
  ' as a pie',
  ' as a line',
  ' as a table',
  ' as a number',
  ' area',
  ' scatter',
];

const grammarQuestion = fc
  .record({
    measure: fc.constantFrom(...MEASURES),
    dimension: fc.constantFrom(...DIMENSIONS),
    top: fc.constantFrom(...TOPS),
    year: fc.constantFrom(...YEARS),
    type: fc.constantFrom(...TYPES),
    ask: fc.constantFrom('', 'Show ', 'What is the ', 'Chart the '),
  })
  .map((q) => `${q.ask}${q.measure}${q.dimension}${q.top}${q.year}${q.type}`);

const followUp = fc.constantFrom(
  'as a bar chart',
  'as a pie chart',
  'by region instead',
  'by month',
  'only 2025',
  'top 1',
  'without filters',
  'thanks!',
);

const freeText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.lorem({ maxCount: 12 }),
);

conformance(
  [
    'events.stream.line-format',
    'events.stream.type-field',
    'events.text.closed',
    'events.tool-result.after-call',
    'events.tool-result.generate-chart',
    'chat.result.fields',
    'security.data.rows-of-the-user',
  ],
  'any question, in the grammar or free text, gets a stream following §6 with valid chat results and no hidden rows',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    await fc.assert(
      fc.asyncProperty(fc.oneof(grammarQuestion, freeText), async (question) => {
        const answer = expectStream(
          await chat(t, w.agentId, user.token, chatBody(w.agentId, { question })),
          `asking ${JSON.stringify(question)}`,
        );
        const rows = answer.charts.flatMap((c) => ChatResult.parse(c).chartData);
        expect(leaks(w, user, rows), `asking ${JSON.stringify(question)}: hidden rows`).toEqual([]);
      }),
      t.fc(40),
    );
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

conformance(
  ['events.tool-result.generate-chart', 'chat.result.fields', 'chat.thread.keeps-context'],
  'any grammar question followed by any refinements in one thread is answered with a valid chart each time',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 1);
    await fc.assert(
      fc.asyncProperty(
        grammarQuestion,
        fc.array(followUp, { maxLength: 3 }),
        fc.uuid(),
        async (question, followUps, thread) => {
          for (const [i, q] of [question, ...followUps].entries()) {
            const answer = expectStream(
              await chat(
                t,
                w.agentId,
                user.token,
                chatBody(w.agentId, { question: q, thread_id: thread }),
              ),
              `${JSON.stringify(q)} (message ${i + 1} of the thread)`,
            );
            if (q !== 'thanks!')
              expect(answer.charts.length, `${JSON.stringify(q)}: a chart`).toBeGreaterThan(0);
            const rows = answer.charts.flatMap((c) => ChatResult.parse(c).chartData);
            expect(leaks(w, user, rows), `${JSON.stringify(q)}: hidden rows`).toEqual([]);
          }
        },
      ),
      t.fc(20),
    );
  },
  { needs: GRAMMAR, parts, timeout: 60_000 },
);
