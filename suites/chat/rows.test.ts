import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { registerOrganization } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, refusedAs } from '../harness/expect.ts';
import {
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
  GRAMMAR,
  chat,
  chatBody,
  expectStream,
  isEventStream,
  isStreamed,
  pairs,
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

/** `product -> total amount` of rows, as the grammar's "total amount by product" answers. */
function totalsByProduct(rows: readonly SaleRow[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const r of rows) totals[r.product] = (totals[r.product] ?? 0) + r.amount;
  return totals;
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

conformance(
  [
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
    'chat.result.chart-data-rows',
  ],
  "a chart's rows are exactly the asking user's rows, aggregated",
  async (t) => {
    const w = await chatWorld(t);
    for (const [ti, ri] of [
      [0, 0],
      [0, 1],
      [1, 0],
    ] as const) {
      const user = userOf(w, ti, ri);
      const answer = expectStream(await ask(t, w, user, 'total amount by product'), 'a chart');
      const chart = ChatResult.parse(answer.charts.at(-1));
      expect(pairs(chart.chartData), `the totals by product of user ${ti}/${ri}`).toEqual(
        totalsByProduct(visibleTo(w, user)),
      );
    }
  },
  { needs: GRAMMAR, parts },
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
    const w = await chatWorld(t);
    const tenant0 = w.rows[0]?.tenant ?? '';
    const org = await registerOrganization(t, w, { properties: { tenant: tenant0 } });
    for (const [, value] of hostileValues(t, tenant0)) {
      const user = await chatUser(t, w, org.projectOrganizationId, {
        tenant: tenant0,
        region: value,
      });
      const answer = expectStream(await ask(t, w, user, 'total amount by product'), 'hostile');
      const chart = answer.charts.at(-1);
      if (chart !== undefined)
        expect(ChatResult.parse(chart).chartData, 'a hostile region matches no row').toEqual([]);
    }
    for (const cell of w.users)
      for (const user of cell) {
        const answer = expectStream(await ask(t, w, user, 'total amount by product'), 'after');
        expect(pairs(ChatResult.parse(answer.charts.at(-1)).chartData)).toEqual(
          totalsByProduct(visibleTo(w, user)),
        );
      }
  },
  { needs: GRAMMAR, parts, timeout: 60_000 },
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
