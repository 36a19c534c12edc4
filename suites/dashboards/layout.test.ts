import { expect } from 'vitest';
import { z } from 'zod';
import { conformance, probe } from '../harness/conformance.ts';
import {
  describeAnswer,
  expectClientError,
  expectOpenSuccess,
  successStatus,
} from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  chartsOf,
  createDashboard,
  createChart,
  dashboardsOf,
  dashboardsWorld,
  entry,
  hookCharts,
  hookLayout,
  WITH_LAYOUT,
  sharedDashboard,
  v1AddCharts,
  v1Create,
  v1Post,
} from '../harness/given/dashboards.ts';
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';

// §4.11, §4.12 and the v1 create and add-charts §4.16 names: edits of a dashboard's layout
// with the host's credential (an API key), which act on the shared dashboards themselves.
const parts = ['v1-dashboards'] as const;
const WITH_DASHBOARDS = [...CONTENT, 'dashboards'] as const;

/** §4.11, §4.12: `{status: 'success', data: object}`. */
function expectObjectSuccess(res: Reply, what: string): Record<string, unknown> {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(200);
  const body = res.body as { status?: unknown; data?: unknown };
  expect(body.status, `${what}: the envelope's status`).toBe('success');
  const data = z.record(z.string(), z.unknown()).safeParse(body.data);
  if (!data.success) expect.fail(`${what}: data should be an object, got ${res.text}`);
  return data.data;
}

conformance(
  [
    'dashboards.append-charts-from.path',
    'dashboards.append-charts-from.response-envelope',
    'dashboards.append-charts-from.effect',
  ],
  "appending adds the source's charts after the target's own",
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const source = await sharedDashboard(t, w, 2);
    const res = await v1Post(t, APPEND, w.creds().apiKey, {
      sourceDashboardId: source.dashboardId,
      targetDashboardId: w.board.dashboardId,
    });
    expectObjectSuccess(res, 'append-charts-from');
    const target = await hookCharts(t, w, w.board.dashboardId);
    expect(target.chartIds.slice(0, 2), "the target's own charts stay first").toEqual(
      w.board.charts.map((c) => c.chartId),
    );
    expect(target.chartIds.slice(2), 'then one chart per chart of the source').toHaveLength(
      source.charts.length,
    );
    // Whether they are the source's charts or copies is open (dashboards.append-charts-from
    // .copies); which they are shows in their names.
    expect(
      target.charts.slice(2).map((c) => c.name),
      "then the source's charts, in the source's order",
    ).toEqual(source.charts.map((c) => c.name));
    expect(await hookLayout(t, w, source.dashboardId), 'the source keeps its charts').toEqual(
      source.charts.map((c) => c.chartId),
    );
  },
  { needs: WITH_LAYOUT, parts },
);

probe(
  ['dashboards.append-charts-from.copies', 'dashboards.append-charts-from.response-fields'],
  'whether appended charts are copies, and what append-charts-from answers',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const source = await sharedDashboard(t, w, 2);
    const res = await v1Post(t, APPEND, w.creds().apiKey, {
      sourceDashboardId: source.dashboardId,
      targetDashboardId: w.board.dashboardId,
    });
    const data = (res.body as { data?: { dashboardId?: unknown; chartIds?: unknown } }).data;
    const target = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the target',
    );
    const appended = target.chartIds.slice(1);
    const copies = appended.every((id) => !source.charts.some((c) => c.chartId === id));
    const answered =
      data?.dashboardId === w.board.dashboardId &&
      JSON.stringify(data.chartIds) === JSON.stringify(target.chartIds);
    t.observe(
      `appended charts are ${copies ? 'copies under new ids' : "the source's own ids"}; data ${JSON.stringify(data)}`,
      copies && answered,
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.append-charts-from.ids-required'],
  'append-charts-from without a target is refused and changes nothing',
  async (t) => {
    const w = await dashboardsWorld(t);
    const source = await sharedDashboard(t, w, 1);
    const layouts = () =>
      Promise.all([w.board.dashboardId, source.dashboardId].map((id) => hookLayout(t, w, id)));
    const before = await layouts();
    for (const body of [
      { sourceDashboardId: source.dashboardId },
      { targetDashboardId: w.board.dashboardId },
    ]) {
      const res = await v1Post(t, APPEND, w.creds().apiKey, body);
      expectClientError(res, `append-charts-from with only ${Object.keys(body).join()}`);
    }
    expect(await layouts(), 'neither layout changed').toEqual(before);
  },
  { needs: WITH_LAYOUT, parts },
);

