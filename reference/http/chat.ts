import type { FastifyInstance, FastifyReply } from 'fastify';
import { specError } from '../../spec/errors.ts';
import { ChatBody, ChatPath } from '../../spec/schemas/chat.ts';
import { answer, type AgentAnswer } from '../chat/agent.ts';
import { answerEvents, askEvents, sseLine, type ChatStreamEvent } from '../chat/events.ts';
import { answeringVersion, readChatBody } from '../chat/request.ts';
import { plainAnswer, plainEvents, type PlainAnswer } from '../chat/second-agent.ts';
import { rateKey, takeChatSlot } from '../chat/rate.ts';
import { propertyText, rowFiltersOf, missingProperty } from '../data/sql.ts';
import type { ReferenceContext } from '../context.ts';
import { projectUserOf } from '../store/actors.ts';
import type { ThreadRecord } from '../store/chat.ts';
import { parse, sendError } from './render.ts';
import { lowerCaseUuids } from './uuid-case.ts';

export const CHAT_PATH = '/v1/api/project-agents/:agentId/chat';

const notFound = (resource: string, field: string, message: string) =>
  specError('NOT_FOUND', message, { resource, field });

const NO_AGENT = 'no agent with that id here';
// details.field of a path id: errors.not-found.status asks for it only when the id came from the body.
const PATH_AGENT_FIELD = 'agentId';

/** The token of an `Authorization: Bearer` header, if any. */
function bearer(header: string | undefined): string | undefined {
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/**
 * §4.15: the streaming chat. Everything that can refuse a request is decided before the
 * first byte of the stream (token, path, body, agent and version, the user's properties, the
 * rate limit of §8), so a refusal is a plain §7 answer; then the stream (§6) is written event
 * by event. No chart is stored: the thread remembers its last chart in memory only.
 */
export function chatRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  const { data } = ctx.store;
  app.post(CHAT_PATH, async (req, reply) => {
    const user = await projectUserOf(ctx, bearer(req.headers.authorization));
    if (!user.ok) return sendError(reply, user.error);
    const path = parse(ChatPath, req.params, 'path');
    if (!path.ok) return sendError(reply, path.error);
    const body = parse(ChatBody, req.body, 'body');
    if (!body.ok) return sendError(reply, body.error);
    const { agentId } = lowerCaseUuids(ChatPath, path.value) as { agentId: string };
    const reading = readChatBody(agentId, body.value, ctx.settings);
    if (reading.kind === 'refused') return sendError(reply, reading.error);
    const { messages } = body.value;

    const { account, userId } = user.value;
    const agent = account.chat.agents.get(agentId);
    // Decision: an agent of another account or project looks like an unknown one (404).
    if (
      agent === undefined ||
      agent.organizationId !== account.organizationId ||
      agent.projectId !== user.value.projectId
    )
      return sendError(reply, notFound('agent', PATH_AGENT_FIELD, NO_AGENT));
    const threadKey =
      body.value.thread_id === undefined
        ? undefined
        : `${account.organizationId}\u0000${userId}\u0000${body.value.thread_id}`;
    const thread = threadKey === undefined ? undefined : account.chat.threads.get(threadKey);
    const agentVersion = answeringVersion(
      agent.versions,
      reading.pinned,
      thread?.pinned,
      ctx.settings,
    );
    if (typeof agentVersion !== 'number') return sendError(reply, agentVersion);
    const connection =
      agent.connectionId === null
        ? data.seedConnection(account.organizationId)
        : data.connection(account.organizationId, agent.connectionId);
    if (connection === undefined)
      return sendError(
        reply,
        notFound('connection', 'connectionId', 'the agent\u2019s connection is gone'),
      );
    const properties = user.value.properties;
    // Decision resources.properties.missing-property: never an unfiltered answer.
    const lacking = rowFiltersOf(connection).find(
      (f) => propertyText(properties[f.property]) === undefined,
    );
    if (lacking !== undefined) return sendError(reply, missingProperty(lacking.property));
    const limited = takeChatSlot(
      account.chat.rates,
      rateKey(account.organizationId, user.value.projectOrganizationId, userId),
      ctx.store.now(account),
      ctx.settings,
    );
    if (limited !== undefined) return sendError(reply, limited);

    // The thread keeps the last version a message of it pinned (read under threadVersion
    // 'carried' only), beside its last chart.
    const pinned = reading.pinned ?? thread?.pinned;
    const remember = (update: Omit<ThreadRecord, 'pinned'>) => {
      if (threadKey !== undefined)
        account.chat.threads.set(threadKey, {
          ...update,
          ...(pinned === undefined ? {} : { pinned }),
        });
    };
    if (reading.pinned !== undefined) remember(thread ?? { charts: 0 });
    if (reading.kind === 'no-question') {
      const open = startStream(reply);
      for (const event of askEvents(agentVersion)) open.send(event);
      open.end();
      return reply;
    }
    const { question } = reading;
    const chartRef = `chat-chart-${ctx.ids.hex(8)}`;

    if (ctx.settings.agent === 'second') {
      // Latitude chat.second-agent: another agent answers, with a stream of its own.
      let plain: PlainAnswer;
      try {
        plain = await plainAnswer(data, connection, {
          messages,
          properties,
          previous: thread?.plan,
        });
      } catch (err) {
        plain = {
          kind: 'text',
          text: `Something went wrong: ${err instanceof Error ? err.message : String(err)}`,
        };
        req.log.error(err);
      }
      if (plain.kind === 'chart') remember({ plan: plain.plan, charts: (thread?.charts ?? 0) + 1 });
      const open = startStream(reply);
      for (const event of plainEvents(plain, {
        version: agentVersion,
        threadId: body.value.thread_id,
        question: question,
        chartRef,
      }))
        open.send(event);
      open.end();
      return reply;
    }

    const open = startStream(reply);
    open.send({
      type: 'start',
      payload: {
        agentVersion,
        ...(body.value.thread_id === undefined ? {} : { threadId: body.value.thread_id }),
      },
    });
    open.send({ type: 'start-step' });
    let said: AgentAnswer;
    try {
      said = await answer(data, connection, question, properties, thread?.spec);
    } catch (err) {
      // A failure of the reference mid-stream: said as text, never a broken stream.
      said = {
        kind: 'text',
        text: `The agent failed: ${err instanceof Error ? err.message : String(err)}`,
      };
      req.log.error(err);
    }
    if (said.kind === 'chart') remember({ spec: said.spec, charts: (thread?.charts ?? 0) + 1 });
    for (const event of answerEvents(said, {
      agentVersion,
      question: question,
      chartRef,
    }))
      open.send(event);
    open.end();
    return reply;
  });
}

/** Opens the event stream: status and headers now, then one flushed write per event. */
function startStream(reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  return {
    send(event: ChatStreamEvent) {
      if (!res.destroyed) res.write(sseLine(event));
    },
    end() {
      if (!res.destroyed) res.end();
    },
  };
}
