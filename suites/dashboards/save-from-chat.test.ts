import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance, states } from '../harness/conformance.ts';
import { describeAnswer, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf,
  dashboardsWorld,
  chartsOf,
  entry,
  tenantToken,
  v1AddCharts,
  v1Post,
} from '../harness/given/dashboards.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// §4.14: save-from-chat stores a chart the agent chat produced, chartConfig exactly as the
// chat result gave it (sqlOverride included, §2.6), and answers a chartId that add-charts
// takes as it is. Any of three credentials works (§5 rule 4).
const parts = ['v1-dashboards'] as const;
const Saved = SaveFromChatResponse.shape.data;
/** §4.14: the chartId is "uuid-like": 32 hexadecimal digits, with or without hyphens. */
const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A chartConfig in the shape of §2.6, every documented member filled, plus members seen in chat. */
function chatChartConfig(t: Conformance): Record<string, unknown> {
  const field = t.faker.database.column();
  return {
    title: `${t.faker.commerce.productName()} by month`,
    type: 'bar',
    dimensions: [
      {
        name: 'month',
        field: 'created_at',
        label: 'Month',
        format: 'date',
        type: 'time',
        bucketing: 'month',
      },
    ],
    measures: [{ name: 'total', field, label: 'Total', format: 'number', aggregation: 'sum' }],
    format: {
      label: 'Total',
      formatOptions: '0,0',
      formatLocale: 'en-US',
      labelSuffix: '',
      labelPrefix: '$',
      dateFormat: 'MMM yyyy',
    },
    comparisons: [{ name: 'previous', measure: 'total', customPeriod: 30 }],
    mapConfig: { latitude: 'lat', longitude: 'lng' },
    filters: [{ field: 'region', value: t.faker.location.country() }],
    havingFilters: [{ field: 'total', operator: '>', value: '10', aggregation: 'sum' }],
    settings: {
      secondYAxis: false,
      colors: ['#1f77b4', '#ff7f0e'],
      legend: true,
      legendPosition: 'bottom',
      stacking: false,
      showDataLabels: true,
      enableLegendSlider: false,
      showAxisLabels: true,
      debug: false,
      pageSize: 25,
      sliceLimit: 10,
      layout: { height: 4, width: 6 },
    },
    orderBy: [{ field: 'created_at' }],
    sqlOverride: `SELECT date_trunc('month', created_at) AS month, sum(${field}) AS total FROM orders GROUP BY 1 ORDER BY 1`,
  };
}

function saved(res: Reply, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(200);
  const body = res.body as { status?: unknown; data?: unknown };
  const data = Saved.safeParse(body.data);
  if (!data.success) expect.fail(`${what}: data should be {chartId, name}, got ${res.text}`);
  return data.data;
}

conformance(
  ['charts.save-from-chat.path', 'charts.save-from-chat.response-shape'],
  'saving a chart answers a uuid-like chartId and a name',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const res = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: chatChartConfig(t),
      name: 'Monthly totals',
    });
    const data = saved(res, 'save-from-chat');
    expect((res.body as { status?: unknown }).status).toBe('success');
    expect(data.chartId, 'the chartId looks like a UUID').toMatch(UUID_LIKE);
  },
  { needs: CONTENT, parts },
);

