import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { registerOrganization } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, refusedAs } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';
import {
  chartAnswers,
  chatUser,
  chatWorld,
  leaks,
  parts,
  salesRows,
  userOf,
  visibleTo,
  type ChatUser,
  type ChatWorld,
  type SaleRow,
} from './kit.ts';
import {
  CHAT,
  chat,
  chatBody,
  expectStream,
  isEventStream,
  isStreamed,
  type ChatAnswer,
} from '../harness/chat.ts';

// Row-level security (§1, §2.4 `{{user.<key>}}`) through the chat: the agent reaches a small
// table the test loaded with row filters on tenant and region, so the test knows which rows
// each user may see. Whatever an agent answers, no value that only hidden rows hold may reach
// the user (portable); with the reference agent's grammar the exact rows are known too.

const QUESTIONS = [
  'What is the total amount by product?',
  'Show the amount per region',
  'List every product with its amount',
];

/** Every value an answer shows: chart rows, chart configs, tool results and the text. */
function shown(answer: ChatAnswer): Record<string, unknown>[] {
  return [
    ...answer.charts.flatMap((c) => {
      const parsed = ChatResult.safeParse(c);
      return parsed.success ? parsed.data.chartData : [];
    }),
    ...answer.grammar.toolResults.map((r) => ({ result: r.result })),
    { text: answer.grammar.messages },
  ];
}

async function ask(t: Conformance, w: ChatWorld, user: ChatUser, question: string) {
  return chat(t, w.agentId, user.token, chatBody(w.agentId, { question }));
}

conformance(
  [
    'resources.properties.row-level-security',
    'resources.user.properties-rls',
    'chat.auth.token-scopes-data',
    'security.data.rows-of-the-user',
    'security.data.other-organization',
  ],
  'each user of two project organizations sees in chat answers only values of its own rows',
  async (t) => {
    const w = await chatWorld(t);
    for (const cell of w.users)
      for (const user of cell)
        for (const question of QUESTIONS) {
          const answer = expectStream(await ask(t, w, user, question), `"${question}"`);
          expect(
            leaks(w, user, shown(answer)),
            `"${question}" asked by the user of ${user.properties.tenant}/${user.properties.region} shows values of rows hidden from it`,
          ).toEqual([]);
        }
  },
  { needs: CHAT, parts },
);

/** Aggregation words a chartConfig measure may carry (§2.6 shows the member, not its values). */
const AGGREGATES: Record<string, (amounts: readonly number[]) => number> = {
  sum: (a) => a.reduce((x, y) => x + y, 0),
  count: (a) => a.length,
  avg: (a) => a.reduce((x, y) => x + y, 0) / a.length,
  average: (a) => a.reduce((x, y) => x + y, 0) / a.length,
  mean: (a) => a.reduce((x, y) => x + y, 0) / a.length,
  min: (a) => Math.min(...a),
  max: (a) => Math.max(...a),
};

const TEXT_COLUMNS = ['tenant', 'region', 'product'] as const;

/** A column reference's last dotted part, lower case (`sales.Region` -> `region`). */
const columnOf = (ref: Record<string, unknown> | undefined): string | undefined => {
  const named = ref?.['field'] ?? ref?.['name'];
  return typeof named === 'string' ? named.split('.').at(-1)?.toLowerCase() : undefined;
};

/**
 * What a chart's rows must be when its chartConfig says it plainly: one dimension on a text
 * column of the loaded table (no bucketing), one measure of amount (or a count) with an
 * aggregation word, no filters and no cut; `label -> aggregate` of the user's rows. Any other
 * chart says too little to predict its rows: undefined.
 */
function predicted(chart: ChatResult, rows: readonly SaleRow[]): Map<string, number> | undefined {
  const c = chart.chartConfig;
  const dimensions = c.dimensions ?? [];
  const measures = c.measures ?? [];
  if (dimensions.length !== 1 || measures.length !== 1) return undefined;
  const dimension = columnOf(dimensions[0]);
  const bucketing = dimensions[0]?.['bucketing'];
  if (typeof bucketing === 'string' && !['none', ''].includes(bucketing.toLowerCase()))
    return undefined;
  const column = TEXT_COLUMNS.find((name) => name === dimension);
  const word = measures[0]?.['aggregation'];
  const aggregate = typeof word === 'string' ? AGGREGATES[word.toLowerCase()] : undefined;
  const measure = columnOf(measures[0]);
  if (column === undefined || aggregate === undefined) return undefined;
  if (word !== 'count' && measure !== 'amount') return undefined;
  if ((c.filters ?? []).length > 0 || (c.havingFilters ?? []).length > 0) return undefined;
  const groups = new Map<string, number[]>();
  for (const r of rows) groups.set(r[column], [...(groups.get(r[column]) ?? []), r.amount]);
  const cuts = [c.settings?.pageSize, c.settings?.sliceLimit].filter(
    (n): n is number => typeof n === 'number' && n > 0,
  );
  if (cuts.some((n) => n < groups.size)) return undefined;
  return new Map([...groups].map(([label, amounts]) => [label, aggregate(amounts)]));
}

