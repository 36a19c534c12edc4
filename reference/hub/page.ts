import {
  dashboardsFor,
  resolveFor,
  type Actor,
  type ChartRecord,
  type DashboardRecord,
  type DashboardsState,
  type FilterControl,
} from '../../spec/machines/dashboards.ts';
import type { MigrationState } from '../../spec/machines/migration.ts';
import { UUID_PATTERN } from '../../spec/schemas/common.ts';
import type { ReferenceContext } from '../context.ts';
import type { PageQuery } from './query.ts';
import { loadChartData, loadDrillRows, type ChartData, type DrillRows } from './rows.ts';
import type { Viewer } from './viewer.ts';

/** §4.17: the two texts of the pages, verbatim. */
export const NOT_FOUND_TEXT = 'Dashboard not found.';
export const INVALID_TOKEN_TEXT = 'Invalid or missing token.';

export interface ChartView {
  readonly chartId: string;
  readonly title: string;
  readonly type: string;
  /** The dimension a point stands for (drill-down groups rows by it). */
  readonly dimension?: string | undefined;
  /** The measure a bar shows. */
  readonly measure?: string | undefined;
  readonly data: ChartData;
  /** The rows behind the point the page drills into, when it drills into one of this chart. */
  readonly drill?: DrillView;
}

/** §2.2 drillDown: one point of a chart and what lies behind it. */
export interface DrillView {
  readonly value: unknown;
  readonly rows: DrillRows;
}

export interface ControlView extends FilterControl {
  /** The value `filter_{controlKey}` set, when it did. */
  readonly value?: unknown;
}

export interface DashboardView {
  readonly dashboardId: string;
  readonly name: string;
  readonly controls: readonly ControlView[];
  readonly charts: readonly ChartView[];
}

export interface PageView {
  readonly applicationName: string;
  /** Navigation between the application's dashboards (sidebar and tabs), or one dashboard. */
  readonly navigation: boolean;
  readonly dashboards: readonly DashboardView[];
  readonly activeDashboardId: string;
  /** §9: the v1 dashboard component after finalize, frozen as migrated. */
  readonly frozen: boolean;
  /** §2.3, §2.4: the display names of the viewer and of its project organization. */
  readonly viewer?: ViewerNames;
  /** §2.2: whether the viewer's organization has scheduled reports enabled. */
  readonly scheduledReports: boolean;
}

export interface ViewerNames {
  readonly userName: string;
  /** Absent for a user without a project organization. */
  readonly organizationName?: string;
}

/** A migration once finalized (§9). */
type Finalized = Extract<MigrationState, { readonly phase: 'after' }>;

export type Page =
  | { readonly kind: 'error'; readonly status: 401 | 404; readonly text: string }
  | { readonly kind: 'view'; readonly view: PageView }
  /** The application page with `dashboardId`, where the dashboard page sends its viewer. */
  | { readonly kind: 'redirect'; readonly applicationId: string; readonly dashboardId: string };

const notFound: Page = { kind: 'error', status: 404, text: NOT_FOUND_TEXT };
export const invalidToken: Page = { kind: 'error', status: 401, text: INVALID_TOKEN_TEXT };

/** Where the page reads dashboards from, and as whom. */
interface Scope {
  readonly state: DashboardsState;
  readonly actor: Actor;
  /** Live after finalize: a v1 dashboard id names the v2 dashboard it became. */
  readonly v2IdOf?: Readonly<Record<string, string>>;
  readonly frozen: boolean;
}

const isUuid = (id: string) => UUID_PATTERN.test(id);

/** What a chart whose config names no type is called in its image's name. */
const UNTYPED = 'table';

function liveScope(viewer: Viewer): Scope {
  const { account } = viewer;
  const actor: Actor = {
    kind: 'project-user',
    userId: viewer.userId,
    permissions: null,
    projectOrganizationId: account.identity.users[viewer.userId]?.projectOrganizationId ?? null,
  };
  const { migration } = account;
  return {
    state: account.dashboards,
    actor,
    ...(migration.phase === 'after' ? { v2IdOf: migration.v2IdOf } : {}),
    frozen: false,
  };
}

