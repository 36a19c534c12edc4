import fc from 'fast-check';
import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import { chatWorld, parts, userOf, type ChatWorld } from './kit.ts';
import { tokenFor } from '../harness/given/accounts.ts';
import { CHAT, GRAMMAR, chat, chatBody, expectStream, type ChatAnswer } from '../harness/chat.ts';
import { v1Post } from '../harness/given/dashboards.ts';
import {
  replyShown,
  rowSet,
  runSchedule,
  scheduleText,
  schedules,
} from '../harness/metamorphic.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// Metamorphic relations of the chat (issue 34). The document gives no rows to expect from a
// question, but the rows a user gets rest on that user's properties (§1, §2.4), the token
// names the user (§4.15), and a thread keeps its own session (§4.15 thread_id): so what a user
// gets does not depend on what other users of the organization asked before or ask at the
// same time, under their own threads or under the same thread_id, nor on which of the user's
// tokens asks, nor on the order of its questions. Comparing two answers of one agent to one
// question needs an agent that answers alike twice: the reference agent's grammar
// (capability agent-grammar). A chart saved from chat is read back through the chart-data
// hook, whose answer is the same for any agent.

/** Grammar questions (docs/reference-agent.md) that each start a chart. */
const QUESTIONS = [
  'total amount by product',
  'count by region',
  'average amount by month',
  'top 2 product by total amount',
  'total amount by tenant as a table',
];
/**
 * Phrasings of one question that the grammar reads alike (measure and dimension words of the
 * same meaning): the first is asked in schedules, the others, one per user, in baselines.
 */
const PHRASINGS = [
  [
    'total amount by product',
    'sum of amount per product',
    'total amount for each product',
    'sum of amount for each product',
    'total amount per product',
  ],
  [
    'count by region',
    'how many per region',
    'number of rows for each region',
    'count per region',
    'how many by region',
  ],
  [
    'average amount by month',
    'avg amount by month',
    'mean amount by month',
    'average amount monthly',
    'mean amount monthly',
  ],
];
/** Follow-ups that need the thread's chart. */
const FOLLOW_UPS = ['as a pie chart', 'by region instead', 'only 2025', 'as a table', 'by month'];

/** What an answer shows of its charts: each chart's configuration and rows as a set. */
function charted(answer: ChatAnswer): string {
  if (answer.res.status !== 200) return replyShown(answer.res);
  const charts = answer.charts.map((c) => {
    const r = ChatResult.parse(c);
    return { chartConfig: r.chartConfig, rows: rowSet(r.chartData) };
  });
  return charts.length === 0 ? 'a text answer' : JSON.stringify(charts);
}

interface Asker {
  readonly name: string;
  /** Whose view: a second token shares the first's. */
  readonly user: string;
  readonly token: string;
}

/** The world's four users, and a second token of user 0/0 (tenant 0, region 0). */
async function askers(t: Conformance, w: ChatWorld): Promise<Asker[]> {
  const out: Asker[] = [];
  for (const [ti, ri] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
    const u = userOf(w, ti, ri);
    const name = `user ${ti}/${ri}`;
    out.push({ name, user: name, token: u.token });
    if (ti === 0 && ri === 0)
      out.push({
        name: `${name} (second token)`,
        user: name,
        token: await tokenFor(t, w, u.userId, '24h'),
      });
  }
  return out;
}

const ask = async (
  t: Conformance,
  w: ChatWorld,
  token: string,
  question: string,
  thread?: string,
) =>
  expectStream(
    await chat(
      t,
      w.agentId,
      token,
      chatBody(w.agentId, { question, ...(thread === undefined ? {} : { thread_id: thread }) }),
    ),
    `"${question}"`,
  );

/** The rows of an answer's charts as sets of their values (columns may be named apart). */
function rowsShown(answer: ChatAnswer): string {
  if (answer.res.status !== 200) return replyShown(answer.res);
  const charts = answer.charts.map((c) =>
    rowSet(ChatResult.parse(c).chartData.map((r) => rowSet(Object.values(r)))),
  );
  return charts.length === 0 ? 'a text answer' : JSON.stringify(charts);
}

