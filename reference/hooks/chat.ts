import { hookNotFound, withHookAccount } from './account.ts';
import type { FastifyInstance } from 'fastify';
import {
  AccountPath,
  ChartDataBody,
  CreateAgentBody,
  CreateAgentVersionBody,
  CreateConnectionBody,
  HookAgentPath,
  HookChartPath,
  HookProjectPath,
  type HookName,
} from '../../spec/schemas/hooks.ts';
import { chartRows } from '../charts/rows.ts';
import type { ReferenceContext } from '../context.ts';
import type { Settings } from '../settings.ts';
import { errDone, okDone, route } from '../http/route.ts';
import type { Done } from '../done.ts';
import { projectUserOf } from '../store/actors.ts';
import type { AgentRecord } from '../store/chat.ts';
import type { AccountRecord } from '../store/store.ts';

/**
 * The chat and data hooks this file serves (spec/hooks.openapi.yaml, tags content and data),
 * and the capability `agent-grammar`: the reference agent's grammar (docs/reference-agent.md).
 */
export const CHAT_HOOKS: readonly HookName[] = [
  'agents',
  'connections',
  'chart-data',
  'agent-grammar',
];

/**
 * The hooks announced under the reference's settings: the second agent (latitude
 * chat.second-agent) reads no grammar the suites could predict, so `agent-grammar` goes.
 */
export function announcedHooks(hooks: readonly string[], settings: Settings): string[] {
  return settings.agent === 'grammar' ? [...hooks] : hooks.filter((h) => h !== 'agent-grammar');
}

export const agentView = (a: AgentRecord) => ({
  agentId: a.agentId,
  name: a.name,
  projectId: a.projectId,
  ...(a.connectionId === null ? {} : { connectionId: a.connectionId }),
  version: a.versions[a.versions.length - 1] ?? 1,
  versions: [...a.versions],
});

export function chatHookRoutes(app: FastifyInstance, ctx: ReferenceContext, prefix: string): void {
  const { store } = ctx;
  const { data } = store;
  const withAccount = async <T>(
    organizationId: string,
    fn: (a: AccountRecord) => Done<T> | Promise<Done<T>>,
  ): Promise<Done<T>> => withHookAccount(store, organizationId, fn);

  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/connections`,
    auth: 'none',
    params: AccountPath,
    body: CreateConnectionBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, async (a) => {
        // The seeded dataset is built once, in the background, from the first hook wanting it.
        if (body.table === undefined) void data.start().catch(() => undefined);
        const made = await data.createConnection(a.organizationId, ctx.ids.uuid(), {
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.table === undefined ? {} : { table: body.table }),
          ...(body.rowFilters === undefined ? {} : { rowFilters: body.rowFilters }),
        });
        if (!made.ok) return made;
        return okDone({
          connectionId: made.value.connectionId,
          tables: made.value.tables.map((t) => t.name),
        });
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/projects/:projectId/agents`,
    auth: 'none',
    params: HookProjectPath,
    body: CreateAgentBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        if (a.identity.projects[params.projectId] === undefined)
          return errDone(hookNotFound('project', 'projectId'));
        if (
          body.connectionId !== undefined &&
          data.connection(a.organizationId, body.connectionId) === undefined
        )
          return errDone(hookNotFound('connection', 'connectionId'));
        const agent: AgentRecord = {
          agentId: ctx.ids.uuid(),
          organizationId: a.organizationId,
          projectId: params.projectId,
          name: body.name ?? 'EAC test agent',
          connectionId: body.connectionId ?? null,
          versions: [1],
        };
        if (agent.connectionId === null) void data.start().catch(() => undefined);
        a.chat.agents.set(agent.agentId, agent);
        return okDone(agentView(agent));
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/projects/:projectId/agents/:agentId/versions`,
    auth: 'none',
    params: HookAgentPath,
    body: CreateAgentVersionBody,
    status: 201,
    handle: ({ params }) =>
      withAccount(params.organizationId, (a) => {
        const agent = a.chat.agents.get(params.agentId);
        if (
          agent === undefined ||
          agent.organizationId !== params.organizationId ||
          agent.projectId !== params.projectId
        )
          return errDone(hookNotFound('agent', 'agentId'));
        agent.versions.push(agent.versions.length + 1);
        const { agentId, version, versions } = agentView(agent);
        return okDone({ agentId, version, versions });
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${prefix}/accounts/:organizationId/charts/:chartId/data`,
    auth: 'none',
    params: HookChartPath,
    body: ChartDataBody,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, async (a) => {
        const user = await projectUserOf(ctx, body.token);
        if (!user.ok) return user;
        if (user.value.account !== a) return errDone(hookNotFound('chart', 'chartId'));
        const rows = await chartRows(ctx, {
          organizationId: a.organizationId,
          chartId: params.chartId,
          properties: { ...user.value.properties },
          ...(body.filters === undefined ? {} : { filters: body.filters }),
        });
        return rows.ok ? okDone({ rows: rows.rows, columns: rows.columns }) : errDone(rows.error);
      }),
  });
}
