import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { accountSnapshot } from '../harness/readback.ts';
import { conformance, probe, type Conformance, type Probe } from '../harness/conformance.ts';
import {
  chartQuestions,
  chatWorld,
  leaks,
  parts,
  theChart,
  userOf,
  type ChatUser,
  type ChatWorld,
} from './kit.ts';
import { atPointer } from '../harness/json-pointer.ts';
import {
  CHAT,
  chat,
  chatBody,
  expectStream,
  isStreamed,
  type ChatAnswer,
} from '../harness/chat.ts';
import { cause } from '../harness/causes.ts';

// §4.15: a thread keeps its context (previous SQL, chart, data); agent_version pins a version,
// the latest by default; nothing the chat shows is saved. Any agent (a language model
// included) words its follow-ups and reports its version its own way, so the profile states a
// question and a follow-up in the implementer's words (chat.examples.thread, with the
// chartConfig members the follow-up keeps) and where an answer names its version
// (chat.versionReport); without them these tests are not-run.

type Chart = ReturnType<typeof theChart>;
type ThreadExample = ReturnType<typeof threadExample>;

/** The profile's thread example, or not-run naming it. */
function threadExample(t: Conformance) {
  const example = t.profile.chat?.examples?.thread;
  if (example === undefined)
    t.notRun(
      'needs chat.examples.thread in the profile: a question, a follow-up that needs its context, and the chartConfig members the follow-up keeps',
      cause.shape('chat.examples.thread'),
    );
  return example;
}

/** The first answer's chart, asked again once in a fresh thread if the agent drew none. */
async function firstChart(
  t: Conformance,
  w: ChatWorld,
  user: ChatUser,
  question: string,
): Promise<{ thread: string; answer: ChatAnswer; chart: Chart }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const thread = t.faker.string.uuid();
    const answer = expectStream(
      await chat(t, w.agentId, user.token, chatBody(w.agentId, { question, thread_id: thread })),
      `the first question "${question}"`,
    );
    if (answer.charts.length > 0) return { thread, answer, chart: theChart(answer, question) };
  }
  return t.notRun(
    `the agent answered "${question}" with no chart, twice (chat.examples.thread)`,
    cause.shape('chat.examples.thread'),
  );
}

/** The history a client sends with a follow-up: the turns so far, then the follow-up. */
function history(turns: readonly [string, ChatAnswer][], followUp: string) {
  return [
    ...turns.flatMap(([question, answer]) => [
      { role: 'user', content: question },
      { role: 'assistant', content: answer.grammar.messages.join('\n') || '(a chart)' },
    ]),
    { role: 'user', content: followUp },
  ];
}

/** The members of `keeps` that the follow-up's chart does not keep from the first chart. */
function notKept(first: Chart, next: Chart, keeps: readonly string[]): string[] {
  return keeps.filter(
    (pointer) =>
      atPointer(first.chartConfig, pointer) === undefined ||
      !isDeepStrictEqual(
        atPointer(next.chartConfig, pointer),
        atPointer(first.chartConfig, pointer),
      ),
  );
}

conformance(
  ['chat.thread.keeps-context', 'chat.body.thread-id-optional'],
  "in the same thread, the profile's follow-up keeps the chartConfig members the first chart set",
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const first = await firstChart(t, w, user, example.question);
    const next = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, {
          messages: history([[example.question, first.answer]], example.followUp),
          thread_id: first.thread,
        }),
      ),
      `the follow-up "${example.followUp}"`,
    );
    const refined = theChart(next, `the follow-up "${example.followUp}" in the same thread`);
    expect(
      notKept(first.chart, refined, example.keeps),
      `chartConfig members the follow-up lost (first: ${JSON.stringify(first.chart.chartConfig).slice(0, 300)}; follow-up: ${JSON.stringify(refined.chartConfig).slice(0, 300)})`,
    ).toEqual([]);
  },
  { needs: CHAT, parts },
);

