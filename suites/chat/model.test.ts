import fc from 'fast-check';
import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import { chartQuestions, chatWorld, leaks, parts, type ChatUser, type ChatWorld } from './kit.ts';
import { atPointer } from '../harness/json-pointer.ts';
import { tokenFor } from '../harness/given/accounts.ts';
import { CHAT, chat, chatBody, expectStream, type ChatAnswer } from '../harness/chat.ts';
import { v1Post } from '../harness/given/dashboards.ts';
import type { Reply } from '../harness/http.ts';
import {
  budgetLine,
  modelRuns,
  type Budget,
  type ModelCommand,
  type Verdict,
} from '../harness/model-run.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';

// Model-based (STYLE 7, issue 34) on the shared runner: random chat requests in a world of two
// accounts, each with two project organizations of two users, two tokens per user and two
// agents in its project, run against the target and against a model of what §4.15 and §8 fix:
//
// - §8: 180 requests a minute per organization plus user, on the account's clock (held still
//   by the clock hook; it moves only by the model's commands, never by waiting). Whether the
//   window is fixed or sliding, and whether refused requests count, is open
//   (limits.chat.window-kind), so the model keeps two counts per user since the clock last
//   moved a whole minute: the requests the target surely counted (accepted ones, and none
//   after a smaller move) and those it may have counted (every request). At 180 sure ones the
//   model refuses, below 180 possible ones it allows, and in between it draws no request.
//   Tokens of one user share its window; another user, or the other account, has its own.
// - §4.15: without agent_version the latest version answers, with one that version (read
//   where the profile says an answer reports it, chat.versionReport).
// - §1 and §2.7: a chart's rows, in the stream and as a saved chart loads them (§4.14, hook
//   chart-data), hold only rows the asking user may see, whichever thread they came through.
//
// Against the reference, the model's refusals of our decisions (a version the agent lacks,
// another account's agent) are drawn too.

// Of the commands, at most one burst to the §8 limit in the whole test (180 requests).
const BUDGET: Budget = { runs: 2, commands: 16 };
const LIMIT = 180;
const TOKENS = 2;
const needs = [...CHAT, 'clock'] as const;

interface Window {
  /** Requests the target surely counted, and those it may have counted. */
  sure: number;
  maybe: number;
}

interface Account {
  readonly w: ChatWorld;
  readonly users: readonly ChatUser[];
  /** Per user: its tokens, and its window. */
  readonly tokens: string[][];
  readonly windows: Window[];
  /** Per agent of the project: its id and how many versions it has. */
  readonly agents: { readonly agentId: string; versions: number }[];
  /** Charts saved from this account's chats. */
  readonly saved: string[];
}

interface Model {
  readonly accounts: readonly Account[];
  readonly decisions: boolean;
  /** A chart answer of the last chat, to be saved: its account and result. */
  lastChart: { readonly a: number; readonly result: ChatResult } | undefined;
  /**
   * Bursts to the limit left in the whole test: each costs 180 requests, and the chat area's
   * other files burst too, so one is the budget (shared by the runs).
   */
  readonly bursts: { left: number };
  /** The profile follows our reading of save-from-chat's required fields. */
  readonly saves: boolean;
  /** The target has the chart-data hook, to load a saved chart's rows. */
  readonly chartData: boolean;
}

interface Real {
  readonly t: Conformance;
}

type Cmd = ModelCommand<Model, Real>;
const accountAt = (m: Model, a: number) => m.accounts[a % m.accounts.length] as Account;
const userAt = (acct: Account, u: number) => acct.users[u % acct.users.length] as ChatUser;
const windowAt = (acct: Account, u: number) => acct.windows[u % acct.windows.length] as Window;

