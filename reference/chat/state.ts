import type { ReferenceContext } from '../http/context.ts';
import { DataStore } from '../data/database.ts';
import type { ChartSpec } from './grammar.ts';
import type { PlainPlan } from './second-agent.ts';

/** A project agent (hooks `agents`): its connection and its versions, oldest first. */
export interface AgentRecord {
  readonly agentId: string;
  readonly organizationId: string;
  readonly projectId: string;
  readonly name: string;
  readonly connectionId: string | null;
  readonly versions: number[];
}

/**
 * What a thread remembers (§4.15 thread_id): the chart it answered last, in the terms of the
 * agent that answered (`spec` for the grammar agent, `plan` for the second agent).
 */
export interface ThreadRecord {
  readonly spec?: ChartSpec;
  readonly plan?: PlainPlan;
  readonly charts: number;
}

/** A fixed rate-limit window (decision limits.chat.window-kind): its start and its count. */
export interface RateWindow {
  readonly start: number;
  count: number;
}

/**
 * The chat side of the reference, kept beside the world rather than in it (the world's
 * machines know nothing of data): the data store, agents, threads and rate windows of one
 * reference process. Nothing here is a chart: the chat endpoint persists none (§4.15).
 */
export interface ChatState {
  readonly data: DataStore;
  readonly agents: Map<string, AgentRecord>;
  /** Keyed by organization, user and thread_id. */
  readonly threads: Map<string, ThreadRecord>;
  /** Keyed by organization and user (§8). */
  readonly rates: Map<string, RateWindow>;
  /** chartId -> the connection save-from-chat named for it (§4.14 connectionId). */
  readonly chartConnections: Map<string, string>;
}

const states = new WeakMap<object, ChatState>();

/** The chat state of a reference process (one per context, made on first use). */
export function chatState(ctx: Pick<ReferenceContext, 'world'>): ChatState {
  let state = states.get(ctx.world);
  if (state === undefined) {
    state = {
      data: new DataStore(),
      agents: new Map(),
      threads: new Map(),
      rates: new Map(),
      chartConnections: new Map(),
    };
    states.set(ctx.world, state);
  }
  return state;
}

/** The reset hook: the account's connections, agents, threads and rate windows go. */
export async function resetChat(
  ctx: Pick<ReferenceContext, 'world'>,
  organizationId: string,
): Promise<void> {
  const state = chatState(ctx);
  for (const [id, agent] of state.agents) {
    if (agent.organizationId === organizationId) state.agents.delete(id);
  }
  const prefix = `${organizationId}\u0000`;
  for (const key of state.threads.keys()) if (key.startsWith(prefix)) state.threads.delete(key);
  for (const key of state.rates.keys()) if (key.startsWith(prefix)) state.rates.delete(key);
  for (const [chartId, connectionId] of state.chartConnections) {
    if (state.data.connection(organizationId, connectionId) !== undefined)
      state.chartConnections.delete(chartId);
  }
  await state.data.dropAccount(organizationId);
}

/** Save-from-chat names the connection of the chart it saves (§4.14 connectionId). */
export function rememberChartConnection(
  ctx: Pick<ReferenceContext, 'world'>,
  organizationId: string,
  chartId: string,
  connectionId: string | undefined,
): void {
  const state = chatState(ctx);
  if (
    connectionId !== undefined &&
    state.data.connection(organizationId, connectionId) !== undefined
  )
    state.chartConnections.set(chartId, connectionId);
}
