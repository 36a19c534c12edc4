import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { answer } from '../agent.ts';
import type { Spec } from '../agent.ts';
import { tokenActor } from '../auth.ts';
import { visibleRows } from '../data.ts';
import { ApiError, invalid, notFound, unauthorized } from '../errors.ts';
import { parse } from '../http.ts';
import type { Router } from '../http.ts';
import { AnyBody, Uuid } from '../schemas.ts';
import type { Account, Store } from '../store.ts';

/** §4.15, §6, §8: the streaming agent chat, with its per-organization-and-user rate limit. */

export const RATE_LIMIT = 180;
const WINDOW_MS = 60_000;

const ChatBody = z.looseObject({
  messages: z
    .array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.string() }))
    .min(1),
  thread_id: z.string().min(1).max(200).optional(),
  payload: z.looseObject({
    agent_id: z.string().min(1),
    agent_version: z.number().int().positive().optional(),
  }),
});

/** Sliding window of the last minute on the account's clock; counts accepted requests only. */
function takeRate(store: Store, account: Account, key: string): void {
  const now = store.now(account);
  const recent = (account.rate.get(key) ?? []).filter((t) => t > now - WINDOW_MS && t <= now);
  if (recent.length >= RATE_LIMIT) {
    const oldest = recent[0] as number;
    const retry = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    account.rate.set(key, recent);
    throw new ApiError(
      429,
      'TOO_MANY_REQUESTS',
      `The chat allows ${RATE_LIMIT} requests per minute for each organization and user; try again later.`,
      { limit: RATE_LIMIT, windowSeconds: 60, retryAfterSeconds: retry },
      { 'retry-after': String(retry) },
    );
  }
  recent.push(now);
  account.rate.set(key, recent);
}

function write(res: ServerResponse, event: Record<string, unknown>): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

export function registerChatRoutes(router: Router, store: Store): void {
  router.add('POST', '/v1/api/project-agents/:agentId/chat', async (req, res) => {
    const agentId = req.params.agentId ?? '';
    if (!Uuid.safeParse(agentId).success)
      throw invalid('agentId must be a UUID.', { field: 'agentId' });
    const header = req.headers.authorization;
    const token = typeof header === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (!token)
      throw unauthorized('missing-credentials', 'Send Authorization: Bearer <project-user token>.');
    const actor = await tokenActor(store, token);
    if (actor.kind !== 'user')
      throw unauthorized('token-not-accepted', 'The chat needs a project-user token.');
    const input = parse(ChatBody, parse(AnyBody, req.body ?? {}));
    if (input.payload.agent_id !== agentId)
      throw invalid('payload.agent_id must equal the agent id of the path.', {
        field: 'payload.agent_id',
      });
    const account = actor.account;
    const agent = account.agents.get(agentId);
    if (!agent || agent.projectId !== actor.user.projectId) throw notFound('agent', 'agentId');
    const latest = agent.versions[agent.versions.length - 1]?.version ?? 1;
    const version = input.payload.agent_version ?? latest;
    if (!agent.versions.some((v) => v.version === version))
      throw notFound('agentVersion', 'payload.agent_version');
    const connection = agent.connectionId
      ? (account.connections.get(agent.connectionId) ?? null)
      : null;
    const properties = actor.claims.ctx.props;
    visibleRows(connection, properties);
    takeRate(store, account, actor.user.id);

    const threadKey =
      input.thread_id === undefined ? null : `${actor.user.id}\u0000${input.thread_id}`;
    const thread = threadKey ? account.threads.get(threadKey) : undefined;
    const question = [...input.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const reply = answer(
      connection,
      properties,
      question,
      (thread?.last as Spec | undefined) ?? null,
    );

    const messageId = `msg_${randomBytes(8).toString('hex')}`;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    write(res, {
      type: 'start',
      payload: { messageId, threadId: input.thread_id ?? null, agentVersion: version },
    });
    if (reply.kind === 'chart') {
      const sqlCall = `call_${randomBytes(6).toString('hex')}`;
      const chartCall = `call_${randomBytes(6).toString('hex')}`;
      write(res, { type: 'step-start', payload: { step: 1 } });
      write(res, {
        type: 'tool-call',
        payload: { toolName: 'generateSql', toolCallId: sqlCall, args: { question } },
      });
      write(res, {
        type: 'tool-result',
        payload: { toolName: 'generateSql', toolCallId: sqlCall, result: { sql: reply.sql } },
      });
      write(res, {
        type: 'tool-call',
        payload: { toolName: 'generateChart', toolCallId: chartCall, args: { sql: reply.sql } },
      });
      write(res, {
        type: 'tool-result',
        payload: {
          toolName: 'generateChart',
          toolCallId: chartCall,
          result: {
            chartConfig: reply.chartConfig,
            chartData: reply.chartData,
            generatedChartRef: reply.generatedChartRef,
            explanation: reply.explanation,
          },
        },
      });
      write(res, { type: 'step-finish', payload: { step: 1 } });
      if (threadKey)
        account.threads.set(threadKey, { last: reply.spec, turns: (thread?.turns ?? 0) + 1 });
    }
    const text = reply.text;
    write(res, { type: 'text-start' });
    const words = text.split(/(?<=\s)/);
    for (let i = 0; i < words.length; i += 6)
      write(res, { type: 'text-delta', payload: { text: words.slice(i, i + 6).join('') } });
    write(res, { type: 'text-end' });
    write(res, { type: 'finish', payload: { messageId, agentVersion: version, reason: 'done' } });
    res.end();
    return { handled: true };
  });
}
