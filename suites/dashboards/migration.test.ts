import { expect } from 'vitest';
import { z } from 'zod';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import type { World } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import {
  describeAnswer,
  detailsOf,
  expectError,
  expectSuccess,
  successStatus,
} from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { CLAIMS_DECISION, claimAt } from '../harness/claims.ts';
import {
  API_KEY,
  V2_KEY,
  V2_SHAPES,
  applicationsOf,
  dashboardsOf as v2DashboardsOf,
  v2Post,
  writtenDashboard,
} from '../harness/given/v2.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf,
  dashboardsWorld,
  layoutOf,
  layoutRead,
  sharedDashboard,
  tenantToken,
  v1AddCharts,
  v1Create,
  v1Post,
  type DashboardsWorld,
  type Item,
  type Shared,
} from '../harness/given/dashboards.ts';
import { V2_REPLACEMENT, namedReplacements, type WriteKind } from '../harness/replacements.ts';
import {
  APPEND,
  CLONE,
  LIST_WORKSPACES,
  REMOVE,
  SAVE_FROM_CHAT,
  dashboardsPath,
} from '../harness/paths.ts';

// §3 last row, §7, §9: once the service team finalizes an organization's migration (the
// `migration` hook here), the five v1 writes answer 410 MIGRATED_TO_V2 naming the v2 endpoint
// to use and change nothing, the v1 lists answer in the v1 shape with the v1 ids, and
// save-from-chat works as before. Another organization is not touched.
const parts = ['v1-dashboards'] as const;
const needs = [...CONTENT, 'migration'] as const;
const GONE = 'MIGRATED_TO_V2';

async function finalize(t: Conformance, w: World): Promise<void> {
  const res = await t.http.post(
    `/accounts/${w.account.organizationId}/migration/finalize`,
    {},
    { base: 'hooks' },
  );
  if (res.status >= 300)
    throw new Error(`host hook "migration" failed: ${res.status} ${res.text.slice(0, 300)}`);
}

interface V1Write {
  readonly name: WriteKind;
  /** Whether the document gives its path (§4.10–§4.12), or the profile does (§4.16). */
  readonly documented: boolean;
  readonly send: (t: Conformance, w: DashboardsWorld, other: Shared) => Promise<Reply>;
}

const writes: readonly V1Write[] = [
  {
    name: 'clone',
    documented: true,
    send: (t, w) => v1Post(t, CLONE, w.creds().apiKey, { sourceDashboardId: w.board.dashboardId }),
  },
  {
    name: 'append-charts-from',
    documented: true,
    send: (t, w, other) =>
      v1Post(t, APPEND, w.creds().apiKey, {
        sourceDashboardId: other.dashboardId,
        targetDashboardId: w.board.dashboardId,
      }),
  },
  {
    name: 'remove-charts',
    documented: true,
    send: (t, w) =>
      v1Post(t, REMOVE, w.creds().apiKey, {
        dashboardId: w.board.dashboardId,
        chartIds: [w.board.charts[0]?.chartId],
      }),
  },
  {
    name: 'create',
    documented: false,
    send: (t, w) => v1Create(t, w.creds().apiKey, w.board.workspaceId, 'After the migration'),
  },
  {
    name: 'add-charts',
    documented: false,
    send: (t, w, other) =>
      v1AddCharts(t, w.creds().apiKey, w.board.dashboardId, [other.charts[0]?.chartId ?? '']),
  },
];

async function migratedWorld(t: Conformance) {
  const w = await dashboardsWorld(t, 2);
  const other = await sharedDashboard(t, w, 1);
  await finalize(t, w);
  return { w, other };
}

/** Every string the error carries: its message and its details' values, deeply. */
function errorText(res: Reply): string {
  const message = (res.body as { error?: { message?: unknown } }).error?.message;
  return `${String(message)} ${JSON.stringify(detailsOf(res))}`;
}