conformance(
  ['chat.thread.keeps-context'],
  'a text turn in between does not wipe the thread: the follow-up still keeps the first chart',
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const first = await firstChart(t, w, user, example.question);
    const between = 'Thank you.';
    const text = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, {
          messages: history([[example.question, first.answer]], between),
          thread_id: first.thread,
        }),
      ),
      'a thank-you turn',
    );
    if (text.charts.length > 0) t.notRun('the agent answered a thank-you turn with a chart');
    const next = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, {
          messages: history(
            [
              [example.question, first.answer],
              [between, text],
            ],
            example.followUp,
          ),
          thread_id: first.thread,
        }),
      ),
      'the follow-up after the text turn',
    );
    const refined = theChart(next, 'the follow-up after the text turn');
    expect(notKept(first.chart, refined, example.keeps), 'members the follow-up lost').toEqual([]);
  },
  { needs: CHAT, parts },
);

/**
 * Sends the profile's follow-up on its own (under `threadId`, or with none) and records whether
 * the chart it draws keeps the first chart's members, though `apart` keeps them apart.
 */
async function observeFollowUpAlone(
  t: Probe,
  w: ChatWorld,
  user: ChatUser,
  example: ThreadExample,
  first: Chart,
  sent: { readonly threadId?: string; readonly apart: string },
): Promise<void> {
  const alone = await chat(
    t,
    w.agentId,
    user.token,
    chatBody(w.agentId, {
      question: example.followUp,
      ...(sent.threadId === undefined ? {} : { thread_id: sent.threadId }),
    }),
  );
  const charts = alone.charts.flatMap((c) => {
    const parsed = ChatResult.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
  const keeps = charts.some((c) => notKept(first, c, example.keeps).length === 0);
  t.observe(
    !isStreamed(alone.res)
      ? `answered ${alone.res.status}`
      : charts.length === 0
        ? 'no chart: the follow-up was read as a first question'
        : keeps
          ? `a chart keeping the first chart's members, though ${sent.apart}`
          : 'a chart of its own, keeping nothing of the first',
    isStreamed(alone.res) && !keeps,
  );
}

probe(
  ['chat.thread.new-thread-context'],
  "what the profile's follow-up, sent alone under a new thread_id, makes of the first chart",
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const first = await firstChart(t, w, user, example.question);
    await observeFollowUpAlone(t, w, user, example, first.chart, {
      threadId: t.faker.string.uuid(),
      apart: 'the thread is new',
    });
  },
  { needs: CHAT, parts },
);

probe(
  ['chat.thread.new-thread-context'],
  "what the profile's follow-up, sent with no thread_id after a first chart sent with none, makes of that chart",
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const user = userOf(w, 0, 1);
    // The first question without a thread_id too: a server that kept an implicit per-user
    // thread would carry it over; the follow-up is sent alone, as a new conversation.
    let first: Chart | undefined;
    for (let attempt = 0; attempt < 2 && first === undefined; attempt++) {
      const answer = expectStream(
        await chat(t, w.agentId, user.token, chatBody(w.agentId, { question: example.question })),
        `the first question "${example.question}" without a thread_id`,
      );
      if (answer.charts.length > 0) first = theChart(answer, example.question);
    }
    const from =
      first ??
      t.notRun(
        `the agent answered "${example.question}" with no chart, twice (chat.examples.thread)`,
        cause.shape('chat.examples.thread'),
      );
    await observeFollowUpAlone(t, w, user, example, from, { apart: 'no thread_id joined them' });
  },
  { needs: CHAT, parts },
);

