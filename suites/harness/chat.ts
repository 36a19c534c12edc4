import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';
import { chartResults, checkGrammar, type GrammarReport } from './event-sequence.ts';
import type { Conformance } from './conformance.ts';
import type { Reply } from './http.ts';
import { readStreamText, type ReadStream } from './sse.ts';
import { chatPath } from './paths.ts';

/**
 * The chat call (§4.15) as every area that asks a question sends it, read through the suites'
 * own §6 reader and grammar check; the chat area's worlds are its kit (suites/chat/kit.ts).
 */

/** Hooks a chat world is built with. */
export const CHAT: readonly HookName[] = ['accounts', 'projects', 'connections', 'agents'];

/** And a test whose oracle is the reference agent's question grammar (docs/reference-agent.md). */
export const GRAMMAR: readonly HookName[] = [...CHAT, 'agent-grammar'];

export interface ChatBodyFields {
  readonly question?: string;
  readonly messages?: readonly { role: string; content: string }[];
  readonly thread_id?: string;
  readonly agent_id?: string;
  readonly agent_version?: number;
}

/** The §4.15 body: the question as the last user message, the agent id of the path. */
export function chatBody(agentId: string, fields: ChatBodyFields = {}): Record<string, unknown> {
  return {
    messages: fields.messages ?? [{ role: 'user', content: fields.question ?? 'Hello' }],
    ...(fields.thread_id === undefined ? {} : { thread_id: fields.thread_id }),
    payload: {
      agent_id: fields.agent_id ?? agentId,
      ...(fields.agent_version === undefined ? {} : { agent_version: fields.agent_version }),
    },
  };
}

export interface ChatAnswer {
  readonly res: Reply;
  /** The stream as read (empty when the answer is not an event stream). */
  readonly stream: ReadStream;
  readonly grammar: GrammarReport;
  /** The generateChart results. */
  readonly charts: unknown[];
}

/** Sends a chat request (bearer token, §4.15) and reads the answer as a §6 stream. */
export async function chat(
  t: Conformance,
  agentId: string,
  token: string | undefined,
  body: unknown,
): Promise<ChatAnswer> {
  const res = await t.http.post(chatPath(agentId), body, {
    headers: {
      accept: 'text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  });
  const stream = readStreamText(isEventStream(res) ? res.text : '');
  const grammar = checkGrammar(stream);
  return { res, stream, grammar, charts: chartResults(grammar) };
}

export function isEventStream(res: Reply): boolean {
  return (res.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');
}

/**
 * Whether chat answered with a stream: a 2xx event stream. §4.15 gives the media type and no
 * status (partial.status.chat-stream), so any success status is taken.
 */
export function isStreamed(res: Reply): boolean {
  return res.status >= 200 && res.status < 300 && isEventStream(res);
}

/** A chat answer that must be a stream following §6: a 2xx, text/event-stream, grammar kept. */
export function expectStream(answer: ChatAnswer, what: string): ChatAnswer {
  const { res } = answer;
  expect(
    res.status >= 200 && res.status < 300,
    `${what}: expected a 2xx and a stream, got ${res.status} ${res.text.slice(0, 300)}`,
  ).toBe(true);
  expect(res.headers['content-type'] ?? '', `${what}: the content type`).toMatch(
    /^text\/event-stream/i,
  );
  expect(
    answer.grammar.problems.map((p) => `${p.clause}: ${p.message}`),
    `${what}: the stream breaks §6`,
  ).toEqual([]);
  for (const [i, result] of answer.charts.entries()) {
    const parsed = ChatResult.safeParse(result);
    if (!parsed.success)
      expect.fail(
        `${what}: generateChart result ${i} is not a §2.7 chat result: ${JSON.stringify(parsed.error.issues.slice(0, 5))}`,
      );
  }
  return answer;
}

/** A chart's rows as `its string value -> its number`, whatever the keys are called. */
export function pairs(rows: readonly Record<string, unknown>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) {
    const values = Object.values(row);
    const key = values.find((v) => typeof v === 'string');
    const value = values.find((v) => typeof v === 'number');
    if (typeof key === 'string' && typeof value === 'number') out[key] = value;
  }
  return out;
}