/** The version an answer reports where the profile says (chat.versionReport). */
function reportedVersion(answer: ChatAnswer, at: { event: string; pointer: string }): unknown {
  for (const event of answer.stream.events) {
    const json = event.json as { type?: unknown } | undefined;
    if (json?.type === at.event) {
      const value = atPointer(json, at.pointer);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** What a user may be shown of an answer: no value only hidden rows hold (§1, §2.7). */
function expectNoLeak(acct: Account, user: ChatUser, answer: ChatAnswer, what: string) {
  const rows = answer.charts.flatMap((c) => ChatResult.parse(c).chartData);
  expect(
    leaks(acct.w, user, [
      ...rows,
      ...answer.grammar.toolResults.map((r) => ({ result: r.result })),
      { text: answer.grammar.messages },
    ]),
    `${what}: values of rows hidden from the user`,
  ).toEqual([]);
}

interface Ask {
  readonly a: number;
  readonly u: number;
  readonly k: number;
  readonly g: number;
  /** The agent of the other account (a refusal of our decision), drawn on the reference. */
  readonly foreign: boolean;
  /** A thread of the account's small pool, shared by its users, or none. */
  readonly thread: number | null;
  /** A version, 1 to 3, or none (the latest). */
  readonly version: number | null;
  /** A chart question (the q-th of the run's few), or a greeting (the cheapest answer). */
  readonly chart: boolean;
  readonly q: number;
}

const askCmd = (ask: Ask, questions: () => readonly string[]): Cmd => {
  const { a, u, k, g, foreign, thread, version, chart, q } = ask;
  let answer: ChatAnswer | undefined;
  const agentOf = (m: Model) =>
    accountAt(m, foreign ? a + 1 : a).agents[g % 2] ?? { agentId: '', versions: 0 };
  const question = () => {
    const pool = questions();
    return chart && pool.length > 0 ? (pool[q % pool.length] ?? 'hello') : 'hello';
  };
  return {
    kind: 'call',
    label: `POST chat account#${a} user#${u} token#${k} ${foreign ? "the other account's " : ''}agent#${g}${thread === null ? '' : ` thread#${thread}`}${version === null ? '' : ` version ${version}`} ${chart ? 'chart question' : 'greeting'}`,
    pre: (m) => {
      const agent = agentOf(m);
      const win = windowAt(accountAt(m, a), u);
      const decided = foreign || (version !== null && version > agent.versions);
      // Between the sure and the possible count the model cannot say: no such request.
      return (m.decisions || !decided) && (win.sure >= LIMIT || win.maybe < LIMIT);
    },
    verdict: (m, { t }): Verdict => {
      const acct = accountAt(m, a);
      const agent = agentOf(m);
      const user = userAt(acct, u);
      const win = windowAt(acct, u);
      // Whether a refused request counts is open: every request may have counted.
      win.maybe += 1;
      if (foreign)
        return {
          kind: 'refused',
          code: 'NOT_FOUND',
          why: "another account's agent (chat.agent.unknown)",
        };
      if (version !== null && version > agent.versions)
        return {
          kind: 'refused',
          code: 'NOT_FOUND',
          why: `version ${version} of an agent with ${agent.versions} (chat.agent.unknown-version)`,
        };
      if (win.sure >= LIMIT)
        return {
          kind: 'refused',
          code: 'RATE_LIMITED',
          why: `request ${win.sure + 1} of this user's minute (§8)`,
        };
      // §4.15 shows the stream's media type, no status: any 2xx (expectStream reads it).
      return {
        kind: 'allowed',
        then: () => {
          win.sure += 1;
          if (answer === undefined) throw new Error('no answer read');
          const what = ask.chart ? `the answer to "${question()}"` : 'the answer to a greeting';
          expectStream(answer, what);
          expectNoLeak(acct, user, answer, what);
          // The version, where the profile says an answer reports it (an answer with no
          // such event, a greeting with no tool call, say, reports none).
          const at = t.profile.chat?.versionReport;
          const reported = at === undefined ? undefined : reportedVersion(answer, at);
          if (reported !== undefined)
            expect(
              Number(reported),
              `${what}: the version answering (§4.15: the pinned one, else the latest)`,
            ).toBe(version ?? agent.versions);
          const last = answer.charts.at(-1);
          if (last !== undefined) m.lastChart = { a, result: ChatResult.parse(last) };
        },
      };
    },
    call: async (m, { t }): Promise<Reply> => {
      const acct = accountAt(m, a);
      const agent = agentOf(m);
      const tokens = acct.tokens[u % acct.tokens.length] ?? [];
      answer = await chat(
        t,
        agent.agentId,
        tokens[k % tokens.length],
        chatBody(agent.agentId, {
          question: question(),
          ...(thread === null ? {} : { thread_id: `thread-${a}-${thread}` }),
          ...(version === null ? {} : { agent_version: version }),
        }),
      );
      return answer.res;
    },
  };
};

/** Fills a user's window to the limit: the requests it may still take, all accepted. */
const burstCmd = (a: number, u: number): Cmd => {
  let earlier: ChatAnswer[] = [];
  let count = 0;
  return {
    kind: 'call',
    label: `burst: account#${a} user#${u} chats up to the limit of its minute`,
    pre: (m) => m.bursts.left > 0 && windowAt(accountAt(m, a), u).maybe < LIMIT,
    verdict: (m) => {
      const win = windowAt(accountAt(m, a), u);
      m.bursts.left -= 1;
      count = LIMIT - win.maybe;
      win.maybe += count;
      return {
        kind: 'allowed',
        then: () => {
          for (const [i, e] of earlier.entries()) expectStream(e, `burst request ${i + 1}`);
          win.sure += count;
        },
      };
    },
    call: async (m, { t }) => {
      const acct = accountAt(m, a);
      const agent = acct.agents[0] as Account['agents'][number];
      const tokens = acct.tokens[u % acct.tokens.length] ?? [];
      const send = (i: number) =>
        chat(
          t,
          agent.agentId,
          tokens[i % tokens.length],
          chatBody(agent.agentId, { question: 'hello' }),
        );
      earlier = [];
      for (let i = 0; i < count - 1; i += 10)
        earlier.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(10, count - 1 - i) }, (_, j) => send(i + j)),
          )),
        );
      return (await send(count - 1)).res;
    },
  };
};

