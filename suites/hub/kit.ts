import { expect } from 'vitest';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from '../harness/given/accounts.ts';
import type { HubThing } from '../../spec/hub-profile.ts';
import { hubProfile, openHub, type HubView } from '../harness/browser.ts';
import type { Conformance } from '../harness/conformance.ts';
import type { Shared } from '../harness/given/dashboards.ts';
import {
  createChart,
  createDashboard,
  createWorkspace,
  HUB_WORLD_HOOKS,
  productTotalsChart,
  salesConnection,
  salesTotals,
  SALES_CHART_SQL,
  type ControlFields,
} from '../harness/given/content.ts';
import { buildWorld } from '../harness/given/accounts.ts';
import { HUB, fill } from '../harness/paths.ts';
import { applicationsOf, byLegacy, dashboardsOf, type Dashboard } from '../harness/given/v2.ts';

/**
 * Worlds of the hub suites (§4.17): an account with a workspace whose dashboard has a
 * controlled filter and a chart over a small table of known rows, and a project user (§4.5)
 * with a role of given §2.2 flags and a project-user token (§4.7) for the `jwt` parameter.
 */

export const parts = ['hub'] as const;
/** Content and users built through the host hooks (spec/hooks.openapi.yaml). */
export const needs: readonly HookName[] = HUB_WORLD_HOOKS;
/** Worlds whose charts load rows from a connection of known rows. */
export const needsData: readonly HookName[] = [...needs, 'connections'];
/** Charts over a connection of known rows, read through the chart-data hook (no browser). */
export const needsChartData: readonly HookName[] = [
  'accounts',
  'projects',
  'workspaces',
  'charts',
  'connections',
  'chart-data',
];

export { SALES, salesConnection, type Sale } from '../harness/given/content.ts';

/** The chart over SALES: one bar per product, the sum of amount. */
export const CHART_SQL = SALES_CHART_SQL;

/** What the chart shows a user of `region`, filtered by channel when given: `product|total`. */
export function expectedTotals(region: string, channel?: string): string[] {
  return salesTotals(region, channel).map(([p, n]) => `${p}|${n}`);
}

/** The control of the dashboard: `filter_channel` filters the channel column. */
export const CHANNEL = { controlKey: 'channel', field: 'channel', label: 'Channel' } as const;

export interface Board extends Shared {
  readonly chartTitle: string;
}

export interface Viewer {
  readonly userId: string;
  readonly token: string;
  readonly roleId?: string;
}

export interface HubWorld extends World {
  /** The workspace's primary dashboard (no controls, no charts). */
  readonly primary: { readonly dashboardId: string; readonly name: string };
  /** A further dashboard of the workspace: one control, one chart. */
  readonly board: Board;
  readonly viewer: Viewer;
}

/** A project user on a role of these flags (null: no role), in an organization, with a token. */
export async function viewer(
  t: Conformance,
  w: World,
  permissions: RolePermissions | null,
  fields: { properties?: Record<string, unknown>; expiration?: string } = {},
): Promise<Viewer> {
  const role = permissions === null ? undefined : await createRole(t, w, permissions);
  const org = await registerOrganization(t, w);
  const { userId } = await registerUser(t, w, {
    ...(role === undefined ? {} : { userRoleId: role.id }),
    projectOrganizationId: org.projectOrganizationId,
    properties: fields.properties ?? { region: 'north' },
  });
  return {
    userId,
    token: await tokenOf(t, w, userId, fields.expiration),
    ...(role === undefined ? {} : { roleId: role.id }),
  };
}

/** A fresh project-user token (§4.7) for a user. */
export async function tokenOf(
  t: Conformance,
  w: World,
  userId: string,
  expiration?: string,
): Promise<string> {
  const res = await userToken(t, w, userId, expiration);
  const token = (res.body as { data?: { token?: unknown } }).data?.token;
  if (res.status !== 200 || typeof token !== 'string')
    throw new Error(`world building: user-token answered ${res.status} ${res.text.slice(0, 200)}`);
  return token;
}

export interface HubWorldOptions {
  readonly permissions?: RolePermissions | null;
  /** The dashboard's name (the escaping test gives markup). */
  readonly boardName?: string;
  readonly chartTitle?: string;
  readonly controlLabel?: string;
  /** Load the chart's rows from a connection holding SALES (needs the connections hook). */
  readonly data?: boolean;
  readonly properties?: Record<string, unknown>;
  /** Further controlled filters of the dashboard, after the channel one. */
  readonly moreControls?: readonly ControlFields[];
}

export async function hubWorld(t: Conformance, options: HubWorldOptions = {}): Promise<HubWorld> {
  const w = await buildWorld(t);
  const org = w.account.organizationId;
  if (options.data === true) await salesConnection(t, org);
  const primaryName = `${t.faker.commerce.department()} overview`;
  const ws = await createWorkspace(t, w, { dashboardName: primaryName });
  const boardName = options.boardName ?? `${t.faker.commerce.productAdjective()} sales`;
  const board = await createDashboard(t, w, ws.workspaceId, boardName, [
    { ...CHANNEL, label: options.controlLabel ?? CHANNEL.label },
    ...(options.moreControls ?? []),
  ]);
  const chartTitle = options.chartTitle ?? `Sales by product ${t.faker.string.alphanumeric(4)}`;
  const chart = await createChart(
    t,
    w,
    board.dashboardId,
    chartTitle,
    productTotalsChart(chartTitle),
  );
  const v = await viewer(t, w, options.permissions === undefined ? {} : options.permissions, {
    ...(options.properties !== undefined ? { properties: options.properties } : {}),
  });
  return {
    ...w,
    primary: { dashboardId: ws.dashboardId, name: primaryName },
    board: {
      workspaceId: ws.workspaceId,
      dashboardId: board.dashboardId,
      name: boardName,
      chartTitle,
      charts: [{ chartId: chart.chartId, name: chartTitle }],
    },
    viewer: v,
  };
}