conformance(
  [
    'errors.migrated-to-v2',
    'dashboards.clone.after-finalize-410',
    'dashboards.append-charts-from.after-finalize-410',
    'dashboards.remove-charts.after-finalize-410',
  ],
  'after finalize, clone, append-charts-from and remove-charts answer 410 MIGRATED_TO_V2',
  async (t) => {
    const { w, other } = await migratedWorld(t);
    for (const write of writes.filter((x) => x.documented)) {
      expectError(
        await write.send(t, w, other),
        documentedStatus(GONE),
        `${write.name} after finalize`,
        GONE,
      );
    }
  },
  { needs, parts },
);

conformance(
  ['migration.v1-write.410'],
  'after finalize, each of the five v1 writes answers 410 and changes nothing',
  async (t) => {
    const { w, other } = await migratedWorld(t);
    const read = async () =>
      `${layoutOf(await dashboardsOf(t, w, w.board.workspaceId))} ${layoutOf(await dashboardsOf(t, w, other.workspaceId))}`;
    const before = await read();
    for (const write of writes) {
      expectError(
        await write.send(t, w, other),
        documentedStatus(GONE),
        `${write.name} after finalize`,
        GONE,
      );
    }
    expect(await read(), 'no v1 write changed anything').toBe(before);
  },
  { needs, parts, relies: READ_BACK },
);

conformance(
  ['migration.v1-write.410', 'errors.migrated-to-v2'],
  "a tenant's v1 edit after finalize, with a token from before it, answers 410 and changes nothing",
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const token = await tenantToken(t, w, { addChart: true, removeChart: true });
    await finalize(t, w);
    const before = layoutOf(await dashboardsOf(t, w, w.board.workspaceId));
    const res = await v1Post(t, REMOVE, token, {
      dashboardId: w.board.dashboardId,
      chartIds: [w.board.charts[0]?.chartId],
    });
    expectError(res, documentedStatus(GONE), "a tenant's remove-charts after finalize", GONE);
    expect(layoutOf(await dashboardsOf(t, w, w.board.workspaceId)), 'nothing changed').toBe(before);
  },
  { needs, parts: [...parts, 'tenant-flow'], relies: [...READ_BACK, ...TENANT_FIELDS] },
);

// §7's 410 row and §4.16's table: each of the five refused writes names the v2 call that
// replaces it (V2_REPLACEMENT, the inventory), and no other write's replacement.
conformance(
  ['errors.migrated-to-v2.names-endpoint'],
  "each v1 write's 410 names the v2 endpoint that replaces that write, and not another write's",
  async (t) => {
    const { w, other } = await migratedWorld(t);
    for (const write of writes) {
      const res = await write.send(t, w, other);
      expectError(res, documentedStatus(GONE), `${write.name} after finalize`, GONE);
      const text = errorText(res);
      const named = [...namedReplacements(text)];
      const [method, path] = V2_REPLACEMENT[write.name];
      expect(
        named,
        `${write.name}: the 410 names ${method} ${path}: ${text.slice(0, 400)}`,
      ).toContain(write.name);
      expect(
        named.filter((kind) => kind !== write.name),
        `${write.name}: the 410 names no other write's v2 endpoint: ${text.slice(0, 400)}`,
      ).toEqual([]);
    }
  },
  { needs, parts },
);

probe(
  ['errors.migrated-to-v2.details'],
  'where the 410 names its v2 replacement',
  async (t) => {
    const { w, other } = await migratedWorld(t);
    const res = await writes[0]?.send(t, w, other);
    if (res === undefined) return t.notRun('no write to send');
    const replacement = detailsOf(res)['replacement'];
    t.observe(
      `${describeAnswer(res)} replacement=${JSON.stringify(replacement)}`,
      replacement === 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    );
  },
  { needs, parts },
);

conformance(
  ['migration.list-workspaces.after', 'workspaces.list.after-finalize-applications'],
  'after finalize, list-workspaces still answers one item per workspace, keyed by its v1 id',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const other = await sharedDashboard(t, w, 1);
    const list = async () => {
      const res = await t.http.get(LIST_WORKSPACES, { query: { apiKey: w.creds().apiKey } });
      const Listed = z.object({ workspaces: z.array(z.record(z.string(), z.unknown())) });
      return expectSuccess(res, Listed, 'list-workspaces').workspaces;
    };
    expect(await list(), 'before finalize').toHaveLength(2);
    await finalize(t, w);
    const after = await list();
    expect(after, 'one item per former workspace').toHaveLength(2);
    for (const ws of [w.board.workspaceId, other.workspaceId]) {
      expect(
        after.some((item) => Object.values(item).includes(ws)),
        `an item keyed by the v1 workspace ${ws}`,
      ).toBe(true);
    }
  },
  { needs, parts },
);