conformance(
  ['charts.save-from-chat.chart-id-usable'],
  'the saved chartId goes straight into add-charts',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const { chartId } = saved(
      await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
        chartConfig: chatChartConfig(t),
        name: 'Saved for add-charts',
      }),
      'save-from-chat',
    );
    const res = await v1AddCharts(t, w.creds().apiKey, w.board.dashboardId, [chartId]);
    // §4.16 shows no status for the v1 add-charts: any 2xx success.
    expect(
      successStatus(res.status),
      `add-charts with the saved chartId: ${res.status} ${res.text.slice(0, 300)}`,
    ).toBe(true);
    const after = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the dashboard',
    );
    expect(after.chartIds, 'the saved chart is on the layout').toContain(chartId);
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['charts.save-from-chat.chart-config-as-received', 'charts.config.sql-override-kept'],
  'a saved chart keeps its chartConfig exactly, sqlOverride included',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const config = chatChartConfig(t);
    const { chartId } = saved(
      await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, { chartConfig: config, name: 'Kept' }),
      'save-from-chat',
    );
    const added = await v1AddCharts(t, w.creds().apiKey, w.board.dashboardId, [chartId]);
    expect(successStatus(added.status), `${added.status} ${added.text.slice(0, 300)}`).toBe(true);
    const layout = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the dashboard',
    );
    expect(layout.chartIds, 'the saved chart is on the layout').toContain(chartId);
    // The document shows no chart record: the configuration is read where the target shows it.
    const charts = await chartsOf(t, w, w.board.dashboardId);
    if (charts === undefined)
      return t.notRun(
        "reading a chart's configuration back needs the dashboard-charts host hook",
        cause.hook('dashboard-charts'),
      );
    const chart = charts.find((c) => c.chartId === chartId);
    expect(chart?.chartConfig, 'the configuration as it was sent').toEqual(config);
    expect(chart?.chartConfig['sqlOverride'], 'the SQL that loads the data').toBe(
      config['sqlOverride'],
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['charts.save-from-chat.body-fields'],
  'save-from-chat takes every field §4.14 lists, credentials in the body',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    // A connection of the account and an agent reaching it (hooks): the ids sent name things
    // that exist, so the verdict does not lean on how an unknown one is treated
    // (dashboards.connection-id.guest).
    const { connectionId } = await t.hooks.createConnection(w.account.organizationId);
    const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
      connectionId,
    });
    const name = `${t.faker.commerce.productName()} trend`;
    const config = chatChartConfig(t);
    const res = await t.http.post(SAVE_FROM_CHAT, {
      ...w.creds('user-scoped'),
      chartConfig: config,
      connectionId,
      sql: config['sqlOverride'],
      agentId,
      name,
      thumbnail: `data:image/png;base64,${Buffer.from(name).toString('base64')}`,
    });
    expect(saved(res, 'save-from-chat with every field').name, 'the name sent').toBe(name);
  },
  { needs: [...CONTENT, 'connections', 'agents'], parts },
);

conformance(
  ['auth.save-from-chat.carriers', 'auth.header.dashboard-writes'],
  'save-from-chat accepts an API key, a tenant JWT and a project-user JWT',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    // Where the profile follows the decision that saving is not checked against §2.2, the
    // tenant and the project user hold no editing flag (the test relies on it); otherwise both
    // hold every flag §2.2 counts as editing, so the save is one they may make however the
    // target checks it.
    const unchecked = states(t, 'charts.save-from-chat.permissions');
    if (unchecked) t.relyOn('charts.save-from-chat.permissions');
    const editing = Object.fromEntries(
      expectedPermissions.grantsEditing.map((flag) => [flag, true]),
    );
    const org = await registerOrganization(t, w);
    const { userId } = await registerUser(t, w, {
      projectOrganizationId: org.projectOrganizationId,
      ...(unchecked ? {} : { userRoleId: (await createRole(t, w, editing)).id }),
    });
    const issued = await userToken(t, w, userId);
    const projectUserToken = (issued.body as { data?: { token?: string } }).data?.token;
    if (projectUserToken === undefined)
      expect.fail(`user-token answered no token: ${issued.text.slice(0, 200)}`);
    const credentials: [string, string][] = [
      ['an API key in the authorization header', w.creds().apiKey],
      ['a tenant JWT', await tenantToken(t, w, unchecked ? {} : editing)],
      ['a project-user JWT', projectUserToken],
    ];
    for (const [what, secret] of credentials) {
      saved(
        await v1Post(t, SAVE_FROM_CHAT, secret, { chartConfig: chatChartConfig(t), name: what }),
        `save-from-chat with ${what}`,
      );
    }
  },
  {
    needs: CONTENT,
    parts: [...parts, 'identity', 'tenant-flow'],
    relies: TENANT_FIELDS,
  },
);

probe(
  ['charts.save-from-chat.required-fields'],
  'save-from-chat with nothing but a chartConfig',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const config = chatChartConfig(t);
    const res = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, { chartConfig: config });
    const name = (res.body as { data?: { name?: unknown } }).data?.name;
    const bare = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, { name: 'no config' });
    t.observe(
      `only chartConfig: ${describeAnswer(res)}, name ${JSON.stringify(name)}; no chartConfig: ${describeAnswer(bare)}`,
      res.status === 200 && name === config['title'] && bare.status === 400,
    );
  },
  { needs: CONTENT, parts },
);

probe(
  ['charts.save-from-chat.permissions'],
  'save-from-chat by a view-only tenant',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const res = await v1Post(t, SAVE_FROM_CHAT, await tenantToken(t, w, { readOnly: true }), {
      chartConfig: chatChartConfig(t),
      name: 'By a view-only tenant',
    });
    t.observe(describeAnswer(res), res.status === 200);
  },
  { needs: CONTENT, parts: [...parts, 'tenant-flow'], relies: TENANT_FIELDS },
);
