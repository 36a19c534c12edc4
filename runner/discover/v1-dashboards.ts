/**
 * Discover: what the v1 dashboard part leaves open, each proven by an effect seen through the
 * host hooks or another call. Whether list answers are paged (v1-paging.ts); the members of a
 * list-workspaces item and the names of its two filters (§4.13); the paths of the v1 calls
 * §4.16 and §9 name without one (shapes.endpoints), tried in a short list of forms derived from
 * the document's own v1 paths and of REST habit; and the members of a v1 dashboard list item
 * beyond §2.8's.
 */
import { isDeepStrictEqual } from 'node:util';
import { fillEndpoint, type StatedEndpoint } from '../../spec/profile.ts';
import { buildWorld, type World } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { LIST_WORKSPACES, rolesPath } from '../../suites/harness/paths.ts';
import { pagingOf, readWhole, type Ask } from './v1-paging.ts';
import {
  dataOf,
  isObject,
  itemHolding,
  listHolding,
  ok,
  valueAt,
  type Json,
  type Watch,
} from './watch.ts';

/**
 * The forms tried for each endpoint, in order: the document's own v1 paths give the first
 * (`/v1/api/dashboard/<verb>`), REST habit the rest (a resource in the singular or plural, ids
 * as path placeholders or where the document's body and query carry them).
 */
const DASHBOARD = ['/v1/api/dashboard', '/v1/api/dashboards'];
const WORKSPACE = ['/v1/api/workspace', '/v1/api/workspaces'];
export const CANDIDATES: Readonly<Record<Exclude<StatedEndpoint, 'lookUpDashboard'>, string[]>> = {
  v1ListWorkspaceDashboards: [
    ...DASHBOARD.flatMap((p) => [`${p}/list-workspace-dashboards`, `${p}/list-dashboards`]),
    ...WORKSPACE.flatMap((p) => [`${p}/{workspaceId}/dashboards`, `${p}/dashboards`]),
    ...DASHBOARD.flatMap((p) => [`${p}/list`, p]),
  ].map((p) => `GET ${p}`),
  v1CreateDashboard: [
    ...DASHBOARD.map((p) => `${p}/create`),
    ...WORKSPACE.flatMap((p) => [`${p}/{workspaceId}/dashboards`, `${p}/dashboards`]),
    ...DASHBOARD,
  ].map((p) => `POST ${p}`),
  v1AddCharts: [
    ...DASHBOARD.flatMap((p) => [`${p}/add-charts`, `${p}/{dashboardId}/charts`]),
    ...DASHBOARD.flatMap((p) => [`${p}/{dashboardId}/add-charts`, `${p}/charts`]),
  ].map((p) => `POST ${p}`),
  dashboardCharts: [
    ...DASHBOARD.flatMap((p) => [
      `${p}/{dashboardId}/chart-ids`,
      `${p}/{dashboardId}/charts`,
      `${p}/{dashboardId}/layout`,
      `${p}/{dashboardId}`,
    ]),
    ...DASHBOARD.flatMap((p) => [`${p}/chart-ids`, `${p}/charts`, `${p}/layout`]),
  ].map((p) => `GET ${p}`),
};

/** Query names commonly given to §4.13's two filters. */
const FILTER_NAMES = {
  team: ['teamId', 'team_id', 'team', 'teamID'],
  project: ['projectId', 'project_id', 'project', 'projectID'],
} as const;

interface Made {
  readonly workspaceId: string;
  readonly name: string;
  readonly dashboardId: string;
  readonly dashboardName: string;
  readonly teamId: string;
  readonly projectId: string;
  /** The charts the hook put on its primary dashboard, in layout order. */
  readonly chartIds: string[];
}

async function hook<T>(w: Watch, path: string, body: unknown): Promise<T> {
  const res = await w.t.http.post(path, body, { base: 'hooks' });
  const data = dataOf(res);
  if (!ok(res) || data === undefined)
    throw new Error(`host hook ${path} failed: ${res.status} ${res.text.slice(0, 300)}`);
  return data as T;
}

/**
 * The v1 dashboard part: paging, list-workspaces' items and filters, the open endpoints. It
 * builds an account of its own (discover runs only on a target with the accounts and projects
 * hooks), so the lists the other parts read hold nothing of its making.
 */
