import { describe, expect, it } from 'vitest';
import { DataStore } from './database.ts';
import { drillTemplateSql, drillTree, type DrillPlan } from './drill.ts';

// drillTree on DuckDB's own parse trees (decision hub.drill-down.single-table: which charts can
// be drilled), and on a few hand-made trees for its defensive branches. The rows a plan selects
// are drill.test.ts's business; here only whether a chart is drilled and into which expression.
const data = new DataStore({ rows: 10 });
const TABLES = ['sales'];

const hasWhere = (tree: unknown) =>
  (tree as { statements?: { node?: { where_clause?: unknown } }[] }).statements?.[0]?.node
    ?.where_clause != null;

async function template(chart: unknown): Promise<unknown> {
  return data.parseTree(
    drillTemplateSql({ hasWhere: hasWhere(chart), nullPoint: false, param: 1 }),
  );
}

async function plan(sql: string, dimension: string, tables = TABLES): Promise<DrillPlan> {
  const chart = await data.parseTree(sql);
  return drillTree(chart, await template(chart), dimension, tables);
}

/** A refusal as drillTree's contract gives it: not ok, with a reason. */
function expectRefused(done: DrillPlan, what: string) {
  expect(done.ok, `${what}: ${JSON.stringify(done).slice(0, 300)}`).toBe(false);
  expect(done.ok === false && typeof done.reason, what).toBe('string');
}

/** The drill-down query a plan makes, as SQL (json_deserialize_sql). */
async function planSql(done: DrillPlan): Promise<string | undefined> {
  expect(done.ok, JSON.stringify(done).slice(0, 300)).toBe(true);
  return done.ok ? data.treeSql(done.tree) : undefined;
}

const BY_PRODUCT = 'SELECT product, count(*) AS n FROM sales GROUP BY 1';

type Json = Record<string, unknown>;

/** drillTree on the parse tree of `sql` changed by hand (its SELECT node and its table). */
async function handMade(
  sql: string,
  dimension: string,
  change: (node: Json, from: Json) => void,
): Promise<DrillPlan> {
  const chart = (await data.parseTree(sql)) as { statements: { node: Json }[] };
  const tpl = await template(chart);
  const changed = structuredClone(chart);
  const node = changed.statements[0]?.node as Json;
  change(node, node['from_table'] as Json);
  return drillTree(changed, tpl, dimension, TABLES);
}

