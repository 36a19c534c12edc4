/** Discover: the v2 shapes and success statuses (§2.8, §4.16). */
import { isDeepStrictEqual } from 'node:util';
import type { World } from '../../suites/harness/given/accounts.ts';
import { createChart, createWorkspace } from '../../suites/harness/given/dashboards.ts';
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
  isObject,
  itemHolding,
  listHolding,
  ok,
  pathsWhere,
  pointer,
  pointerWhere,
  statusOf,
  type Watch,
} from './watch.ts';

/**
 * §2.8, §4.16: where the v2 lists and a create's answer hold their members. A shared v1
 * dashboard with two charts is made through the host hooks and the account finalized; then
 * each member is placed where an answer holds the value it must have: the v1 workspace and
 * dashboard ids (kept, §9), the layout's chart ids in order, the name a create sent. The
 * writes after it are made once each to read their success statuses.
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
  const fin = await t.http.post(
    `/accounts/${world.account.organizationId}/migration/finalize`,
    {},
    { base: 'hooks' },
  );
  if (fin.status >= 300) {
    w.cannot('shapes.v2Application', `the migration hook's finalize answered ${fin.status}`);
    return;
  }
  const creds = world.creds();
  const apps = await t.http.get(APPLICATIONS, { query: creds });
  statusOf(w, 'GET /v2/api/applications', apps);
  const isWorkspace = (v: unknown) => v === ws.workspaceId;
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
    const res = await t.http.get(dashboardsPath(value as string), { query: creds });
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
  const layout = (v: unknown) => isDeepStrictEqual(v, charts);
  const chartIds = isObject(board) ? pointerWhere(board, layout) : undefined;
  if (boardList === undefined || !isObject(board) || chartIds === undefined) {
    w.cannot(
      'shapes.v2Dashboard',
      'no list item holds the migrated dashboard id with its chart ids in layout order',
    );
    return;
  }
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

  // A create whose name nothing else holds: its answer holds the new dashboard where it does.
  const madeName = `${t.faker.commerce.productAdjective()} (eac ${t.faker.string.alpha(6)})`;
  const made = await t.http.post(dashboardsPath(applicationId), { ...creds, name: madeName });
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
  if (templateId === undefined) return;
  const clone = await t.http.post(clonePath(applicationId, templateId), { ...creds });
  statusOf(w, 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone', clone);
  const remove = await t.http.delete(chartPath(applicationId, templateId, charts[1] ?? ''), {
    query: creds,
  });
  statusOf(
    w,
    'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
    remove,
  );
  // Every call above carried the API key as the decision does: in the query on GET and DELETE,
  // in the body on POST. Seen taken on all three, the decision is proposed.
  if (ok(apps) && ok(made) && ok(remove)) {
    w.follows.push('v2.credentials.api-key-carrier');
    w.review.push(
      'follows v2.credentials.api-key-carrier: v2 took apiKey (and organizationId) in the query on GET and DELETE and in the body on POST; whether the authorization header carries only a bearer token was not observed',
    );
  }
  const add = await t.http.post(chartsPath(applicationId, templateId), {
    ...creds,
    charts: [charts[1]],
  });
  statusOf(w, 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts', add);
  const append = await t.http.post(appendChartsPath(applicationId, templateId), {
    ...creds,
    sourceDashboardId: templateId,
  });
  statusOf(
    w,
    'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
    append,
  );
}
