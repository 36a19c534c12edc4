/**
 * Discover's hub world (§4.17): an account of its own with a workspace of two dashboards (the
 * primary one, empty, and a board with one controlled filter and one chart over a small table
 * of known rows, behind a row filter on the user's region), and project users whose roles set
 * the §2.2 flags, each with a project-user token for the pages' `jwt`.
 */
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../../suites/harness/given/accounts.ts';
import {
  createChart,
  createDashboard,
  createWorkspace,
  productTotalsChart,
  salesConnection,
  salesTotals,
  SALES,
} from '../../suites/harness/given/content.ts';
import { USER_TOKEN } from '../../suites/harness/paths.ts';
import { dataOf, isObject, ok, type Watch } from './watch.ts';

/** The region of the world's users: a user sees the rows of SALES of its region. */
const REGION = 'north';
/** The point drilled into, and the rows behind it a user of REGION sees. */
export const DRILLED = 'Anvil';

/** What every §2.2 flag that shows something on a page is, on (the hide flags off). */
export const SHOWING: RolePermissions = {
  addChart: true,
  addFilter: true,
  createChart: true,
  createChartSQL: true,
  editCharts: true,
  removeChart: true,
  addDashboard: true,
  canDuplicateDashboard: true,
  canSetDefaultDashboard: true,
  canEditChartFromSession: true,
  aiCharts: true,
  aiInsight: true,
  drillDown: true,
  enableScheduleReport: true,
};

export interface HubWorld {
  readonly world: World;
  readonly applicationId: string;
  readonly primary: { readonly dashboardId: string; readonly name: string };
  readonly board: { readonly dashboardId: string; readonly name: string };
  readonly chartTitle: string;
  readonly control: { readonly controlKey: string; readonly label: string };
  /** Whether the chart reads SALES (the connections hook was there). */
  readonly data: boolean;
  /** The chart's rows a user of REGION sees, as [product, total]. */
  readonly chartRows: readonly (readonly string[])[];
  /** The rows behind DRILLED that user sees, each as its values. */
  readonly drillRows: readonly (readonly string[])[];
  /** The dimension values the chart shows that user. */
  readonly points: readonly string[];
}

export async function buildHubWorld(w: Watch): Promise<HubWorld> {
  const { t } = w;
  const world = await buildWorld(t);
  const org = world.account.organizationId;
  const data = t.target.hooks.includes('connections');
  if (data) await salesConnection(t, org, 'eac discover sales');
  const primaryName = `${t.faker.commerce.department()} overview ${t.faker.string.alpha(4)}`;
  const ws = await createWorkspace(t, world, { dashboardName: primaryName });
  const boardName = `${t.faker.commerce.productAdjective()} sales ${t.faker.string.alpha(4)}`;
  const control = {
    controlKey: 'channel',
    field: 'channel',
    label: `Channel ${t.faker.string.alpha(5)}`,
  };
  const { dashboardId: boardId } = await createDashboard(t, world, ws.workspaceId, boardName, [
    control,
  ]);
  const chartTitle = `Sales by product ${t.faker.string.alphanumeric(5)}`;
  await createChart(t, world, boardId, chartTitle, productTotalsChart(chartTitle));
  const totals = salesTotals(REGION);
  return {
    world,
    applicationId: ws.workspaceId,
    primary: { dashboardId: ws.dashboardId, name: primaryName },
    board: { dashboardId: boardId, name: boardName },
    chartTitle,
    control,
    data,
    chartRows: totals.map(([p, n]) => [p, String(n)]),
    drillRows: SALES.filter((s) => s.region === REGION && s.product === DRILLED).map((s) => [
      s.region,
      s.product,
      s.channel,
      String(s.amount),
    ]),
    points: totals.map(([p]) => p),
  };
}

/** A project user of REGION on a role of these flags, and its project-user token (§4.7). */
export async function tokenFor(w: Watch, hub: HubWorld, flags: RolePermissions): Promise<string> {
  const { t } = w;
  const role = await createRole(t, hub.world, flags);
  const org = await registerOrganization(t, hub.world);
  const { userId } = await registerUser(t, hub.world, {
    userRoleId: role.id,
    projectOrganizationId: org.projectOrganizationId,
    properties: { region: REGION },
  });
  const res = await t.http.post(USER_TOKEN, { ...hub.world.creds(), userId });
  const data = dataOf(res);
  const token = isObject(data) ? data['token'] : undefined;
  if (!ok(res) || typeof token !== 'string') throw new Error(`user-token answered ${res.status}`);
  return token;
}
