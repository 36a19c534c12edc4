import { expect } from 'vitest';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { openHub, type HubView } from '../harness/browser.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { dashboardPath, expectCount, needsData, parts, viewer, HUB_TIMEOUT } from './kit.ts';

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
  readonly chartId: string;
  /** The second chart, over `second`'s SQL, when asked for. */
  readonly secondChartId?: string;
}

/** A bar chart of orders by product over `sql` (hook charts). */
function ordersChart(t: Conformance, w: World, dashboardId: string, title: string, sql: string) {
  return createChart(t, w, dashboardId, title, {
    title,
    type: 'bar',
    dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
    measures: [{ name: 'total', field: 'total', label: 'Total', format: '' }],
    sqlOverride: sql,
  });
}

/**
 * An account whose dashboard holds one chart over ORDERS (and `more` rows), a user sees only
 * its region's rows; `sql` replaces the chart's SQL; `second` adds a second chart of that SQL.
 */
async function drillWorld(
  t: Conformance,
  options: { sql?: string; more?: readonly Order[]; second?: string } = {},
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
  const chart = await ordersChart(t, w, ws.dashboardId, chartTitle, options.sql ?? CHART_SQL);
  const second =
    options.second === undefined
      ? undefined
      : await ordersChart(t, w, ws.dashboardId, `${chartTitle} again`, options.second);
  return {
    ...w,
    dashboardId: ws.dashboardId,
    chartTitle,
    chartId: chart.chartId,
    ...(second === undefined ? {} : { secondChartId: second.chartId }),
  };
}

/** The references of the orders a table shows, and its body rows (cells joined by `|`). */
async function shownOrders(
  view: HubView,
  value: string,
): Promise<{ refs: string[]; rows: string[] }> {
  const region = view.thing('drillDownRows', { value });
  await expectCount(region, 1, `drilling into ${value} shows the rows behind it`);
  const rows = await view.rows(region, 'drillDown', `the rows behind ${value}`).read();
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
    const drilled = new URL(view.frame.url());
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
    // A page may offer no drill-down at all on a chart it cannot drill: that is an answer too,
    // read once the page has gone still.
    await view.settled(400, 10_000);
    if ((await control.count()) === 0) {
      t.observe('no drill-down control for the point', false);
      return;
    }
    await control.click();
    await expectCount(
      view.thing('drillDownRows', { value: 'Anvil' }),
      1,
      'drilling into Anvil shows something',
    );
    const { tables, said } = await drillShows(view, 'Anvil');
    t.observe(
      `${tables === 0 ? 'no table' : 'a table'}: ${said.slice(0, 300)}`,
      tables === 0 && /not available/i.test(said),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

/**
 * Charts whose SQL is not one SELECT over one table of its connection, each beside the plain
 * chart of the dashboard. Most cannot load rows, so they offer no point to click: the probe
 * drills into a point of the plain chart and opens the address that led to, the plain chart's
 * id put to the other chart's, as a client may well do.
 */
const NOT_ONE_TABLE = [
  [
    'whose SQL holds two statements',
    `${CHART_SQL}; SELECT product, SUM(amount) AS total FROM drill_orders GROUP BY product`,
  ],
  [
    'whose SQL reads a common table expression named like its table',
    'WITH drill_orders AS (SELECT * FROM drill_orders WHERE amount < 20) SELECT product, SUM(amount) AS total FROM drill_orders GROUP BY product ORDER BY product',
  ],
  [
    "over a table that is not one of its connection's",
    'SELECT product, SUM(amount) AS total FROM drill_lines GROUP BY product ORDER BY product',
  ],
  [
    'whose table is named with a schema',
    'SELECT product, SUM(amount) AS total FROM main.drill_orders GROUP BY product ORDER BY product',
  ],
  [
    'whose SQL filters through a subquery',
    'SELECT product, SUM(amount) AS total FROM drill_orders WHERE ref IN (SELECT ref FROM drill_orders WHERE amount > 0) GROUP BY product ORDER BY product',
  ],
  [
    'whose SQL keeps rows through QUALIFY',
    'SELECT product, amount AS total FROM drill_orders QUALIFY row_number() OVER (PARTITION BY product ORDER BY amount) = 1 ORDER BY product',
  ],
  [
    'whose SQL samples its table',
    'SELECT product, SUM(amount) AS total FROM drill_orders TABLESAMPLE 100% GROUP BY product ORDER BY product',
  ],
] as const;

for (const [what, sql] of NOT_ONE_TABLE) {
  probe(
    ['hub.drill-down.single-table'],
    `drilling into a point of a chart ${what}`,
    async (t) => {
      const w = await drillWorld(t, { second: sql });
      const north = await viewer(t, w, { drillDown: true }, { properties: { region: 'north' } });
      const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: north.token }));
      const plain = view.thing('chart', { title: w.chartTitle });
      const control = view.thingIn(plain, 'drillDown', { value: 'Anvil' });
      await expectCount(control, 1, 'a drill-down control for the point Anvil of the plain chart');
      await control.click();
      await expectCount(
        view.thing('drillDownRows', { value: 'Anvil' }),
        1,
        'drilling into Anvil of the plain chart shows its rows',
      );
      const drilled = new URL(view.frame.url());
      const turned = `${drilled.pathname}${drilled.search}`
        .split(w.chartId)
        .join(w.secondChartId ?? '');
      const again = await openHub(t, turned);
      await expectCount(
        again.thing('chart', { title: w.chartTitle }),
        1,
        'the dashboard is shown at the turned address',
      );
      const { tables, said } = await drillShows(again, 'Anvil');
      t.observe(
        `${tables === 0 ? 'no table' : 'a table'}: ${said.slice(0, 300)}`,
        tables === 0 && /not available/i.test(said),
      );
    },
    { timeout: HUB_TIMEOUT, parts, needs: needsData },
  );
}

/**
 * What the page shows behind a point: how many containers of rows (in the profile's structure),
 * and its text (none: no region).
 */
async function drillShows(view: HubView, value: string): Promise<{ tables: number; said: string }> {
  const region = view.thing('drillDownRows', { value });
  if ((await region.count()) === 0) return { tables: 0, said: '(no region of the rows behind it)' };
  const tables = await view
    .rows(region, 'drillDown', `the rows behind ${value}`)
    .containers.count();
  return { tables, said: (await region.innerText()).replace(/\s+/g, ' ').trim() };
}

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
