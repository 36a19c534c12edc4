import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { tokenActor } from '../auth.ts';
import { connectionForSql, runSql, SEEDED } from '../data.ts';
import {
  applicationOfWorkspace,
  controlsValid,
  finalizeMigration,
  isMigrated,
  liveDashboard,
  migrateWorkspace,
  newDashboard,
} from '../dashboards.ts';
import { ApiError, invalid, notFound, unauthorized } from '../errors.ts';
import { parse } from '../http.ts';
import type { Req, Router } from '../http.ts';
import { roleView } from '../identity.ts';
import { AnyBody, Permissions, Uuid } from '../schemas.ts';
import type { ColumnType, Row, Table, Value } from '../sql.ts';
import { nextSeq } from '../store.ts';
import type { Account, Connection, Store } from '../store.ts';
import { byId, canonical, isoMillis, newId } from '../util.ts';

/** The host hooks of spec/hooks.openapi.yaml, under this service's prefix. */

export const HOOKS_PREFIX = '/_host/v1';
export const IMPLEMENTATION = 'blind-1';
export const VERSION = '0.1.0';
const HOOKS = [
  'accounts',
  'projects',
  'roles',
  'members',
  'workspaces',
  'dashboards',
  'charts',
  'dashboard-charts',
  'agents',
  'connections',
  'chart-data',
  'migration',
  'clock',
  'reset',
  'snapshot',
] as const;

const SqlName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a table or column name');
const Control = z.object({
  controlKey: z.string().regex(/^[A-Za-z0-9_-]+$/),
  field: z.string().min(1),
  label: z.string().min(1),
});
const ConnectionBody = z.looseObject({
  name: z.string().min(1).optional(),
  table: z
    .object({
      name: SqlName,
      columns: z
        .array(
          z.object({
            name: SqlName,
            type: z.enum(['text', 'integer', 'number', 'date', 'boolean']),
          }),
        )
        .min(1),
      rows: z.array(z.record(z.string(), z.unknown())).max(10000),
    })
    .optional(),
  rowFilters: z.array(z.object({ column: SqlName, property: z.string().min(1) })).optional(),
});

function fits(type: ColumnType, v: unknown): v is Value {
  if (v === null) return true;
  switch (type) {
    case 'text':
      return typeof v === 'string';
    case 'integer':
      return Number.isSafeInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'date': {
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }
  }
}