export async function v1Dashboards(w: Watch) {
  const { t } = w;
  const missing = (['workspaces', 'charts'] as const).filter((h) => !t.hooks.has(h));
  if (missing.length > 0) {
    w.cannot(
      'the v1 shapes (shapes.endpoints, v1Dashboard, workspaceItem, listWorkspacesFilters, paging)',
      `the target offers no ${missing.join(' or ')} hook to make workspaces and charts with`,
    );
    return;
  }
  const world = await buildWorld(t);
  const orgId = org(world);
  const other = await t.hooks.createProject(orgId, `${t.faker.commerce.productName()} (eac v1)`);
  const made: Made[] = [];
  const word = () => t.faker.string.alpha(6);
  for (const [i, projectId] of [world.projectId, other.projectId].entries()) {
    const name = `eac workspace ${word()} ${i}`;
    const dashboardName = `eac board ${word()} ${i}`;
    const teamId = `team-${word()}`;
    const ws = await hook<{ workspaceId: string; dashboardId: string }>(
      w,
      `/accounts/${orgId}/workspaces`,
      { name, dashboardName, teamId, projectId },
    );
    const chartIds: string[] = [];
    for (let c = 0; c < 2; c++)
      chartIds.push(
        (
          await hook<{ chartId: string }>(
            w,
            `/accounts/${orgId}/dashboards/${ws.dashboardId}/charts`,
            {
              name: `eac chart ${word()}`,
            },
          )
        ).chartId,
      );
    made.push({ ...ws, name, dashboardName, teamId, projectId, chartIds });
  }
  // A few more workspaces, so that a list paged in small pages shows itself.
  const extra: string[] = [];
  for (let i = 0; i < 4; i++)
    extra.push(
      (
        await hook<{ workspaceId: string }>(w, `/accounts/${orgId}/workspaces`, {
          name: `eac workspace ${word()} extra`,
        })
      ).workspaceId,
    );
  const [a, b] = made as [Made, Made];
  await paging(w, world, new Set([a.workspaceId, b.workspaceId, ...extra]));
  await workspaces(w, world, a, b);
  await endpoints(w, world, a, b);
}

/** Whether list-workspaces and the role list page, and how (shapes.paging). */
async function paging(w: Watch, world: World, workspaceIds: ReadonlySet<string>) {
  const { t } = w;
  const creds = world.creds();
  const askWorkspaces: Ask = (extra) =>
    t.http.get(LIST_WORKSPACES, { query: { ...creds, ...extra } });
  let found = await pagingOf(w, 'list-workspaces', workspaceIds, askWorkspaces);
  if (found?.cursor === undefined && t.hooks.has('roles')) {
    // More roles than a page of 20, a common size, holds.
    const roles = new Set<string>();
    for (let i = 0; i < 21; i++)
      roles.add(
        (
          await t.hooks.createRole(
            org(world),
            world.projectId,
            `eac role ${t.faker.string.alpha(8)}`,
          )
        ).id,
      );
    const askRoles: Ask = (extra) =>
      t.http.get(rolesPath(world), { query: { ...creds, ...extra } });
    const byRoles = await pagingOf(w, 'the role list', roles, askRoles);
    if (byRoles !== undefined) found = byRoles.cursor === undefined ? (found ?? byRoles) : byRoles;
  }
  if (found === undefined) return;
  w.shapes['paging'] = found;
  if (found.cursor !== undefined) {
    w.review.push(
      `shapes.paging: a list answered part of what was made; following ${found.cursor.pointer} in ?${found.cursor.parameter}= gave the rest. Confirm every list (roles, workspaces, applications, dashboards) pages so`,
    );
    readWhole(w, found);
  }
}

const org = (world: World) => world.account.organizationId;

/** The item of a list answer in which `value` appears. */
function itemWith(body: unknown, value: string): Json | undefined {
  const match = (v: unknown) => v === value;
  const list = listHolding(body, match);
  if (list === undefined) return undefined;
  const item = itemHolding(body, list, match);
  return isObject(item) ? item : undefined;
}

/** The top-level member of `item` whose value is `value`, if one alone is. */
function memberOf(item: Json, value: unknown): string | undefined {
  const names = Object.keys(item).filter((k) => isDeepStrictEqual(item[k], value));
  return names.length === 1 ? names[0] : undefined;
}

