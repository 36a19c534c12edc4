/**
 * Discover: the decisions about behaviour (not shape) that v2, the migration, the v1 dashboard
 * writes and save-from-chat leave open, each proposed as a `follows` entry only when the
 * target was seen doing what the decision says, and listed for review. What a part could not
 * reach (a hook, a path nobody found, a tenant JWT) is said, and nothing is proposed for it.
 */
import { isDeepStrictEqual } from 'node:util';
import { fillEndpoint } from '../../spec/profile.ts';
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
} from '../../suites/harness/given/content.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { atPointer } from '../../suites/harness/json-pointer.ts';
import {
  APPEND,
  APPLICATIONS,
  CLONE,
  chartsPath,
  REGISTER_TENANT,
  dashboardsPath,
  REMOVE,
  SAVE_FROM_CHAT,
  USER_TOKEN,
} from '../../suites/harness/paths.ts';
import { v2AsToken } from './v2-carrier.ts';
import { lookUpFound, lookUpUrl } from './v2-lookup.ts';
import { v2Seen, type V2Seen } from './v2.ts';
import { isObject, listHolding, ok, valueAt, type Watch } from './watch.ts';

/** A refusal's status, §7 code and details, for matching against a decision's wording. */
function refusal(res: Reply): { status: number; code?: unknown; details: Record<string, unknown> } {
  const error = isObject(res.body) ? res.body['error'] : undefined;
  const details = isObject(error) && isObject(error['details']) ? error['details'] : {};
  return { status: res.status, code: isObject(error) ? error['code'] : undefined, details };
}
const refusedAs = (
  res: Reply,
  status: number,
  code: string,
  details: Record<string, unknown> = {},
) => {
  const r = refusal(res);
  return (
    r.status === status &&
    r.code === code &&
    Object.entries(details).every(([k, v]) => isDeepStrictEqual(r.details[k], v))
  );
};

const answer = (what: string, res: Reply) => `${what} ${res.status}`;

/** Proposes `id` when `seen` holds, with the review line; says what was seen otherwise. */
function propose(w: Watch, id: string, seen: boolean, evidence: string) {
  if (seen) {
    w.follows.push(id);
    w.review.push(`follows ${id}: ${evidence}`);
  } else w.saw(`behaviour: not ${id} (${evidence})`);
}

/** Takes back a proposal a later observation contradicts. */
function withdraw(w: Watch, id: string, why: string) {
  const at = w.follows.indexOf(id);
  if (at < 0) return;
  w.follows.splice(at, 1);
  const line = w.review.findIndex((r) => r.startsWith(`follows ${id}:`));
  if (line >= 0) w.review.splice(line, 1);
  w.saw(`behaviour: not ${id} (${why})`);
}

