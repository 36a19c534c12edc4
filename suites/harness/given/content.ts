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

/** A chart at the end of a shared dashboard (hook charts). */
export function createChart(
  t: Given,
  w: World,
  dashboardId: string,
  name: string,
  chartConfig?: Record<string, unknown>,
) {
  return hook<{ chartId: string; name: string }>(
    t,
    `/accounts/${w.account.organizationId}/dashboards/${dashboardId}/charts`,
    { name, ...(chartConfig === undefined ? {} : { chartConfig }) },
    'charts',
  );
}
