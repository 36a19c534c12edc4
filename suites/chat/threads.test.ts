import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { accountSnapshot } from '../harness/readback.ts';
import { conformance } from '../harness/conformance.ts';
import {
  CHAT,
  GRAMMAR,
  chat,
  chatBody,
  chatWorld,
  expectStream,
  leaks,
  parts,
  theChart,
  userOf,
  type ChatAnswer,
} from './world.ts';

// §4.15: a thread keeps its context (previous SQL, chart, data); agent_version pins a version,
// the latest by default; nothing the chat shows is saved. What a follow-up means, and where an
// answer names its agent version, are the reference agent's grammar (README): needs
// agent-grammar.

/** The agent version an answer names (the reference puts it on its generateSql events). */
function agentVersionOf(answer: ChatAnswer): unknown {
  for (const call of answer.grammar.toolCalls) {
    const v = (call.payload as { agentVersion?: unknown } | undefined)?.agentVersion;
    if (v !== undefined) return v;
  }
  for (const r of answer.grammar.toolResults) {
    const v = (r.result as { agentVersion?: unknown } | undefined)?.agentVersion;
    if (v !== undefined) return v;
  }
  return undefined;
}

type Chart = ReturnType<typeof theChart>;

/** "as a pie chart" redrew `first`: the type changed, its measure, dimension and rows did not. */
function expectRedrawnAsPie(refined: Chart, first: Chart): void {
  expect(refined.chartConfig.type, 'the follow-up changed the type').toBe('pie');
  expect(refined.chartConfig.measures, 'the measure of the chart refined').toEqual(
    first.chartConfig.measures,
  );
  expect(refined.chartConfig.dimensions, 'the dimension of the chart refined').toEqual(
    first.chartConfig.dimensions,
  );
  expect(refined.chartData, 'the same rows, drawn another way').toEqual(first.chartData);
}

conformance(
  ['chat.thread.keeps-context', 'chat.body.thread-id-optional'],
  'a follow-up in the same thread refines the previous chart; in another thread it has nothing to refine',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const thread = t.faker.string.uuid();
    const first = theChart(
      expectStream(
        await chat(
          t,
          w.agentId,
          user.token,
          chatBody(w.agentId, { question: 'total amount by product', thread_id: thread }),
        ),
        'the first question',
      ),
      'the first question',
    );
    const followUp = chatBody(w.agentId, { question: 'as a pie chart', thread_id: thread });
    const refined = theChart(
      expectStream(await chat(t, w.agentId, user.token, followUp), 'the follow-up'),
      'the follow-up in the same thread',
    );
    expectRedrawnAsPie(refined, first);

    const elsewhere = expectStream(
      await chat(
        t,
        w.agentId,
        user.token,
        chatBody(w.agentId, { question: 'as a pie chart', thread_id: t.faker.string.uuid() }),
      ),
      'the follow-up in a new thread',
    );
    expect(elsewhere.charts, 'a new thread has no previous chart to redraw').toEqual([]);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.thread.keeps-context'],
  'a text answer in between does not wipe the thread: the next follow-up still refines the chart',
  async (t) => {
    const w = await chatWorld(t);
    const user = userOf(w, 0, 0);
    const thread = t.faker.string.uuid();
    const ask = async (question: string, what: string) =>
      expectStream(
        await chat(t, w.agentId, user.token, chatBody(w.agentId, { question, thread_id: thread })),
        what,
      );
    const first = theChart(
      await ask('total amount by product', 'the first question'),
      'the first question',
    );
    // Free text: the agent's grammar answers it with text, no chart (README, "Threads").
    const between = await ask('thank you', 'a free-text turn');
    expect(between.charts, 'a free-text turn draws no chart').toEqual([]);
    const refined = theChart(
      await ask('as a pie chart', 'the follow-up after the text turn'),
      'the follow-up after the text turn',
    );
    expectRedrawnAsPie(refined, first);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['security.data.rows-of-the-user'],
  "another user reusing a thread_id gets nothing of the first user's rows",
  async (t) => {
    const w = await chatWorld(t);
    const thread = t.faker.string.uuid();
    theChart(
      expectStream(
        await chat(
          t,
          w.agentId,
          userOf(w, 0, 0).token,
          chatBody(w.agentId, { question: 'total amount by product', thread_id: thread }),
        ),
        'the first question',
      ),
      'the first question',
    );
    const intruder = userOf(w, 1, 0);
    const other = expectStream(
      await chat(
        t,
        w.agentId,
        intruder.token,
        chatBody(w.agentId, { question: 'as a table', thread_id: thread }),
      ),
      "another user's follow-up",
    );
    const rows = other.charts.flatMap((c) => ChatResult.parse(c).chartData);
    expect(leaks(w, intruder, [...rows, { text: other.grammar.messages }])).toEqual([]);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.body.agent-version-optional', 'chat.body.agent-version-default-latest'],
  'without agent_version the latest version answers; agent_version pins an older one',
  async (t) => {
    const w = await chatWorld(t);
    const org = w.account.organizationId;
    await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'second');
    const { version: latest } = await t.hooks.addAgentVersion(org, w.projectId, w.agentId, 'third');
    expect(latest).toBe(3);
    const token = userOf(w, 0, 0).token;
    const question = 'total amount by region';
    const byDefault = expectStream(
      await chat(t, w.agentId, token, chatBody(w.agentId, { question })),
      'no agent_version',
    );
    expect(agentVersionOf(byDefault), 'the version answering by default').toBe(3);
    for (const pinned of [1, 2]) {
      const answer = expectStream(
        await chat(t, w.agentId, token, chatBody(w.agentId, { question, agent_version: pinned })),
        `agent_version ${pinned}`,
      );
      expect(agentVersionOf(answer), `the version pinned`).toBe(pinned);
    }
  },
  { needs: GRAMMAR, parts },
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