describe('drillTree: which charts are drilled', () => {
  it('drills a one-table chart over one of its connection tables, whatever their case', async () => {
    await planSql(await plan(BY_PRODUCT, 'product'));
    await planSql(await plan('SELECT product, count(*) AS n FROM SALES GROUP BY 1', 'product'));
    await planSql(await plan(BY_PRODUCT, 'product', ['Sales']));
    await planSql(await plan(BY_PRODUCT, 'product', ['orders', 'sales']));
  });

  it('refuses what DuckDB cannot read, or what is not one SELECT', async () => {
    const chart = await data.parseTree(BY_PRODUCT);
    const tpl = await template(chart);
    expectRefused(drillTree(undefined, tpl, 'product', TABLES), 'no tree');
    const broken = await data.parseTree('SELEC product FROM sales');
    expectRefused(drillTree(broken, tpl, 'product', TABLES), 'a syntax error');
    // A tree DuckDB marks as an error is refused even when it also holds a statement.
    const marked = { ...(chart as object), error: true };
    expectRefused(drillTree(marked, tpl, 'product', TABLES), 'a tree marked as an error');
    expectRefused(await plan('', 'product'), 'no statement');
    expectRefused(await plan(`${BY_PRODUCT}; ${BY_PRODUCT}`, 'product'), 'two statements');
    expectRefused(
      await plan(`${BY_PRODUCT} UNION ALL SELECT product, 1 FROM sales`, 'product'),
      'a set operation',
    );
  });

  it('refuses a common table expression, a join, a subquery or no table', async () => {
    for (const sql of [
      'WITH x AS (SELECT * FROM sales) SELECT product, count(*) AS n FROM x GROUP BY 1',
      'WITH x AS (SELECT 1) SELECT product, count(*) AS n FROM sales GROUP BY 1',
      'SELECT a.product, count(*) AS n FROM sales a JOIN sales b ON a.id = b.id GROUP BY 1',
      'SELECT product, n FROM (SELECT product, count(*) AS n FROM sales GROUP BY 1)',
      'SELECT product, count(*) AS n FROM range(3) t(product) GROUP BY 1',
      "SELECT 'x' AS product",
    ])
      expectRefused(await plan(sql, 'product'), sql);
  });

  it('refuses a hand-made tree that is not a select, or reads no table by name', async () => {
    const changes: [string, (node: Json, from: Json) => void][] = [
      [
        'a set operation with the fields of a select',
        (node) => (node['type'] = 'SET_OPERATION_NODE'),
      ],
      ['a table function naming a table', (_, from) => (from['type'] = 'TABLE_FUNCTION')],
      ['a subquery naming a table', (_, from) => (from['type'] = 'SUBQUERY')],
      ['a join naming a table', (_, from) => (from['type'] = 'JOIN')],
      ['a SHOW reference naming a table', (_, from) => (from['type'] = 'SHOW_REF')],
      ['no table, naming one', (_, from) => (from['type'] = 'EMPTY')],
      ['a base table without a name', (_, from) => delete from['table_name']],
      ['a table of a catalog without a schema', (_, from) => (from['catalog_name'] = 'memory')],
    ];
    for (const [what, change] of changes)
      expectRefused(await handMade(BY_PRODUCT, 'product', change), what);
  });

  it('takes only a plain column reference as naming its column, and skips what is no expression', async () => {
    const first = (node: Json) => (node['select_list'] as Json[])[0] as Json;
    expectRefused(
      await handMade(BY_PRODUCT, 'product', (node) => (first(node)['class'] = 'FUNCTION')),
      'a function carrying column names',
    );
    expectRefused(
      await handMade(BY_PRODUCT, 'product', (node) => (first(node)['column_names'] = [1])),
      'a column reference named by a number',
    );
    await planSql(
      await handMade(BY_PRODUCT, 'product', (node) => {
        node['select_list'] = [null, 7, ...(node['select_list'] as Json[])];
      }),
    );
    await planSql(await handMade(BY_PRODUCT, 'product', (node) => delete node['cte_map']));
  });

  it("refuses a table that is not one of its connection's tables, or a schema-qualified one", async () => {
    expectRefused(await plan(BY_PRODUCT, 'product', ['orders']), 'another table');
    expectRefused(await plan(BY_PRODUCT, 'product', []), 'no tables');
    expectRefused(await plan(BY_PRODUCT, 'product', ['sales_2025']), 'a longer name');
    for (const table of ['main.sales', 'memory.main.sales'])
      expectRefused(
        await plan(`SELECT product, count(*) AS n FROM ${table} GROUP BY 1`, 'product'),
        table,
      );
  });

  it('refuses a subquery anywhere in the chart, also after other expressions', async () => {
    for (const sql of [
      'SELECT product, count(*) AS n FROM sales WHERE amount > 1 AND id IN (SELECT id FROM sales) GROUP BY 1',
      'SELECT product, (SELECT max(id) FROM sales) AS m FROM sales GROUP BY 1',
      'SELECT product, count(*) AS n FROM sales GROUP BY 1 HAVING count(*) > (SELECT 1)',
    ])
      expectRefused(await plan(sql, 'product'), sql);
  });

  it('refuses QUALIFY and sampling', async () => {
    for (const sql of [
      'SELECT product, amount FROM sales QUALIFY row_number() OVER (PARTITION BY product) = 1',
      'SELECT product, count(*) AS n FROM sales GROUP BY 1 USING SAMPLE 50%',
      'SELECT product, count(*) AS n FROM sales TABLESAMPLE 50% GROUP BY 1',
    ])
      expectRefused(await plan(sql, 'product'), sql);
  });

  it('refuses a dimension the select list does not name, or a window function', async () => {
    expectRefused(await plan(BY_PRODUCT, 'channel'), 'a column not selected');
    expectRefused(
      await plan('SELECT product, row_number() OVER () AS r FROM sales', 'r'),
      'a window function',
    );
    expectRefused(
      await plan('SELECT product, 1 + sum(amount) OVER () AS r FROM sales', 'r'),
      'an expression over a window function',
    );
  });

  it('refuses when the template cannot be read', async () => {
    const chart = await data.parseTree(BY_PRODUCT);
    expectRefused(drillTree(chart, undefined, 'product', TABLES), 'no template');
    const broken = await data.parseTree('SELEC 1');
    expectRefused(drillTree(chart, broken, 'product', TABLES), 'a broken template');
  });
});

describe('drillTree: the expression a point is compared with', () => {
  it('takes the select-list entry named exactly like the dimension before one differing in case', async () => {
    const sql = await planSql(
      await plan(
        'SELECT upper(product) AS P, product AS p, count(*) AS n FROM sales GROUP BY ALL',
        'p',
      ),
    );
    expect(sql).toMatch(/WHERE \(?product IS NOT DISTINCT FROM \$1\)?/);
    const upper = await planSql(
      await plan(
        'SELECT upper(product) AS P, product AS p, count(*) AS n FROM sales GROUP BY ALL',
        'P',
      ),
    );
    expect(upper).toMatch(/WHERE \(?upper\(product\) IS NOT DISTINCT FROM \$1\)?/);
  });

  it('finds the dimension whatever its case, after entries that name no column', async () => {
    const sql = await planSql(
      await plan('SELECT count(*), sum(amount), PRODUCT FROM sales GROUP BY 3', 'product'),
    );
    expect(sql).toMatch(/WHERE \(?PRODUCT IS NOT DISTINCT FROM \$1\)?/);
    const aliased = await planSql(
      await plan('SELECT count(*), upper(product) AS Who FROM sales GROUP BY 2', 'WHO'),
    );
    expect(aliased).toMatch(/WHERE \(?upper\(product\) IS NOT DISTINCT FROM \$1\)?/);
  });
});