/** §4.13: the members of a list-workspaces item and the names of its filters. */
async function workspaces(w: Watch, world: World, a: Made, b: Made) {
  const { t } = w;
  const creds = world.creds();
  const list = await t.http.get(LIST_WORKSPACES, { query: creds });
  const item = ok(list) ? itemWith(list.body, a.workspaceId) : undefined;
  if (item === undefined) {
    w.cannot(
      'shapes.workspaceItem',
      `list-workspaces (${list.status}) holds no item with the workspace made`,
    );
  } else {
    const members: Record<string, string> = {};
    for (const [concept, value] of [
      ['workspaceId', a.workspaceId],
      ['name', a.name],
      ['dashboardId', a.dashboardId],
      ['dashboardName', a.dashboardName],
    ] as const) {
      const member = memberOf(item, value);
      if (member !== undefined) members[concept] = member;
    }
    if (Object.keys(members).length > 0) {
      w.shapes['workspaceItem'] = members;
      w.saw(`list-workspaces: an item holds ${JSON.stringify(members)}`);
      w.review.push(
        'shapes.workspaceItem: each member was placed where a list-workspaces item held the value the workspace was made with',
      );
    }
    if (members['workspaceId'] === undefined)
      w.cannot('shapes.workspaceItem.workspaceId', 'no member of the item held the workspace id');
  }
  // The two filters: a name is proven when the list it filters holds the one workspace made
  // with that value and not the other (the unfiltered list holding both).
  const both = ok(list) && [a, b].every((m) => itemWith(list.body, m.workspaceId) !== undefined);
  if (!both) {
    w.cannot('shapes.listWorkspacesFilters', 'the unfiltered list does not hold both workspaces');
    return;
  }
  const filters: Record<string, string> = {};
  for (const [concept, value] of [
    ['team', a.teamId],
    ['project', a.projectId],
  ] as const) {
    for (const name of FILTER_NAMES[concept]) {
      const res = await t.http.get(LIST_WORKSPACES, { query: { ...creds, [name]: value } });
      if (!ok(res)) continue;
      if (itemWith(res.body, a.workspaceId) === undefined) continue;
      if (itemWith(res.body, b.workspaceId) !== undefined) continue;
      filters[concept] = name;
      break;
    }
    if (filters[concept] === undefined)
      w.cannot(
        `shapes.listWorkspacesFilters.${concept}`,
        `none of ${FILTER_NAMES[concept].join(', ')} filtered the list by ${concept}`,
      );
  }
  if (Object.keys(filters).length > 0) {
    w.shapes['listWorkspacesFilters'] = filters;
    w.saw(`list-workspaces: filtered by ${JSON.stringify(filters)}`);
  }
}

/** Records a success status other than 200 of an open endpoint, keyed as the profile states it. */
function status(w: Watch, stated: string, res: Reply) {
  if (res.status === 200) return;
  const statuses = (w.shapes['successStatuses'] ?? {}) as Record<string, number>;
  statuses[stated] = res.status;
  w.shapes['successStatuses'] = statuses;
  w.review.push(`shapes.successStatuses: ${stated} answered ${res.status}`);
}

function state(w: Watch, name: StatedEndpoint, stated: string, proof: string) {
  const endpoints = (w.shapes['endpoints'] ?? {}) as Record<string, string>;
  endpoints[name] = stated;
  w.shapes['endpoints'] = endpoints;
  w.saw(`endpoints: ${name} is ${stated} (${proof})`);
}

/** The ids of the items of a v1 dashboard list answer (`id`, §2.8). */
function listedIds(body: unknown, list: string): string[] {
  const items = valueAt(body, list.split('/').slice(1));
  return Array.isArray(items)
    ? items.flatMap((i) => (isObject(i) && typeof i['id'] === 'string' ? [i['id']] : []))
    : [];
}

