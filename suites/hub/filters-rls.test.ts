import { expect } from 'vitest';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { nextHubLoad, openHub, type HubView } from '../harness/browser.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { createChart, createWorkspace, v1Post } from '../harness/given/dashboards.ts';
import {
  SALES,
  applicationPath,
  dashboardPath,
  hubWorld,
  needsChartData,
  needsData,
  parts,
  viewer,
  HUB_TIMEOUT,
  type HubWorld,
} from './kit.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// Every path by which a filter reaches a chart's rows, against row-level security (§1, §2.4:
// a user's properties restrict the rows the user sees). A filter on the very column a row
// filter constrains may only narrow what the user sees, never replace the row filter: for the
// user's own value, a value only hidden rows hold, a value no row holds, and hostile values
// (quotes, SQL, {{user.<key>}} templates, JSON that is not a string), the rows shown hold only
// rows the user may see. The paths: the chart-data hook's filters (what a page loads for a
// token), filter_{controlKey} on both page kinds (§4.17), the page's filter bar where the
// profile names it, and the chartConfig filters (§2.6) of a chart saved from chat.
// How a filter value applies is our decision (hub.filters.values): the verdicts below need
// none of it, only that no hidden row comes through; what the value did is probed apart.

const RLS = ['security.data.rows-of-the-user'] as const;

/** Filter values on the row-filtered column (region; the user's own is north), by kind. */
const VALUES: Readonly<Record<string, readonly unknown[]>> = {
  "the user's own value": ['north', ['north']],
  'a value only hidden rows hold': ['south', ['south'], ['north', 'south'], ['south', 'east']],
  'a value no row holds': ['west', '', null, []],
  'hostile values': [
    "x') OR ('a'='a",
    "north' OR '1'='1",
    "' OR 1=1 --",
    'north"; DROP TABLE x; --',
    '{{user.region}}',
    '{{user.tenant}}',
    '%',
    '*',
    'NORTH',
    ' north',
    'north\u0000south',
    1,
    true,
    { $ne: 'north' },
    { region: 'south' },
  ],
};

// ---- the chart-data hook: a table whose hidden rows hold values no visible row holds ----

interface Table {
  readonly w: World;
  readonly name: string;
  readonly connectionId: string;
  /** Values only rows hidden from a north user hold: none may reach that user. */
  readonly hidden: readonly string[];
  readonly own: readonly string[];
}

async function rlsTable(t: Conformance): Promise<Table> {
  const w = await buildWorld(t);
  const tag = t.faker.string.alpha({ length: 6, casing: 'lower' });
  const name = `rls_${tag}`;
  const south = `Sprocket${tag}`;
  const east = `Gimbal${tag}`;
  const connection = await t.hooks.createConnection(w.account.organizationId, {
    name: `${name} data`,
    table: {
      name,
      columns: [
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'channel', type: 'text' },
        { name: 'amount', type: 'integer' },
      ],
      rows: [
        { region: 'north', product: 'Anvil', channel: 'online', amount: 10 },
        { region: 'north', product: 'Bolt', channel: 'store', amount: 7 },
        { region: 'south', product: south, channel: 'online', amount: 1000 },
        { region: 'east', product: east, channel: 'store', amount: 2000 },
      ],
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
  return {
    w,
    name,
    connectionId: connection.connectionId,
    hidden: ['south', 'east', south, east],
    own: ['Anvil', 'Bolt'],
  };
}

/** A chart of the table's rows as they are, through the charts hook. */
async function rawChart(t: Conformance, table: Table, sql?: string): Promise<string> {
  const ws = await createWorkspace(t, table.w, { dashboardName: `${table.name} board` });
  const title = `Rows ${t.faker.string.alphanumeric(4)}`;
  const chart = await createChart(t, table.w, ws.dashboardId, title, {
    title,
    type: 'table',
    dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
    measures: [],
    sqlOverride: sql ?? `SELECT region, product, channel, amount FROM ${table.name}`,
  });
  return chart.chartId;
}

/** Fails when the answer holds a value only hidden rows hold. */
function expectNoHidden(res: Reply, table: Table, what: string): void {
  const text = JSON.stringify(res.body);
  for (const value of table.hidden)
    expect(
      text,
      `${what}: a hidden row's value ${value} came through (${describeAnswer(res)})`,
    ).not.toContain(value);
}

/** The rows of a 200 answer, or undefined. */
function rowsOf(res: Reply): unknown[] | undefined {
  const rows = (res.body as { data?: { rows?: unknown } }).data?.rows;
  return res.status === 200 && Array.isArray(rows) ? rows : undefined;
}

for (const [kind, values] of Object.entries(VALUES)) {
  conformance(
    RLS,
    `chart-data filters on the row-filtered column, ${kind}, open no hidden row`,
    async (t) => {
      const table = await rlsTable(t);
      const chartId = await rawChart(t, table);
      const user = await viewer(t, table.w, null, { properties: { region: 'north' } });
      const org = table.w.account.organizationId;
      // The user sees their own rows unfiltered: the table is read at all.
      const plain = await t.hooks.chartData(org, chartId, user.token);
      expect(JSON.stringify(plain.body), `unfiltered: ${describeAnswer(plain)}`).toContain('Anvil');
      for (const value of values) {
        const what = `filter region = ${JSON.stringify(value)}`;
        expectNoHidden(
          await t.hooks.chartData(org, chartId, user.token, [{ field: 'region', value }]),
          table,
          what,
        );
        // Beside a filter on another column, and twice on the same column.
        expectNoHidden(
          await t.hooks.chartData(org, chartId, user.token, [
            { field: 'channel', value: 'online' },
            { field: 'region', value },
          ]),
          table,
          `${what} beside channel = "online"`,
        );
        expectNoHidden(
          await t.hooks.chartData(org, chartId, user.token, [
            { field: 'region', value },
            { field: 'region', value: 'south' },
          ]),
          table,
          `${what} and region = "south"`,
        );
        // A filter whose field differs from the column only in case or quoting.
        for (const field of ['REGION', '"region"', 'Region'])
          expectNoHidden(
            await t.hooks.chartData(org, chartId, user.token, [{ field, value }]),
            table,
            `filter ${field} = ${JSON.stringify(value)}`,
          );
      }
    },
    { parts, needs: needsChartData, timeout: HUB_TIMEOUT },
  );
}

probe(
  ['hub.filters.values'],
  'a filter on the row-filtered column narrows the rows the row filter leaves',
  async (t) => {
    const table = await rlsTable(t);
    const chartId = await rawChart(t, table);
    const user = await viewer(t, table.w, null, { properties: { region: 'north' } });
    const org = table.w.account.organizationId;
    const seen: string[] = [];
    let matches = true;
    for (const [value, expected] of [
      ['north', 2],
      ['south', 0],
      ['west', 0],
    ] as const) {
      const res = await t.hooks.chartData(org, chartId, user.token, [{ field: 'region', value }]);
      const rows = rowsOf(res);
      seen.push(`${value}: ${rows === undefined ? describeAnswer(res) : `${rows.length} rows`}`);
      matches &&= rows?.length === expected;
    }
    t.observe(seen.join('; '), matches);
  },
  { parts, needs: needsChartData },
);

// ---- §2.6 chartConfig filters of a chart saved from chat, and SQL naming a hidden value ----

conformance(
  RLS,
  'a chart saved from chat whose chartConfig filters name a hidden region loads no hidden row',
  async (t) => {
    const table = await rlsTable(t);
    const user = await viewer(t, table.w, null, { properties: { region: 'north' } });
    const org = table.w.account.organizationId;
    const sqls = [
      `SELECT region, product, channel, amount FROM ${table.name}`,
      `SELECT region, product, channel, amount FROM ${table.name} WHERE region = 'south'`,
      `SELECT region, product, channel, amount FROM ${table.name} WHERE region IN ('south', 'east') OR TRUE`,
    ];
    let saved = 0;
    for (const sql of sqls) {
      for (const filters of [
        [{ field: 'region', value: 'south' }],
        [{ field: 'region', value: "x') OR ('a'='a" }],
        [{ field: 'region', value: '{{user.region}}' }],
      ]) {
        const res = await v1Post(t, SAVE_FROM_CHAT, table.w.creds().apiKey, {
          chartConfig: {
            title: `Saved ${t.faker.string.alphanumeric(4)}`,
            type: 'table',
            dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
            measures: [],
            filters,
            sqlOverride: sql,
          },
          connectionId: table.connectionId,
          sql,
          name: `Saved ${t.faker.string.alphanumeric(4)}`,
        });
        const chartId = (res.body as { data?: { chartId?: unknown } }).data?.chartId;
        // A server may refuse a chartConfig no chat produced; what it saves must hold.
        if (res.status >= 300 || typeof chartId !== 'string') continue;
        saved += 1;
        const what = `chartConfig filters ${JSON.stringify(filters)} over ${sql}`;
        expectNoHidden(await t.hooks.chartData(org, chartId, user.token), table, what);
        expectNoHidden(
          await t.hooks.chartData(org, chartId, user.token, [{ field: 'region', value: 'east' }]),
          table,
          `${what}, loaded with region = "east"`,
        );
      }
    }
    if (saved === 0)
      return t.notRun('save-from-chat took none of the chart configurations this test sends');
  },
  { parts, needs: needsChartData, timeout: HUB_TIMEOUT },
);

// ---- the pages: filter_{controlKey} on both page kinds, and the filter bar ----

/** A second control of the hub world's dashboard, on the row-filtered column. */
const REGION = { controlKey: 'region', field: 'region', label: 'Region' } as const;

/** North's totals by product (the hub world's user is north): the most a row may show. */
const NORTH_MOST = new Map<string, number>();
for (const s of SALES)
  if (s.region === 'north') NORTH_MOST.set(s.product, (NORTH_MOST.get(s.product) ?? 0) + s.amount);

/**
 * The chart rows a page shows (cell texts joined by `|`, in whatever column order the page
 * chose) that no north user may see: a product only hidden rows hold, or a total above
 * north's whole total for that product.
 */
function beyondNorth(rows: readonly string[]): string[] {
  return rows.filter((row) => {
    const cells = row.split('|').map((c) => c.trim());
    const product = cells.find((c) => NORTH_MOST.has(c));
    const most = product === undefined ? undefined : NORTH_MOST.get(product);
    const totals = cells
      .filter((c) => c !== product)
      .map((c) => Number(c.replace(/[^\d.-]/g, '')))
      .filter((n) => Number.isFinite(n));
    return most === undefined || totals.length === 0 || totals.some((n) => n > most);
  });
}

const worlds = new Map<string, Promise<HubWorld>>();
/** One world per file, read only (each test adds nothing to it). */
function regionWorld(t: Conformance): Promise<HubWorld> {
  let world = worlds.get('region');
  if (world === undefined) {
    world = hubWorld(t, { data: true, moreControls: [REGION] });
    worlds.set('region', world);
    void world.catch(() => worlds.delete('region'));
  }
  return world;
}

/**
 * The rows the world's chart shows, or undefined when the page shows no such chart. A page
 * whose filter keeps no row may show no rows at all; one that must show rows (the dashboard
 * without a filter: the user's own) fails naming the reason when the profile's structure
 * finds none, so that the checks after it cannot pass on a page whose rows go unread.
 */
async function shownRows(
  view: HubView,
  w: HubWorld,
  mustShow = false,
): Promise<string[] | undefined> {
  const chart = view.thing('chart', { title: w.board.chartTitle });
  try {
    await expect.poll(() => chart.count(), { timeout: 10_000, interval: 200 }).toBe(1);
  } catch {
    return undefined;
  }
  const rows = view.rows(chart, 'chart', 'the chart');
  return !mustShow && (await rows.containers.count()) === 0 ? [] : rows.read();
}

/** How many of a kind's filter texts each page test loads (seeded: another run, others). */
const PAGE_TEXTS = 3;

type PageKind = (w: HubWorld, query: Record<string, string>) => string;
const PAGES: Readonly<Record<string, PageKind>> = {
  '/share/dashboard': (w, query) =>
    dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, ...query }),
  '/share/application with dashboardId': (w, query) =>
    applicationPath(w.board.workspaceId, {
      jwt: w.viewer.token,
      dashboardId: w.board.dashboardId,
      ...query,
    }),
};

for (const [page, path] of Object.entries(PAGES)) {
  for (const [kind, values] of Object.entries(VALUES)) {
    conformance(
      RLS,
      `${page}: filter_region set to ${kind} shows no row the user may not see`,
      async (t) => {
        const w = await regionWorld(t);
        // The page shows the user's chart at all, so that an empty page below is no pass.
        const plain = await shownRows(await openHub(t, path(w, {})), w, true);
        expect(plain, 'the dashboard without a filter shows its chart').toBeDefined();
        expect(beyondNorth(plain ?? []), 'without a filter').toEqual([]);
        const texts = [
          ...values.map((v) => JSON.stringify(v)),
          // The value as the raw text of the parameter, JSON or not.
          ...values.filter((v): v is string => typeof v === 'string'),
        ];
        // A page load costs seconds (one that shows no chart waits its whole timeout): each
        // run loads a seeded few of the texts; the chart-data hook above takes every value.
        for (const text of t.faker.helpers.arrayElements(
          texts,
          Math.min(texts.length, PAGE_TEXTS),
        )) {
          const rows = await shownRows(await openHub(t, path(w, { filter_region: text })), w);
          expect(
            beyondNorth(rows ?? []),
            `filter_region=${text}: rows ${JSON.stringify(rows)}`,
          ).toEqual([]);
        }
      },
      { parts, needs: needsData, timeout: 4 * HUB_TIMEOUT },
    );
  }
}

conformance(
  RLS,
  "values typed into the page's filter bar for the row-filtered column show no row the user may not see",
  async (t) => {
    const w = await regionWorld(t);
    const view = await openHub(t, PAGES['/share/dashboard']?.(w, {}) ?? '');
    if (!view.names('filterBar') || !view.names('filterInput'))
      return t.notRun(
        "the profile's hub section names no filterBar or filterInput",
        cause.shape('hub.things.filterBar'),
      );
    const shown = await shownRows(view, w, true);
    expect(shown, 'the dashboard shows its chart').toBeDefined();
    const typed = [
      'south',
      'west',
      "x') OR ('a'='a",
      "north' OR '1'='1",
      '{{user.region}}',
      '"south"',
      '["north","south"]',
    ];
    for (const text of typed) {
      const input = view.thingIn(view.thing('filterBar'), 'filterInput', { label: REGION.label });
      await input.fill(text);
      await nextHubLoad(view, () => input.press('Enter'));
      const rows = await shownRows(view, w);
      expect(beyondNorth(rows ?? []), `typed ${text}: rows ${JSON.stringify(rows)}`).toEqual([]);
    }
  },
  { parts, needs: needsData, timeout: 3 * HUB_TIMEOUT },
);