conformance(
  ['security.data.rows-of-the-user'],
  "another user reusing a thread_id gets nothing of the first user's rows",
  async (t) => {
    const w = await chatWorld(t);
    const example = t.profile.chat?.examples?.thread;
    const question = example?.question ?? chartQuestions(t, 1)[0] ?? '';
    const first = await firstChart(t, w, userOf(w, 0, 0), question);
    const intruder = userOf(w, 1, 0);
    const other = expectStream(
      await chat(
        t,
        w.agentId,
        intruder.token,
        chatBody(w.agentId, {
          question: example?.followUp ?? 'Show that as a table',
          thread_id: first.thread,
        }),
      ),
      "another user's follow-up",
    );
    const rows = other.charts.flatMap((c) => ChatResult.parse(c).chartData);
    expect(
      leaks(w, intruder, [
        ...rows,
        ...other.grammar.toolResults.map((r) => ({ result: r.result })),
        { text: other.grammar.messages },
      ]),
    ).toEqual([]);
  },
  { needs: CHAT, parts },
);

/** The version an answer reports where the profile says (chat.versionReport). */
function reportedVersion(answer: ChatAnswer, at: { event: string; pointer: string }): unknown {
  for (const event of answer.stream.events) {
    const json = event.json as { type?: unknown } | undefined;
    if (json?.type !== at.event) continue;
    const value = atPointer(json, at.pointer);
    if (value !== undefined) return value;
  }
  return undefined;
}

conformance(
  ['chat.body.agent-version-optional', 'chat.body.agent-version-default-latest'],
  'without agent_version the latest version answers; agent_version pins an older one',
  async (t) => {
    const at =
      t.profile.chat?.versionReport ??
      t.notRun(
        'needs chat.versionReport in the profile: where an answer reports its version',
        cause.shape('chat.versionReport'),
      );
    const w = await chatWorld(t);
    const org = w.account.organizationId;
    await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'second');
    const { version: latest } = await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'third');
    expect(latest, 'the agents hook numbers versions 1, 2, 3').toBe(3);
    const token = userOf(w, 0, 0).token;
    const question =
      t.profile.chat?.examples?.charts?.[0] ??
      t.profile.chat?.examples?.thread?.question ??
      chartQuestions(t, 1)[0] ??
      '';
    const ask = async (what: string, pinned?: number) => {
      const answer = expectStream(
        await chat(
          t,
          w.agentId,
          token,
          chatBody(w.agentId, {
            question,
            ...(pinned === undefined ? {} : { agent_version: pinned }),
          }),
        ),
        what,
      );
      const version = reportedVersion(answer, at);
      expect(
        version,
        `${what}: the answer reports no version at ${at.event} ${at.pointer} (chat.versionReport)`,
      ).toBeDefined();
      return Number(version);
    };
    expect(await ask('no agent_version'), 'the version answering by default').toBe(3);
    for (const pinned of [1, 2])
      expect(await ask(`agent_version ${pinned}`, pinned), 'the version pinned').toBe(pinned);
  },
  { needs: CHAT, parts },
);

conformance(
  ['chat.stream.no-persist', 'chat.result.generated-chart-ref'],
  'chatting saves no chart: the account holds the same before and after',
  async (t) => {
    const w = await chatWorld(t);
    const before = await accountSnapshot(t, w);
    const answer = expectStream(
      await chat(
        t,
        w.agentId,
        userOf(w, 0, 0).token,
        chatBody(w.agentId, { question: 'total amount by product as a bar chart' }),
      ),
      'a chart question',
    );
    const after = await accountSnapshot(t, w);
    expect(after, 'the account changed by chatting').toBe(before);
    expect(answer.stream.events.length).toBeGreaterThan(0);
  },
  { needs: [...CHAT, 'snapshot'], parts },
);

// Every position of a thread: what the first message gets, the second and the third get too.
// §4.15 puts agent_version in each request's payload and names a thread's context as the
// previous SQL, chart and data: the latest answer's, however many charts came before.

/** The versions 1, 2 and 3 of the world's agent, 3 the latest. */
async function threeVersions(t: Conformance, w: ChatWorld): Promise<void> {
  const org = w.account.organizationId;
  await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'second');
  const { version } = await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'third');
  expect(version, 'the agents hook numbers versions 1, 2, 3').toBe(3);
}

/**
 * Three messages of one thread, in the profile's words: the thread example's question and
 * follow-up, then a chart question; without a thread example, three chart questions.
 */