/**
 * §9: the v1 component after finalize shows what the v1 state held at migration, as the user
 * saw it then: a user the migration made from a tenant sees that tenant's copies.
 */
function frozenScope(viewer: Viewer, migration: Finalized): Scope {
  const tenantId = Object.entries(migration.projectUserOf).find(
    ([, userId]) => userId === viewer.userId,
  )?.[0];
  const asUser: Actor = {
    kind: 'project-user',
    userId: viewer.userId,
    permissions: null,
    projectOrganizationId: null,
  };
  const actor: Actor =
    tenantId !== undefined ? { kind: 'tenant', tenantId, permissions: null } : asUser;
  return { state: migration.frozen, actor, frozen: true };
}

function seen(scope: Scope, dashboardId: string): DashboardRecord | undefined {
  const id = scope.v2IdOf?.[dashboardId] ?? dashboardId;
  return resolveFor(scope.state, id, scope.actor);
}

/** The workspace's name: after finalize the live state holds each application as a workspace. */
function applicationName(scope: Scope, workspaceId: string): string {
  return scope.state.workspaces[workspaceId]?.name ?? '';
}

async function dashboardView(
  ctx: ReferenceContext,
  viewer: Viewer,
  scope: Scope,
  d: DashboardRecord,
  query: PageQuery,
): Promise<DashboardView> {
  const controls: ControlView[] = d.controls.map((c) =>
    query.filters.has(c.controlKey) ? { ...c, value: query.filters.get(c.controlKey) } : c,
  );
  // Controlled filters apply to every chart of the dashboard, on the control's field.
  const filters = controls
    .filter((c) => 'value' in c)
    .map((c) => ({ field: c.field, value: c.value }));
  const charts: ChartView[] = [];
  for (const chartId of d.chartIds) {
    const chart: ChartRecord | undefined = scope.state.charts[chartId];
    if (chart === undefined) continue;
    const config = chart.config;
    const first = (key: string): string | undefined => {
      const list = config[key];
      // `?.field` answers undefined for a missing item, null or a primitive alike.
      const item = Array.isArray(list) ? (list[0] as { field?: unknown } | null | undefined) : null;
      const field = item?.field;
      return typeof field === 'string' ? field : undefined;
    };
    const dimension = first('dimensions');
    const measure = first('measures');
    charts.push({
      chartId,
      title:
        typeof config['title'] === 'string' && config['title'] !== ''
          ? config['title']
          : chart.name,
      type: typeof config['type'] === 'string' ? config['type'] : UNTYPED,
      dimension,
      measure,
      data: await loadChartData(ctx, viewer, chart, filters),
      ...(await drillView(ctx, viewer, chart, dimension, filters, query)),
    });
  }
  return { dashboardId: d.dashboardId, name: d.name, controls, charts };
}

/** The drill-down the page asked for, when it is this chart's and the viewer may drill. */
async function drillView(
  ctx: ReferenceContext,
  viewer: Viewer,
  chart: ChartRecord,
  dimension: string | undefined,
  filters: readonly { field: string; value: unknown }[],
  query: PageQuery,
): Promise<{ drill?: DrillView }> {
  const drill = query.drill;
  // §2.2: readOnly forces drill-down off, whatever the token's drillDown says.
  if (!viewer.flags.drillDown || viewer.flags.readOnly) return {};
  if (drill === undefined || drill.chartId !== chart.chartId || dimension === undefined) return {};
  const rows = await loadDrillRows(ctx, viewer, chart, dimension, drill.value, filters);
  return { drill: { value: drill.value, rows } };
}