const advanceCmd = (a: number, seconds: number): Cmd => ({
  kind: 'world',
  label: `hook: advance account#${a}'s clock ${seconds} s`,
  pre: () => true,
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    await t.hooks.advance(acct.w.account.organizationId, seconds);
    // A whole minute on, no window of any kind holds the earlier requests; a shorter move may
    // have opened a new fixed window, so only the possible counts are kept.
    for (const win of acct.windows) {
      win.sure = 0;
      if (seconds > 60) win.maybe = 0;
    }
  },
});

const versionCmd = (a: number, g: number): Cmd => ({
  kind: 'world',
  label: `hook: a new version of account#${a}'s agent#${g}`,
  pre: (m) => (accountAt(m, a).agents[g % 2]?.versions ?? 3) < 3,
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    const agent = acct.agents[g % 2] as Account['agents'][number];
    const { version } = await t.hooks.addAgentVersion(
      acct.w.account.organizationId,
      acct.w.projectId,
      agent.agentId,
    );
    agent.versions += 1;
    expect(version, 'the agents hook numbers versions from 1').toBe(agent.versions);
  },
});

const tokenCmd = (a: number, u: number): Cmd => ({
  kind: 'world',
  label: `hook: another token for account#${a} user#${u}`,
  pre: (m) => {
    const acct = accountAt(m, a);
    return (acct.tokens[u % acct.tokens.length]?.length ?? 0) < 4;
  },
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    acct.tokens[u % acct.tokens.length]?.push(await tokenFor(t, acct.w, userAt(acct, u).userId));
  },
});

/** §4.14: the last chart answer saved as received, with the API key of its account. */
const saveCmd = (): Cmd => {
  let a = 0;
  let result: ChatResult | undefined;
  return {
    kind: 'call',
    label: 'POST save-from-chat the last chart answer',
    pre: (m) => m.lastChart !== undefined && m.saves,
    verdict: (m) => {
      ({ a, result } = m.lastChart ?? { a: 0, result: undefined });
      m.lastChart = undefined;
      const acct = accountAt(m, a);
      return {
        kind: 'allowed',
        status: 200,
        then: (res) => {
          const saved = expectSuccess(
            res,
            SaveFromChatResponse.shape.data,
            'the save-from-chat answer',
          );
          acct.saved.push(saved.chartId);
        },
      };
    },
    call: (m, { t }) => {
      const acct = accountAt(m, a);
      const config = result?.chartConfig;
      return v1Post(t, SAVE_FROM_CHAT, acct.w.creds().apiKey, {
        chartConfig: config,
        connectionId: acct.w.connectionId,
        agentId: acct.agents[0]?.agentId,
        ...(config?.sqlOverride === undefined ? {} : { sql: config.sqlOverride }),
        name: config?.title ?? 'Chart from chat',
      });
    },
  };
};
/** §1: a saved chart loads, for any user of its account, only rows that user may see. */
const rowsCmd = (a: number, u: number, c: number): Cmd => ({
  kind: 'world',
  label: `hook: chart-data of account#${a}'s saved chart#${c} for user#${u}`,
  pre: (m) => m.chartData && accountAt(m, a).saved.length > 0,
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    const chartId = acct.saved[c % acct.saved.length] ?? '';
    const user = userAt(acct, u);
    const { rows } = await t.hooks.chartRows(acct.w.account.organizationId, chartId, user.token);
    expect(leaks(acct.w, user, rows), `saved chart ${chartId}: rows hidden from the user`).toEqual(
      [],
    );
  },
});

