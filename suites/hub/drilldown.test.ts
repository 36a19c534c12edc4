import { expect } from 'vitest';
import { buildWorld, type World } from '../../fixtures/world.ts';
import { openHub, tableRows, type HubView } from '../harness/browser.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace } from '../dashboards/world.ts';
import { dashboardPath, expectCount, needsData, parts, viewer, HUB_TIMEOUT } from './world.ts';

// §2.2 drillDown on an embedded page (§4.17): drilling
// into one point of an aggregating chart shows the rows of the chart's table behind that point,
// as row-level security (§1, §2.4) lets the viewer see them, not the chart's aggregated row.

/** The orders the test loads: every row carries a reference no other row shows. */
const ORDERS = [
  { ref: 'ORD-7301', region: 'north', product: 'Anvil', quantity: 1, amount: 10 },
  { ref: 'ORD-7302', region: 'north', product: 'Anvil', quantity: 2, amount: 20 },
  { ref: 'ORD-7303', region: 'north', product: 'Bolt', quantity: 4, amount: 7 },
  { ref: 'ORD-7304', region: 'north', product: 'Anvil', quantity: 3, amount: 30 },
  { ref: 'ORD-7305', region: 'south', product: 'Anvil', quantity: 5, amount: 500 },
  { ref: 'ORD-7306', region: 'south', product: 'Crane', quantity: 1, amount: 9 },
] as const;

/** One bar per product: the sum of amount (north sees Anvil 60, Bolt 7). */
const CHART_SQL =
  'SELECT product, SUM(amount) AS total FROM drill_orders GROUP BY product ORDER BY product';

interface Order {
  readonly ref: string;
  readonly region: string;
  readonly product: string;
  readonly quantity: number;
  readonly amount: number;
}

interface DrillWorld extends World {
  readonly dashboardId: string;
  readonly chartTitle: string;
}

/**
 * An account whose dashboard holds one chart over ORDERS (and `more` rows), a user sees only
 * its region's rows; `sql` replaces the chart's SQL.
 */
async function drillWorld(
  t: Conformance,
  options: { sql?: string; more?: readonly Order[] } = {},
): Promise<DrillWorld> {
  const w = await buildWorld(t);
  await t.hooks.createConnection(w.account.organizationId, {
    name: 'drill orders',
    table: {
      name: 'drill_orders',
      columns: [
        { name: 'ref', type: 'text' },
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'quantity', type: 'integer' },
        { name: 'amount', type: 'integer' },
      ],
      rows: [...ORDERS, ...(options.more ?? [])].map((o) => ({ ...o })),
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
  const chartTitle = `Orders by product ${t.faker.string.alphanumeric(4)}`;
  const ws = await createWorkspace(t, w, { dashboardName: `${chartTitle} board` });
  await createChart(t, w, ws.dashboardId, chartTitle, {
    title: chartTitle,
    type: 'bar',
    dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
    measures: [{ name: 'total', field: 'total', label: 'Total', format: '' }],
    sqlOverride: options.sql ?? CHART_SQL,
  });
  return { ...w, dashboardId: ws.dashboardId, chartTitle };
}

/** The references of the orders a table shows, and its body rows (cells joined by `|`). */
async function shownOrders(
  view: HubView,
  value: string,
): Promise<{ refs: string[]; rows: string[] }> {
  const region = view.thing('drillDownRows', { value });
  await expectCount(region, 1, `drilling into ${value} shows the rows behind it`);
  const table = region.getByRole('table');
  await expectCount(table, 1, `the rows behind ${value} are a table`);
  const rows = await tableRows(table);
  const refs = rows.flatMap((r) => r.split('|').filter((cell) => /^ORD-\d+$/.test(cell)));
  return { refs: refs.sort(), rows };
}

/** Clicks the drill-down control of a point and answers what the page then shows. */
async function drillInto(view: HubView, value: string) {
  const control = view.thing('drillDown', { value });
  await expectCount(control, 1, `a drill-down control for the point ${value}`);
  await control.click();
  return shownOrders(view, value);
}

const refsOf = (region: string, product: string) =>
  ORDERS.filter((o) => o.region === region && o.product === product)
    .map((o) => o.ref)
    .sort();

conformance(
  [
    'permissions.drill-down.effect',
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
  ],
  'drilling into a point shows exactly the rows of that point the viewer may see, not the aggregate',
  async (t) => {
    const w = await drillWorld(t);
    const north = await viewer(t, w, { drillDown: true }, { properties: { region: 'north' } });
    const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: north.token }));
    const anvil = await drillInto(view, 'Anvil');
    expect(anvil.refs, `the north orders of Anvil, one row each: ${anvil.rows.join('; ')}`).toEqual(
      refsOf('north', 'Anvil'),
    );
    expect(anvil.rows, 'one table row per order, nothing else').toHaveLength(3);
    expect(
      anvil.rows.some((r) => r.split('|').includes('60')),
      `no aggregated row (Anvil's total 60) stands for the orders: ${anvil.rows.join('; ')}`,
    ).toBe(false);

    const south = await viewer(t, w, { drillDown: true }, { properties: { region: 'south' } });
    const other = await openHub(t, dashboardPath(w.dashboardId, { jwt: south.token }));
    const theirs = await drillInto(other, 'Anvil');
    expect(theirs.refs, `the south orders of Anvil only: ${theirs.rows.join('; ')}`).toEqual(
      refsOf('south', 'Anvil'),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData, relies: ['hub.drill-down.rows'] },
);