conformance(
  [
    'resources.properties.row-level-security',
    'chat.auth.token-scopes-data',
    'chat.result.chart-data-rows',
    'security.data.rows-of-the-user',
  ],
  "the rows of a user's chat charts do not depend on what other users asked before or ask at the same time, on which of its tokens asks, nor on the order of its questions",
  async (t) => {
    const w = await chatWorld(t);
    const people = await askers(t, w);
    // The baseline: each user asks, with its first token, each question in a phrasing of its
    // own that nobody else uses, before anyone asks the shared phrasings.
    const baseline = new Map<string, string>();
    for (const [k, p] of people.filter((x) => x.name === x.user).entries())
      for (const family of PHRASINGS) {
        const answer = await ask(t, w, p.token, family[k + 1] ?? '');
        // The capability agent-grammar: a question of the grammar draws a chart.
        expect(answer.charts.length, `"${family[k + 1] ?? ''}" drew no chart`).toBeGreaterThan(0);
        baseline.set(`${p.user} ${family[0] ?? ''}`, rowsShown(answer));
      }
    const steps = people.flatMap((p) => PHRASINGS.map((f) => ({ asks: f[0] ?? '', by: p.name })));
    const byName = new Map(people.map((p) => [p.name, p]));
    const text = (s: (typeof steps)[number]) => `${s.by} asks "${s.asks}"`;
    await fc.assert(
      fc.asyncProperty(schedules(steps), async (batches) => {
        const done = await runSchedule(batches, async (s) =>
          rowsShown(await ask(t, w, byName.get(s.by)?.token ?? '', s.asks)),
        );
        for (const [s, seen] of done) {
          const user = byName.get(s.by)?.user ?? '?';
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not the rows ${user} got alone`,
          ).toBe(baseline.get(`${user} ${s.asks}`));
        }
      }),
      t.fc(6),
    );
  },
  { needs: GRAMMAR, parts, timeout: 60_000 },
);

/** Who else writes under the thread_id: a user of the same project organization, or not. */
const INTRUDERS = [
  { name: 'user 0/1 (same project organization)', at: [0, 1] },
  { name: 'user 1/0 (another project organization)', at: [1, 0] },
] as const;

conformance(
  ['chat.thread.keeps-context', 'chat.body.thread-id-optional', 'security.data.rows-of-the-user'],
  "a thread is the user's: another user's message under its thread_id neither continues it nor changes it, and the user's other token continues it",
  async (t) => {
    const w = await chatWorld(t);
    const owner = userOf(w, 0, 0);
    const second = await tokenFor(t, w, owner.userId, '24h');
    const thread = () => t.faker.string.uuid();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...QUESTIONS),
        fc.constantFrom(...FOLLOW_UPS),
        fc.constantFrom(...QUESTIONS),
        fc.constantFrom(...INTRUDERS),
        async (question, followUp, intrusion, who) => {
          const other = userOf(w, who.at[0], who.at[1]);
          // The owner's thread, and its follow-up in a thread nobody else touched.
          const mine = thread();
          await ask(t, w, owner.token, question, mine);
          const clean = thread();
          await ask(t, w, owner.token, question, clean);
          const alone = charted(await ask(t, w, owner.token, followUp, clean));
          // The other user's follow-up under the owner's thread_id, and in a thread of its own.
          const theirs = charted(await ask(t, w, other.token, followUp, mine));
          const fresh = charted(await ask(t, w, other.token, followUp, thread()));
          expect(
            theirs,
            `${who.name} sends "${followUp}" under the thread_id where user 0/0 asked "${question}": not what it gets in a thread of its own`,
          ).toBe(fresh);
          // The other user starts a chart under the owner's thread_id; the owner's follow-up,
          // with its second token, answers as in the untouched thread.
          await ask(t, w, other.token, intrusion, mine);
          expect(
            charted(await ask(t, w, second, followUp, mine)),
            `user 0/0's second token sends "${followUp}" after "${question}" in its thread, where ${who.name} then asked "${intrusion}": not what its first token gets in an untouched thread`,
          ).toBe(alone);
        },
      ),
      t.fc(4),
    );
  },
  { needs: GRAMMAR, parts, timeout: 60_000 },
);