/** A project user (with a project organization unless `organization` is false) and its token. */
async function projectUser(
  w: Watch,
  world: World,
  fields: { organization: boolean; permissions?: Record<string, boolean> },
): Promise<string | undefined> {
  const { t } = w;
  try {
    const org = fields.organization ? await registerOrganization(t, world) : undefined;
    const role =
      fields.permissions === undefined ? undefined : await createRole(t, world, fields.permissions);
    const { userId } = await registerUser(t, world, {
      ...(org === undefined ? {} : { projectOrganizationId: org.projectOrganizationId }),
      ...(role === undefined ? {} : { userRoleId: role.id }),
    });
    const res = await t.http.post(USER_TOKEN, { ...world.creds(), userId });
    const token = isObject(res.body) ? valueAt(res.body, ['data', 'token']) : undefined;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The entry point: the v2 and migration behaviours on the world v2.ts migrated, then v1's. */
export async function behaviours(w: Watch, world: World) {
  // The look-up path the v2 part found, kept whatever a part between wrote to endpoints.
  const look = lookUpFound.get(w);
  if (look !== undefined)
    w.shapes['endpoints'] = { ...(w.shapes['endpoints'] ?? {}), lookUpDashboard: look };
  const seen = v2Seen.get(w);
  if (seen === undefined)
    w.cannot(
      'follows v2.applications.list.before-finalize, v2.no-organization.calls, migration.chart-ids-kept',
      'the v2 part found no migrated application to build on',
    );
  else await afterMigration(w, world, seen);
  await v1Writes(w);
  await tenantCopies(w);
  w.cannot(
    'follows migration.tenant-users',
    'what the project user made for a tenant holds is not watched: yours to state',
  );
}

async function afterMigration(w: Watch, world: World, seen: V2Seen) {
  const { t } = w;
  // migration.chart-ids-kept: the migrated layout holds the v1 chart ids.
  propose(
    w,
    'migration.chart-ids-kept',
    isDeepStrictEqual(seen.v1Charts, seen.v2Charts),
    `a migrated shared dashboard held ${isDeepStrictEqual(seen.v1Charts, seen.v2Charts) ? 'the chart ids of its v1 layout' : 'other chart ids than its v1 layout'} (a user's copy was not observed)`,
  );

  // v2.applications.list.before-finalize: no applications before finalize; a project-user
  // token is taken after it.
  const member = await projectUser(w, world, { organization: true });
  const before = seen.beforeFinalize;
  const listed = before === undefined ? undefined : atPointer(before.body, seen.applicationList);
  const byToken =
    member === undefined ? undefined : await v2AsToken(w, member, 'GET', APPLICATIONS);
  const isApp = (v: unknown) => v === seen.v1.workspaceId;
  const emptyBefore = before !== undefined && ok(before) && isDeepStrictEqual(listed, []);
  const tokenTaken =
    byToken !== undefined && ok(byToken) && listHolding(byToken.body, isApp) !== undefined;
  propose(
    w,
    'v2.applications.list.before-finalize',
    emptyBefore && tokenTaken,
    `before finalize the key's list ${before === undefined ? 'was not read' : `answered ${before.status}${emptyBefore ? ' with no application' : ''}`}; after it a project-user token's ${byToken === undefined ? 'was not read' : `answered ${byToken.status}${tokenTaken ? ' with the application' : ''}`}`,
  );

  // v2.no-organization.calls: a project user without a project organization.
  const loner = await projectUser(w, world, { organization: false });
  if (loner === undefined) {
    w.cannot('follows v2.no-organization.calls', 'no token for a user without organization');
    return;
  }
  const rows: [string, Reply][] = [
    ['its dashboards', await v2AsToken(w, loner, 'GET', dashboardsPath(seen.applicationId))],
    [
      'a create',
      await v2AsToken(w, loner, 'POST', dashboardsPath(seen.applicationId), {
        name: `${t.faker.commerce.productAdjective()} (eac)`,
      }),
    ],
  ];
  if (seen.templateId !== undefined)
    rows.push([
      'a template edit',
      await v2AsToken(w, loner, 'POST', chartsPath(seen.applicationId, seen.templateId), {
        charts: [seen.v2Charts[0]],
      }),
    ]);
  const look = ((w.shapes['endpoints'] ?? {}) as Record<string, string>)['lookUpDashboard'];
  if (look !== undefined)
    rows.push([
      'the look-up',
      await v2AsToken(w, loner, 'GET', lookUpUrl(look, seen.templateId ?? seen.v1.dashboardId)),
    ]);
  const list = await v2AsToken(w, loner, 'GET', APPLICATIONS);
  const refused = rows.every(([, r]) => refusedAs(r, 403, 'PROJECT_USER_WITHOUT_ORGANIZATION'));
  propose(
    w,
    'v2.no-organization.calls',
    refused && ok(list) && look !== undefined && seen.templateId !== undefined,
    `a user without organization: ${rows.map(([what, r]) => answer(what, r)).join(', ')}${refused ? ' (403 PROJECT_USER_WITHOUT_ORGANIZATION)' : ''}, the application list ${list.status}${look === undefined ? '; the look-up was not found, so not all calls were seen' : ''}`,
  );
}

/** The v1 writes and save-from-chat, on a fresh account (the first one is migrated). */
export async function v1Writes(w: Watch) {
  const { t } = w;
  const hooks = t.target.hooks;
  if (!w.serves.has('v1-dashboards') || !['workspaces', 'charts'].every((h) => hooks.includes(h))) {
    w.cannot(
      'follows of the v1 dashboard writes and save-from-chat',
      'v1 dashboards are not served, or the workspaces and charts hooks are missing',
    );
    return;
  }
  const world = await buildWorld(t);
  const key = world.creds().apiKey;
  const header = w.shapes['authorizationHeader'];
  // The key where §5 lets it travel on these writes: the authorization header in the form
  // discover found, else the body's apiKey.
  const asKey = (path: string, body: Record<string, unknown>) =>
    header === undefined
      ? t.http.post(path, { ...world.creds(), ...body })
      : t.http.post(path, body, {
          headers: { authorization: header === 'raw' ? key : `Bearer ${key}` },
        });
  const asToken = (path: string, token: string, body: Record<string, unknown>) =>
    t.http.post(path, body, { headers: { authorization: `Bearer ${token}` } });

  const a = await createWorkspace(t, world, {
    dashboardName: `${t.faker.commerce.department()} A (eac)`,
  });
  const aCharts = [
    (await createChart(t, world, a.dashboardId, `${t.faker.commerce.productName()} (eac)`)).chartId,
    (await createChart(t, world, a.dashboardId, `${t.faker.commerce.productName()} (eac)`)).chartId,
  ];
  let b: string | undefined;
  let bCharts: string[] = [];
  if (hooks.includes('dashboards')) {
    b = (await createDashboard(t, world, a.workspaceId, `${t.faker.commerce.department()} B (eac)`))
      .dashboardId;
    bCharts = [(await createChart(t, world, b, `${t.faker.commerce.productName()} (eac)`)).chartId];
  }
  const layout = async (dashboardId: string): Promise<string[] | undefined> => {
    if (!hooks.includes('dashboard-charts')) return undefined;
    const res = await t.http.get(
      `/accounts/${world.account.organizationId}/dashboards/${dashboardId}/charts`,
      { base: 'hooks' },
    );
    const ids = valueAt(res.body, ['data', 'chartIds']);
    return Array.isArray(ids) && ids.every((x) => typeof x === 'string') ? ids : undefined;
  };

  await saveFromChat(w, world, asKey);

  // dashboards.connection-id.guest: each write naming a connection nobody made.
  const beforeA = await layout(a.dashboardId);
  const connection = () => t.faker.string.uuid();
  const guestRows: [string, Reply][] = [
    ['clone', await asKey(CLONE, { sourceDashboardId: a.dashboardId, connectionId: connection() })],
    [
      'append-charts-from',
      await asKey(APPEND, {
        sourceDashboardId: a.dashboardId,
        targetDashboardId: a.dashboardId,
        connectionId: connection(),
      }),
    ],
    [
      'remove-charts',
      await asKey(REMOVE, {
        dashboardId: a.dashboardId,
        chartIds: [aCharts[0]],
        connectionId: connection(),
      }),
    ],
  ];
  const unchanged =
    beforeA !== undefined && isDeepStrictEqual(await layout(a.dashboardId), beforeA);
  const guestRefused = guestRows.every(([, r]) =>
    refusedAs(r, 404, 'NOT_FOUND', { resource: 'connection' }),
  );
  propose(
    w,
    'dashboards.connection-id.guest',
    guestRefused && unchanged,
    `an unknown connectionId: ${guestRows.map(([what, r]) => answer(what, r)).join(', ')}${guestRefused ? " (404 NOT_FOUND, resource 'connection')" : ''}; the layout ${beforeA === undefined ? 'was not read (no dashboard-charts hook)' : unchanged ? 'unchanged' : 'changed'}`,
  );

  // dashboards.v1-writes.credentials: a project-user token on the v1 writes.
  const member = await projectUser(w, world, {
    organization: true,
    permissions: { addChart: true, removeChart: true, addDashboard: true },
  });
  const endpoints = (w.shapes['endpoints'] ?? {}) as Record<string, string>;
  if (member === undefined) w.cannot('follows dashboards.v1-writes.credentials', 'no user token');
  else {
    const rows: [string, Reply][] = [
      [
        'append-charts-from',
        await asToken(APPEND, member, {
          sourceDashboardId: a.dashboardId,
          targetDashboardId: a.dashboardId,
        }),
      ],
      [
        'remove-charts',
        await asToken(REMOVE, member, { dashboardId: a.dashboardId, chartIds: [aCharts[0]] }),
      ],
    ];
    const create = endpoints['v1CreateDashboard'];
    if (create !== undefined) {
      const { path } = fillEndpoint('v1CreateDashboard', create, { workspaceId: a.workspaceId });
      rows.push([
        'create',
        await asToken(path, member, { workspaceId: a.workspaceId, name: 'eac' }),
      ]);
    }
    const add = endpoints['v1AddCharts'];
    if (add !== undefined) {
      const { path } = fillEndpoint('v1AddCharts', add, { targetDashboardId: a.dashboardId });
      rows.push([
        'add-charts',
        await asToken(path, member, { targetDashboardId: a.dashboardId, charts: [aCharts[0]] }),
      ]);
    }
    const refused = rows.every(([, r]) =>
      refusedAs(r, 403, 'FORBIDDEN', { reason: 'project-user-token-on-v1' }),
    );
    propose(
      w,
      'dashboards.v1-writes.credentials',
      refused && create !== undefined && add !== undefined,
      `a project-user token: ${rows.map(([what, r]) => answer(what, r)).join(', ')}${refused ? " (403 FORBIDDEN, reason 'project-user-token-on-v1')" : ''}${create === undefined || add === undefined ? '; create or add-charts has no path found, so not every write was seen' : ''}`,
    );
  }

  // dashboards.append-charts-from.copies: A's charts appended to B as copies, in A's order.
  if (b === undefined || beforeA === undefined) {
    w.cannot(
      'follows dashboards.append-charts-from.copies and dashboards.v1-add-charts.repeat',
      'a second dashboard and its layout need the dashboards and dashboard-charts hooks',
    );
    return;
  }
  const fromA = (await layout(a.dashboardId)) ?? [];
  const appended = await asKey(APPEND, { sourceDashboardId: a.dashboardId, targetDashboardId: b });
  const after = (await layout(b)) ?? [];
  const added = after.slice(bCharts.length);
  const copies =
    ok(appended) &&
    isDeepStrictEqual(after.slice(0, bCharts.length), bCharts) &&
    added.length === fromA.length &&
    new Set(added).size === added.length &&
    added.every((id) => !fromA.includes(id) && !bCharts.includes(id));
  propose(
    w,
    'dashboards.append-charts-from.copies',
    copies,
    `append-charts-from answered ${appended.status}; the target then held ${added.length} more chart(s), ${added.every((id) => !fromA.includes(id)) ? 'under new ids' : "the source's own"}, after its own (the order of copies under new ids is not told apart)`,
  );

  // dashboards.v1-add-charts.repeat: a chart already on the layout, added again.
  const add = endpoints['v1AddCharts'];
  if (add === undefined) {
    w.cannot('follows dashboards.v1-add-charts.repeat', 'no path for v1 add-charts was found');
    return;
  }
  const { path } = fillEndpoint('v1AddCharts', add, { targetDashboardId: b });
  const layoutBefore = (await layout(b)) ?? [];
  const again = await asKey(path, { targetDashboardId: b, charts: [bCharts[0]] });
  const layoutAfter = (await layout(b)) ?? [];
  propose(
    w,
    'dashboards.v1-add-charts.repeat',
    ok(again) && isDeepStrictEqual(layoutAfter, layoutBefore),
    `add-charts of a chart already there answered ${again.status}; the layout ${isDeepStrictEqual(layoutAfter, layoutBefore) ? 'unchanged' : 'changed'}`,
  );
}

/** §4.14's open points: which fields are required, and whether the §2.2 flags are checked. */
async function saveFromChat(
  w: Watch,
  world: World,
  asKey: (path: string, body: Record<string, unknown>) => Promise<Reply>,
) {
  const { t } = w;
  const title = `${t.faker.commerce.productName()} by month (eac)`;
  const chartConfig = {
    title,
    type: 'bar',
    dimensions: [{ name: 'month', field: 'order_date', label: 'Month' }],
    measures: [{ name: 'total', field: 'amount', label: 'Total', aggregation: 'sum' }],
  };
  const only = await asKey(SAVE_FROM_CHAT, { chartConfig });
  const bare = await asKey(SAVE_FROM_CHAT, { name: 'eac: no chartConfig' });
  const name = valueAt(only.body, ['data', 'name']);
  propose(
    w,
    'charts.save-from-chat.required-fields',
    ok(only) && name === title && refusedAs(bare, 400, 'VALIDATION_ERROR'),
    `chartConfig alone answered ${only.status} named ${JSON.stringify(name)}; a name alone ${bare.status}`,
  );
  const viewer = await projectUser(w, world, {
    organization: true,
    permissions: { readOnly: true },
  });
  if (viewer === undefined) {
    w.cannot('follows charts.save-from-chat.permissions', 'no token for a view-only user');
    return;
  }
  const saved = await t.http.post(
    SAVE_FROM_CHAT,
    { chartConfig, name: 'eac: by a view-only user' },
    { headers: { authorization: `Bearer ${viewer}` } },
  );
  propose(
    w,
    'charts.save-from-chat.permissions',
    ok(saved),
    `a view-only project user's save answered ${saved.status} (a tenant was not tried)`,
  );
}

const TENANT_DECISIONS =
  'follows dashboards.copy.chart-ids, dashboards.copy.clone-beside, dashboards.v1-list.api-key-view, dashboards.tenant-permissions.read-at-write';

/**
 * The decisions about a tenant's copies (§2.2 rule 3, §2.8, §3), watched through the
 * register-tenant field names and the v1 list path the other parts found (shapes.registerTenant,
 * shapes.endpoints.v1ListWorkspaceDashboards); without them, nothing is proposed. A tenant edits
 * a shared dashboard (remove-charts, whose path the document gives), which makes its copy; the
 * copy is found in the tenant's list as the entry that was not there before.
 */
export async function tenantCopies(w: Watch) {
  const { t } = w;
  const hooks = t.target.hooks;
  const names = (w.shapes['registerTenant'] ?? {}) as Record<string, string>;
  const endpoints = (w.shapes['endpoints'] ?? {}) as Record<string, string>;
  const list = endpoints['v1ListWorkspaceDashboards'];
  const columnsName = names['columns'];
  const permissionsName = names['permissions'];
  if (
    !w.serves.has('tenant-flow') ||
    !w.serves.has('v1-dashboards') ||
    !['workspaces', 'charts'].every((h) => hooks.includes(h)) ||
    columnsName === undefined ||
    permissionsName === undefined ||
    list === undefined
  ) {
    w.cannot(
      TENANT_DECISIONS,
      "a tenant JWT needs the register-tenant names of the split columns and the permissions, and the copies are read in the list of a workspace's dashboards, whose path was not found",
    );
    return;
  }
  const world = await buildWorld(t);
  const tenant = async (
    permissions: Record<string, boolean>,
    columns = { customer_id: t.faker.string.alphanumeric(10) },
  ) => {
    const res = await t.http.post(REGISTER_TENANT, {
      ...world.creds(),
      ...(names['name'] === undefined
        ? {}
        : { [names['name']]: `Tenant ${Object.values(columns).join(' ')}` }),
      [columnsName]: columns,
      [permissionsName]: permissions,
    });
    const token = valueAt(res.body, ['data', 'token']);
    return { token: typeof token === 'string' ? token : undefined, columns, status: res.status };
  };
  const shared = async () => {
    const ws = await createWorkspace(t, world, {
      dashboardName: `${t.faker.commerce.department()} shared (eac)`,
    });
    const charts: string[] = [];
    for (let i = 0; i < 3; i++)
      charts.push(
        (await createChart(t, world, ws.dashboardId, `${t.faker.commerce.productName()} (eac)`))
          .chartId,
      );
    return { ...ws, charts };
  };
  const ids = async (workspaceId: string, token?: string): Promise<string[] | undefined> => {
    const { path } = fillEndpoint('v1ListWorkspaceDashboards', list, { workspaceId });
    const res =
      token === undefined
        ? await t.http.get(path, { query: { ...world.creds(), workspaceId } })
        : await t.http.get(path, {
            query: { workspaceId },
            headers: { authorization: `Bearer ${token}` },
          });
    const items = valueAt(res.body, ['data', 'dashboards']);
    if (!ok(res) || !Array.isArray(items)) return undefined;
    return items.flatMap((d) => (isObject(d) && typeof d['id'] === 'string' ? [d['id']] : []));
  };
  const layout = async (dashboardId: string): Promise<string[] | undefined> => {
    if (!hooks.includes('dashboard-charts')) return undefined;
    const res = await t.http.get(
      `/accounts/${world.account.organizationId}/dashboards/${dashboardId}/charts`,
      { base: 'hooks' },
    );
    const chartIds = valueAt(res.body, ['data', 'chartIds']);
    return Array.isArray(chartIds) && chartIds.every((x) => typeof x === 'string')
      ? chartIds
      : undefined;
  };
  const asTenant = (path: string, token: string, body: Record<string, unknown>) =>
    t.http.post(path, body, { headers: { authorization: `Bearer ${token}` } });
  const editor = { addChart: true, removeChart: true, canDuplicateDashboard: true };

  const editing = await tenant(editor);
  if (editing.token === undefined) {
    w.cannot(TENANT_DECISIONS, `register-tenant answered ${editing.status} with no token`);
    return;
  }
  // The copy a tenant's first edit makes, and the ids it holds.
  const s = await shared();
  const before = (await ids(s.workspaceId, editing.token)) ?? [];
  const edit = await asTenant(REMOVE, editing.token, {
    dashboardId: s.dashboardId,
    chartIds: [s.charts[0]],
  });
  const after = (await ids(s.workspaceId, editing.token)) ?? [];
  const copy = after.find((id) => !before.includes(id));
  const copyLayout = copy === undefined ? undefined : await layout(copy);
  // A later edit through the shared id reaches the copy.
  const again = await asTenant(REMOVE, editing.token, {
    dashboardId: s.dashboardId,
    chartIds: [s.charts[1]],
  });
  const copyLater = copy === undefined ? undefined : await layout(copy);
  const keeps =
    ok(edit) &&
    ok(again) &&
    isDeepStrictEqual(copyLayout, s.charts.slice(1)) &&
    isDeepStrictEqual(copyLater, s.charts.slice(2));
  propose(
    w,
    'dashboards.copy.chart-ids',
    keeps,
    copy === undefined
      ? `a tenant's remove-charts on a shared dashboard answered ${edit.status}; no new entry in its list held its copy`
      : `a tenant's copy ${isDeepStrictEqual(copyLayout, s.charts.slice(1)) ? "kept the shared dashboard's chart ids" : `held ${JSON.stringify(copyLayout)}`}, and a second edit through the shared id ${isDeepStrictEqual(copyLater, s.charts.slice(2)) ? 'reached it' : 'did not reach it'}`,
  );
  // What the key lists of that workspace: the shared dashboard alone.
  const keySees = await ids(s.workspaceId);
  propose(
    w,
    'dashboards.v1-list.api-key-view',
    copy !== undefined && isDeepStrictEqual(keySees, [s.dashboardId]),
    `with a tenant's copy in the workspace, the API key's list held ${keySees === undefined ? 'nothing readable' : `${keySees.length} dashboard(s)${isDeepStrictEqual(keySees, [s.dashboardId]) ? ', the shared one' : ''}`}`,
  );

  // A tenant's clone of a shared dashboard it never edited: listed beside its source.
  const s2 = await shared();
  const cloned = await asTenant(CLONE, editing.token, { sourceDashboardId: s2.dashboardId });
  const cloneId = valueAt(cloned.body, ['data', 'dashboardId']);
  const listed = (await ids(s2.workspaceId, editing.token)) ?? [];
  propose(
    w,
    'dashboards.copy.clone-beside',
    ok(cloned) &&
      typeof cloneId === 'string' &&
      listed.includes(cloneId) &&
      listed.includes(s2.dashboardId),
    `a tenant's clone answered ${cloned.status}; its list then held ${listed.includes(s2.dashboardId) ? 'the source' : 'no source'} and ${typeof cloneId === 'string' && listed.includes(cloneId) ? 'the clone' : 'no clone'}`,
  );

  // Permissions changed by registering the tenant again reach a token issued before.
  const viewer = await tenant({ readOnly: true });
  if (viewer.token === undefined) {
    w.cannot('follows dashboards.tenant-permissions.read-at-write', 'no tenant token');
    return;
  }
  // charts.save-from-chat.permissions was proposed on a view-only project user's save: a
  // view-only tenant's must pass too, or the proposal is taken back.
  const tenantSave = await asTenant(SAVE_FROM_CHAT, viewer.token, {
    chartConfig: { title: 'eac: by a view-only tenant', type: 'bar' },
    name: 'eac: by a view-only tenant',
  });
  if (!ok(tenantSave))
    withdraw(
      w,
      'charts.save-from-chat.permissions',
      `a view-only tenant's save answered ${tenantSave.status}`,
    );
  const refusedFirst = await asTenant(REMOVE, viewer.token, {
    dashboardId: s2.dashboardId,
    chartIds: [s2.charts[0]],
  });
  const again2 = await tenant(editor, viewer.columns);
  const later = await asTenant(REMOVE, viewer.token, {
    dashboardId: s2.dashboardId,
    chartIds: [s2.charts[0]],
  });
  propose(
    w,
    'dashboards.tenant-permissions.read-at-write',
    !ok(refusedFirst) && again2.token !== undefined && ok(later),
    `a view-only tenant's edit answered ${refusedFirst.status}; registered again as an editor (${again2.status}), the first token's edit answered ${later.status}`,
  );
}