conformance(
  [
    'dashboards.remove-charts.path',
    'dashboards.remove-charts.response-envelope',
    'dashboards.remove-charts.removes-from-layout',
  ],
  'removing charts takes exactly those off the layout',
  async (t) => {
    const w = await dashboardsWorld(t, 3);
    const [first, second, third] = w.board.charts.map((c) => c.chartId);
    const res = await v1Post(t, REMOVE, w.creds().apiKey, {
      dashboardId: w.board.dashboardId,
      chartIds: [first, third],
    });
    expectObjectSuccess(res, 'remove-charts');
    expect(await hookLayout(t, w, w.board.dashboardId), 'only the chart not named stays').toEqual([
      second,
    ]);
  },
  { needs: WITH_LAYOUT, parts },
);

conformance(
  ['dashboards.remove-charts.body-fields'],
  'remove-charts with a user-scoped key and organizationId in the body works',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const { apiKey, organizationId } = w.creds('user-scoped');
    const res = await t.http.post(REMOVE, {
      apiKey,
      organizationId,
      dashboardId: w.board.dashboardId,
      chartIds: [w.board.charts[0]?.chartId],
    });
    expectObjectSuccess(res, 'remove-charts with apiKey and organizationId in the body');
    const after = await chartsOf(t, w, w.board.dashboardId);
    if (after !== undefined)
      expect(
        after.map((c) => c.chartId),
        'the named chart is off the layout',
      ).toEqual([w.board.charts[1]?.chartId]);
  },
  { needs: CONTENT, parts },
);

conformance(
  ['dashboards.append-charts-from.body-fields'],
  'append-charts-from with apiKey in the body works',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const source = await sharedDashboard(t, w, 1);
    const res = await t.http.post(APPEND, {
      ...w.creds('user-scoped'),
      sourceDashboardId: source.dashboardId,
      targetDashboardId: w.board.dashboardId,
    });
    expectObjectSuccess(res, 'append-charts-from with apiKey and organizationId in the body');
    const after = await chartsOf(t, w, w.board.dashboardId);
    if (after !== undefined) {
      expect(after, "the target's chart, then one for the source's").toHaveLength(2);
      expect(after[0]?.chartId, "the target's own chart stays first").toBe(
        w.board.charts[0]?.chartId,
      );
    }
  },
  { needs: CONTENT, parts },
);

conformance(
  [
    'dashboards.remove-charts.chart-ids-required',
    'dashboards.remove-charts.dashboard-id-required',
    'limits.chart-ids.min-items',
  ],
  'remove-charts with no chart id, or no dashboard, is refused and changes nothing',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const before = await hookLayout(t, w, w.board.dashboardId);
    const bodies: [string, Record<string, unknown>][] = [
      ['an empty chartIds', { dashboardId: w.board.dashboardId, chartIds: [] }],
      ['no chartIds', { dashboardId: w.board.dashboardId }],
      ['no dashboardId', { chartIds: [w.board.charts[0]?.chartId] }],
    ];
    for (const [what, body] of bodies) {
      expectClientError(
        await v1Post(t, REMOVE, w.creds().apiKey, body),
        `remove-charts with ${what}`,
      );
    }
    expect(await hookLayout(t, w, w.board.dashboardId), 'the layout did not change').toEqual(
      before,
    );
  },
  { needs: WITH_LAYOUT, parts },
);