const fileWorlds = new Map<string, Promise<HubWorld>>();

/**
 * One hub world per test file for the tests that only read it (they add viewers of their own,
 * never change its content): built by the first test that asks, reused by the next. A test run
 * alone (a replay) builds it itself.
 */
export function sharedHubWorld(
  t: Conformance,
  options: Pick<HubWorldOptions, 'data'> = {},
): Promise<HubWorld> {
  // Keyed by the file too: a worker runs several files with one module graph.
  const key = JSON.stringify([expect.getState().testPath, options]);
  let world = fileWorlds.get(key);
  if (world === undefined) {
    world = hubWorld(t, options);
    fileWorlds.set(key, world);
    void world.catch(() => fileWorlds.delete(key));
  }
  return world;
}

/**
 * Waits for a positive sign that the hub page has rendered the world's dashboard (its chart,
 * found through the profile), so that a later absence check counts on a finished page rather
 * than on one still coming. Without a chart in the profile: the frame's load.
 */
export async function dashboardShown(view: HubView, w: Pick<HubWorld, 'board'>): Promise<void> {
  if (view.names('chart')) await expectChart(view, w, 1, 'the dashboard is shown');
  else await view.frame.waitForLoadState('load');
}

/** `/share/dashboard/{id}?…` with the given query parameters (§4.17). */
export function dashboardPath(
  dashboardId: string,
  query: Record<string, string | undefined>,
): string {
  return `${fill(HUB.dashboard, { dashboardId })}${queryString(query)}`;
}

/** `/share/application/{id}?…` (§4.17). */
export function applicationPath(
  applicationId: string,
  query: Record<string, string | undefined>,
): string {
  return `${fill(HUB.application, { applicationId })}${queryString(query)}`;
}

function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

/** Fails unless the locator matches `n` elements, saying what was looked for. */
export async function expectCount(
  locator: { count(): Promise<number> },
  n: number,
  what: string,
): Promise<void> {
  await expect
    .poll(() => locator.count(), { message: what, timeout: 10_000, interval: 100 })
    .toBe(n);
}

/** Fails unless the page shows the world's chart `n` times (by its title), saying what. */
export async function expectChart(
  view: HubView,
  w: Pick<HubWorld, 'board'>,
  n: number,
  what: string,
): Promise<void> {
  await expectCount(view.thing('chart', { title: w.board.chartTitle }), n, what);
}

/**
 * Hub tests drive a browser; on a machine shared by other work a page can take seconds to
 * come, so they get more time than the default before they count as failed.
 */
export const HUB_TIMEOUT = 90_000;

/** The editing tools, each with the §2.2 flag that offers it. */
export const TOOLS = [
  ['addChart', 'addChart'],
  ['addFilter', 'addFilter'],
  ['createChart', 'createChart'],
  ['editCharts', 'editCharts'],
  ['removeChart', 'removeChart'],
  ['addDashboard', 'addDashboard'],
] as const satisfies readonly (readonly [HubThing, string])[];

/** After finalize: the application the board's workspace became, and the board's v2 record. */
export async function migratedBoard(
  t: Conformance,
  w: HubWorld,
): Promise<{ applicationId: string; v2: Dashboard }> {
  const app = (await applicationsOf(t, w)).find((a) => a.legacyWorkspaceId === w.board.workspaceId);
  if (app === undefined) expect.fail('no application came from the workspace');
  const v2 = byLegacy(await dashboardsOf(t, w, app.applicationId), w.board.dashboardId, 'migrated');
  return { applicationId: app.applicationId, v2 };
}

/**
 * After the host removed the board's chart from its migrated dashboard through v2: the v2 page
 * lost it, and every page the profile says is the v1 component (hub.v1Component) still shows it.
 */
export async function expectV1ComponentFrozen(
  t: Conformance,
  w: HubWorld,
  v2Id: string,
): Promise<void> {
  const live = await openHub(t, dashboardPath(v2Id, { jwt: w.viewer.token }));
  await expectCount(live.thing('filterBar'), 1, 'the v2 dashboard is shown');
  await expectChart(live, w, 0, 'the v2 dashboard lost the chart');
  await live.close();
  // The pages that are the v1 component, as the profile states them (hub.v1Component).
  const component = hubProfile(t).v1Component;
  const pages: (readonly [string, string])[] = [
    ['the dashboard page, v1 id', dashboardPath(w.board.dashboardId, { jwt: w.viewer.token })],
  ];
  if (component === 'dashboard-and-application-pages')
    pages.push([
      'the application page, v1 workspace id',
      applicationPath(w.board.workspaceId, {
        jwt: w.viewer.token,
        dashboardId: w.board.dashboardId,
      }),
    ]);
  for (const [what, path] of pages) {
    const v1 = await openHub(t, path);
    await expectChart(v1, w, 1, `${what}: the v1 component still shows it`);
    await v1.close();
  }
}
