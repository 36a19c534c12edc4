/**
 * Shared dashboards, workspaces and charts made through the host hooks (tag content of
 * spec/hooks.openapi.yaml). Free of vitest, so `eac profile discover` builds its worlds with
 * them from the bundled CLI as well as the suites do.
 */
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

/** A further shared dashboard in a workspace (hook dashboards). */
export function createDashboard(t: Given, w: World, workspaceId: string, name: string) {
  return hook<{ dashboardId: string; name: string }>(
    t,
    `/accounts/${w.account.organizationId}/workspaces/${workspaceId}/dashboards`,
    { name },
    'dashboards',
  );
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
