import { expect } from 'vitest';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';
import { expectedStrings } from '../../fixtures/oracles/index.ts';
import { buildWorld, registerUser, userToken } from '../harness/given/accounts.ts';
import { conformance, probe } from '../harness/conformance.ts';
import { describeAnswer, expectClientError, expectSuccess, refusedAs } from '../harness/expect.ts';
import type { Conformance } from '../harness/conformance.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  chartsOf,
  createWorkspace,
  dashboardsOf,
  dashboardsWorld,
  entry,
  hookCharts,
  layoutOf,
  openEndpoint,
  tenantToken,
  v1AddCharts,
  v1Create,
  v1Post,
  WITH_LAYOUT,
  type DashboardsWorld,
} from '../harness/given/dashboards.ts';
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// §4.10: clone makes a deep copy of a v1 dashboard. Every test builds its own account with a
// shared dashboard of three charts through the content hooks.
const parts = ['v1-dashboards'] as const;
const Cloned = CloneDashboardResponse.shape.data;

conformance(
  [
    'dashboards.clone.path',
    'dashboards.clone.response-shape',
    'dashboards.clone.name-default-copy',
    'auth.header.dashboard-writes',
  ],
  'a clone without a name is called the source name plus " (Copy)"',
  async (t) => {
    const w = await dashboardsWorld(t);
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
    });
    const data = expectSuccess(res, Cloned, 'clone with an API key in the authorization header');
    expect(data.name, 'the default name of a copy').toBe(
      `${w.board.name}${expectedStrings.cloneNameSuffix}`,
    );
    expect(data.dashboardId, 'a clone is a new dashboard').not.toBe(w.board.dashboardId);
    // §4.10 deep copy: where the read-only hook shows the copy, it holds every chart.
    const charts = await chartsOf(t, w, data.dashboardId);
    if (charts !== undefined)
      expect(
        charts.map((c) => c.name),
        'the copy holds every chart of the source',
      ).toEqual(w.board.charts.map((c) => c.name));
  },
  { needs: CONTENT, parts },
);

conformance(
  ['dashboards.clone.body-fields'],
  'a clone given a name and a target workspace is called so and lands there',
  async (t) => {
    const w = await dashboardsWorld(t);
    const other = await createWorkspace(t, w);
    const name = `${t.faker.company.buzzNoun()} board`;
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
      targetWorkspaceId: other.workspaceId,
      name,
    });
    expect(res.status, res.text).toBe(200);
    const data = expectSuccess(res, Cloned, 'clone');
    expect(data.name, 'the name sent').toBe(name);
    const there = await dashboardsOf(t, w, other.workspaceId);
    const copy = entry(there, data.dashboardId, 'the target workspace');
    if (copy.name !== undefined) expect(copy.name, 'the listed name of the copy').toBe(name);
    expect(copy.chartIds, 'the copy holds every chart').toHaveLength(w.board.charts.length);
    const source = await dashboardsOf(t, w, w.board.workspaceId);
    expect(
      source.map((d) => d.id),
      'the copy is not in the source workspace',
    ).not.toContain(data.dashboardId);
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.clone.target-workspace-default'],
  "a clone without a target workspace lands in the source's workspace",
  async (t) => {
    const w = await dashboardsWorld(t);
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
    });
    const data = expectSuccess(res, Cloned, 'clone');
    // Listed by the source's workspace is where the copy landed; the item's own workspace
    // member, if any, is the target's.
    entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      data.dashboardId,
      "the source's workspace",
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.clone.deep-copy'],
  'a clone holds a copy of every chart under a new id, with the same content',
  async (t) => {
    const w = await dashboardsWorld(t);
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
    });
    const data = expectSuccess(res, Cloned, 'clone');
    const copy = await hookCharts(t, w, data.dashboardId);
    const source = await hookCharts(t, w, w.board.dashboardId);
    const sourceIds = w.board.charts.map((c) => c.chartId);
    expect(copy.chartIds, 'one chart per chart of the source').toHaveLength(sourceIds.length);
    expect(
      copy.chartIds.filter((id) => sourceIds.includes(id)),
      'no chart id is shared with the source',
    ).toEqual([]);
    expect(source.chartIds, 'the source keeps its charts').toEqual(sourceIds);
    expect(
      copy.charts.map((c) => [c.name, c.chartConfig]),
      'the copies hold the same names and configurations, in order',
    ).toEqual(source.charts.map((c) => [c.name, c.chartConfig]));
  },
  { needs: WITH_LAYOUT, parts },
);