conformance(
  ['migration.list-workspace-dashboards.before', 'migration.list-workspace-dashboards.after'],
  'list-workspace-dashboards shows the v1 dashboards, and after finalize the same under their v1 ids',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const listed = await dashboardsOf(t, w, w.board.workspaceId);
    expect(
      listed.map((d) => d.id),
      'before finalize: the v1 dashboard',
    ).toEqual([w.board.dashboardId]);
    // Ids and how many charts each holds: whether the charts keep their ids is open
    // (migration.chart-ids-kept).
    const shown = (items: readonly Item[]) => items.map((d) => [d.id, d.chartIds.length]);
    const before = shown(listed);
    await finalize(t, w);
    expect(
      shown(await dashboardsOf(t, w, w.board.workspaceId)),
      'v1 ids, each with as many charts',
    ).toEqual(before);
  },
  { needs, parts, relies: READ_BACK },
);

conformance(
  ['migration.save-from-chat.unchanged'],
  'save-from-chat works after finalize as before',
  async (t) => {
    const { w } = await migratedWorld(t);
    const res = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: { title: 'After the migration', type: 'bar', sqlOverride: 'SELECT 1' },
      name: 'After the migration',
    });
    expectSuccess(
      res,
      z.looseObject({ chartId: z.string(), name: z.string() }),
      'save-from-chat after finalize',
    );
  },
  { needs, parts },
);

conformance(
  ['migration.save-from-chat.unchanged'],
  'a chart saved from chat after finalize goes onto a v2 dashboard through add-charts',
  async (t) => {
    const { w } = await migratedWorld(t);
    const res = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: { title: 'After the migration', type: 'bar', sqlOverride: 'SELECT 1' },
      name: 'After the migration',
    });
    const { chartId } = expectSuccess(
      res,
      z.looseObject({ chartId: z.string(), name: z.string() }),
      'save-from-chat after finalize',
    );
    // §9: its chartId goes to the v2 add-charts, onto the dashboard the v1 one became.
    const apps = await applicationsOf(t, w);
    const app = apps.find((a) => a.legacyWorkspaceId === w.board.workspaceId);
    if (app === undefined) expect.fail(`no application came from ${w.board.workspaceId}`);
    const target = app.defaultDashboardId;
    if (target === null) expect.fail('the application has no default dashboard');
    const before = await layoutRead(t, w, target);
    const added = await v2Post(
      t,
      w,
      `${dashboardsPath(app.applicationId)}/${target}/charts`,
      API_KEY,
      { charts: [chartId] },
    );
    expect(
      successStatus(added.status),
      `v2 add-charts with the saved chartId: ${added.status} ${added.text.slice(0, 300)}`,
    ).toBe(true);
    const after = await layoutRead(t, w, target);
    expect(after, 'the saved chart is on the v2 layout').toContain(chartId);
    expect(after, 'beside the charts it had').toHaveLength(before.length + 1);
  },
  { needs, parts: [...parts, 'v2'], relies: V2_KEY },
);

conformance(
  ['states.migration.finalize'],
  "finalizing one organization leaves another's v1 writes working",
  async (t) => {
    const migrated = await dashboardsWorld(t, 1);
    const untouched = await dashboardsWorld(t, 2);
    await finalize(t, migrated);
    const res = await v1Post(t, REMOVE, untouched.creds().apiKey, {
      dashboardId: untouched.board.dashboardId,
      chartIds: [untouched.board.charts[0]?.chartId],
    });
    expect(res.status, `remove-charts in the other organization: ${res.text.slice(0, 300)}`).toBe(
      200,
    );
    const clone = await v1Post(t, CLONE, untouched.creds().apiKey, {
      sourceDashboardId: untouched.board.dashboardId,
    });
    expect(clone.status, `clone in the other organization: ${clone.text.slice(0, 300)}`).toBe(200);
  },
  { needs, parts },
);

