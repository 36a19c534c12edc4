import { expect } from 'vitest';
import { cause } from '../causes.ts';
import type { ClauseId } from '../../../spec/clauses/index.ts';
import type { HookName } from '../../../spec/schemas/hooks.ts';
import { z } from 'zod';
import { success } from '../../../spec/schemas/common.ts';
import { V1ListedDashboards } from '../../../spec/schemas/dashboard.ts';
import { HookDashboardCharts } from '../../../spec/schemas/hooks.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type Given,
  type World,
} from './accounts.ts';
import { chartsMadeOn, createChart, createWorkspace } from './content.ts';
import { authorization } from '../authorization.ts';
import { states, type Conformance } from '../conformance.ts';
import { fillEndpoint, statedEndpoint, type EndpointValues } from '../stated-endpoint.ts';
import { registerTenant as tenantRequest } from '../endpoints.ts';
import type { Reply } from '../http.ts';
import { expectOpenSuccess, madeEntry } from '../expect.ts';

/**
 * What the dashboards suites share: worlds of workspaces, shared dashboards and charts built
 * through the host hooks (spec/hooks.openapi.yaml, tag content), the v1 calls whose paths the
 * document leaves open (read from the target's profile), and read-backs through the v1 lists.
 */

export const CONTENT: readonly HookName[] = ['accounts', 'projects', 'workspaces', 'charts'];

/**
 * Reading a dashboard back needs the list whose path the document leaves open. Its items are
 * read for §2.8's members only, so the record's further members are not relied on.
 */
export const READ_BACK: readonly ClauseId[] = ['dashboards.v1-shapes.not-shown'];

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

export { createChart, createDashboard, createWorkspace } from './content.ts';