/** One account: the chat world (two organizations, two users each), tokens, two agents, the clock held still. */
async function accountWorld(t: Conformance): Promise<Account> {
  const w = await chatWorld(t);
  const users = w.users.flat();
  const tokens: string[][] = [];
  for (const user of users) {
    const more = [user.token];
    while (more.length < TOKENS) more.push(await tokenFor(t, w, user.userId));
    tokens.push(more);
  }
  const second = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
    name: 'Second analyst',
    connectionId: w.connectionId,
  });
  // The first agent has two versions, the second one (the hook numbers them from 1).
  await t.hooks.addAgentVersion(w.account.organizationId, w.projectId, w.agentId);
  await t.hooks.freeze(w.account.organizationId);
  return {
    w,
    users,
    tokens,
    windows: users.map(() => ({ sure: 0, maybe: 0 })),
    agents: [
      { agentId: w.agentId, versions: 2 },
      { agentId: second.agentId, versions: 1 },
    ],
    saved: [],
  };
}

const account = fc.nat({ max: 1 });
const user = fc.nat({ max: 3 });
/** Half the requests come from each account's user 0, the one a burst fills up. */
const asker = fc.oneof(fc.constant(0), user);

conformance(
  [
    'limits.chat.rate',
    'chat.body.thread-id-optional',
    'chat.body.agent-version-optional',
    'chat.body.agent-version-default-latest',
    'chat.stream.content-type',
    'security.data.rows-of-the-user',
    'security.data.other-organization',
  ],
  `model runs over chat: threads, agent versions, rate windows on the account's clock, chart rows (${budgetLine('chat', BUDGET)}, one burst to the limit)`,
  async (t) => {
    let pool: readonly string[] = [];
    const questions = () => pool;
    const ask = fc
      .record({
        a: account,
        u: asker,
        k: fc.nat({ max: 3 }),
        g: fc.nat({ max: 1 }),
        foreign: fc.nat({ max: 5 }).map((n) => n === 0),
        thread: fc.option(fc.nat({ max: 2 }), { nil: null }),
        version: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
        chart: fc.boolean(),
        q: fc.nat({ max: 7 }),
      })
      .map((x) => askCmd(x, questions));
    const bursts = { left: 1 };
    await modelRuns<Model, Real>(t, {
      area: 'chat',
      budget: BUDGET,
      commands: [
        ...Array.from({ length: 3 }, () => ask),
        account.map((a) => burstCmd(a, 0)),
        account.map((a) => burstCmd(a, 0)),
        fc.tuple(account, fc.constantFrom(61, 20)).map(([a, s]) => advanceCmd(a, s)),
        fc.tuple(account, fc.nat({ max: 1 })).map(([a, g]) => versionCmd(a, g)),
        fc.tuple(account, user).map(([a, u]) => tokenCmd(a, u)),
        fc.constant(null).map(() => saveCmd()),
        fc.tuple(account, user, fc.nat({ max: 3 })).map(([a, u, c]) => rowsCmd(a, u, c)),
      ],
      world: async () => {
        pool = chartQuestions(t, 2);
        const accounts = [await accountWorld(t), await accountWorld(t)];
        return {
          model: {
            accounts,
            decisions: t.target.checkDecisions,
            lastChart: undefined,
            bursts,
            // Saving leans on our reading of which save fields are required.
            saves: states(t, 'charts.save-from-chat.required-fields'),
            chartData: t.hooks.has('chart-data'),
          },
          real: { t },
        };
      },
    });
  },
  { id: 'model-runs', needs, parts, timeout: 120_000 },
);