/** §4.16, §9: the paths of the v1 create, add-charts and list-workspace-dashboards. */
async function endpoints(w: Watch, world: World, a: Made, b: Made) {
  const { t } = w;
  const creds = world.creds();
  const send: Send = (name, stated, values, body, query = {}) => {
    const { method, path } = fillEndpoint(name, stated, values);
    const header = w.shapes['authorizationHeader'];
    return method === 'GET'
      ? t.http.get(path, { query: { ...creds, ...(query as Record<string, string>) } })
      : t.http.call(method, path, {
          body,
          headers: { authorization: header === 'raw' ? creds.apiKey : `Bearer ${creds.apiKey}` },
        });
  };

  // The list: a success holding the workspace's dashboard and not the other workspace's.
  const readList = async (stated: string, workspaceId: string) =>
    send('v1ListWorkspaceDashboards', stated, { workspaceId }, {}, { workspaceId });
  let listAt: { stated: string; list: string } | undefined;
  for (const stated of CANDIDATES.v1ListWorkspaceDashboards) {
    const res = await readList(stated, a.workspaceId);
    if (!ok(res)) continue;
    const list = listHolding(res.body, (v) => v === a.dashboardId);
    if (list === undefined || listHolding(res.body, (v) => v === b.dashboardId) !== undefined)
      continue;
    listAt = { stated, list };
    state(
      w,
      'v1ListWorkspaceDashboards',
      stated,
      "it listed the workspace's dashboard and not another workspace's",
    );
    status(w, stated, res);
    if (list !== '/data/dashboards')
      w.review.push(
        `shapes.endpoints.v1ListWorkspaceDashboards: the dashboards are at ${list}; the suites read data.dashboards`,
      );
    const item = itemHolding(res.body, list, (v) => v === a.dashboardId);
    if (isObject(item)) v1Item(w, item, a);
    break;
  }
  if (listAt === undefined)
    w.cannot(
      'shapes.endpoints.v1ListWorkspaceDashboards',
      `none of ${CANDIDATES.v1ListWorkspaceDashboards.length} forms tried listed a workspace's dashboards (e.g. ${CANDIDATES.v1ListWorkspaceDashboards[0] ?? ''})`,
    );
  if (w.shapes['authorizationHeader'] === undefined) {
    w.cannot(
      'shapes.endpoints.v1CreateDashboard and v1AddCharts',
      'how an API key travels in the authorization header is not known',
    );
    return;
  }
  await create(w, world, a, listAt, send, readList);
  await addCharts(w, world, a, b, listAt, send);
}

type Send = (
  name: StatedEndpoint,
  stated: string,
  values: Record<string, string>,
  body: Json,
  query?: Json,
) => Promise<Reply>;

/** The members of a v1 dashboard list item beyond §2.8's, where the item held the values made. */
function v1Item(w: Watch, item: Json, a: Made) {
  const members: Record<string, string> = {};
  for (const [concept, value] of [
    ['name', a.dashboardName],
    ['workspaceId', a.workspaceId],
    ['chartIds', a.chartIds],
  ] as const) {
    const member = memberOf(item, value);
    if (member !== undefined && member !== 'id') members[concept] = member;
  }
  if (Object.keys(members).length === 0) {
    w.saw('v1 list: an item holds none of the name, workspace id and chart ids');
    return;
  }
  w.shapes['v1Dashboard'] = members;
  w.saw(`v1 list: an item holds ${JSON.stringify(members)}`);
  w.review.push(
    'shapes.v1Dashboard: each member was placed where a list item held the value the dashboard was made with',
  );
}

/** The create: proven by the new dashboard the list (or the account's snapshot) then shows. */
async function create(
  w: Watch,
  world: World,
  a: Made,
  listAt: { stated: string; list: string } | undefined,
  send: Send,
  readList: (stated: string, workspaceId: string) => Promise<Reply>,
) {
  const { t } = w;
  const snapshot = async () =>
    t.hooks.has('snapshot')
      ? (await t.http.get(`/accounts/${org(world)}/snapshot`, { base: 'hooks' })).text
      : undefined;
  for (const stated of CANDIDATES.v1CreateDashboard) {
    const name = `eac created ${t.faker.string.alpha(10)}`;
    const before = listAt === undefined ? undefined : await readList(listAt.stated, a.workspaceId);
    const shotBefore = listAt === undefined ? await snapshot() : undefined;
    const res = await send(
      'v1CreateDashboard',
      stated,
      { workspaceId: a.workspaceId },
      { workspaceId: a.workspaceId, name },
    );
    if (!ok(res)) continue;
    let proof: string | undefined;
    if (listAt !== undefined && before !== undefined) {
      const after = await readList(listAt.stated, a.workspaceId);
      const old = new Set(listedIds(before.body, listAt.list));
      const added = listedIds(after.body, listAt.list).filter((id) => !old.has(id));
      if (added.length === 1) proof = `the workspace's list then held one more dashboard`;
    } else if (shotBefore !== undefined) {
      const shotAfter = (await snapshot()) ?? '';
      if (!shotBefore.includes(name) && shotAfter.includes(name))
        proof = "the account's snapshot then held the name sent";
    }
    if (proof === undefined) continue;
    state(w, 'v1CreateDashboard', stated, proof);
    status(w, stated, res);
    return;
  }
  w.cannot(
    'shapes.endpoints.v1CreateDashboard',
    listAt === undefined && !t.hooks.has('snapshot')
      ? 'neither the v1 list nor the snapshot hook shows a new dashboard'
      : `none of ${CANDIDATES.v1CreateDashboard.length} forms tried made a dashboard the workspace then showed`,
  );
}

