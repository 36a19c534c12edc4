import { expect } from 'vitest';
import { conformance, probe } from '../harness/conformance.ts';
import { dashboardsWorld } from '../harness/given/dashboards.ts';
import { describeAnswer, refusedAs, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  API_KEY,
  V2_KEY,
  applicationsOf,
  dashboardsOf,
  entryOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  v2Delete,
  v2Get,
  v2Post,
  writtenDashboard,
} from '../harness/given/v2.ts';
import {
  dashboardsPath,
  appendChartsPath,
  chartPath,
  chartsPath,
  clonePath,
  APPLICATIONS,
  SAVE_FROM_CHAT,
} from '../harness/paths.ts';

// §4.16, each row of the table, made with an API key (§5 rule 7: it acts on the shared
// dashboards, the templates); §2.8 and §9 for what the migration turned the v1 content into.
// Every read-back is a v2 list, whose envelope members are the reference's decision.
const relies = V2_KEY;

conformance(
  [
    'v2.applications.list.path',
    'v2.application.fields',
    'migration.workspace-to-application',
    'migration.legacy-ids-kept',
  ],
  'after finalize, each v1 workspace is listed as an application keeping its id as legacyWorkspaceId',
  async (t) => {
    const m = await migratedWorld(t);
    const apps = await applicationsOf(t, m.w);
    for (const ws of [m.board.workspaceId, m.other.workspaceId]) {
      const app = apps.filter((a) => a.legacyWorkspaceId === ws);
      expect(app, `one application for v1 workspace ${ws}`).toHaveLength(1);
      expect(app[0]?.applicationId, 'an application has its own id').toMatch(/\S/);
    }
  },
  { needs, parts, relies },
);

conformance(
  [
    'v2.dashboards.list.path',
    'v2.dashboard.fields',
    'v2.dashboard.kind-template',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
  ],
  "after finalize, a shared v1 dashboard is a 'template' of its application keeping its id as legacyDashboardId",
  async (t) => {
    const m = await migratedWorld(t);
    const items = await dashboardsOf(t, m.w, m.applicationId);
    const template = items.filter((d) => d.legacyDashboardId === m.board.dashboardId);
    expect(template, 'one v2 dashboard for the v1 dashboard').toHaveLength(1);
    expect(template[0]?.kind, 'a shared dashboard is a template').toBe('template');
    expect(template[0]?.ownerProjectUserId ?? null, 'a template is in no user space').toBeNull();
    expect(
      items.some((d) => d.legacyDashboardId === m.other.dashboardId),
      "another workspace's dashboard is not in this application",
    ).toBe(false);
  },
  { needs, parts, relies },
);

conformance(
  ['v2.dashboards.create.path', 'auth.v2.api-key-shared'],
  'POST .../dashboards {name} with an API key creates a template listed in the application',
  async (t) => {
    const m = await migratedWorld(t);
    const name = `${t.faker.commerce.department()} board`;
    const before = await dashboardsOf(t, m.w, m.applicationId);
    const res = await v2Post(t, m.w, dashboardsPath(m.applicationId), API_KEY, { name });
    const made = await writtenDashboard(
      t,
      m.w,
      res,
      { call: 'v2.create', applicationId: m.applicationId, as: API_KEY, before },
      'create',
    );
    const listed = entryOf(await dashboardsOf(t, m.w, m.applicationId), made.id, 'after create');
    expect(listed.name, 'the name asked for').toBe(name);
    expect(listed.kind, 'an API key acts on shared dashboards').toBe('template');
  },
  { needs, parts, relies },
);