export function registerHooks(router: Router, store: Store): void {
  const P = HOOKS_PREFIX;
  const body = (req: Req) => parse(AnyBody, req.body ?? {});
  const account = (req: Req): Account => {
    const id = req.params.organizationId ?? '';
    if (!Uuid.safeParse(id).success)
      throw invalid('organizationId must be a UUID.', { field: 'organizationId' });
    const found = store.accounts.get(id);
    if (!found) throw notFound('account', 'organizationId');
    return found;
  };
  const project = (acc: Account, id: string | undefined) => {
    if (!Uuid.safeParse(id).success)
      throw invalid('projectId must be a UUID.', { field: 'projectId' });
    const found = acc.projects.get(id as string);
    if (!found) throw notFound('project', 'projectId');
    return found;
  };
  const key = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

  router.add('GET', `${P}/capabilities`, () =>
    Promise.resolve({
      data: { implementation: IMPLEMENTATION, version: VERSION, hooks: [...HOOKS] },
    }),
  );

  router.add('POST', `${P}/accounts`, (req) => {
    const input = parse(z.looseObject({ name: z.string().min(1).optional() }), body(req));
    const id = newId();
    const hubUserId = newId();
    const acc = store.newAccount(id, input.name ?? `Customer ${id.slice(0, 8)}`, hubUserId);
    const userScopedKey = key('bk_u');
    const orgBoundKey = key('bk_o');
    store.keys.set(userScopedKey, { key: userScopedKey, kind: 'user-scoped', owner: hubUserId });
    store.keys.set(orgBoundKey, { key: orgBoundKey, kind: 'org-bound', owner: id });
    store.memberships.set(hubUserId, new Set([id]));
    return Promise.resolve({
      status: 201,
      data: { organizationId: id, name: acc.name, hubUserId, userScopedKey, orgBoundKey },
    });
  });

  router.add('POST', `${P}/accounts/:organizationId/members`, (req) => {
    const acc = account(req);
    const input = parse(z.looseObject({ userScopedKey: z.string().min(1) }), body(req));
    const found = store.keys.get(input.userScopedKey);
    if (!found || found.kind !== 'user-scoped') throw notFound('apiKey', 'userScopedKey');
    const set = store.memberships.get(found.owner) ?? new Set<string>();
    set.add(acc.id);
    store.memberships.set(found.owner, set);
    return Promise.resolve({ data: { organizationId: acc.id, hubUserId: found.owner } });
  });

  router.add('POST', `${P}/accounts/:organizationId/projects`, (req) => {
    const acc = account(req);
    const input = parse(z.looseObject({ name: z.string().min(1).optional() }), body(req));
    const id = newId();
    const name = input.name ?? `Project ${acc.projects.size + 1}`;
    acc.projects.set(id, { id, name, createdAt: store.now(acc) });
    return Promise.resolve({ status: 201, data: { projectId: id, name } });
  });

  router.add('POST', `${P}/accounts/:organizationId/projects/:projectId/roles`, (req) => {
    const acc = account(req);
    const proj = project(acc, req.params.projectId);
    const input = parse(
      z.looseObject({ name: z.string().min(1), permissions: Permissions.optional() }),
      body(req),
    );
    const now = store.now(acc);
    const id = newId();
    const role = {
      id,
      name: input.name,
      projectId: proj.id,
      permissions: { ...(input.permissions ?? {}) },
      createdAt: now,
      updatedAt: now,
    };
    acc.roles.set(id, role);
    return Promise.resolve({ status: 201, data: roleView(acc, role) });
  });

  router.add('POST', `${P}/accounts/:organizationId/workspaces`, (req) => {
    const acc = account(req);
    const input = parse(
      z.looseObject({
        name: z.string().min(1),
        projectId: Uuid.optional(),
        teamId: z.string().min(1).optional(),
        dashboardName: z.string().min(1).optional(),
      }),
      body(req),
    );
    if (input.projectId !== undefined) project(acc, input.projectId);
    const now = store.now(acc);
    const wsId = newId();
    const primary = newDashboard(
      acc,
      { generation: 1, containerId: wsId, name: input.dashboardName ?? input.name },
      now,
    );
    const ws = {
      id: wsId,
      name: input.name,
      projectId: input.projectId ?? null,
      teamId: input.teamId ?? null,
      primaryDashboardId: primary.id,
      createdAt: now,
    };
    acc.workspaces.set(wsId, ws);
    if (isMigrated(acc)) migrateWorkspace(store, acc, ws);
    return Promise.resolve({
      status: 201,
      data: { workspaceId: wsId, name: ws.name, dashboardId: primary.id },
    });
  });

  router.add('POST', `${P}/accounts/:organizationId/workspaces/:workspaceId/dashboards`, (req) => {
    const acc = account(req);
    const wsId = req.params.workspaceId ?? '';
    if (!Uuid.safeParse(wsId).success)
      throw invalid('workspaceId must be a UUID.', { field: 'workspaceId' });
    const input = parse(
      z.looseObject({ name: z.string().min(1), controls: z.array(Control).optional() }),
      body(req),
    );
    const controls = input.controls ?? [];
    if (!controlsValid(controls))
      throw invalid('controlKey values must be unique.', { field: 'controls' });
    const ws = acc.workspaces.get(wsId);
    if (!ws) throw notFound('workspace', 'workspaceId');
    const now = store.now(acc);
    if (isMigrated(acc)) {
      const app = applicationOfWorkspace(acc, ws.id);
      if (!app) throw notFound('workspace', 'workspaceId');
      const d = newDashboard(
        acc,
        { generation: 2, containerId: app.id, name: input.name, controls },
        now,
      );
      return Promise.resolve({
        status: 201,
        data: { dashboardId: d.id, name: d.name, workspaceId: ws.id, controls },
      });
    }
    const d = newDashboard(
      acc,
      { generation: 1, containerId: ws.id, name: input.name, controls },
      now,
    );
    return Promise.resolve({
      status: 201,
      data: { dashboardId: d.id, name: d.name, workspaceId: ws.id, controls },
    });
  });

  const dashboardParam = (acc: Account, req: Req) => {
    const id = req.params.dashboardId ?? '';
    if (!Uuid.safeParse(id).success)
      throw invalid('dashboardId must be a UUID.', { field: 'dashboardId' });
    const d = liveDashboard(acc, id) ?? acc.dashboards.get(id);
    if (!d) throw notFound('dashboard', 'dashboardId');
    return d;
  };

  router.add('GET', `${P}/accounts/:organizationId/dashboards/:dashboardId/charts`, (req) => {
    const acc = account(req);
    const d = dashboardParam(acc, req);
    return Promise.resolve({
      data: {
        dashboardId: req.params.dashboardId,
        chartIds: [...d.chartIds],
        charts: d.chartIds.map((id) => {
          const chart = acc.charts.get(id);
          return { chartId: id, name: chart?.name ?? '', chartConfig: chart?.chartConfig ?? {} };
        }),
      },
    });
  });

  router.add('POST', `${P}/accounts/:organizationId/dashboards/:dashboardId/charts`, (req) => {
    const acc = account(req);
    const input = parse(
      z.looseObject({
        name: z.string().min(1),
        chartConfig: z.record(z.string(), z.unknown()).optional(),
      }),
      body(req),
    );
    const d = dashboardParam(acc, req);
    const id = newId();
    acc.charts.set(id, {
      id,
      name: input.name,
      chartConfig: structuredClone(input.chartConfig ?? { title: input.name }),
      connectionId: null,
      agentId: null,
      sql: null,
      thumbnail: null,
    });
    d.chartIds.push(id);
    return Promise.resolve({
      status: 201,
      data: { chartId: id, name: input.name, dashboardId: req.params.dashboardId },
    });
  });

  router.add('POST', `${P}/accounts/:organizationId/connections`, (req) => {
    const acc = account(req);
    const input = parse(ConnectionBody, body(req));
    let table: Table | null = null;
    if (input.table) {
      const seen = new Map<string, { name: string; type: ColumnType }>();
      for (const c of input.table.columns) {
        if (seen.has(c.name.toLowerCase()))
          throw invalid(`Column ${c.name} is named twice.`, { field: 'table.columns' });
        seen.set(c.name.toLowerCase(), c);
      }
      const rows: Row[] = input.table.rows.map((raw, i) => {
        const row: Row = {};
        for (const c of input.table?.columns ?? []) row[c.name] = null;
        for (const [k, v] of Object.entries(raw)) {
          const col = seen.get(k.toLowerCase());
          if (!col) throw invalid(`Row ${i} names no column "${k}".`, { field: `table.rows.${i}` });
          if (!fits(col.type, v))
            throw invalid(`Row ${i}: ${k} does not fit ${col.type}.`, {
              field: `table.rows.${i}.${k}`,
            });
          row[col.name] = v;
        }
        return row;
      });
      table = { name: input.table.name, columns: input.table.columns, rows };
    }
    const columns = (table ?? SEEDED).columns;
    const rowFilters = (input.rowFilters ?? []).map((f) => {
      const col = columns.find((c) => c.name.toLowerCase() === f.column.toLowerCase());
      if (!col) throw invalid(`Row filter names no column "${f.column}".`, { field: 'rowFilters' });
      return { column: col.name, property: f.property };
    });
    const conn: Connection = {
      id: newId(),
      name: input.name ?? (table ? table.name : 'demo'),
      table,
      rowFilters,
      seq: nextSeq(acc),
    };
    acc.connections.set(conn.id, conn);
    return Promise.resolve({
      status: 201,
      data: { connectionId: conn.id, tables: [(table ?? SEEDED).name] },
    });
  });

  router.add('POST', `${P}/accounts/:organizationId/charts/:chartId/data`, async (req) => {
    const acc = account(req);
    const chartId = req.params.chartId ?? '';
    if (!Uuid.safeParse(chartId).success)
      throw invalid('chartId must be a UUID.', { field: 'chartId' });
    const input = parse(
      z.looseObject({
        token: z.string().min(1),
        filters: z.array(z.object({ field: z.string().min(1), value: z.unknown() })).optional(),
      }),
      body(req),
    );
    const actor = await tokenActor(store, input.token);
    if (actor.kind !== 'user')
      throw unauthorized('token-not-accepted', 'A project-user token is needed.');
    if (actor.account.id !== acc.id) throw notFound('chart', 'chartId');
    const chart = acc.charts.get(chartId);
    if (!chart) throw notFound('chart', 'chartId');
    const override = chart.chartConfig.sqlOverride;
    const sql =
      typeof override === 'string' && override.trim() !== ''
        ? override
        : chart.sql?.trim()
          ? chart.sql
          : null;
    if (sql === null)
      throw new ApiError(409, 'CONFLICT', 'The chart holds no SQL, so it has no data to load.', {
        reason: 'chart-without-sql',
      });
    const connection = connectionForSql(acc, chart.connectionId, sql);
    const result = runSql(
      connection,
      sql,
      actor.claims.ctx.props,
      (input.filters ?? []).map((f) => ({ field: f.field, value: f.value })),
    );
    return { data: { rows: result.rows, columns: result.columns } };
  });

  router.add('POST', `${P}/accounts/:organizationId/projects/:projectId/agents`, (req) => {
    const acc = account(req);
    const proj = project(acc, req.params.projectId);
    const input = parse(
      z.looseObject({ name: z.string().min(1).optional(), connectionId: Uuid.optional() }),
      body(req),
    );
    if (input.connectionId !== undefined && !acc.connections.has(input.connectionId))
      throw notFound('connection', 'connectionId');
    const agent = {
      id: newId(),
      projectId: proj.id,
      name: input.name ?? 'Ledger',
      connectionId: input.connectionId ?? null,
      versions: [{ version: 1, note: null }],
    };
    acc.agents.set(agent.id, agent);
    return Promise.resolve({
      status: 201,
      data: {
        agentId: agent.id,
        name: agent.name,
        projectId: proj.id,
        ...(agent.connectionId ? { connectionId: agent.connectionId } : {}),
        version: 1,
        versions: [1],
      },
    });
  });

  router.add(
    'POST',
    `${P}/accounts/:organizationId/projects/:projectId/agents/:agentId/versions`,
    (req) => {
      const acc = account(req);
      const proj = project(acc, req.params.projectId);
      const input = parse(z.looseObject({ note: z.string().optional() }), body(req));
      const agent = acc.agents.get(req.params.agentId ?? '');
      if (!agent || agent.projectId !== proj.id) throw notFound('agent', 'agentId');
      const version = (agent.versions[agent.versions.length - 1]?.version ?? 0) + 1;
      agent.versions.push({ version, note: input.note ?? null });
      return Promise.resolve({
        status: 201,
        data: { agentId: agent.id, version, versions: agent.versions.map((v) => v.version) },
      });
    },
  );

  router.add('POST', `${P}/accounts/:organizationId/migration/finalize`, (req) => {
    const acc = account(req);
    body(req);
    finalizeMigration(store, acc);
    return Promise.resolve({
      data: {
        finalizedAt: isoMillis(acc.migration?.finalizedAt ?? store.now(acc)),
        applications: [...acc.applications.values()].map((a) => ({
          applicationId: a.id,
          name: a.name,
          legacyWorkspaceId: a.legacyWorkspaceId,
          defaultDashboardId: a.defaultDashboardId,
        })),
      },
    });
  });

  const clockView = (acc: Account) => ({
    now: isoMillis(store.now(acc)),
    frozen: acc.clock.frozenAt !== null,
  });

  router.add('GET', `${P}/accounts/:organizationId/clock`, (req) =>
    Promise.resolve({ data: clockView(account(req)) }),
  );

  router.add('POST', `${P}/accounts/:organizationId/clock/freeze`, (req) => {
    const acc = account(req);
    const input = parse(
      z.looseObject({ at: z.iso.datetime({ offset: true }).optional() }),
      body(req),
    );
    const now = store.now(acc);
    const at = input.at === undefined ? now : Date.parse(input.at);
    if (at < now)
      throw invalid('The clock cannot be frozen at an instant before its current time.', {
        field: 'at',
      });
    acc.clock.frozenAt = at;
    return Promise.resolve({ data: clockView(acc) });
  });

  router.add('POST', `${P}/accounts/:organizationId/clock/advance`, (req) => {
    const acc = account(req);
    const input = parse(z.looseObject({ seconds: z.number().min(0).finite() }), body(req));
    const ms = Math.round(input.seconds * 1000);
    if (acc.clock.frozenAt !== null) acc.clock.frozenAt += ms;
    else acc.clock.offsetMs += ms;
    return Promise.resolve({ data: clockView(acc) });
  });

  router.add('POST', `${P}/accounts/:organizationId/reset`, (req) => {
    const acc = account(req);
    body(req);
    store.reset(acc);
    return Promise.resolve({ data: { organizationId: acc.id, reset: true } });
  });

  router.add('GET', `${P}/accounts/:organizationId/snapshot`, (req) => {
    const acc = account(req);
    const connections = byId(acc.connections.values()).map((c) => ({
      id: c.id,
      name: c.name,
      rowFilters: c.rowFilters,
      table: c.table
        ? {
            name: c.table.name,
            columns: c.table.columns,
            rows: c.table.rows.length,
            digest: createHash('sha256').update(JSON.stringify(c.table.rows)).digest('hex'),
          }
        : null,
    }));
    const state = {
      name: acc.name,
      projects: byId(acc.projects.values()),
      roles: byId(acc.roles.values()),
      organizations: byId(acc.organizations.values()),
      users: byId(acc.users.values()),
      tenants: byId(acc.tenants.values()),
      workspaces: byId(acc.workspaces.values()),
      dashboards: byId(acc.dashboards.values()),
      charts: byId(acc.charts.values()),
      connections,
      agents: byId(acc.agents.values()),
      applications: byId(acc.applications.values()),
      migration: acc.migration,
    };
    return Promise.resolve({ data: { organizationId: acc.id, state: canonical(state) } });
  });
}