async function view(
  ctx: ReferenceContext,
  viewer: Viewer,
  scope: Scope,
  workspaceId: string,
  shown: readonly DashboardRecord[],
  active: DashboardRecord,
  navigation: boolean,
  query: PageQuery,
): Promise<Page> {
  const dashboards: DashboardView[] = [];
  for (const d of shown) dashboards.push(await dashboardView(ctx, viewer, scope, d, query));
  return {
    kind: 'view',
    view: {
      applicationName: applicationName(scope, workspaceId),
      navigation,
      dashboards,
      // A drill-down shows the dashboard of its chart (the page reloaded to show it).
      activeDashboardId:
        dashboards.find((d) => d.charts.some((c) => c.drill !== undefined))?.dashboardId ??
        active.dashboardId,
      frozen: scope.frozen,
      viewer: viewerNames(viewer),
      // Decision hub.schedule-report.organization: every organization has them.
      scheduledReports: ctx.settings.scheduledReports === 'all',
    },
  };
}

/** The viewer's names as its account holds them now (a rename shows on the next load). */
function viewerNames(viewer: Viewer): ViewerNames {
  const { identity } = viewer.account;
  const user = identity.users[viewer.userId];
  const org =
    user?.projectOrganizationId == null
      ? undefined
      : identity.organizations[user.projectOrganizationId];
  return {
    userName: user?.name ?? '',
    ...(org === undefined ? {} : { organizationName: org.name }),
  };
}

/**
 * `/share/application/{applicationId}` (§4.17). Before finalize the id is a v1 workspace id;
 * after it a v2 application id (live) or the v1 workspace id it came from (the v1 component,
 * frozen: decision hub.v1-component.page).
 */
export async function applicationPage(
  ctx: ReferenceContext,
  viewer: Viewer,
  applicationId: string,
  query: PageQuery,
): Promise<Page> {
  const id = applicationId.toLowerCase();
  if (!isUuid(id)) return notFound;
  const { migration } = viewer.account;
  let scope: Scope | undefined;
  if (migration.phase === 'after') {
    if (migration.applications[id] !== undefined) scope = liveScope(viewer);
    else if (migration.applicationOf[id] !== undefined) scope = frozenScope(viewer, migration);
  } else if (viewer.account.dashboards.workspaces[id] !== undefined) {
    scope = liveScope(viewer);
  }
  if (scope === undefined) return notFound;
  if (query.dashboardId !== undefined) {
    // §4.17: exactly that dashboard, no sidebar, no tabs; it must belong to this application.
    const d = seen(scope, query.dashboardId);
    if (d === undefined || d.workspaceId !== id) return notFound;
    return view(ctx, viewer, scope, id, [d], d, false, query);
  }
  const shown = dashboardsFor(scope.state, id, scope.actor);
  const primary = scope.state.workspaces[id]?.primaryDashboardId;
  const active =
    (primary != null
      ? shown.find((d) => d.dashboardId === primary || d.copyOf === primary)
      : undefined) ?? shown[0];
  if (active === undefined) return notFound;
  return view(ctx, viewer, scope, id, shown, active, true, query);
}

/**
 * `/share/dashboard/{dashboardId}` (§4.17): finds the dashboard's application and opens it
 * there, navigation included, with this dashboard shown. After finalize a v1 dashboard id
 * opens the v1 component frozen at migration (§9; decision hub.v1-component.page).
 */
export async function dashboardPage(
  ctx: ReferenceContext,
  viewer: Viewer,
  dashboardId: string,
  query: PageQuery,
): Promise<Page> {
  const id = dashboardId.toLowerCase();
  if (!isUuid(id)) return notFound;
  const { migration } = viewer.account;
  const scope =
    migration.phase === 'after' && migration.v2IdOf[id] !== undefined
      ? frozenScope(viewer, migration)
      : liveScope(viewer);
  const d = resolveFor(scope.state, id, scope.actor);
  if (d === undefined) return notFound;
  // Decision hub.dashboard.navigation opens the application in place; a server may send the
  // viewer to the application page with dashboardId instead, the dashboard alone (§4.17).
  if (ctx.settings.dashboardPage === 'redirect')
    return { kind: 'redirect', applicationId: d.workspaceId, dashboardId: id };
  const shown = dashboardsFor(scope.state, d.workspaceId, scope.actor);
  return view(ctx, viewer, scope, d.workspaceId, shown.length > 0 ? shown : [d], d, true, query);
}