conformance(
  [
    'permissions.drill-down.effect',
    'permissions.default.drill-down',
    'permissions.drill-down.off-when-read-only',
  ],
  'the rows behind a point stay hidden from a token without drillDown, whatever address it opens',
  async (t) => {
    const w = await drillWorld(t);
    const drills = await viewer(t, w, { drillDown: true }, { properties: { region: 'north' } });
    const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: drills.token }));
    const bolt = await drillInto(view, 'Bolt');
    expect(bolt.refs, 'the north order of Bolt').toEqual(refsOf('north', 'Bolt'));
    // Whatever address the drill-down led to (the reference reloads the page with the point),
    // opened with the token of a user without drillDown, shows no rows behind a point.
    const drilled = new URL(view.hubFrame().url());
    const plain = await viewer(t, w, {}, { properties: { region: 'north' } });
    drilled.searchParams.set('jwt', plain.token);
    const without = await openHub(t, `${drilled.pathname}${drilled.search}`);
    await expectCount(
      without.thing('chart', { title: w.chartTitle }),
      1,
      'the chart is shown to the user without drillDown',
    );
    await expectCount(without.thing('drillDown', { value: 'Bolt' }), 0, 'no drill-down control');
    await expectCount(
      without.thing('drillDownRows', { value: 'Bolt' }),
      0,
      'no rows behind the point for a token without drillDown',
    );
    const reader = await viewer(
      t,
      w,
      { drillDown: true, readOnly: true },
      { properties: { region: 'north' } },
    );
    drilled.searchParams.set('jwt', reader.token);
    const readOnly = await openHub(t, `${drilled.pathname}${drilled.search}`);
    await expectCount(
      readOnly.thing('chart', { title: w.chartTitle }),
      1,
      'the chart is shown to the readOnly user',
    );
    await expectCount(
      readOnly.thing('drillDownRows', { value: 'Bolt' }),
      0,
      'no rows behind the point under readOnly, although drillDown is on',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData, relies: ['hub.drill-down.rows'] },
);

probe(
  ['hub.drill-down.single-table'],
  'drilling into a point of a chart over a join',
  async (t) => {
    const w = await drillWorld(t, {
      sql: 'SELECT a.product, SUM(a.amount) AS total FROM drill_orders a JOIN drill_orders b ON a.ref = b.ref GROUP BY a.product ORDER BY 1',
    });
    const north = await viewer(t, w, { drillDown: true }, { properties: { region: 'north' } });
    const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: north.token }));
    const control = view.thing('drillDown', { value: 'Anvil' });
    await expectCount(control, 1, 'a drill-down control for the point Anvil');
    await control.click();
    const region = view.thing('drillDownRows', { value: 'Anvil' });
    await expectCount(region, 1, 'drilling into Anvil shows something');
    const tables = await region.getByRole('table').count();
    const said = (await region.innerText()).replace(/\s+/g, ' ').trim();
    t.observe(
      `${tables === 0 ? 'no table' : 'a table'}: ${said.slice(0, 300)}`,
      tables === 0 && /not available/i.test(said),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

/** 120 north orders of one product, more than one drill-down shows. */
const WIDGETS: readonly Order[] = Array.from({ length: 120 }, (_, i) => ({
  ref: `ORD-${String(9000 + i)}`,
  region: 'north',
  product: 'Widget',
  quantity: 1,
  amount: 1,
}));

probe(
  ['hub.drill-down.rows'],
  'drilling into a point with 120 rows behind it',
  async (t) => {
    const w = await drillWorld(t, { more: WIDGETS });
    const north = await viewer(t, w, { drillDown: true }, { properties: { region: 'north' } });
    const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: north.token }));
    const widgets = await drillInto(view, 'Widget');
    const said = (await view.thing('drillDownRows', { value: 'Widget' }).innerText())
      .split('\n')[0]
      ?.trim();
    t.observe(
      `${String(widgets.rows.length)} rows shown (${String(new Set(widgets.refs).size)} orders); it says: ${said ?? ''}`,
      widgets.rows.length === 100 && /\b120\b/.test(said ?? ''),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