conformance(
  ['v2.dashboards.clone.path'],
  'POST .../clone {name} makes a new dashboard with that name and as many charts, beside its source',
  async (t) => {
    const m = await migratedWorld(t);
    const name = `${m.template.name ?? 'copy'} for ${t.faker.location.city()}`;
    const before = await dashboardsOf(t, m.w, m.applicationId);
    const res = await v2Post(t, m.w, clonePath(m.applicationId, m.template.id), API_KEY, { name });
    const made = await writtenDashboard(
      t,
      m.w,
      res,
      { call: 'v2.clone', applicationId: m.applicationId, as: API_KEY, before },
      'clone',
    );
    expect(made.id, 'a clone is a new dashboard').not.toBe(m.template.id);
    const items = await dashboardsOf(t, m.w, m.applicationId);
    const clone = entryOf(items, made.id, 'after clone');
    entryOf(items, m.template.id, 'the source stays');
    expect(clone.name).toBe(name);
    expect(clone.chartIds?.length, 'every chart is copied').toBe(m.board.charts.length);
  },
  { needs, parts, relies },
);

conformance(
  ['v2.dashboards.add-charts.path', 'migration.save-from-chat.v2-add-charts'],
  'POST .../charts {charts} adds the charts to the layout (a chart saved from chat included)',
  async (t) => {
    const m = await migratedWorld(t);
    const saved = await t.http.post(
      SAVE_FROM_CHAT,
      {
        chartConfig: { title: 'Revenue by region', type: 'bar', sqlOverride: 'select 1' },
        name: 'Revenue by region',
      },
      { headers: { authorization: `Bearer ${m.w.creds().apiKey}` } },
    );
    const chartId = (saved.body as { data?: { chartId?: string } }).data?.chartId;
    if (saved.status !== 200 || chartId === undefined)
      expect.fail(`save-from-chat: ${saved.status} ${saved.text.slice(0, 200)}`);
    const added = m.otherTemplate.chartIds?.[0];
    if (added === undefined) expect.fail('the other template lists no charts');
    const res = await v2Post(t, m.w, chartsPath(m.applicationId, m.template.id), API_KEY, {
      charts: [added, chartId],
    });
    expect(successStatus(res.status), `add charts: ${res.status} ${res.text.slice(0, 200)}`).toBe(
      true,
    );
    const after = entryOf(await dashboardsOf(t, m.w, m.applicationId), m.template.id, 'after');
    expect(after.chartIds, 'both charts are on the layout').toEqual(
      expect.arrayContaining([added, chartId]),
    );
    expect(after.chartIds?.length).toBe((m.template.chartIds?.length ?? 0) + 2);
  },
  { needs, parts, relies: [...relies, 'auth.header.format'] },
);

conformance(
  ['v2.dashboards.remove-chart.path'],
  'DELETE .../charts/{chartId} removes that one chart and no other',
  async (t) => {
    const m = await migratedWorld(t);
    const [gone, ...kept] = m.template.chartIds ?? [];
    if (gone === undefined) expect.fail('the template lists no charts');
    const res = await v2Delete(t, m.w, chartPath(m.applicationId, m.template.id, gone), API_KEY);
    expect(successStatus(res.status), `remove: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
    const after = entryOf(await dashboardsOf(t, m.w, m.applicationId), m.template.id, 'after');
    expect(after.chartIds).toEqual(kept);
  },
  { needs, parts, relies },
);

conformance(
  ['v2.dashboards.append-charts.path'],
  "POST .../append-charts {sourceDashboardId} adds the source's charts after the target's",
  async (t) => {
    const m = await migratedWorld(t);
    const target = m.template.chartIds ?? [];
    const res = await v2Post(t, m.w, appendChartsPath(m.applicationId, m.template.id), API_KEY, {
      sourceDashboardId: m.otherTemplate.id,
    });
    expect(successStatus(res.status), `append: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
    const after = entryOf(await dashboardsOf(t, m.w, m.applicationId), m.template.id, 'after');
    expect(after.chartIds?.slice(0, target.length), "the target's charts stay first").toEqual(
      target,
    );
    expect(after.chartIds?.length).toBe(target.length + (m.otherTemplate.chartIds?.length ?? 0));
    const source = entryOf(
      await dashboardsOf(t, m.w, m.otherApplicationId),
      m.otherTemplate.id,
      'source after',
    );
    expect(source.chartIds, 'the source is unchanged').toEqual(m.otherTemplate.chartIds);
  },
  { needs, parts, relies },
);

probe(
  ['v2.applications.list.before-finalize'],
  'before finalize the v2 application list answers and lists no applications',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const res = await v2Get(t, w, APPLICATIONS, API_KEY);
    const apps = (res.body as { data?: { applications?: unknown[] } }).data?.applications;
    t.observe(
      `${res.status} ${Array.isArray(apps) ? `${apps.length} applications` : 'no list'}`,
      successStatus(res.status) && Array.isArray(apps) && apps.length === 0,
    );
  },
  { needs, parts, relies: ['v2.credentials.api-key-carrier'] },
);