/** The profile's chart questions (chat.examples.charts), or not-run naming them. */
function exampleCharts(t: Conformance): readonly string[] {
  const questions = t.profile.chat?.examples?.charts ?? [];
  if (questions.length === 0)
    t.notRun(
      'needs chat.examples.charts in the profile: questions the agent answers with a chart',
      cause.shape('chat.examples.charts'),
    );
  return questions;
}

function notJudged(t: Conformance): never {
  return t.notRun(
    "no chart of the profile's questions names one text column, one aggregate of amount (or a count) and no filter in its chartConfig",
    cause.shape('chat.examples.charts'),
  );
}

/** Numbers agree within 0.01 (two-decimal rounding) or a millionth of their size. */
const close = (a: number, b: number) =>
  Math.abs(a - b) <= Math.max(0.01, 1e-6 * Math.max(Math.abs(a), Math.abs(b)));

/** The expected groups no row of `shown` holds (its label and a number close to its value). */
function missing(expected: Map<string, number>, shown: readonly Record<string, unknown>[]) {
  return [...expected].filter(
    ([label, value]) =>
      !shown.some((row) => {
        const values = Object.values(row);
        return (
          values.includes(label) &&
          values.some(
            (v) =>
              (typeof v === 'number' || typeof v === 'string') &&
              v !== '' &&
              close(Number(v), value),
          )
        );
      }),
  );
}

conformance(
  [
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
    'chat.result.chart-data-rows',
  ],
  "a chart of the profile's questions whose chartConfig names one column, one aggregate and no filter holds exactly that aggregate of the asking user's rows",
  async (t) => {
    // Row-exactness without our grammar: the implementer's questions (chat.examples.charts),
    // the expected rows worked out from what each chart's own config says it shows.
    const questions = exampleCharts(t);
    const w = await chatWorld(t);
    let judged = 0;
    for (const [ti, ri] of [
      [0, 0],
      [0, 1],
      [1, 0],
    ] as const) {
      const user = userOf(w, ti, ri);
      for (const { question, charts } of await chartAnswers(t, w, user, questions, 1))
        for (const chart of charts) {
          const expected = predicted(chart, visibleTo(w, user));
          if (expected === undefined) continue;
          judged++;
          const what = `"${question}" asked by user ${ti}/${ri} (chartConfig ${JSON.stringify(chart.chartConfig).slice(0, 300)})`;
          expect(
            missing(expected, chart.chartData),
            `${what}: groups of the user's rows the chart lacks (rows: ${JSON.stringify(chart.chartData).slice(0, 300)})`,
          ).toEqual([]);
          expect(chart.chartData.length, `${what}: rows beyond the user's groups`).toBe(
            expected.size,
          );
        }
    }
    if (judged === 0) notJudged(t);
  },
  { needs: CHAT, parts },
);

conformance(
  ['security.data.other-organization', 'chat.auth.token-scopes-data'],
  "a user of one account never gets another account's rows, though both tables share a name",
  async (t) => {
    const a = await chatWorld(t);
    const b = await chatWorld(t);
    const user = userOf(b, 0, 0);
    // Account A's values, none of which account B's table holds.
    const foreign = new Set(a.rows.flatMap((r) => [r.tenant, r.region, r.product]));
    for (const question of QUESTIONS) {
      const answer = expectStream(await ask(t, b, user, question), `"${question}"`);
      const text = JSON.stringify(shown(answer));
      const seen = [...foreign].filter((v) => text.includes(v));
      expect(seen, `"${question}" in account B shows account A's values`).toEqual([]);
      expect(leaks(b, user, shown(answer)), `"${question}": rows hidden from the user`).toEqual([]);
    }
  },
  { needs: CHAT, parts },
);

/** Property values that would break a query that spliced them into its text. */
function hostileValues(t: Conformance, tenant: string): [string, string][] {
  return [
    ['a quote opening an OR', `x' OR '1'='1`],
    ['a statement', `'; DROP TABLE sales; --`],
    ['a double-quoted identifier', `" OR 1=1 --`],
    ['a template naming another property', '{{user.tenant}}'],
    ['a template in a quote', `' || '{{user.tenant}}' || '`],
    ['a backslash and a quote', `\\' OR 1=1 --`],
    ['a very long value', `${tenant}${'x'.repeat(4000)}`],
    ['a comment opener', `/* ${t.faker.lorem.word()}`],
  ];
}

