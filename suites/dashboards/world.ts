import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { ListWorkspaceDashboardsResponse } from '../../spec/schemas/dashboard.ts';
import { buildWorld, type World } from '../../fixtures/world.ts';
import { authorization } from '../harness/authorization.ts';
import type { Conformance } from '../harness/conformance.ts';
import { registerTenant as tenantRequest } from '../harness/endpoints.ts';
import type { Reply } from '../harness/http.ts';

/**
 * What the dashboards suites share: worlds of workspaces, shared dashboards and charts built
 * through the host hooks (spec/hooks.openapi.yaml, tag content), the v1 calls whose paths the
 * document leaves open (read from the target's profile), and read-backs through the v1 lists.
 */

export const CONTENT: readonly HookName[] = ['accounts', 'projects', 'workspaces', 'charts'];

/** Reading a dashboard back needs the list whose path and shape the document leaves open. */
export const READ_BACK: readonly ClauseId[] = [
  'dashboards.v1-shapes.not-shown',
  'dashboards.v1-record.fields',
];

/** A shared dashboard the host made, with its charts (ids and names in layout order). */
export interface Shared {
  readonly workspaceId: string;
  readonly dashboardId: string;
  readonly name: string;
  readonly charts: readonly { readonly chartId: string; readonly name: string }[];
}

export interface DashboardsWorld extends World {
  readonly board: Shared;
}