conformance(
  ['dashboards.clone.source-required'],
  'a clone without sourceDashboardId is refused and makes nothing',
  async (t) => {
    const w = await dashboardsWorld(t);
    const before = await hookCharts(t, w, w.board.dashboardId);
    const res = await v1Post(t, CLONE, w.creds().apiKey, { name: 'no source' });
    expectClientError(res, 'a clone naming no source');
    // Read through the dashboard-charts hook, not the v1 list whose path is open: the board the
    // world holds is unchanged (a dashboard the refused call made would have no id to look at).
    expect(await hookCharts(t, w, w.board.dashboardId), 'the board did not change').toEqual(before);
  },
  { needs: WITH_LAYOUT, parts },
);

conformance(
  // Before any finalize, what register-tenant answers is a JWT that clone takes as a tenant's
  // credential (§9's before column; §5 rule 4).
  ['auth.clone.carriers', 'migration.register-tenant.before'],
  'clone accepts a tenant JWT and an API key',
  async (t) => {
    const w = await dashboardsWorld(t);
    const token = await tenantToken(t, w, { canDuplicateDashboard: true });
    expect(token, 'register-tenant answers a JWT').toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    for (const [what, secret] of [
      ['an API key', w.creds().apiKey],
      ['a tenant JWT', token],
    ] as const) {
      const res = await v1Post(t, CLONE, secret, { sourceDashboardId: w.board.dashboardId });
      const { dashboardId } = expectSuccess(res, Cloned, `clone with ${what}`);
      const charts = await chartsOf(t, w, dashboardId);
      if (charts !== undefined)
        expect(charts, `the clone made with ${what} holds every chart`).toHaveLength(
          w.board.charts.length,
        );
    }
  },
  {
    needs: CONTENT,
    parts: [...parts, 'tenant-flow'],
    relies: TENANT_FIELDS,
  },
);

conformance(
  ['auth.clone.carriers'],
  'clone with an API key of a user-scoped kind works with organizationId in the body',
  async (t) => {
    const w = await dashboardsWorld(t);
    const { apiKey, organizationId } = w.creds('user-scoped');
    const res = await v1Post(t, CLONE, apiKey, {
      sourceDashboardId: w.board.dashboardId,
      organizationId,
    });
    const { dashboardId } = expectSuccess(res, Cloned, 'clone with a user-scoped key');
    const charts = await chartsOf(t, w, dashboardId);
    if (charts !== undefined)
      expect(charts, 'the clone holds every chart').toHaveLength(w.board.charts.length);
  },
  { needs: CONTENT, parts },
);

// Decision dashboards.v1-writes.credentials on every v1 dashboard endpoint (§4.10–§4.12, §4.16,
// §9), one probe each: a project-user token is answered 403 FORBIDDEN, and nothing changes.
const V1_ENDPOINTS: readonly {
  readonly name: string;
  readonly send: (t: Conformance, w: DashboardsWorld, token: string) => Promise<Reply>;
}[] = [
  {
    name: 'clone',
    send: (t, w, token) => v1Post(t, CLONE, token, { sourceDashboardId: w.board.dashboardId }),
  },
  {
    name: 'create',
    send: (t, w, token) => v1Create(t, token, w.board.workspaceId, 'by a project user'),
  },
  {
    name: 'add-charts',
    send: (t, w, token) =>
      v1AddCharts(t, token, w.board.dashboardId, [w.board.charts[0]?.chartId ?? '']),
  },
  {
    name: 'append-charts-from',
    send: (t, w, token) =>
      v1Post(t, APPEND, token, {
        sourceDashboardId: w.board.dashboardId,
        targetDashboardId: w.board.dashboardId,
      }),
  },
  {
    name: 'remove-charts',
    send: (t, w, token) =>
      v1Post(t, REMOVE, token, {
        dashboardId: w.board.dashboardId,
        chartIds: [w.board.charts[0]?.chartId],
      }),
  },
  {
    name: 'list-workspace-dashboards',
    send: (t, w, token) =>
      t.http.get(
        openEndpoint(t, 'v1ListWorkspaceDashboards', { workspaceId: w.board.workspaceId }).path,
        {
          query: { workspaceId: w.board.workspaceId },
          headers: { authorization: `Bearer ${token}` },
        },
      ),
  },
];

