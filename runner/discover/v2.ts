/** Discover: the v2 shapes, success statuses, key carrier and look-up path (§2.8, §4.16). */
import { isDeepStrictEqual } from 'node:util';
import type { World } from '../../suites/harness/given/accounts.ts';
import { createChart, createWorkspace } from '../../suites/harness/given/content.ts';
import type { Reply } from '../../suites/harness/http.ts';
import {
  APPLICATIONS,
  appendChartsPath,
  chartPath,
  chartsPath,
  clonePath,
  dashboardsPath,
} from '../../suites/harness/paths.ts';
import {
  BEARER_KEY,
  CARRIERS,
  findCarrier,
  stateCarrier,
  v2Call,
  type Carrier,
} from './v2-carrier.ts';
import { lookUp, notFoundAfter, notFoundBefore, proposeNotFound } from './v2-lookup.ts';
import {
  isObject,
  itemHolding,
  listHolding,
  ok,
  pathsWhere,
  pointer,
  pointerWhere,
  statusOf,
  valueAt,
  type Watch,
} from './watch.ts';

/** What the v2 part saw, for the behaviours part (behaviours.ts) to build on. */
export interface V2Seen {
  readonly carrier: Carrier;
  readonly applicationId: string;
  /** The migrated template's v2 id, when its item had an id member. */
  readonly templateId?: string;
  /** The v1 workspace and dashboard migrated, and the v1 chart ids of its layout. */
  readonly v1: { readonly workspaceId: string; readonly dashboardId: string };
  readonly v1Charts: readonly string[];
  /** The chart ids the migrated template holds, in layout order. */
  readonly v2Charts: readonly string[];
  /** The application list before finalize, by the carrier found after it. */
  readonly beforeFinalize?: Reply;
  readonly applicationList: string;
}

/** What each watch's v2 part saw (read by behaviours.ts). */
export const v2Seen = new WeakMap<Watch, V2Seen>();

const arrayOfIds = (n: number) => (v: unknown) =>
  Array.isArray(v) &&
  v.length === n &&
  v.every((x) => typeof x === 'string') &&
  new Set(v).size === n;

/**
 * §2.8, §4.16: where the v2 lists and a create's answer hold their members. A shared v1
 * dashboard with two charts is made through the host hooks and the account finalized; then
 * each member is placed where an answer holds the value it must have: the v1 workspace and
 * dashboard ids (kept, §9), the layout's chart ids in order, the name a create sent. The
 * API key is sent by each carrier a user could use until one gives the migrated application.
 * The writes after it are made once each to read their success statuses.
 */