async function hook<T>(t: Conformance, path: string, body: unknown, what: string): Promise<T> {
  const res = await t.http.post(path, body, { base: 'hooks' });
  const data = (res.body as { status?: string; data?: T }).data;
  if (res.status >= 300 || data === undefined) {
    throw new Error(`host hook "${what}" failed: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return data;
}

/** A workspace and its primary dashboard (hook workspaces). */
export function createWorkspace(
  t: Conformance,
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
export function createDashboard(t: Conformance, w: World, workspaceId: string, name: string) {
  return hook<{ dashboardId: string; name: string }>(
    t,
    `/accounts/${w.account.organizationId}/workspaces/${workspaceId}/dashboards`,
    { name },
    'dashboards',
  );
}

/** A chart at the end of a shared dashboard (hook charts). */
export function createChart(
  t: Conformance,
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

/** A shared dashboard with `chartCount` charts, in a workspace of its own. */
export async function sharedDashboard(t: Conformance, w: World, chartCount = 3): Promise<Shared> {
  const name = `${t.faker.commerce.productAdjective()} ${t.faker.commerce.department()} overview`;
  const ws = await createWorkspace(t, w, { dashboardName: name });
  const charts = [];
  for (let i = 0; i < chartCount; i++) {
    const chartName = `${t.faker.commerce.productName()} by ${t.faker.location.country()}`;
    const chart = await createChart(t, w, ws.dashboardId, chartName, {
      title: chartName,
      type: t.faker.helpers.arrayElement(['bar', 'line', 'pie']),
    });
    charts.push({ chartId: chart.chartId, name: chartName });
  }
  return { workspaceId: ws.workspaceId, dashboardId: ws.dashboardId, name, charts };
}

/** A fresh account with one shared dashboard holding three charts. */
export async function dashboardsWorld(t: Conformance, chartCount = 3): Promise<DashboardsWorld> {
  const w = await buildWorld(t);
  return { ...w, board: await sharedDashboard(t, w, chartCount) };
}

/** A v1 dashboard write (§4.10–§4.12, §4.14) with its credential in the authorization header. */
export function v1Post(
  t: Conformance,
  path: string,
  secret: string,
  body: Record<string, unknown>,
): Promise<Reply> {
  return t.http.post(path, body, { headers: authorization(t, secret) });
}

export const CLONE = '/v1/api/dashboard/clone';
export const APPEND = '/v1/api/dashboard/append-charts-from';
export const REMOVE = '/v1/api/dashboard/remove-charts';
export const LIST_WORKSPACES = '/v1/api/dashboard/list-workspaces';
export const SAVE_FROM_CHAT = '/v1/api/chart/save-from-chat';

type OpenEndpoint = 'v1CreateDashboard' | 'v1AddCharts' | 'v1ListWorkspaceDashboards';

/** An endpoint the document names without a path, as the profile states it; not-run if absent. */
export function openEndpoint(t: Conformance, name: OpenEndpoint): { method: string; path: string } {
  const stated = t.profile.shapes.endpoints?.[name];
  if (stated === undefined) t.notRun(`the profile names no path for ${name} (shapes.endpoints)`);
  const [method = 'GET', path = ''] = stated.split(' ');
  return { method, path };
}

/** §4.16 v1 create `{workspaceId, name}` at the profile's path. */
export function v1Create(t: Conformance, secret: string, workspaceId: string, name: string) {
  const { path } = openEndpoint(t, 'v1CreateDashboard');
  return v1Post(t, path, secret, { workspaceId, name });
}

/** §4.16 v1 add-charts `{targetDashboardId, charts}` at the profile's path. */
export function v1AddCharts(
  t: Conformance,
  secret: string,
  targetDashboardId: string,
  charts: readonly string[],
) {
  const { path } = openEndpoint(t, 'v1AddCharts');
  return v1Post(t, path, secret, { targetDashboardId, charts });
}

export type Item = ReturnType<
  typeof ListWorkspaceDashboardsResponse.parse
>['data']['dashboards'][number];

/**
 * The dashboards of a workspace as a caller sees them, through the v1 list (§9; path and shape
 * are the profile's and the reference's decision). `as` is an API key (sent in the query, like
 * every v1 GET) or a tenant JWT (in the authorization header).
 */
export async function dashboardsOf(
  t: Conformance,
  w: World,
  workspaceId: string,
  as: { apiKey: string } | { token: string } = { apiKey: w.creds().apiKey },
): Promise<Item[]> {
  const { path } = openEndpoint(t, 'v1ListWorkspaceDashboards');
  const res =
    'apiKey' in as
      ? await t.http.get(path, { query: { apiKey: as.apiKey, workspaceId } })
      : await t.http.get(path, {
          query: { workspaceId },
          headers: { authorization: `Bearer ${as.token}` },
        });
  const parsed = ListWorkspaceDashboardsResponse.safeParse(res.body);
  if (res.status !== 200 || !parsed.success) {
    expect.fail(
      `reading back the dashboards of a workspace: expected 200 with {dashboards}, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  return parsed.data.data.dashboards;
}

/** The one entry of a list with this id; fails when absent. */
export function entry(items: readonly Item[], id: string, what: string): Item {
  const found = items.find((d) => d.id === id);
  if (found === undefined)
    expect.fail(`${what}: no entry ${id} among ${items.map((d) => d.id).join(', ')}`);
  return found;
}

/**
 * What a list shows, for "nothing changed" comparisons: ids, names and layouts (a dashboard's
 * charts in their order). The order of the dashboards themselves is left out: the document
 * does not fix it, and a server may list the same dashboards in another order (ours, after
 * finalize, breaks ties of equal creation times by the v2 id).
 */
export const layoutOf = (items: readonly Item[]) =>
  JSON.stringify(items.map((d) => JSON.stringify([d.id, d.name, d.tenantId, d.chartIds])).sort());

/**
 * Registers a tenant (§4.9) with these editing permissions and returns its JWT. Field names are
 * the profile's (decision tenants.register.field-names). `columns` names the tenant: the same
 * columns name the same tenant again (decision tenants.register.identity).
 */
export async function tenantToken(
  t: Conformance,
  w: World,
  permissions: Record<string, boolean> | undefined,
  columns: Record<string, string> = { customer_id: t.faker.string.alphanumeric(10) },
): Promise<string> {
  const req = tenantRequest(t, {
    columns,
    ...(permissions === undefined ? {} : { permissions }),
  });
  const res = await t.http.post(req.path, { ...w.creds(), ...req.fields });
  const token = (res.body as { data?: { token?: unknown } }).data?.token;
  if (res.status !== 200 || typeof token !== 'string') {
    throw new Error(
      `world building: register-tenant answered ${res.status} ${res.text.slice(0, 200)}`,
    );
  }
  return token;
}

/** Tests that register tenants lean on the profile's register-tenant field names. */
export const TENANT_FIELDS: readonly ClauseId[] = ['tenants.register.field-names'];