probe(
  ['v2.refusals.not-found', 'v2.dashboards.lookup-path'],
  'what v2 answers for an unknown application (before and after finalize), a dashboard of another application, a chart not on the layout and an unknown look-up id (before and after finalize): 404 naming each',
  async (t) => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const rows: [string, Reply, string][] = [];
    const lookUp = lookUpPath(t, unknown);
    const m = await migratedWorld(t, async ({ w }) => {
      rows.push([
        'an application before finalize',
        await v2Get(t, w, dashboardsPath(unknown), API_KEY),
        'application',
      ]);
      if (lookUp !== undefined)
        rows.push(['a look-up before finalize', await v2Get(t, w, lookUp, API_KEY), 'dashboard']);
    });
    rows.push([
      'an unknown application',
      await v2Get(t, m.w, dashboardsPath(unknown), API_KEY),
      'application',
    ]);
    rows.push([
      'a dashboard of another application',
      await v2Post(t, m.w, clonePath(m.applicationId, m.otherTemplate.id), API_KEY, {}),
      'dashboard',
    ]);
    rows.push([
      'a chart not on the layout',
      await v2Delete(
        t,
        m.w,
        chartPath(m.applicationId, m.template.id, m.otherTemplate.chartIds?.[0] ?? unknown),
        API_KEY,
      ),
      'chart',
    ]);
    if (lookUp !== undefined)
      rows.push(['a look-up of an unknown id', await v2Get(t, m.w, lookUp, API_KEY), 'dashboard']);
    t.observe(
      rows.map(([what, res]) => `${what}: ${describeAnswer(res)}`).join('; '),
      rows.every(([, res, resource]) => refusedAs(res, 404, 'NOT_FOUND', { resource })),
    );
  },
  { needs, parts, relies: ['v2.credentials.api-key-carrier'] },
);

probe(
  ['v2.shapes.beyond-named-fields'],
  'the shapes of the v2 lists and write answers beyond the fields §2.8 names',
  async (t) => {
    const m = await migratedWorld(t);
    const res = await v2Get(t, m.w, dashboardsPath(m.applicationId), API_KEY);
    const made = await v2Post(t, m.w, dashboardsPath(m.applicationId), API_KEY, { name: 'Shape' });
    const items = (res.body as { data?: { dashboards?: Record<string, unknown>[] } }).data
      ?.dashboards;
    const answer = (made.body as { data?: Record<string, unknown> }).data;
    const shaped = (d: Record<string, unknown> | undefined) =>
      d !== undefined &&
      typeof d['name'] === 'string' &&
      typeof d['applicationId'] === 'string' &&
      Array.isArray(d['chartIds']);
    t.observe(
      `list ${res.status} ${
        Array.isArray(items)
          ? `dashboards[${items.length}] members ${Object.keys(items[0] ?? {})
              .sort()
              .join(',')}`
          : 'no data.dashboards'
      }; create ${made.status} members ${Object.keys(answer ?? {})
        .sort()
        .join(',')}`,
      Array.isArray(items) && items.every(shaped) && shaped(answer),
    );
  },
  { needs, parts, relies: ['v2.credentials.api-key-carrier'] },
);