for (const endpoint of V1_ENDPOINTS) {
  probe(
    ['dashboards.v1-writes.credentials'],
    `${endpoint.name} with a project-user token`,
    async (t) => {
      const w = await dashboardsWorld(t);
      const { userId } = await registerUser(t, w);
      const issued = await userToken(t, w, userId);
      const token = (issued.body as { data?: { token?: string } }).data?.token;
      if (token === undefined) return t.notRun('no project-user token to try');
      const before = layoutOf(await dashboardsOf(t, w, w.board.workspaceId));
      const res = await endpoint.send(t, w, token);
      const unchanged = layoutOf(await dashboardsOf(t, w, w.board.workspaceId)) === before;
      t.observe(
        `${describeAnswer(res)}; ${unchanged ? 'nothing changed' : 'the workspace changed'}`,
        refusedAs(res, 403, 'FORBIDDEN', { reason: 'project-user-token-on-v1' }) && unchanged,
      );
    },
    { needs: CONTENT, parts: [...parts, 'identity'], relies: READ_BACK },
  );
}

probe(
  ['dashboards.connection-id.guest'],
  'clone naming a connection the account does not have',
  async (t) => {
    const w = await dashboardsWorld(t);
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
      connectionId: t.faker.string.uuid(),
    });
    t.observe(describeAnswer(res), refusedAs(res, 404, 'NOT_FOUND', { resource: 'connection' }));
  },
  { needs: CONTENT, parts },
);

/** Each v1 dashboard write with a body naming an unknown connectionId, at its path. */
const CONNECTION_WRITES: readonly {
  readonly name: string;
  readonly send: (t: Conformance, w: DashboardsWorld, connectionId: string) => Promise<Reply>;
}[] = [
  {
    name: 'clone',
    send: (t, w, connectionId) =>
      v1Post(t, CLONE, w.creds().apiKey, { sourceDashboardId: w.board.dashboardId, connectionId }),
  },
  {
    name: 'append-charts-from',
    send: (t, w, connectionId) =>
      v1Post(t, APPEND, w.creds().apiKey, {
        sourceDashboardId: w.board.dashboardId,
        targetDashboardId: w.board.dashboardId,
        connectionId,
      }),
  },
  {
    name: 'remove-charts',
    send: (t, w, connectionId) =>
      v1Post(t, REMOVE, w.creds().apiKey, {
        dashboardId: w.board.dashboardId,
        chartIds: [w.board.charts[0]?.chartId],
        connectionId,
      }),
  },
  {
    name: 'create',
    send: (t, w, connectionId) =>
      v1Post(
        t,
        openEndpoint(t, 'v1CreateDashboard', { workspaceId: w.board.workspaceId }).path,
        w.creds().apiKey,
        {
          workspaceId: w.board.workspaceId,
          name: 'With a connection',
          connectionId,
        },
      ),
  },
  {
    name: 'add-charts',
    send: (t, w, connectionId) =>
      v1Post(
        t,
        openEndpoint(t, 'v1AddCharts', { targetDashboardId: w.board.dashboardId }).path,
        w.creds().apiKey,
        {
          targetDashboardId: w.board.dashboardId,
          charts: [w.board.charts[0]?.chartId],
          connectionId,
        },
      ),
  },
];

// Decision dashboards.connection-id.guest: a connectionId on any v1 dashboard write is refused
// 404 'connection'; errors.not-found.status adds details.field, as the id came in the body.
probe(
  ['dashboards.connection-id.guest', 'errors.not-found.status'],
  'every v1 dashboard write naming a connection the account does not have is refused 404 connection and changes nothing',
  async (t) => {
    const w = await dashboardsWorld(t);
    const before = layoutOf(await dashboardsOf(t, w, w.board.workspaceId));
    const seen: string[] = [];
    let refused = true;
    for (const write of CONNECTION_WRITES) {
      const res = await write.send(t, w, t.faker.string.uuid());
      seen.push(`${write.name}: ${describeAnswer(res)}`);
      refused &&= refusedAs(res, 404, 'NOT_FOUND', {
        resource: 'connection',
        field: 'connectionId',
      });
    }
    const unchanged = layoutOf(await dashboardsOf(t, w, w.board.workspaceId)) === before;
    t.observe(
      `${seen.join('; ')}; ${unchanged ? 'nothing changed' : 'the workspace changed'}`,
      refused && unchanged,
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.clone.organization-id-hub-jwt', 'auth.hub-jwt.organization-id-required'],
  'clone with a hub-login JWT needs organizationId',
  async (t) => {
    await buildWorld(t);
    t.notRun(
      'the document does not show how a hub-login JWT is obtained or sent',
      cause.documentGap('auth.hub-jwt.organization-id-required'),
    );
  },
  { needs: ['accounts'], parts },
);

conformance(
  ['dashboards.clone.connection-id'],
  "clone with a guest's connection",
  async (t) => {
    await buildWorld(t);
    t.notRun(
      'the document shows no way to make a guest connection, and no hook makes one',
      cause.documentGap('dashboards.clone.connection-id'),
    );
  },
  { needs: ['accounts'], parts },
);