/** A shared dashboard with `chartCount` charts, in a workspace of its own. */
export async function sharedDashboard(t: Given, w: World, chartCount = 3): Promise<Shared> {
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

type OpenEndpoint = 'v1CreateDashboard' | 'v1AddCharts' | 'v1ListWorkspaceDashboards';

/**
 * An endpoint the document names without a path, as the profile states it, its placeholders
 * filled from `values` (statedEndpoint); not-run if absent. The values still travel where the
 * document puts them (a create's body, a list's query), whether the path holds them or not.
 */
export function openEndpoint(
  t: Conformance,
  name: OpenEndpoint,
  values: EndpointValues,
): { method: string; path: string } {
  const { method, path } = statedEndpoint(t, name, values);
  return { method, path };
}

/** §4.16 v1 create `{workspaceId, name}` at the profile's path. */
export function v1Create(t: Conformance, secret: string, workspaceId: string, name: string) {
  const { path } = openEndpoint(t, 'v1CreateDashboard', { workspaceId });
  return v1Post(t, path, secret, { workspaceId, name });
}

/** §4.16 v1 add-charts `{targetDashboardId, charts}` at the profile's path. */
export function v1AddCharts(
  t: Conformance,
  secret: string,
  targetDashboardId: string,
  charts: readonly string[],
) {
  const { path } = openEndpoint(t, 'v1AddCharts', { targetDashboardId });
  return v1Post(t, path, secret, { targetDashboardId, charts });
}

/** Which v1 workspace a create wrote to, who read its list, and that list just before it. */
export interface CreateSite {
  readonly workspaceId: string;
  readonly as: Reader;
  readonly before: readonly Item[];
}

/**
 * The id of the dashboard a v1 create made. §4.16 shows no answer (spec/bodies.ts), so the
 * create may answer 204 or an empty 2xx: a body, when there is one, is the success envelope and
 * names the dashboard as data.dashboardId (decision dashboards.v1-shapes.not-shown); without
 * that id, the new dashboard is the entry of the caller's list that a `Location` header names,
 * else the one entry that list gained since `before`.
 */
export async function v1Created(
  t: Conformance,
  w: World,
  res: Reply,
  site: CreateSite,
  what: string,
): Promise<string> {
  const answered = z
    .looseObject({ dashboardId: z.string() })
    .safeParse(expectOpenSuccess(res, 'v1.create', what));
  if (answered.success) return answered.data.dashboardId;
  const after = await dashboardsOf(t, w, site.workspaceId, site.as);
  return madeEntry(res, site.before, after, what).id;
}

/**
 * A v1 dashboard as a read-back sees it: §2.8's three members, the members the profile names
 * (shapes.v1Dashboard) read under its names, and the chart ids of its layout in layout order.
 */
export interface Item {
  readonly id: string;
  readonly tenantId: string | null;
  readonly ownerProjectUserId: string | null;
  /** Present only where the profile names the member (shapes.v1Dashboard.name). */
  readonly name?: string;
  /** Present only where the profile names the member (shapes.v1Dashboard.workspaceId). */
  readonly workspaceId?: string;
  /** From the member the profile names, else the dashboard-charts hook, else the profile's route. */
  readonly chartIds: string[];
}

/** Who reads: an API key (in the query, like every v1 GET) or a tenant JWT (in the header). */
export type Reader = { apiKey: string } | { token: string };

function readerOptions(as: Reader, query: Record<string, string>) {
  return 'apiKey' in as
    ? { query: { apiKey: as.apiKey, ...query } }
    : { query, headers: { authorization: `Bearer ${as.token}` } };
}

/** A member the profile names, read from a list item; fails when the item lacks it. */
function stated<T>(
  item: Record<string, unknown>,
  member: string | undefined,
  schema: z.ZodType<T>,
  what: string,
): T | undefined {
  if (member === undefined) return undefined;
  const parsed = schema.safeParse(item[member]);
  if (!parsed.success) {
    expect.fail(
      `the profile names ${member} as the ${what} of a v1 list item, but item ${String(item['id'])} carries ${JSON.stringify(item[member])}`,
    );
  }
  return parsed.data;
}

const ChartIdsRead = success(z.looseObject({ chartIds: z.array(z.string()) }));

/**
 * The chart ids of a dashboard's layout, in layout order, where the v1 list does not carry
 * them: through the read-only dashboard-charts hook, else the target's own route
 * (shapes.endpoints.dashboardCharts), else, for a reader with an API key (a shared
 * dashboard), the charts its §4.17 dashboard page shows where the target serves the hub and
 * its profile names a chart by its title (suites/harness/hub-layout.ts), else not-run naming
 * the ways.
 */
export async function layoutRead(
  t: Conformance,
  w: World,
  dashboardId: string,
  as: Reader = { apiKey: w.creds().apiKey },
): Promise<string[]> {
  if (t.hooks.has('dashboard-charts')) return (await hookCharts(t, w, dashboardId)).chartIds;
  const route = t.profile.shapes.endpoints?.dashboardCharts;
  if (route === undefined) {
    if ('apiKey' in as && t.profile.serves.includes('hub') && t.profile.hub?.things.chart) {
      // Imported here alone: the browser module starts the run's browser when loaded.
      const { hubLayout, hubLayoutReadable } = await import('../hub-layout.ts');
      if (hubLayoutReadable(t))
        return hubLayout(t, dashboardId, chartsMadeOn(w, dashboardId), await hubReader(t, w));
    }
    t.notRun(
      "reading a v1 dashboard's layout needs shapes.v1Dashboard.chartIds, the dashboard-charts host hook, shapes.endpoints.dashboardCharts or the hub's dashboard page with hub.things.chart",
      cause.shape('shapes.endpoints.dashboardCharts'),
    );
  }
  const { method, path, used } = fillEndpoint('dashboardCharts', route, { dashboardId });
  const o = readerOptions(as, used.has('dashboardId') ? {} : { dashboardId });
  const res =
    method === 'GET'
      ? await t.http.get(path, o)
      : await t.http.call(method, path, {
          ...o,
          body: 'apiKey' in as ? { apiKey: as.apiKey } : {},
        });
  const parsed = ChartIdsRead.safeParse(res.body);
  if (res.status < 200 || res.status >= 300 || !parsed.success) {
    expect.fail(
      `reading the layout of ${dashboardId} at ${route}: expected a success with data.chartIds, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  return parsed.data.data.chartIds;
}

const hubReaders = new WeakMap<World['account'], Promise<string>>();

/**
 * A project-user token (§4.5, §4.7) of the world that may see its shared dashboards on the
 * hub's pages: a user of a project organization, on a role with no flags where the target has
 * the roles hook. Made once per world.
 */
function hubReader(t: Conformance, w: World): Promise<string> {
  let token = hubReaders.get(w.account);
  if (token === undefined) {
    token = (async () => {
      const role = t.hooks.has('roles') ? await createRole(t, w, {}) : undefined;
      const org = await registerOrganization(t, w);
      const { userId } = await registerUser(t, w, {
        projectOrganizationId: org.projectOrganizationId,
        ...(role === undefined ? {} : { userRoleId: role.id }),
      });
      const res = await userToken(t, w, userId);
      const made = (res.body as { data?: { token?: unknown } }).data?.token;
      if (res.status !== 200 || typeof made !== 'string')
        throw new Error(
          `world building: user-token answered ${res.status} ${res.text.slice(0, 200)}`,
        );
      return made;
    })();
    hubReaders.set(w.account, token);
    token.catch(() => hubReaders.delete(w.account));
  }
  return token;
}

/**
 * The content hooks and the read-only dashboard-charts hook: tests that read a layout back
 * through the hook rather than through the v1 list, whose path the document leaves open, lean
 * on no decision.
 */
export const WITH_LAYOUT: readonly HookName[] = [...CONTENT, 'dashboard-charts'];

/** A dashboard's chart ids in layout order, through the dashboard-charts hook. */
export async function hookLayout(t: Conformance, w: World, dashboardId: string): Promise<string[]> {
  return (await hookCharts(t, w, dashboardId)).chartIds;
}

/** A dashboard's charts as the dashboard-charts hook shows them (ids, names, configurations). */
export async function hookCharts(
  t: Conformance,
  w: World,
  dashboardId: string,
): Promise<HookDashboardCharts> {
  const res = await t.http.get(
    `/accounts/${w.account.organizationId}/dashboards/${dashboardId}/charts`,
    { base: 'hooks' },
  );
  const parsed = success(HookDashboardCharts).safeParse(res.body);
  if (res.status !== 200 || !parsed.success) {
    throw new Error(
      `host hook "dashboard-charts" failed for ${dashboardId}: ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  return parsed.data.data;
}

/**
 * A dashboard's charts with their names and configurations, in layout order, where the target
 * offers the dashboard-charts hook; undefined where nothing shows them (the document shows no
 * chart record beyond what save-from-chat answers).
 */
export async function chartsOf(
  t: Conformance,
  w: World,
  dashboardId: string,
): Promise<HookDashboardCharts['charts'] | undefined> {
  if (!t.hooks.has('dashboard-charts')) return undefined;
  return (await hookCharts(t, w, dashboardId)).charts;
}

/**
 * The dashboards of a workspace as a caller sees them, through the v1 list (§9; its path is
 * the profile's). Only §2.8's members are required of an item; the chart ids of each layout
 * come from the member the profile names, else from layoutRead.
 *
 * What an API key's list holds beyond the shared dashboards is open
 * (dashboards.v1-list.api-key-view): unless the profile states our answer, an API key's list
 * is cut to the entries no user owns (§2.8: neither a tenantId nor an ownerProjectUserId),
 * whatever else the target lists.
 */
export async function dashboardsOf(
  t: Conformance,
  w: World,
  workspaceId: string,
  as: Reader = { apiKey: w.creds().apiKey },
): Promise<Item[]> {
  const { path } = openEndpoint(t, 'v1ListWorkspaceDashboards', { workspaceId });
  const res = await t.http.get(path, readerOptions(as, { workspaceId }));
  const parsed = V1ListedDashboards.safeParse(res.body);
  if (res.status < 200 || res.status >= 300 || res.status === 204 || !parsed.success) {
    expect.fail(
      `reading back the dashboards of a workspace: expected a success with {dashboards: [{id, tenantId, ownerProjectUserId}]}, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  const names = t.profile.shapes.v1Dashboard ?? {};
  const items: Item[] = [];
  const sharedOnly = 'apiKey' in as && !states(t, 'dashboards.v1-list.api-key-view');
  for (const d of parsed.data.data.dashboards) {
    if (sharedOnly && (d.tenantId !== null || d.ownerProjectUserId !== null)) continue;
    const name = stated(d, names.name, z.string(), 'name');
    const ws = stated(d, names.workspaceId, z.string(), 'workspace id');
    const chartIds =
      stated(d, names.chartIds, z.array(z.string()), 'chart ids') ??
      (await layoutRead(t, w, d.id, as));
    items.push({
      id: d.id,
      tenantId: d.tenantId,
      ownerProjectUserId: d.ownerProjectUserId,
      ...(name === undefined ? {} : { name }),
      ...(ws === undefined ? {} : { workspaceId: ws }),
      chartIds,
    });
  }
  return items;
}

/** The one entry of a list with this id; fails when absent. */
export function entry(items: readonly Item[], id: string, what: string): Item {
  const found = items.find((d) => d.id === id);
  if (found === undefined)
    expect.fail(`${what}: no entry ${id} among ${items.map((d) => d.id).join(', ')}`);
  return found;
}

/**
 * What a list shows, for "nothing changed" comparisons: ids, owners and layouts (a
 * dashboard's charts in their order). Names are left out (a target need not show them), and
 * so is the order of the dashboards themselves: the document does not fix it.
 */
export const layoutOf = (items: readonly Item[]) =>
  JSON.stringify(
    items.map((d) => JSON.stringify([d.id, d.tenantId, d.ownerProjectUserId, d.chartIds])).sort(),
  );

/**
 * Registers a tenant (§4.9) with these editing permissions and returns its JWT. Field names are
 * the profile's (decision tenants.register.field-names). `columns` names the tenant, and the
 * display name is made from them, so registering the same columns again sends the same display
 * name too: the same tenant whether a target tells tenants by their columns alone or by their
 * columns and name (tenants.register.identity leaves that open).
 */
export async function tenantToken(
  t: Conformance,
  w: World,
  permissions: Record<string, boolean> | undefined,
  columns: Record<string, string> = { customer_id: t.faker.string.alphanumeric(10) },
): Promise<string> {
  const named =
    t.profile.shapes.registerTenant?.name === undefined
      ? {}
      : { name: `Tenant ${Object.values(columns).join(' ')}` };
  const req = tenantRequest(t, {
    ...named,
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