const saveNeeds: readonly HookName[] = [...CHAT, 'workspaces', 'chart-data'];

conformance(
  [
    'charts.config.sql-override-kept',
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
  ],
  'a chart saved from chat gives each user the same rows whoever else read it or chatted before or at the same time, whichever of its tokens asks, in any order',
  async (t) => {
    const w = await chatWorld(t);
    const people = await askers(t, w);
    const org = w.account.organizationId;
    // Charts the agent drew for user 0/0, saved as received (§4.14): once to be shared, and
    // once more for each user's baseline, a copy nobody else reads.
    const bases = people.filter((x) => x.name === x.user);
    const charts: { question: string; chartId: string; copies: string[] }[] = [];
    for (const question of [
      'What is the total amount for each product?',
      'Show the amount per region',
    ]) {
      const answer = await ask(t, w, userOf(w, 0, 0).token, question);
      const last = answer.charts.at(-1);
      if (last === undefined) continue;
      const { chartConfig } = ChatResult.parse(last);
      const save = async () =>
        expectSuccess(
          await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
            chartConfig,
            connectionId: w.connectionId,
            agentId: w.agentId,
            ...(chartConfig.sqlOverride === undefined ? {} : { sql: chartConfig.sqlOverride }),
            name: chartConfig.title ?? 'Chart from chat',
          }),
          SaveFromChatResponse.shape.data,
          'save-from-chat',
        ).chartId;
      const chartId = await save();
      const copies: string[] = [];
      for (const _ of bases) copies.push(await save());
      charts.push({ question, chartId, copies });
    }
    if (charts.length === 0)
      t.notRun(
        'the agent answered neither question with a chart',
        cause.other('the agent answered with no chart'),
      );
    const read = async (token: string, chartId: string) => {
      const res = await t.hooks.chartData(org, chartId, token);
      const rows = (res.body as { data?: { rows?: unknown } } | undefined)?.data?.rows;
      return res.status === 200 && Array.isArray(rows)
        ? JSON.stringify(rowSet(rows))
        : replyShown(res);
    };
    const baseline = new Map<string, string>();
    for (const [k, p] of bases.entries())
      for (const c of charts)
        baseline.set(`${p.user} ${c.question}`, await read(p.token, c.copies[k] ?? ''));
    type Step = { readonly read: string; readonly by: string } | { readonly chats: string };
    const byName = new Map(people.map((p) => [p.name, p]));
    const byQuestion = new Map(charts.map((c) => [c.question, c]));
    const steps: Step[] = [
      ...people.flatMap((p) => charts.map((c): Step => ({ read: c.question, by: p.name }))),
      { chats: 'user 0/1' },
    ];
    const text = (s: Step) =>
      'chats' in s ? `${s.chats} chats` : `${s.by} reads the chart of "${s.read}"`;
    await fc.assert(
      fc.asyncProperty(schedules(steps), async (batches) => {
        const done = await runSchedule(batches, async (s) => {
          if ('chats' in s) {
            await ask(t, w, byName.get(s.chats)?.token ?? '', charts[0]?.question ?? 'hello');
            return undefined;
          }
          return read(byName.get(s.by)?.token ?? '', byQuestion.get(s.read)?.chartId ?? '');
        });
        for (const [s, seen] of done) {
          if ('chats' in s) continue;
          const user = byName.get(s.by)?.user ?? '?';
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not what ${user} got alone`,
          ).toBe(baseline.get(`${user} ${s.read}`));
        }
      }),
      t.fc(6),
    );
  },
  { needs: saveNeeds, parts: [...parts, 'v1-dashboards'], timeout: 60_000 },
);