/** Add-charts: proven by the layout then ending in the chart sent. */
async function addCharts(
  w: Watch,
  world: World,
  a: Made,
  b: Made,
  listAt: { stated: string; list: string } | undefined,
  send: Send,
) {
  const { t } = w;
  const chartsMember = (w.shapes['v1Dashboard'] as Record<string, string> | undefined)?.[
    'chartIds'
  ];
  // The layout is read as the suites read it: the hook, else the list's member, else a route of
  // the target's own (found here only where neither of the others is there).
  const route =
    t.hooks.has('dashboard-charts') || chartsMember !== undefined
      ? undefined
      : await dashboardCharts(w, a, send);
  const layout = async (): Promise<unknown> => {
    if (t.hooks.has('dashboard-charts')) {
      const res = await t.http.get(`/accounts/${org(world)}/dashboards/${a.dashboardId}/charts`, {
        base: 'hooks',
      });
      const data = dataOf(res);
      return isObject(data) ? data['chartIds'] : undefined;
    }
    if (listAt !== undefined && chartsMember !== undefined) {
      const values = { workspaceId: a.workspaceId };
      const res = await send('v1ListWorkspaceDashboards', listAt.stated, values, {}, values);
      const item = itemHolding(res.body, listAt.list, (v) => v === a.dashboardId);
      return isObject(item) ? item[chartsMember] : undefined;
    }
    if (route !== undefined) return chartIdsAt(await readLayout(a, route, send));
    return undefined;
  };
  if (!Array.isArray(await layout())) {
    w.cannot(
      'shapes.endpoints.v1AddCharts',
      'no layout can be read (no dashboard-charts hook, no chart ids in the v1 list, no route of its own found)',
    );
    return;
  }
  const chart = b.chartIds[0] ?? '';
  for (const stated of CANDIDATES.v1AddCharts) {
    const before = await layout();
    const res = await send(
      'v1AddCharts',
      stated,
      { targetDashboardId: a.dashboardId },
      { targetDashboardId: a.dashboardId, charts: [chart] },
    );
    if (!ok(res)) continue;
    const after = await layout();
    if (!Array.isArray(before) || !isDeepStrictEqual(after, [...(before as unknown[]), chart]))
      continue;
    state(w, 'v1AddCharts', stated, 'the layout then ended in the chart sent');
    status(w, stated, res);
    return;
  }
  w.cannot(
    'shapes.endpoints.v1AddCharts',
    `none of ${CANDIDATES.v1AddCharts.length} forms tried put the chart sent at the end of the layout`,
  );
}

/** A layout read at a dashboardCharts route: the id in the query unless the path holds it. */
function readLayout(a: Made, stated: string, send: Send): Promise<Reply> {
  const values = { dashboardId: a.dashboardId };
  return send('dashboardCharts', stated, values, {}, stated.includes('{') ? {} : values);
}

const chartIdsAt = (res: Reply): unknown => {
  const data = dataOf(res);
  return ok(res) && isObject(data) ? data['chartIds'] : undefined;
};

/**
 * A route of the target's own reading a layout (shapes.endpoints.dashboardCharts), for targets
 * with neither the hook nor the list member: proven by answering data.chartIds, the charts the
 * hook made, in order.
 */
async function dashboardCharts(w: Watch, a: Made, send: Send): Promise<string | undefined> {
  for (const stated of CANDIDATES.dashboardCharts) {
    const ids = chartIdsAt(await readLayout(a, stated, send));
    if (!isDeepStrictEqual(ids, a.chartIds)) continue;
    state(w, 'dashboardCharts', stated, 'it answered data.chartIds, the charts made, in order');
    return stated;
  }
  w.cannot(
    'shapes.endpoints.dashboardCharts',
    'the target has no dashboard-charts hook and its list items hold no chart ids, and no form tried answered a layout as data.chartIds',
  );
  return undefined;
}
