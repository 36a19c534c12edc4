import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { accountSnapshot } from '../harness/readback.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import {
  CHAT,
  atPointer,
  chartQuestions,
  chat,
  chatBody,
  chatWorld,
  expectStream,
  leaks,
  parts,
  theChart,
  userOf,
  type ChatAnswer,
  type ChatUser,
  type ChatWorld,
} from '../harness/given/chat.ts';

// §4.15: a thread keeps its context (previous SQL, chart, data); agent_version pins a version,
// the latest by default; nothing the chat shows is saved. Any agent (a language model
// included) words its follow-ups and reports its version its own way, so the profile states a
// question and a follow-up in the implementer's words (chat.examples.thread, with the
// chartConfig members the follow-up keeps) and where an answer names its version
// (chat.versionReport); without them these tests are not-run.

type Chart = ReturnType<typeof theChart>;

/** The profile's thread example, or not-run naming it. */
function threadExample(t: Conformance) {
  const example = t.profile.chat?.examples?.thread;
  if (example === undefined)
    t.notRun(
      'needs chat.examples.thread in the profile: a question, a follow-up that needs its context, and the chartConfig members the follow-up keeps',
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
  return t.notRun(`the agent answered "${question}" with no chart, twice (chat.examples.thread)`);
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

probe(
  ['chat.thread.new-thread-context'],
  "what the profile's follow-up, sent alone under a new thread_id, makes of the first chart",
  async (t) => {
    const example = threadExample(t);
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const first = await firstChart(t, w, user, example.question);
    const alone = await chat(
      t,
      w.agentId,
      user.token,
      chatBody(w.agentId, { question: example.followUp, thread_id: t.faker.string.uuid() }),
    );
    const charts = alone.charts.flatMap((c) => {
      const parsed = ChatResult.safeParse(c);
      return parsed.success ? [parsed.data] : [];
    });
    const keeps = charts.some((c) => notKept(first.chart, c, example.keeps).length === 0);
    t.observe(
      alone.res.status !== 200
        ? `answered ${alone.res.status}`
        : charts.length === 0
          ? 'no chart: the follow-up was read as a first question'
          : keeps
            ? "a chart keeping the first chart's members, though the thread is new"
            : 'a chart of its own, keeping nothing of the first',
      alone.res.status === 200 && !keeps,
    );
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
      t.notRun('needs chat.versionReport in the profile: where an answer reports its version');
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