function threeQuestions(t: Conformance): string[] {
  const example = t.profile.chat?.examples?.thread;
  const charts = t.profile.chat?.examples?.charts ?? [];
  if (example !== undefined)
    return [example.question, example.followUp, charts[0] ?? example.followUp];
  return [...new Set([...charts, ...chartQuestions(t, 3)])].slice(0, 3);
}

/**
 * Sends `questions` in one new thread, message i pinning `pins[i]` (none when undefined), each
 * with the history so far, and returns the version each answer reports (chat.versionReport).
 * An answer that reports none and drew no chart makes the test not-run: some agents report
 * their version only in a chart's tool events.
 */
async function versionsInThread(
  t: Conformance,
  w: ChatWorld,
  questions: readonly string[],
  pins: readonly (number | undefined)[],
): Promise<number[]> {
  const at =
    t.profile.chat?.versionReport ??
    t.notRun(
      'needs chat.versionReport in the profile: where an answer reports its version',
      cause.shape('chat.versionReport'),
    );
  const user = userOf(w, 0, 0);
  const thread = t.faker.string.uuid();
  const turns: [string, ChatAnswer][] = [];
  const versions: number[] = [];
  for (const [i, pinned] of pins.entries()) {
    const question = questions[i % questions.length] ?? '';
    const what = `message ${i + 1} of the thread ("${question}", ${pinned === undefined ? 'no agent_version' : `agent_version ${pinned}`})`;
    const answer = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, {
          messages: history(turns, question),
          thread_id: thread,
          ...(pinned === undefined ? {} : { agent_version: pinned }),
        }),
      ),
      what,
    );
    turns.push([question, answer]);
    const version = reportedVersion(answer, at);
    if (version === undefined && answer.charts.length === 0)
      t.notRun(
        `${what}: answered with no chart and no version at ${at.event} ${at.pointer}`,
        cause.other('the agent answered with no chart and no version'),
      );
    expect(
      version,
      `${what}: the answer reports no version at ${at.event} ${at.pointer} (chat.versionReport)`,
    ).toBeDefined();
    versions.push(Number(version));
  }
  return versions;
}

conformance(
  [
    'chat.body.agent-version-optional',
    'chat.body.agent-version-default-latest',
    'chat.body.thread-id-optional',
  ],
  'in a thread, agent_version pins the first, second and third message alike; without it each one gets the latest',
  async (t) => {
    const w = await chatWorld(t);
    await threeVersions(t, w);
    const questions = threeQuestions(t);
    expect(
      await versionsInThread(t, w, questions, [1, 1, 1]),
      'the versions answering a thread whose every message pins version 1',
    ).toEqual([1, 1, 1]);
    expect(
      await versionsInThread(t, w, questions, [undefined, undefined, undefined]),
      'the versions answering a thread that pins none (3 is the latest)',
    ).toEqual([3, 3, 3]);
  },
  { needs: CHAT, parts },
);

conformance(
  ['chat.body.agent-version-optional'],
  'a later message of a thread may pin another version than an earlier one: each message gets its own pin',
  async (t) => {
    const w = await chatWorld(t);
    await threeVersions(t, w);
    const questions = threeQuestions(t);
    // The pin is a field of each request; nothing in §4.15 binds a thread to a version.
    expect(
      await versionsInThread(t, w, questions, [2, 1, 3]),
      'the versions answering messages pinned 2, then 1, then 3',
    ).toEqual([2, 1, 3]);
    expect(
      await versionsInThread(t, w, questions, [undefined, 1, 2]),
      'the versions answering messages pinning none (the latest is 3), then 1, then 2',
    ).toEqual([3, 1, 2]);
  },
  { needs: CHAT, parts },
);