probe(
  ['dashboards.remove-charts.unknown-chart', 'dashboards.remove-charts.response-fields'],
  'remove-charts naming a chart that is not on the dashboard',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const [first, second] = w.board.charts.map((c) => c.chartId);
    const res = await v1Post(t, REMOVE, w.creds().apiKey, {
      dashboardId: w.board.dashboardId,
      chartIds: [first, t.faker.string.uuid()],
    });
    const after = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the dashboard',
    );
    const data = (res.body as { data?: unknown }).data;
    t.observe(
      `${describeAnswer(res)}; layout after: ${after.chartIds.length} chart(s); data ${JSON.stringify(data)}`,
      res.status === 200 &&
        JSON.stringify(after.chartIds) === JSON.stringify([second]) &&
        JSON.stringify(data) ===
          JSON.stringify({ dashboardId: w.board.dashboardId, chartIds: [second] }),
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.v1-create.body'],
  'the v1 create with {workspaceId, name} makes a dashboard in that workspace',
  async (t) => {
    const w = await dashboardsWorld(t, 0);
    const name = `${t.faker.commerce.department()} board`;
    const before = (await dashboardsOf(t, w, w.board.workspaceId)).map((d) => d.id);
    const res = await v1Create(t, w.creds().apiKey, w.board.workspaceId, name);
    // §4.16 shows no status or answer for the v1 create: any 2xx success, a body or none.
    expectOpenSuccess(res, 'v1.create', 'v1 create');
    // The new dashboard is the one entry that was not there before (the answer's shape is open).
    const made = (await dashboardsOf(t, w, w.board.workspaceId)).filter(
      (d) => !before.includes(d.id),
    );
    expect(made, 'one new dashboard in the workspace').toHaveLength(1);
    if (made[0]?.name !== undefined) expect(made[0].name, 'its listed name').toBe(name);
    expect(made[0]?.chartIds, 'a new dashboard holds no chart').toEqual([]);
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.v1-add-charts.body'],
  'the v1 add-charts with {targetDashboardId, charts} places existing charts at the end',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const other = await createDashboard(t, w, w.board.workspaceId, 'Spare charts');
    const spare = await createChart(t, w, other.dashboardId, 'Spare chart');
    const res = await v1AddCharts(t, w.creds().apiKey, w.board.dashboardId, [spare.chartId]);
    expectOpenSuccess(res, 'v1.add-charts', 'v1 add-charts');
    const after = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the dashboard',
    );
    expect(after.chartIds).toEqual([w.board.charts[0]?.chartId, spare.chartId]);
  },
  { needs: WITH_DASHBOARDS, parts, relies: READ_BACK },
);

probe(
  ['dashboards.v1-add-charts.repeat'],
  'adding a chart that is already on the layout',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const [first, second] = w.board.charts.map((c) => c.chartId);
    const res = await v1AddCharts(t, w.creds().apiKey, w.board.dashboardId, [first ?? '']);
    const after = entry(
      await dashboardsOf(t, w, w.board.workspaceId),
      w.board.dashboardId,
      'the dashboard',
    );
    t.observe(
      `${describeAnswer(res)}; layout ${after.chartIds.length} chart(s)`,
      successStatus(res.status) &&
        JSON.stringify(after.chartIds) === JSON.stringify([first, second]),
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['migration.v1-write.before'],
  'before any migration, each of the five v1 writes works',
  async (t) => {
    const w = await dashboardsWorld(t, 2);
    const key = w.creds().apiKey;
    const source = await sharedDashboard(t, w, 1);
    // The added chart is none of the source's: whether appending places a chart the target
    // already holds is open (dashboards.append-charts-from.copies).
    const spare = await sharedDashboard(t, w, 1);
    const before = await dashboardsOf(t, w, w.board.workspaceId);
    const answers: [string, Reply][] = [
      ['create', await v1Create(t, key, w.board.workspaceId, 'Fresh board')],
      ['clone', await v1Post(t, CLONE, key, { sourceDashboardId: w.board.dashboardId })],
      [
        'add-charts',
        await v1AddCharts(t, key, w.board.dashboardId, [spare.charts[0]?.chartId ?? '']),
      ],
      [
        'append-charts-from',
        await v1Post(t, APPEND, key, {
          sourceDashboardId: source.dashboardId,
          targetDashboardId: w.board.dashboardId,
        }),
      ],
      [
        'remove-charts',
        await v1Post(t, REMOVE, key, {
          dashboardId: w.board.dashboardId,
          chartIds: [w.board.charts[0]?.chartId],
        }),
      ],
    ];
    for (const [what, res] of answers) {
      // §4.10–§4.12 show 200; §4.16 shows no status for create and add-charts.
      const ok =
        what === 'create' || what === 'add-charts' ? successStatus(res.status) : res.status === 200;
      expect(ok, `${what} before finalize: ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
    }
    // And each did its work: create and clone made two dashboards; the board lost its first
    // chart and gained the added chart, then one for the appended source.
    const after = await dashboardsOf(t, w, w.board.workspaceId);
    expect(after, 'create and clone each made a dashboard').toHaveLength(before.length + 2);
    const board = entry(after, w.board.dashboardId, 'the board');
    expect(board.chartIds.slice(0, 2), 'the kept chart, then the added one').toEqual([
      w.board.charts[1]?.chartId,
      spare.charts[0]?.chartId,
    ]);
    expect(board.chartIds, 'and one appended from the source').toHaveLength(3);
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);
