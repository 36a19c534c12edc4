import { buildWorld } from '../harness/given/accounts.ts';
import { probe, type Probe } from '../harness/conformance.ts';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { describeAnswer, detailsOf, statusAndCode } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { productTotalsChart } from '../harness/given/content.ts';
import { needsChartData as needs, parts, viewer } from './kit.ts';

// §2.6: a saved chart loads its data through its sqlOverride, under row-level security (§1,
// §2.4). Which SQL a chart may run, and how a {{user.<key>}} value reaches it, the document
// leaves open: these probes hold the reference to its decisions on SQL of ordinary shapes
// (comments, quoted names, literals, common table expressions) and on a boolean property, on
// the SQL it refuses and the reason it gives, and on a dashboard filter a chart's table cannot
// take. The rows are read through the chart-data hook, the rows a page shows the token's user.

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
 * How long a chart's rows may take: far above any of these small queries, so a server that
 * never answers (a SQL scanner looping on a comment at the very end) ends the probe as a
 * time-out rather than holding the run.
 */
const ANSWER_WITHIN_MS = 10_000;

/** The answer, or undefined when none came within `ms`. */
async function within<T>(ms: number, answer: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rows a chart of `sql` loads for a north user whose `vip` property is `true`, under the
 * given dashboard filters: the reply (none when it did not come in time) and its rows, or
 * undefined when it holds none.
 */
async function rowsOf(
  t: Probe,
  sql: string,
  filters?: readonly { field: string; value: unknown }[],
  waitMs = ANSWER_WITHIN_MS,
): Promise<{ res: Reply | undefined; rows: unknown[] | undefined }> {
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
  const chart = await createChart(t, w, ws.dashboardId, title, productTotalsChart(title, sql));
  const user = await viewer(t, w, null, { properties: { region: 'north', vip: true } });
  const res = await within(waitMs, t.hooks.chartData(org, chart.chartId, user.token, filters));
  const rows = (res?.body as { data?: { rows?: unknown } } | undefined)?.data?.rows;
  return {
    res,
    rows: res?.status === 200 && Array.isArray(rows) ? (rows as unknown[]) : undefined,
  };
}

/** What a probe records: the rows, or the answer that held none. */
function seen(
  res: Reply | undefined,
  rows: readonly unknown[] | undefined,
  waitMs = ANSWER_WITHIN_MS,
): string {
  if (res === undefined) return `no answer within ${String(waitMs / 1000)} s`;
  return rows === undefined ? describeAnswer(res) : `rows ${JSON.stringify(rows).slice(0, 400)}`;
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

/** The same totals with the user's `vip` property selected beside them. */
const NORTH_VIP = NORTH_TOTALS.map((r) => ({ ...r, vip: true }));

const READ_ONLY: readonly ClauseId[] = ['resources.data.read-only-sql'];
/** Shapes that also carry a `{{user.<key>}}`, which must still be bound after them. */
const BOUND: readonly ClauseId[] = [
  'resources.data.read-only-sql',
  'resources.properties.bound-not-spliced',
];

interface Shape {
  readonly what: string;
  readonly sql: string;
  readonly rows: readonly Record<string, unknown>[];
  readonly clauses: readonly ClauseId[];
}

/**
 * Read-only SELECTs over the connection's own table, each one statement of a shape standard
 * SQL knows, with the rows a north user sees.
 */
const SHAPES: readonly Shape[] = [
  {
    what: 'a block comment inside it',
    sql: 'SELECT product, /* the sum of amount */ SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: "quoted names holding ? and '",
    sql: `SELECT product AS "what's sold", SUM(amount) AS "how many?" FROM sql_sales GROUP BY product ORDER BY 1`,
    rows: NORTH_TOTALS.map((r) => ({ "what's sold": r.product, 'how many?': r.total })),
    clauses: READ_ONLY,
  },
  {
    // A ? inside a quoted name, with no ' after it to hide it in a literal if the name is misread.
    what: 'a quoted name holding ? alone',
    sql: `SELECT product, SUM(amount) AS "how many?" FROM sql_sales GROUP BY product ORDER BY product`,
    rows: NORTH_TOTALS.map((r) => ({ product: r.product, 'how many?': r.total })),
    clauses: READ_ONLY,
  },
  {
    what: "a string literal holding ' with '",
    sql: "SELECT product, 'gift with bow' AS wrapping, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product",
    rows: NORTH_TOTALS.map((r) => ({ ...r, wrapping: 'gift with bow' })),
    clauses: READ_ONLY,
  },
  {
    what: 'a block comment before its WITH',
    sql: '/* totals by product */ WITH sold AS (SELECT product, amount FROM sql_sales) SELECT product, SUM(amount) AS total FROM sold GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: 'a -- comment on its own line before a {{user.region}} filter',
    sql: "SELECT product, SUM(amount) AS total FROM sql_sales\n-- only the user's region\nWHERE region = {{user.region}}\nGROUP BY product ORDER BY product",
    rows: NORTH_TOTALS,
    clauses: BOUND,
  },
  {
    what: 'a -- comment at its very end, with no newline after it',
    sql: 'SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product -- by product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: "a block comment holding ' and ?",
    sql: "SELECT product, /* how many? what's sold? */ SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product",
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: 'a block comment opening with /*/',
    sql: 'SELECT product, /*/ how many? */ SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: 'a block comment before a {{user.vip}}',
    sql: 'SELECT product, /* vip or not */ {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_VIP,
    clauses: BOUND,
  },
  {
    what: 'an empty block comment /**/ before a {{user.vip}}',
    sql: 'SELECT product, /**/ {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_VIP,
    clauses: BOUND,
  },
  {
    what: 'a quoted column name before a {{user.vip}}',
    sql: 'SELECT "product", {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY "product" ORDER BY "product"',
    rows: NORTH_VIP,
    clauses: BOUND,
  },
  {
    what: 'an alias holding escaped quotes ("") before a {{user.vip}}',
    sql: 'SELECT product AS "the ""best"" one", {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_VIP.map(({ product, ...r }) => ({ 'the "best" one': product, ...r })),
    clauses: BOUND,
  },
  {
    what: 'an alias ending in an escaped quote before a {{user.vip}}',
    sql: 'SELECT product AS "the ""best""", {{user.vip}} AS vip, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_VIP.map(({ product, ...r }) => ({ 'the "best"': product, ...r })),
    clauses: BOUND,
  },
  {
    // Each north row counted once per k: (10 + 5) * 3, 7 * 3.
    what: 'a recursive common table expression joined to its table',
    sql: 'WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 2) SELECT s.product, SUM(s.amount * n.k) AS total FROM sql_sales s JOIN n ON TRUE GROUP BY s.product ORDER BY s.product',
    rows: [
      { product: 'Anvil', total: 45 },
      { product: 'Bolt', total: 21 },
    ],
    clauses: READ_ONLY,
  },
  {
    what: 'WITH  RECURSIVE written with two blanks',
    sql: 'WITH  RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 2) SELECT s.product, SUM(s.amount * n.k) AS total FROM sql_sales s JOIN n ON TRUE GROUP BY s.product ORDER BY s.product',
    rows: [
      { product: 'Anvil', total: 45 },
      { product: 'Bolt', total: 21 },
    ],
    clauses: READ_ONLY,
  },
  {
    what: 'blanks, a newline and an indent around a leading comment before its WITH',
    sql: '  /* totals by product */\n  WITH sold AS (SELECT product, amount FROM sql_sales) SELECT product, SUM(amount) AS total FROM sold GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: "its table's name in upper case",
    sql: 'SELECT product, SUM(amount) AS total FROM SQL_SALES GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS,
    clauses: READ_ONLY,
  },
  {
    what: 'a NULL in an integer column',
    sql: 'SELECT product, SUM(amount) AS total, CAST(NULL AS BIGINT) AS nothing FROM sql_sales GROUP BY product ORDER BY product',
    rows: NORTH_TOTALS.map((r) => ({ ...r, nothing: null })),
    clauses: READ_ONLY,
  },
];

for (const { what, sql, rows: expected, clauses } of SHAPES) {
  probe(
    clauses,
    `a saved chart whose SQL has ${what} loads its rows`,
    async (t) => {
      const { res, rows } = await rowsOf(t, sql);
      t.observe(seen(res, rows), same(rows, expected));
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
    t.observe(seen(res, rows), same(rows, NORTH_VIP));
  },
  { parts, needs },
);

const REASONS = ['sql-refused', 'sql-failed', 'sql-timeout'] as const;

/**
 * SQL the decision refuses, each with the reasons it allows: refused before it runs, or by the
 * database (an unknown column); a text that does not parse may be either.
 */
const REFUSED: readonly (readonly [string, string, readonly string[]])[] = [
  [
    'holds two statements',
    'SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product; SELECT product FROM sql_sales',
    ['sql-refused'],
  ],
  [
    'holds a parameter $1 of its own',
    'SELECT product, SUM(amount) AS total FROM sql_sales WHERE amount > $1 GROUP BY product',
    ['sql-refused'],
  ],
  [
    'holds a parameter ? of its own',
    'SELECT product, SUM(amount) AS total FROM sql_sales WHERE amount > ? GROUP BY product',
    ['sql-refused'],
  ],
  [
    'names a column its table lacks',
    'SELECT nosuchcolumn, SUM(amount) AS total FROM sql_sales GROUP BY nosuchcolumn',
    ['sql-failed'],
  ],
  [
    'leaves a string literal unclosed',
    "SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product HAVING product <> 'Crane",
    REASONS,
  ],
  [
    'leaves a quoted name unclosed',
    'SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY "product',
    REASONS,
  ],
  [
    'leaves a block comment unclosed',
    'SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product /* by product',
    REASONS,
  ],
];

for (const [what, sql, reasons] of REFUSED) {
  probe(
    ['resources.data.read-only-sql'],
    `a saved chart whose SQL ${what} is refused with 400 and a reason the decision names`,
    async (t) => {
      const { res, rows } = await rowsOf(t, sql);
      const reason = res === undefined ? undefined : detailsOf(res)['reason'];
      t.observe(
        seen(res, rows),
        res !== undefined &&
          statusAndCode(res) === '400 VALIDATION_ERROR' &&
          typeof reason === 'string' &&
          reasons.includes(reason),
      );
    },
    { parts, needs },
  );
}

/**
 * The decision stops a query after 5 s; the wait leaves 10 s more for a loaded machine. The
 * probe waits those 5 s for real: the stop is on the server's own clock, which no hook moves.
 */
const STOPPED_WITHIN_MS = 15_000;

probe(
  ['resources.data.read-only-sql'],
  'a saved chart whose SQL runs longer than 5 s is stopped and refused with sql-timeout',
  async (t) => {
    // Counting to a billion one recursion step at a time: hours of work, next to no memory.
    const { res, rows } = await rowsOf(
      t,
      'WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 1000000000) SELECT s.product, COUNT(*) AS total FROM sql_sales s JOIN n ON TRUE GROUP BY s.product',
      undefined,
      STOPPED_WITHIN_MS,
    );
    t.observe(
      seen(res, rows, STOPPED_WITHIN_MS),
      res !== undefined &&
        statusAndCode(res) === '400 VALIDATION_ERROR' &&
        detailsOf(res)['reason'] === 'sql-timeout',
    );
  },
  { parts, needs, timeout: 60_000 },
);

probe(
  ['hub.filters.values'],
  "a dashboard filter on a field the chart's table lacks leaves the chart's rows unfiltered",
  async (t) => {
    const { res, rows } = await rowsOf(
      t,
      'SELECT product, SUM(amount) AS total FROM sql_sales GROUP BY product ORDER BY product',
      [{ field: 'channel', value: 'online' }],
    );
    t.observe(seen(res, rows), same(rows, NORTH_TOTALS));
  },
  { parts, needs },
);
