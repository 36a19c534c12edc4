import { expect } from 'vitest';
import { openHub } from '../harness/browser.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { v1AddCharts, v1Post } from '../harness/given/dashboards.ts';
import {
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  needsData,
  type HubWorld,
  HUB_TIMEOUT,
} from './kit.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { successStatus } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §4.14 takes a chartConfig as the chat gave it, and §2.6 says a saved chart without its
// sqlOverride cannot load data: such a chart can still be placed on a dashboard (§4.14, its
// chartId goes straight into add-charts). Whatever the page then shows for it, a page or a
// drill-down address naming it is client input and never gets a server error.

const parts = ['hub', 'v1-dashboards'] as const;

/** A chart of the shape §2.6 gives, a dimension and a measure, but no sqlOverride. */
function configWithoutSql(t: Conformance): Record<string, unknown> {
  return {
    title: `Products without SQL ${t.faker.string.alphanumeric(4)}`,
    type: 'bar',
    dimensions: [
      { name: 'product', field: 'product', label: 'Product', format: '' },
      { name: 'region', field: 'region', label: 'Region', format: '' },
    ],
    // A measure over a field a dimension already names, as a count of products would be.
    measures: [
      { name: 'total', field: 'total', label: 'Total', format: '' },
      { name: 'products', field: 'product', label: 'Products', format: '' },
    ],
  };
}

/**
 * The hub world (a chart over known rows, a viewer who may drill down) whose dashboard also
 * holds a chart saved from chat without sqlOverride; not-run when the target refuses to save
 * such a chart (the document does not say a chartConfig must hold one).
 */
async function worldWithUnloadable(
  t: Conformance,
): Promise<HubWorld & { savedChartId: string; savedTitle: string }> {
  const w = await hubWorld(t, { data: true, permissions: { drillDown: true } });
  const key = w.creds().apiKey;
  const chartConfig = configWithoutSql(t);
  const save = await v1Post(t, SAVE_FROM_CHAT, key, {
    chartConfig,
    name: String(chartConfig['title']),
  });
  expect(
    save.status,
    `save-from-chat without sqlOverride: ${save.text.slice(0, 300)}`,
  ).toBeLessThan(500);
  const chartId = (save.body as { data?: { chartId?: unknown } }).data?.chartId;
  if (save.status !== 200 || typeof chartId !== 'string')
    t.notRun(
      `the target refuses a chartConfig without sqlOverride (${String(save.status)})`,
      cause.other('save-from-chat refuses a chart without sqlOverride'),
    );
  const added = await v1AddCharts(t, key, w.board.dashboardId, [chartId]);
  // §4.16 shows no status for the v1 add-charts: any success.
  expect(
    successStatus(added.status),
    `add-charts of the saved chart: ${added.status} ${added.text.slice(0, 300)}`,
  ).toBe(true);
  return { ...w, savedChartId: chartId, savedTitle: String(chartConfig['title']) };
}

/** The status the hub answers for a page address, read without a browser. */
async function statusOf(t: Conformance, pathAndQuery: string): Promise<number> {
  const res = await fetch(`${t.target.hubUrl}${pathAndQuery}`);
  await res.body?.cancel();
  return res.status;
}

conformance(
  ['errors.client-input.no-server-error', 'hub.dashboard.page'],
  'a dashboard holding a chart saved from chat without sqlOverride still opens, no server error',
  async (t) => {
    const w = await worldWithUnloadable(t);
    const path = dashboardPath(w.board.dashboardId, { jwt: w.viewer.token });
    const status = await statusOf(t, path);
    expect(status, `the page of the dashboard answers ${String(status)}`).toBeLessThan(500);
    const view = await openHub(t, path);
    await dashboardShown(view, w);
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

conformance(
  ['errors.client-input.no-server-error', 'permissions.drill-down.effect'],
  'the drill-down address of a point, turned to a chart saved without sqlOverride, gets no server error',
  async (t) => {
    const w = await worldWithUnloadable(t);
    const loaded = w.board.charts[0]?.chartId ?? '';
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    const control = view.thing('drillDown', { value: 'Anvil' });
    await expectCount(control, 1, 'a drill-down control for the point Anvil of the loaded chart');
    await control.click();
    await expectCount(
      view.thing('drillDownRows', { value: 'Anvil' }),
      1,
      'drilling into Anvil shows what lies behind it',
    );
    // Whatever address the drill-down led to, with the loaded chart's id put to the other one's
    // (an address a client may well build): the page answers it without a server error.
    const drilled = new URL(view.frame.url());
    const turned = `${drilled.pathname}${drilled.search}`.split(loaded).join(w.savedChartId);
    const status = await statusOf(t, turned);
    expect(
      status,
      `${turned.replace(/jwt=[^&]+/, 'jwt=…')} answers ${String(status)}`,
    ).toBeLessThan(500);
    const again = await openHub(t, turned);
    await dashboardShown(again, w);
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

probe(
  ['hub.chart.unloadable'],
  'what a page shows for a chart saved from chat without sqlOverride',
  async (t) => {
    const w = await worldWithUnloadable(t);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    if (!view.names('chart'))
      t.notRun('the hub profile names no chart to look for', cause.shape('hub.things.chart'));
    const chart = view.thing('chart', { title: w.savedTitle });
    await expectCount(chart, 1, 'the chart saved without sqlOverride is on the page');
    const rows = view.rows(chart, 'chart', 'the chart');
    const tables = await rows.containers.count();
    const shown = {
      tables,
      columns: tables === 1 ? ((await rows.heads()) ?? '(a structure without heads)') : [],
      rows: tables === 1 ? await rows.read() : [],
      // Whatever else the chart's figure says beside its title and table.
      saysWhy:
        (await chart.innerText())
          .replace(w.savedTitle, '')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !['product', 'region', 'total'].includes(l)).length > 0,
    };
    t.observe(
      JSON.stringify(shown),
      shown.tables === 1 &&
        JSON.stringify(shown.columns) === JSON.stringify(['product', 'region', 'total']) &&
        shown.rows.length === 0 &&
        shown.saysWhy,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
