import { expect } from 'vitest';
import { conformance, probe } from '../harness/conformance.ts';
import { describeIssues } from '../harness/event-sequence.ts';
import { chartAnswers, chartQuestions, chatWorld, parts, theChart, userOf } from './kit.ts';
import { CHAT, GRAMMAR, chat, chatBody, expectStream } from '../harness/chat.ts';

// §4.15 and §6: what every agent's answer must be, whatever it says (a candidate's agent may
// be a language model: its words and charts are not ours to predict), then what the reference
// agent's grammar lets us predict (needs agent-grammar).

/** Questions any analytics agent may get; they need not be understood. */
const PORTABLE_QUESTIONS = [
  'What is the total amount by product?',
  'Hello! What can you do?',
  'Show me the amount per region as a bar chart',
];

conformance(
  [
    'chat.stream.path',
    'chat.stream.content-type',
    'events.stream.line-format',
    'events.stream.type-field',
    'events.non-data-lines',
    'events.other-types.allowed',
    'events.text-start',
    'events.text-delta',
    'events.text-end',
    'events.text.closed',
    'events.tool-call',
    'events.tool-result',
    'events.tool-result.after-call',
    'auth.bearer.chat-and-v2',
  ],
  'every answer is a text/event-stream of typed data lines that follows the §6 grammar',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    for (const question of PORTABLE_QUESTIONS) {
      const answer = expectStream(
        await chat(t, w.agentId, user.token, chatBody(w.agentId, { question })),
        `asking "${question}"`,
      );
      expect(
        answer.stream.events.length,
        `"${question}": the stream holds no event`,
      ).toBeGreaterThan(0);
    }
  },
  { needs: CHAT, parts },
);

conformance(
  [
    'events.tool-result.generate-chart',
    'chat.result.fields',
    'chat.result.chart-data-rows',
    'chat.result.generated-chart-ref',
    'chat.result.explanation',
    'charts.config.title',
    'charts.config.dimensions',
    'charts.config.measures',
    'charts.config.format',
    'charts.config.comparisons',
    'charts.config.map-config',
    'charts.config.filters',
    'charts.config.having-filters',
    'charts.config.settings',
    'charts.config.order-by',
  ],
  'every generateChart result is a §2.7 chat result whose chartConfig has the §2.6 shapes',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 1);
    for (const question of PORTABLE_QUESTIONS) {
      // expectStream validates each generateChart result against the §2.7/§2.6 schema.
      expectStream(
        await chat(t, w.agentId, user.token, chatBody(w.agentId, { question })),
        `asking "${question}"`,
      );
    }
  },
  { needs: CHAT, parts },
);

conformance(
  [
    'events.tool-names.examples',
    'events.tool-result.generate-chart',
    'charts.config.type',
    'charts.config.dimensions-extra',
    'charts.config.measures-aggregation',
    'charts.config.settings-legend-bottom',
    'charts.config.settings-layout',
  ],
  'a chart question is answered through generateSql and generateChart, the chart filled as chat output shows it',
  async (t) => {
    const w = await chatWorld(t);
    const answer = expectStream(
      await chat(
        t,
        w.agentId,
        userOf(w, 1, 0).token,
        chatBody(w.agentId, { question: 'total amount by product as a pie chart' }),
      ),
      'a chart question',
    );
    const names = answer.grammar.toolCalls.map((c) => c.toolName);
    expect(names, 'the tools called').toEqual(
      expect.arrayContaining(['generateSql', 'generateChart']),
    );
    const { chartConfig } = theChart(answer, 'a chart question');
    expect(chartConfig.type, 'the chart type asked for').toBe('pie');
    const dimension = chartConfig.dimensions?.[0] ?? {};
    expect(typeof dimension['type'], 'the dimension carries a type').toBe('string');
    expect(typeof dimension['bucketing'], 'the dimension carries its bucketing').toBe('string');
    const measure = chartConfig.measures?.[0] ?? {};
    expect(typeof measure['aggregation'], 'the measure carries its aggregation').toBe('string');
    expect(chartConfig.settings?.legendPosition).toBe('bottom');
    expect(chartConfig.settings, 'settings carry a layout').toHaveProperty('layout');
    expect(typeof chartConfig.sqlOverride, 'the SQL behind the chart').toBe('string');
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['events.stream.type-field'],
  'every chat event, of a chart answer and of a thank-you answer alike, has a non-empty type',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const answers = await chartAnswers(t, w, user, chartQuestions(t, 1), 1);
    const charted = answers.find((a) => a.charts.length > 0)?.answer;
    const text = expectStream(
      await chat(t, w.agentId, user.token, chatBody(w.agentId, { question: 'Thank you!' })),
      '"Thank you!"',
    );
    for (const [what, answer] of [
      ['a chart answer', charted],
      ['a thank-you answer', text],
    ] as const)
      for (const [at, type] of (answer?.grammar.types ?? []).entries())
        expect(type, `${what}: event ${at} has an empty type`).not.toBe('');
  },
  { needs: CHAT, parts },
);

probe(
  ['events.stream.end'],
  'how a chat stream ends',
  async (t) => {
    const w = await chatWorld(t);
    const answer = await chat(
      t,
      w.agentId,
      userOf(w, 0, 0).token,
      chatBody(w.agentId, { question: 'total amount by region' }),
    );
    const last = answer.grammar.types.at(-1) ?? '(no event)';
    t.observe(`last event type: ${last}`, last === 'finish');
  },
  { needs: CHAT, parts },
);

probe(
  ['events.stream.sse-framing'],
  'whether each chat event is its own Server-Sent Events message',
  async (t) => {
    const w = await chatWorld(t);
    const answer = await chat(
      t,
      w.agentId,
      userOf(w, 0, 0).token,
      chatBody(w.agentId, { question: 'total amount by product' }),
    );
    const { events, messages } = answer.stream;
    const oneEach =
      messages.length === events.length && messages.every((m) => m.lines.length === 1);
    t.observe(
      `${events.length} events in ${messages.length} SSE messages${oneEach ? ', one data line each' : ''}`,
      oneEach && events.length > 0,
    );
  },
  { needs: CHAT, parts },
);

probe(
  ['events.text.bracketing', 'events.tool-call.answered'],
  'whether text stays inside messages and every tool call is answered',
  async (t) => {
    const w = await chatWorld(t);
    const departures = [];
    for (const question of PORTABLE_QUESTIONS) {
      const answer = await chat(
        t,
        w.agentId,
        userOf(w, 1, 1).token,
        chatBody(w.agentId, { question }),
      );
      departures.push(...answer.grammar.departures);
    }
    t.observe(
      departures.length === 0
        ? 'every text-delta inside a message, no nesting, every tool-call answered'
        : describeIssues(departures),
      departures.length === 0,
    );
  },
  { needs: CHAT, parts },
);