export async function v2Shapes(w: Watch, world: World) {
  const { t } = w;
  const hooks = t.target.hooks;
  if (!['workspaces', 'charts', 'migration'].every((h) => hooks.includes(h))) {
    w.cannot(
      'shapes.v2Application and shapes.v2Dashboard',
      'a migrated account needs the workspaces, charts and migration hooks',
    );
    return;
  }
  const boardName = `${t.faker.commerce.department()} board (eac)`;
  const ws = await createWorkspace(t, world, { dashboardName: boardName });
  const charts = [
    await createChart(t, world, ws.dashboardId, `${t.faker.commerce.productName()} (eac)`),
    await createChart(t, world, ws.dashboardId, `${t.faker.commerce.productName()} (eac)`),
  ].map((c) => c.chartId);
  // The application list before finalize, by every carrier: read once the carrier is known.
  const before = new Map<Carrier, Reply>();
  for (const carrier of CARRIERS)
    before.set(carrier, await v2Call(w, world, carrier, 'GET', APPLICATIONS));
  const refusedBefore = await notFoundBefore(w, world, CARRIERS);
  const fin = await t.http.post(
    `/accounts/${world.account.organizationId}/migration/finalize`,
    {},
    { base: 'hooks' },
  );
  if (fin.status >= 300) {
    w.cannot('shapes.v2Application', `the migration hook's finalize answered ${fin.status}`);
    return;
  }
  const isWorkspace = (v: unknown) => v === ws.workspaceId;
  const found = await findCarrier(
    w,
    (c) => v2Call(w, world, c, 'GET', APPLICATIONS),
    (res) => ok(res) && listHolding(res.body, isWorkspace) !== undefined,
  );
  if (found === undefined) {
    w.cannot('shapes.v2Application', 'no list in the answer holds the migrated workspace id');
    return;
  }
  const { carrier, reply: apps } = found;
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: Record<string, unknown>) =>
    v2Call(w, world, carrier, method, path, body);
  statusOf(w, 'GET /v2/api/applications', apps);
  const appList = listHolding(apps.body, isWorkspace);
  const app = appList === undefined ? undefined : itemHolding(apps.body, appList, isWorkspace);
  if (appList === undefined || !isObject(app)) {
    w.cannot('shapes.v2Application', 'no list in the answer holds the migrated workspace id');
    return;
  }
  const application: Record<string, string> = { list: appList };
  const legacy = pointerWhere(app, isWorkspace);
  if (legacy !== undefined && legacy !== '/legacyWorkspaceId')
    application['legacyWorkspaceId'] = legacy;
  // The application id is the member by which the dashboards list answers: §2.8's name first.
  const candidates = Object.entries(app)
    .filter(([k, v]) => typeof v === 'string' && v !== ws.workspaceId && k !== 'name')
    .sort(([a], [b]) => Number(b === 'applicationId') - Number(a === 'applicationId'));
  let applicationId: string | undefined;
  let boards: Reply | undefined;
  for (const [member, value] of candidates) {
    const res = await call('GET', dashboardsPath(value as string));
    if (!ok(res)) continue;
    applicationId = value as string;
    boards = res;
    if (member !== 'applicationId') application['applicationId'] = pointer([member]);
    break;
  }
  w.shapes['v2Application'] = application;
  w.saw(`v2: applications at ${JSON.stringify(application)}`);
  w.review.push(
    'shapes.v2Application: the list is the one holding the migrated workspace id; members left out are at their §2.8 names',
  );
  if (applicationId === undefined || boards === undefined) {
    w.cannot('shapes.v2Dashboard', 'no member of the application opened its dashboard list');
    return;
  }
  statusOf(w, 'GET /v2/api/applications/{applicationId}/dashboards', boards);
  const isBoard = (v: unknown) => v === ws.dashboardId;
  const boardList = listHolding(boards.body, isBoard);
  const board = boardList === undefined ? undefined : itemHolding(boards.body, boardList, isBoard);
  // The layout: the v1 chart ids in order (kept, decision migration.chart-ids-kept), else an
  // array of as many distinct ids (charts given new ids at migration: not kept).
  const kept = isObject(board)
    ? pointerWhere(board, (v) => isDeepStrictEqual(v, charts))
    : undefined;
  const chartIds =
    kept ?? (isObject(board) ? pointerWhere(board, arrayOfIds(charts.length)) : undefined);
  if (boardList === undefined || !isObject(board) || chartIds === undefined) {
    w.cannot(
      'shapes.v2Dashboard',
      'no list item holds the migrated dashboard id with an array of its chart ids',
    );
    return;
  }
  const v2Charts = valueAt(board, chartIds.split('/').slice(1)) as string[];
  if (kept === undefined)
    w.saw(
      `v2: the migrated dashboard's layout at ${chartIds} holds other ids than its v1 charts (${v2Charts.join(', ')})`,
    );
  const dashboard: Record<string, string> = { list: boardList, chartIds };
  const legacyBoard = pointerWhere(board, isBoard);
  if (legacyBoard !== undefined && legacyBoard !== '/legacyDashboardId')
    dashboard['legacyDashboardId'] = legacyBoard;
  const kind = pointerWhere(board, (v) => v === 'template');
  if (kind !== undefined && kind !== '/kind') dashboard['kind'] = kind;
  const name = pointerWhere(board, (v) => v === boardName);
  if (name !== undefined) dashboard['name'] = name;
  else w.cannot('shapes.v2Dashboard.name', 'no member of the item holds the dashboard name');
  const templateId = isObject(board) && typeof board['id'] === 'string' ? board['id'] : undefined;
  if (templateId === undefined)
    w.cannot('shapes.v2Dashboard.id', 'the item has no id member (§2.8): write where it is');
  const beforeFinalize = before.get(carrier);
  v2Seen.set(w, {
    carrier,
    applicationId,
    ...(templateId === undefined ? {} : { templateId }),
    v1: { workspaceId: ws.workspaceId, dashboardId: ws.dashboardId },
    v1Charts: charts,
    v2Charts,
    ...(beforeFinalize === undefined ? {} : { beforeFinalize }),
    applicationList: appList,
  });

  // A create whose name nothing else holds: its answer holds the new dashboard where it does.
  const madeName = `${t.faker.commerce.productAdjective()} (eac ${t.faker.string.alpha(6)})`;
  const made = await call('POST', dashboardsPath(applicationId), { name: madeName });
  statusOf(w, 'POST /v2/api/applications/{applicationId}/dashboards', made);
  const madeAt = pathsWhere(made.body, (v) => isObject(v) && Object.values(v).includes(madeName));
  const madePath = madeAt[0];
  if (madePath !== undefined) dashboard['made'] = pointer(madePath);
  else w.saw('v2: the create answer holds no dashboard (found then by Location or the list)');
  w.shapes['v2Dashboard'] = dashboard;
  w.saw(`v2: dashboards at ${JSON.stringify(dashboard)}`);
  w.review.push(
    'shapes.v2Dashboard: placed where the answers held the migrated ids, the layout and the name sent; members left out are at their §2.8 names',
  );
  const madeId = madePath === undefined ? undefined : valueAt(made.body, [...madePath, 'id']);
  if (templateId === undefined) {
    stateCarrier(w, carrier, false);
    return;
  }
  await lookUp(w, world, carrier, {
    applicationId,
    v1DashboardId: ws.dashboardId,
    v2DashboardId: templateId,
  });
  const clone = await call('POST', clonePath(applicationId, templateId));
  statusOf(w, 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone', clone);
  const remove = await call('DELETE', chartPath(applicationId, templateId, v2Charts[1] ?? ''));
  statusOf(
    w,
    'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
    remove,
  );
  // Seen taken on a GET, a POST and a DELETE by the decision's member, the decision is proposed.
  const bearerKey =
    carrier.kind === 'member' ? await v2Call(w, world, BEARER_KEY, 'GET', APPLICATIONS) : undefined;
  stateCarrier(w, carrier, ok(apps) && ok(made) && ok(remove), bearerKey);
  const add = await call('POST', chartsPath(applicationId, templateId), {
    charts: [v2Charts[1]],
  });
  statusOf(w, 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts', add);
  const append = await call('POST', appendChartsPath(applicationId, templateId), {
    sourceDashboardId: templateId,
  });
  statusOf(
    w,
    'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
    append,
  );
  const refusedAfter = await notFoundAfter(w, world, {
    carrier,
    applicationId,
    ...(typeof madeId === 'string' ? { dashboardId: madeId } : {}),
  });
  const first = refusedBefore.get(carrier);
  proposeNotFound(w, carrier, [...(first === undefined ? [] : [first]), ...refusedAfter]);
  beyondNamedFields(w, { application, dashboard, add, append, clone });
}

/**
 * Decision v2.shapes.beyond-named-fields: the success envelope, the lists at data.applications
 * and data.dashboards, and every write answering the dashboard (in data). Proposed when each
 * answer seen was so.
 */
function beyondNamedFields(
  w: Watch,
  seen: {
    application: Readonly<Record<string, string>>;
    dashboard: Readonly<Record<string, string>>;
    add: Reply;
    append: Reply;
    clone: Reply;
  },
) {
  const writes = [seen.add, seen.append, seen.clone];
  const answerDashboard = writes.every((r) => {
    const data = isObject(r.body) ? r.body['data'] : undefined;
    return (
      ok(r) && isObject(data) && typeof data['id'] === 'string' && Array.isArray(data['chartIds'])
    );
  });
  const envelope = writes.every((r) => isObject(r.body) && r.body['status'] === 'success');
  const decided =
    isDeepStrictEqual(seen.application, { list: '/data/applications' }) &&
    isDeepStrictEqual(seen.dashboard, {
      list: '/data/dashboards',
      chartIds: '/chartIds',
      name: '/name',
      made: '/data',
    });
  if (decided && answerDashboard && envelope) {
    w.follows.push('v2.shapes.beyond-named-fields');
    w.review.push(
      'follows v2.shapes.beyond-named-fields: the lists were at data.applications and data.dashboards with their members by name, and create, clone, add-charts and append-charts answered the dashboard in data',
    );
  } else
    w.saw(
      'v2: the lists or the writes answered otherwise than decision v2.shapes.beyond-named-fields (the shapes above state where)',
    );
}
