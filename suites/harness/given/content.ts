/**
 * Shared dashboards, workspaces and charts made through the host hooks (tag content of
 * spec/hooks.openapi.yaml). Free of vitest, so `eac profile discover` builds its worlds with
 * them from the bundled CLI as well as the suites do.
 */
import type { HookName } from '../../../spec/schemas/hooks.ts';
import type { Given, World } from './accounts.ts';

async function hook<T>(t: Given, path: string, body: unknown, what: string): Promise<T> {
  const res = await t.http.post(path, body, { base: 'hooks' });
  const data = (res.body as { status?: string; data?: T }).data;
  if (res.status >= 300 || data === undefined) {
    throw new Error(`host hook "${what}" failed: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return data;
}

/** A workspace and its primary dashboard (hook workspaces). */
export function createWorkspace(
  t: Given,
  w: World,
  fields: { name?: string; dashboardName?: string; teamId?: string; projectId?: string } = {},
) {
  return hook<{ workspaceId: string; name: string; dashboardId: string }>(
    t,
    `/accounts/${w.account.organizationId}/workspaces`,
    { name: fields.name ?? `${t.faker.commerce.department()} workspace`, ...fields },
    'workspaces',
  );
}

/** A controlled filter of a dashboard (hook dashboards' `controls`). */
export interface ControlFields {
  readonly controlKey: string;
  readonly field: string;
  readonly label: string;
}

/** A further shared dashboard in a workspace, with its controlled filters (hook dashboards). */
export function createDashboard(
  t: Given,
  w: World,
  workspaceId: string,
  name: string,
  controls?: readonly ControlFields[],
) {
  return hook<{ dashboardId: string; name: string }>(
    t,
    `/accounts/${w.account.organizationId}/workspaces/${workspaceId}/dashboards`,
    controls === undefined ? { name } : { name, controls },
    'dashboards',
  );
}

/**
 * The hooks a hub world is built through: its account and project, the role and the project
 * users viewing it, a workspace with a further dashboard, and a chart on it (`connections` too
 * when the chart reads SALES).
 */
export const HUB_WORLD_HOOKS: readonly HookName[] = [
  'accounts',
  'projects',
  'roles',
  'workspaces',
  'dashboards',
  'charts',
];

/**
 * Rows of known values for the hub's charts: sales by region, product and channel. A user sees
 * a row only when its region is the user's `region` property (the connection's row filter).
 */
export const SALES = [
  { region: 'north', product: 'Anvil', channel: 'online', amount: 10 },
  { region: 'north', product: 'Anvil', channel: 'store', amount: 5 },
  { region: 'north', product: 'Bolt', channel: 'online', amount: 7 },
  { region: 'north', product: 'Crane', channel: 'store', amount: 3 },
  { region: 'south', product: 'Anvil', channel: 'online', amount: 100 },
  { region: 'south', product: 'Drill', channel: 'store', amount: 50 },
] as const;
export type Sale = (typeof SALES)[number];

/** The table SALES is kept in. */
export const SALES_TABLE = 'hub_sales';

/** The chart over SALES: one bar per product, the sum of amount. */
export const SALES_CHART_SQL = `SELECT product, SUM(amount) AS total FROM ${SALES_TABLE} GROUP BY product ORDER BY product`;

/** The account's connection to SALES, behind a row filter on region (§1, §2.4; hook connections). */
export async function salesConnection(
  t: Given,
  organizationId: string,
  name = 'hub sales',
): Promise<void> {
  await t.hooks.createConnection(organizationId, {
    name,
    table: {
      name: SALES_TABLE,
      columns: [
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'channel', type: 'text' },
        { name: 'amount', type: 'integer' },
      ],
      rows: SALES.map((s) => ({ ...s })),
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
}

/**
 * What the chart over SALES shows a user of `region`, filtered by channel when given: each
 * product's total, by product.
 */
export function salesTotals(region: string, channel?: string): (readonly [string, number])[] {
  const sums = new Map<string, number>();
  for (const s of SALES) {
    if (s.region !== region || (channel !== undefined && s.channel !== channel)) continue;
    sums.set(s.product, (sums.get(s.product) ?? 0) + s.amount);
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A bar chart's configuration (§2.6) of a total by product, read by `sql`. */
export function productTotalsChart(title: string, sql: string = SALES_CHART_SQL) {
  return {
    title,
    type: 'bar',
    dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
    measures: [{ name: 'total', field: 'total', label: 'Total', format: '' }],
    sqlOverride: sql,
  };
}

/**
 * A chart a world made through the charts hook: its id, and the titles a page may show for it
 * (the name it was given, and its configuration's title when that differs).
 */
export interface MadeChart {
  readonly chartId: string;
  readonly titles: readonly string[];
}

/**
 * The charts each world made through the hook, by the dashboard they were made on, in the
 * order made. Keyed by the world's account object, which the worlds built on a world
 * (`{ ...w, board }`) share, so a world's registry lives as long as the world.
 */
const made = new WeakMap<World['account'], Map<string, MadeChart[]>>();

/**
 * The charts this world made on this dashboard through the charts hook (createChart), with the
 * names and titles it gave them. Charts that reached the dashboard any
 * other way (a copy, add-charts, save-from-chat) are not here.
 */
export function chartsMadeOn(w: World, dashboardId: string): readonly MadeChart[] {
  return made.get(w.account)?.get(dashboardId) ?? [];
}

/** A chart at the end of a shared dashboard (hook charts). */
export async function createChart(
  t: Given,
  w: World,
  dashboardId: string,
  name: string,
  chartConfig?: Record<string, unknown>,
) {
  const chart = await hook<{ chartId: string; name: string }>(
    t,
    `/accounts/${w.account.organizationId}/dashboards/${dashboardId}/charts`,
    { name, ...(chartConfig === undefined ? {} : { chartConfig }) },
    'charts',
  );
  const title = chartConfig?.['title'];
  const titles = typeof title === 'string' && title !== name ? [name, title] : [name];
  let byDashboard = made.get(w.account);
  if (byDashboard === undefined) {
    byDashboard = new Map();
    made.set(w.account, byDashboard);
  }
  const list = byDashboard.get(dashboardId) ?? [];
  list.push({ chartId: chart.chartId, titles });
  byDashboard.set(dashboardId, list);
  return chart;
}