probe(
  ['states.migration.one-way'],
  'finalizing an organization a second time',
  async (t) => {
    const { w, other } = await migratedWorld(t);
    const again = await t.http.post(
      `/accounts/${w.account.organizationId}/migration/finalize`,
      {},
      { base: 'hooks' },
    );
    const res = await writes[0]?.send(t, w, other);
    t.observe(
      `second finalize: ${describeAnswer(again)}; clone then: ${res === undefined ? 'not sent' : describeAnswer(res)}`,
      res !== undefined && res.status === documentedStatus(GONE),
    );
  },
  { needs, parts },
);

// §4.9 and §9 (register-tenant row): after finalize, register-tenant returns a project-user
// token for the same end user. Which project user that is shows on v2 (§5 rule 6: the tenant's
// earlier JWT acts as it) and in the token's subject, at the path the profile names.
conformance(
  ['migration.register-tenant.after', 'auth.tenant-jwt.translated'],
  "after finalize, register-tenant's token names the project user the tenant's earlier JWT acts as on v2; a tenant new after finalize gets one too",
  async (t) => {
    const columns = { customer_id: t.faker.string.alphanumeric(10) };
    const edits = { addDashboard: true };
    const w = await dashboardsWorld(t, 1);
    const old = await tenantToken(t, w, edits, columns);
    await finalize(t, w);
    const apps = await applicationsOf(t, w);
    const applicationId = apps.find(
      (a) => a.legacyWorkspaceId === w.board.workspaceId,
    )?.applicationId;
    if (applicationId === undefined) expect.fail(`no application for the v1 workspace`);
    const asOld = { token: old };
    const before = await v2DashboardsOf(t, w, applicationId, asOld);
    const made = await writtenDashboard(
      t,
      w,
      await v2Post(t, w, dashboardsPath(applicationId), asOld, { name: 'Tenant board' }),
      { call: 'v2.create', applicationId, as: asOld, before },
      'create on v2 with the tenant JWT from before finalize',
    );
    const fresh = await tenantToken(t, w, edits, columns);
    expect(claimAt(t, fresh, 'subject'), "the new token names the tenant's project user").toBe(
      made.ownerProjectUserId,
    );
    const newcomer = await tenantToken(t, w, edits);
    const asNew = { token: newcomer };
    const listed = await v2DashboardsOf(t, w, applicationId, asNew);
    const own = await v2Post(t, w, dashboardsPath(applicationId), asNew, {
      name: 'Newcomer board',
    });
    const mine = await writtenDashboard(
      t,
      w,
      own,
      { call: 'v2.create', applicationId, as: asNew, before: listed },
      "a new tenant's token on v2",
    );
    expect(mine.ownerProjectUserId, "the newcomer's token names its owner").toBe(
      claimAt(t, newcomer, 'subject'),
    );
  },
  {
    needs: [...needs, 'roles'],
    parts: ['tenant-flow', 'v2'],
    relies: [...TENANT_FIELDS, ...V2_SHAPES, CLAIMS_DECISION],
  },
);

// §9 list-workspace-dashboards row: after finalize it lists the application's dashboards, with
// v1 ids where one exists; a dashboard made through v2 has none, so it shows its v2 id.
conformance(
  ['migration.list-workspace-dashboards.after'],
  'after finalize, list-workspace-dashboards also lists a dashboard made through v2, under its v2 id, beside the v1 ids',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    await finalize(t, w);
    const apps = await applicationsOf(t, w);
    const applicationId = apps.find(
      (a) => a.legacyWorkspaceId === w.board.workspaceId,
    )?.applicationId;
    if (applicationId === undefined) expect.fail(`no application for the v1 workspace`);
    const listed = await v2DashboardsOf(t, w, applicationId, API_KEY);
    const made = await writtenDashboard(
      t,
      w,
      await v2Post(t, w, dashboardsPath(applicationId), API_KEY, { name: 'Made in v2' }),
      { call: 'v2.create', applicationId, as: API_KEY, before: listed },
      'create through v2',
    );
    const ids = (await dashboardsOf(t, w, w.board.workspaceId)).map((d) => d.id);
    expect(ids, 'the migrated dashboard under its v1 id').toContain(w.board.dashboardId);
    expect(ids, 'the v2 dashboard under its v2 id').toContain(made.id);
  },
  {
    needs: [...needs, 'roles'],
    parts: ['v1-dashboards', 'v2'],
    relies: [...READ_BACK, ...V2_KEY],
  },
);