conformance(
  ['security.data.properties-are-values', 'security.data.rows-of-the-user'],
  'property values holding SQL, quotes, templates or great length open no rows and change nothing',
  async (t) => {
    const rows = salesRows(t);
    const tenant0 = rows[0]?.tenant ?? '';
    // A bait row: its region is the tenant's own name, so a server that expands a
    // {{user.tenant}} found inside a property value would open it.
    const bait: SaleRow = {
      tenant: tenant0,
      region: tenant0,
      product: `bait-${t.faker.string.alpha(8)}`,
      amount: 7_777_777,
      order_date: '2025-06-01',
    };
    const w = await chatWorld(t, { rows: [...rows, bait] });
    const org = await registerOrganization(t, w, { properties: { tenant: tenant0 } });
    for (const [what, value] of hostileValues(t, tenant0)) {
      let user: ChatUser;
      try {
        user = await chatUser(t, w, org.projectOrganizationId, { tenant: tenant0, region: value });
      } catch {
        continue; // a server may refuse such a property at registration; nothing to ask then
      }
      for (const question of QUESTIONS.slice(0, 2)) {
        const answer = await ask(t, w, user, question);
        if (!isStreamed(answer.res)) continue; // refused: nothing shown
        expectStream(answer, `${what}: "${question}"`);
        const hidden = leaks(w, user, shown(answer));
        expect(hidden, `a region of ${what} opened rows`).toEqual([]);
      }
    }
    // The table and every other user's rows are as they were.
    for (const cell of w.users)
      for (const user of cell) {
        const answer = expectStream(await ask(t, w, user, QUESTIONS[0] ?? ''), 'afterwards');
        expect(leaks(w, user, shown(answer)), 'afterwards, hidden rows').toEqual([]);
      }
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

conformance(
  ['security.data.properties-are-values'],
  "after hostile property values every user's chart still holds exactly its own rows",
  async (t) => {
    const questions = exampleCharts(t);
    const w = await chatWorld(t);
    const tenant0 = w.rows[0]?.tenant ?? '';
    const org = await registerOrganization(t, w, { properties: { tenant: tenant0 } });
    let judged = 0;
    // Each chart whose config says plainly what it shows holds exactly those aggregates of
    // the asker's rows: none for a hostile region, which no row holds.
    const judge = async (user: ChatUser, rows: readonly SaleRow[], who: string) => {
      for (const { question, charts } of await chartAnswers(t, w, user, questions, 0))
        for (const chart of charts) {
          const expected = predicted(chart, rows);
          if (expected === undefined) continue;
          judged++;
          expect(
            missing(expected, chart.chartData),
            `"${question}" asked by ${who}: groups of its rows the chart lacks`,
          ).toEqual([]);
          expect(chart.chartData.length, `"${question}" asked by ${who}: rows beyond its own`).toBe(
            expected.size,
          );
        }
    };
    for (const [what, value] of hostileValues(t, tenant0)) {
      const user = await chatUser(t, w, org.projectOrganizationId, {
        tenant: tenant0,
        region: value,
      });
      await judge(user, [], `a user of ${what}`);
    }
    for (const [ti, cell] of w.users.entries())
      for (const [ri, user] of cell.entries())
        await judge(user, visibleTo(w, user), `user ${ti}/${ri} afterwards`);
    if (judged === 0) notJudged(t);
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

conformance(
  ['security.data.missing-property-not-unfiltered'],
  'a user without the property a row filter reads never gets rows unfiltered',
  async (t) => {
    const w = await chatWorld(t);
    const tenant0 = w.rows[0]?.tenant ?? '';
    const org = await registerOrganization(t, w, { properties: { tenant: tenant0 } });
    const user = await chatUser(t, w, org.projectOrganizationId, {
      tenant: tenant0,
    } as ChatUser['properties']);
    for (const question of QUESTIONS) {
      const answer = await ask(t, w, user, question);
      if (!isStreamed(answer.res)) continue;
      expectStream(answer, `"${question}" without a region property`);
      expect(leaks(w, user, shown(answer)), 'rows shown to a user without region').toEqual([]);
    }
  },
  { needs: CHAT, parts },
);

probe(
  ['resources.properties.missing-property'],
  'the chat answer for a user without the property a row filter reads',
  async (t) => {
    const w = await chatWorld(t);
    const tenant0 = w.rows[0]?.tenant ?? '';
    const org = await registerOrganization(t, w, { properties: { tenant: tenant0 } });
    const user = await chatUser(t, w, org.projectOrganizationId, {
      tenant: tenant0,
    } as ChatUser['properties']);
    const answer = await ask(t, w, user, 'total amount by product');
    t.observe(
      isEventStream(answer.res)
        ? `a stream of ${answer.stream.events.length} events, ${answer.charts.length} charts`
        : describeAnswer(answer.res),
      refusedAs(answer.res, 403, 'FORBIDDEN', { reason: 'missing-user-property' }),
    );
  },
  { needs: CHAT, parts },
);
