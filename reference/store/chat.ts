import type { ChartSpec } from '../chat/grammar.ts';
import type { RateWindow } from '../chat/rate.ts';
import type { PlainPlan } from '../chat/second-agent.ts';

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
  /** The version a message of the thread last pinned (payload.agent_version). */
  readonly pinned?: number;
}

/**
 * The chat side of one account: its agents, threads and rate windows, and the connection
 * save-from-chat named for each chart it saved. Nothing here is a chart: the chat endpoint
 * persists none (§4.15). The connections themselves are rows of the data store (Store.data).
 */
export interface AccountChat {
  readonly agents: Map<string, AgentRecord>;
  /** Keyed by organization, user and thread_id. */
  readonly threads: Map<string, ThreadRecord>;
  /** Keyed by organization and user (§8). */
  readonly rates: Map<string, RateWindow>;
  /** chartId -> the connection save-from-chat named for it (§4.14 connectionId). */
  readonly chartConnections: Map<string, string>;
}

export const emptyChat = (): AccountChat => ({
  agents: new Map(),
  threads: new Map(),
  rates: new Map(),
  chartConnections: new Map(),
});