// §9 list-workspace-dashboards row: after finalize the list answers the application's
// dashboards, v1 ids where they exist. The list takes a tenant JWT and shows the dashboards as
// its caller sees them (decisions dashboards.v1-writes.credentials, dashboards.v1-shapes.not-shown);
// after finalize the tenant's dashboards belong to the project user it became (§5 rule 6), so
// the same JWT still sees the dashboard the tenant made and its copy of the shared one.
conformance(
  ['migration.list-workspace-dashboards.after'],
  "after finalize, a tenant JWT's list-workspace-dashboards still shows the dashboard the tenant made and its copy in place of the shared one",
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const token = await tenantToken(t, w, { addDashboard: true, removeChart: true });
    const listedBefore = (await dashboardsOf(t, w, w.board.workspaceId, { token })).map(
      (d) => d.id,
    );
    const made = await v1Create(t, token, w.board.workspaceId, 'Tenant board');
    // §4.16 shows neither status nor answer for the v1 create: the new id is the new entry.
    if (!successStatus(made.status))
      expect.fail(`v1 create with the tenant JWT: ${made.status} ${made.text.slice(0, 300)}`);
    const madeId = (await dashboardsOf(t, w, w.board.workspaceId, { token }))
      .map((d) => d.id)
      .find((id) => !listedBefore.includes(id));
    if (madeId === undefined) expect.fail("the tenant's new dashboard is not in its list");
    const removed = await v1Post(t, REMOVE, token, {
      dashboardId: w.board.dashboardId,
      chartIds: [w.board.charts[0]?.chartId],
    });
    expect(removed.status, `the tenant's remove-charts: ${removed.text.slice(0, 300)}`).toBe(200);
    const seen = async () =>
      (await dashboardsOf(t, w, w.board.workspaceId, { token }))
        .map((d) => JSON.stringify([d.id, d.chartIds]))
        .sort();
    const before = await seen();
    expect(before, 'before finalize the tenant sees the dashboard it made').toContainEqual(
      expect.stringContaining(madeId),
    );
    await finalize(t, w);
    expect(
      await seen(),
      'after finalize the same JWT sees the same dashboards and layouts',
    ).toEqual(before);
  },
  {
    needs,
    parts: [...parts, 'tenant-flow'],
    // The removal names a chart of the shared dashboard (kept by the tenant's copy), and the
    // layouts are compared across finalize: dashboards.copy.chart-ids, migration.chart-ids-kept.
    relies: [
      ...READ_BACK,
      ...TENANT_FIELDS,
      'dashboards.v1-writes.credentials',
      'dashboards.copy.chart-ids',
      'migration.chart-ids-kept',
    ],
  },
);

// Decision errors.migrated-to-v2.details: details.v2Endpoint names the v2 replacement with the
// application and dashboard ids filled in where the v1 ids map to v2 ones; every write here
// names a migrated workspace or dashboard, so neither placeholder is left (remove-charts keeps
// its {chartId}: a v1 remove names several).
probe(
  ['errors.migrated-to-v2.details'],
  "each v1 write's 410 fills the application and dashboard ids into details.v2Endpoint",
  async (t) => {
    const { w, other } = await migratedWorld(t);
    const seen: string[] = [];
    let filled = true;
    for (const write of writes) {
      const res = await write.send(t, w, other);
      const endpoint = detailsOf(res)['v2Endpoint'];
      seen.push(`${write.name}: ${describeAnswer(res)} v2Endpoint=${JSON.stringify(endpoint)}`);
      filled &&=
        res.status === 410 &&
        typeof endpoint === 'string' &&
        /\/v2\/api\/applications\/[0-9a-f-]{36}/i.test(endpoint) &&
        !/\{(applicationId|dashboardId)\}/.test(endpoint);
    }
    t.observe(seen.join('; '), filled);
  },
  { needs, parts },
);
