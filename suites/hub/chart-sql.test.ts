import { buildWorld } from '../../fixtures/world.ts';
import { probe, type Probe } from '../harness/conformance.ts';
import { describeAnswer } from '../harness/expect.ts';
import { createChart, createWorkspace } from '../dashboards/world.ts';
import { needsChartData as needs, parts, viewer } from './world.ts';

// §2.6: a saved chart loads its data through its sqlOverride, under row-level security (§1,
// §2.4). Which SQL a chart may run, and how a {{user.<key>}} value reaches it, the document
// leaves open: these probes hold the reference to its decisions on SQL of ordinary shapes
// (comments, quoted names, literals, a common table expression) and on a boolean property.
// The rows are read through the chart-data hook, the rows a page shows the token's user.

/** The table, filtered by region from the user's `region` property. */
const SALES = [
  { region: 'north', product: 'Anvil', amount: 10 },
  { region: 'north', product: 'Anvil', amount: 5 },
  { region: 'north', product: 'Bolt', amount: 7 },
  { region: 'south', product: 'Anvil', amount: 100 },
  { region: 'south', product: 'Crane', amount: 50 },
] as const;

/** What a north user's chart of totals by product shows. */
const NORTH_TOTALS = [
  { product: 'Anvil', total: 15 },
  { product: 'Bolt', total: 7 },
] as const;

/**
 * The rows a chart of `sql` loads for a north user whose `vip` property is `true`: the reply
 * and its rows, or undefined when it holds none.
 */
async function rowsOf(t: Probe, sql: string) {
  const w = await buildWorld(t);
  const org = w.account.organizationId;
  await t.hooks.createConnection(org, {
    name: 'sql sales',
    table: {
      name: 'sql_sales',
      columns: [
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'amount', type: 'integer' },
      ],
      rows: SALES.map((s) => ({ ...s })),
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
  const ws = await createWorkspace(t, w, { dashboardName: `${t.faker.commerce.department()} sql` });
  const title = `Totals ${t.faker.string.alphanumeric(4)}`;
  const chart = await createChart(t, w, ws.dashboardId, title, {
    title,
    type: 'bar',
    dimensions: [{ name: 'product', field: 'product', label: 'Product', format: '' }],
    measures: [{ name: 'total', field: 'total', label: 'Total', format: '' }],
    sqlOverride: sql,
  });
  const user = await viewer(t, w, null, { properties: { region: 'north', vip: true } });
  const res = await t.hooks.chartData(org, chart.chartId, user.token);
  const rows = (res.body as { data?: { rows?: unknown } }).data?.rows;
  return { res, rows: res.status === 200 && Array.isArray(rows) ? (rows as unknown[]) : undefined };
}

/** Rows as sorted canonical JSON texts: the same rows in any order, members in any order. */
function canonical(rows: readonly unknown[]): string[] {
  return rows
    .map((r) =>
      JSON.stringify(
        typeof r === 'object' && r !== null
          ? Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))
          : r,
      ),
    )
    .sort();
}

const same = (rows: readonly unknown[] | undefined, expected: readonly unknown[]) =>
  rows !== undefined && JSON.stringify(canonical(rows)) === JSON.stringify(canonical(expected));

/**
 * Read-only SELECTs over the connection's own table, each one statement of a shape every SQL
 * dialect knows, with the rows a north user sees.
 */
const SHAPES: readonly (readonly [string, string, readonly Record<string, unknown>[]])[] = [
  [
    'a block comment inside it',
    'SELECT product, /* the sum of amount */ SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    NORTH_TOTALS,
  ],
  [
    "quoted names holding ? and '",
    `SELECT product AS "what's sold", SUM(amount) AS "how many?" FROM sql_sales GROUP BY product ORDER BY 1`,
    NORTH_TOTALS.map((r) => ({ "what's sold": r.product, 'how many?': r.total })),
  ],
  [
    "a string literal holding ' with '",
    "SELECT product, 'gift with bow' AS wrapping, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product",
    NORTH_TOTALS.map((r) => ({ ...r, wrapping: 'gift with bow' })),
  ],
  [
    'a block comment before its WITH',
    '/* totals by product */ WITH sold AS (SELECT product, amount FROM sql_sales) SELECT product, SUM(amount) AS total FROM sold GROUP BY product ORDER BY product',
    NORTH_TOTALS,
  ],
];

for (const [what, sql, expected] of SHAPES) {
  probe(
    ['resources.data.read-only-sql'],
    `a saved chart whose SQL has ${what} loads its rows`,
    async (t) => {
      const { res, rows } = await rowsOf(t, sql);
      t.observe(
        rows === undefined ? describeAnswer(res) : `rows ${JSON.stringify(rows).slice(0, 400)}`,
        same(rows, expected),
      );
    },
    { parts, needs },
  );
}

probe(
  ['resources.properties.bound-not-spliced'],
  'a saved chart selecting a boolean user property gets the boolean',
  async (t) => {
    const { res, rows } = await rowsOf(
      t,
      'SELECT product, {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    );
    t.observe(
      rows === undefined ? describeAnswer(res) : `rows ${JSON.stringify(rows).slice(0, 400)}`,
      same(
        rows,
        NORTH_TOTALS.map((r) => ({ ...r, vip: true })),
      ),
    );
  },
  { parts, needs },
);