probe(
  ['chat.thread.agent-version-carry'],
  'which version answers a message that pins none, after an earlier message of its thread pinned version 1',
  async (t) => {
    const w = await chatWorld(t);
    await threeVersions(t, w);
    const versions = await versionsInThread(t, w, threeQuestions(t), [1, undefined]);
    const later = versions[1];
    t.observe(
      later === 3
        ? 'the latest (3): the earlier pin held for its own message only'
        : later === 1
          ? "version 1: the thread's earlier pin carried over"
          : `version ${String(later)}`,
      later === 3,
    );
  },
  { needs: CHAT, parts },
);

/**
 * The profile's chart questions, then a few plain ones, for the turns of a thread that draw a
 * new chart.
 */
function newChartQuestions(t: Conformance): string[] {
  return [...new Set([...(t.profile.chat?.examples?.charts ?? []), ...chartQuestions(t, 3)])];
}

/** A thread the test drives turn by turn, remembering the latest chart drawn in it. */
async function threadFrom(t: Conformance, w: ChatWorld, user: ChatUser, question: string) {
  const first = await firstChart(t, w, user, question);
  const turns: [string, ChatAnswer][] = [[question, first.answer]];
  const state = { latest: first.chart, charts: 1 };
  const send = async (next: string): Promise<ChatAnswer> => {
    const what = `message ${turns.length + 1} of the thread ("${next}")`;
    const answer = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, { messages: history(turns, next), thread_id: first.thread }),
      ),
      what,
    );
    turns.push([next, answer]);
    if (answer.charts.length > 0) {
      state.latest = theChart(answer, what);
      state.charts += 1;
    }
    return answer;
  };
  return { state, send };
}

conformance(
  ['chat.thread.keeps-context'],
  "after two charts and more in a thread, the profile's follow-up keeps the latest chart's members, not the first's",
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const { state, send } = await threadFrom(t, w, userOf(w, 0, 0), example.question);
    const pool = newChartQuestions(t);
    // Twice: a question drawing a chart unlike the latest, then the follow-up, which must keep
    // the new chart's members (the second time, after four charts).
    for (let round = 0; round < 2; round++) {
      let unlike = false;
      while (!unlike && pool.length > 0) {
        const question = pool.shift() ?? '';
        const before = state.latest;
        const answer = await send(question);
        if (answer.charts.length > 0)
          unlike = notKept(before, state.latest, example.keeps).length > 0;
      }
      if (!unlike)
        t.notRun(
          `no chart question of the profile (chat.examples.charts) drew a chart whose ${example.keeps.join(', ')} differ from the latest chart's`,
          cause.shape('chat.examples.charts'),
        );
      const latest = state.latest;
      const next = await send(example.followUp);
      const refined = theChart(
        next,
        `the follow-up "${example.followUp}" after ${state.charts - 1} charts`,
      );
      expect(
        notKept(latest, refined, example.keeps),
        `after ${state.charts - 1} charts in the thread, chartConfig members the follow-up did not keep from the latest chart (latest: ${JSON.stringify(latest.chartConfig).slice(0, 300)}; follow-up: ${JSON.stringify(refined.chartConfig).slice(0, 300)})`,
      ).toEqual([]);
    }
  },
  { needs: CHAT, parts },
);

conformance(
  [
    'events.text-start',
    'events.text-delta',
    'events.text-end',
    'events.text.closed',
    'events.tool-result.after-call',
    'chat.body.thread-id-optional',
  ],
  'every answer of a thread, the second and later ones after two charts included, follows §6 in each of its text messages',
  async (t) => {
    const w = await chatWorld(t);
    const example = t.profile.chat?.examples?.thread;
    const questions = newChartQuestions(t);
    const opening = example?.question ?? questions[0] ?? '';
    const { send } = await threadFrom(t, w, userOf(w, 0, 1), opening);
    // expectStream holds each answer to §6, message by message (suites/harness/event-sequence.ts).
    for (const question of [
      questions.find((q) => q !== opening) ?? opening,
      example?.followUp ?? opening,
      'Thank you.',
      questions.at(-1) ?? opening,
    ])
      await send(question);
  },
  { needs: CHAT, parts },
);
