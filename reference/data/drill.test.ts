import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore, type DataConnection } from './database.ts';
import { specError } from '../../spec/errors.ts';
import { drillQuery, type DrillRows } from '../charts/drill-down.ts';

const data = new DataStore({ rows: 10 });
const ORG = 'org-drill';
let sales: DataConnection;

const ROWS = [
  { id: 1, region: 'north', product: 'Anvil', channel: 'online', amount: 10, day: '2025-01-02' },
  { id: 2, region: 'north', product: 'Anvil', channel: 'store', amount: 5, day: '2025-01-03' },
  { id: 3, region: 'north', product: 'Bolt', channel: 'online', amount: 7, day: '2025-01-02' },
  { id: 4, region: 'north', product: 'Anvil', channel: 'online', amount: 1, day: '2025-02-01' },
  { id: 5, region: 'south', product: 'Anvil', channel: 'online', amount: 100, day: '2025-01-02' },
  { id: 6, region: 'north', product: null, channel: 'store', amount: 2, day: '2025-01-05' },
];

beforeAll(async () => {
  const made = await data.createConnection(ORG, 'conn-drill', {
    name: 'sales',
    table: {
      name: 'sales',
      columns: [
        { name: 'id', type: 'integer' },
        { name: 'region', type: 'text' },
        { name: 'product', type: 'text' },
        { name: 'channel', type: 'text' },
        { name: 'amount', type: 'integer' },
        { name: 'day', type: 'date' },
      ],
      rows: ROWS,
    },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
  if (!made.ok) throw new Error(made.error.message);
  sales = made.value;
});
afterAll(() => data.dropAccount(ORG));

const north = { region: 'north' };
const ids = (done: DrillRows) =>
  done.kind === 'rows' ? done.rows.map((r) => r['id']) : `${done.kind}: ${JSON.stringify(done)}`;

describe('drill-down of a saved chart', () => {
  const BY_PRODUCT = 'SELECT product, SUM(amount) AS total FROM sales GROUP BY product ORDER BY 2';

  it("answers the table's rows behind one point, every column, under row-level security", async () => {
    const done = await drillQuery(data, sales, BY_PRODUCT, {
      dimension: 'product',
      value: 'Anvil',
      properties: north,
    });
    expect(ids(done)).toEqual([1, 2, 4]);
    expect(done.kind === 'rows' && done.columns).toEqual([
      'id',
      'region',
      'product',
      'channel',
      'amount',
      'day',
    ]);
    expect(done.kind === 'rows' && done.total).toBe(3);
  });

  it("keeps the chart's own WHERE, the page's filters, and limits the rows with the count", async () => {
    const sql = `SELECT s.product AS p, SUM(amount) AS total FROM sales AS s WHERE s.amount > 1 GROUP BY 1`;
    expect(
      ids(
        await drillQuery(data, sales, sql, { dimension: 'p', value: 'Anvil', properties: north }),
      ),
    ).toEqual([1, 2]);
    // A table alias spelled like the rewrite's own names changes nothing.
    for (const alias of ['__eac_drill_where', '__eac_drill_point', '__eac_drill_table']) {
      const aliased = `SELECT "${alias}".product AS p, SUM(amount) AS total FROM sales AS "${alias}" WHERE amount > 1 GROUP BY 1`;
      const done = await drillQuery(data, sales, aliased, {
        dimension: 'p',
        value: 'Anvil',
        properties: north,
      });
      expect(ids(done), alias).toEqual([1, 2]);
    }
    const filtered = await drillQuery(data, sales, BY_PRODUCT, {
      dimension: 'product',
      value: 'Anvil',
      properties: north,
      filters: [{ field: 'channel', value: 'online' }],
    });
    expect(ids(filtered)).toEqual([1, 4]);
    const limited = await drillQuery(data, sales, BY_PRODUCT, {
      dimension: 'product',
      value: 'Anvil',
      properties: north,
      limit: 2,
    });
    expect(limited.kind === 'rows' && [limited.rows.length, limited.total]).toEqual([2, 3]);
  });

  it('drills into an expression dimension, a date, a NULL point and a {{user.x}} chart', async () => {
    const month = `SELECT date_trunc('month', day) AS month, count(*) AS n FROM sales GROUP BY 1`;
    expect(
      ids(
        await drillQuery(data, sales, month, {
          dimension: 'month',
          value: '2025-01-01',
          properties: north,
        }),
      ),
    ).toEqual([1, 2, 3, 6]);
    const byDay = 'SELECT day, count(*) AS n FROM sales GROUP BY day';
    expect(
      ids(
        await drillQuery(data, sales, byDay, {
          dimension: 'day',
          value: '2025-01-02',
          properties: north,
        }),
      ),
    ).toEqual([1, 3]);
    expect(
      ids(
        await drillQuery(data, sales, BY_PRODUCT, {
          dimension: 'product',
          value: null,
          properties: north,
        }),
      ),
    ).toEqual([6]);
    const mine = `SELECT product, count(*) AS n FROM sales WHERE channel = '{{user.channel}}' GROUP BY 1`;
    expect(
      ids(
        await drillQuery(data, sales, mine, {
          dimension: 'product',
          value: 'Anvil',
          properties: { ...north, channel: 'store' },
        }),
      ),
    ).toEqual([2]);
  });

  it('binds the value: a quote or SQL in it matches nothing and runs nothing', async () => {
    for (const value of ["Anvil' OR '1'='1", "x'); DROP TABLE sales; --", '$1']) {
      const done = await drillQuery(data, sales, BY_PRODUCT, {
        dimension: 'product',
        value,
        properties: north,
      });
      expect(done.kind === 'rows' && done.total, value).toBe(0);
    }
    const all = await drillQuery(data, sales, BY_PRODUCT, {
      dimension: 'product',
      value: 'Anvil',
      properties: north,
    });
    expect(ids(all)).toEqual([1, 2, 4]);
  });

  it('says drill-down is not available for joins, subqueries, CTEs, unknown columns, aggregates', async () => {
    for (const [sql, dimension] of [
      [
        'SELECT a.product, count(*) AS n FROM sales a JOIN sales b ON a.id = b.id GROUP BY 1',
        'product',
      ],
      ['SELECT product, n FROM (SELECT product, count(*) AS n FROM sales GROUP BY 1)', 'product'],
      [
        'WITH x AS (SELECT * FROM sales) SELECT product, count(*) AS n FROM x GROUP BY 1',
        'product',
      ],
      [
        'SELECT product, count(*) AS n FROM sales WHERE id IN (SELECT id FROM sales) GROUP BY 1',
        'product',
      ],
      [
        'SELECT product, count(*) AS n FROM sales GROUP BY 1 UNION ALL SELECT product, 1 FROM sales',
        'product',
      ],
      [BY_PRODUCT, 'channel'],
      [BY_PRODUCT, 'total'],
    ] as const) {
      const done = await drillQuery(data, sales, sql, {
        dimension,
        value: 'Anvil',
        properties: north,
      });
      expect(done.kind, `${sql} / ${dimension}: ${JSON.stringify(done)}`).toBe('unavailable');
    }
  });

  it('refuses a user without the property row-level security reads', async () => {
    const done = await drillQuery(data, sales, BY_PRODUCT, {
      dimension: 'product',
      value: 'Anvil',
      properties: {},
    });
    expect(done.kind === 'error' && done.error.code).toBe('FORBIDDEN');
  });
});

/** The store drillQuery talks to, with some of its answers replaced (a fault, a hand-made tree). */
function storeWith(over: Partial<Pick<DataStore, 'parseTree' | 'treeSql' | 'queryBound'>>) {
  return {
    bindUser: (...args: Parameters<DataStore['bindUser']>) => data.bindUser(...args),
    parseTree: (sql: string) => data.parseTree(sql),
    treeSql: (tree: unknown) => data.treeSql(tree),
    queryBound: (...args: Parameters<DataStore['queryBound']>) => data.queryBound(...args),
    ...over,
  } as unknown as DataStore;
}

/** Queries that would all answer one row: whatever runs, nothing stops it but drillQuery. */
const anyQuery: DataStore['queryBound'] = () =>
  Promise.resolve({ ok: true, value: { columns: ['id', 'n'], rows: [{ id: 1, n: 1 }] } });

describe('drill-down when a step fails', () => {
  const BY_PRODUCT = 'SELECT product, SUM(amount) AS total FROM sales GROUP BY product ORDER BY 2';
  const point = { dimension: 'product', value: 'Anvil', properties: north };

  it("refuses a user without a property the chart's {{user.x}} reads", async () => {
    const mine = `SELECT product, count(*) AS n FROM sales WHERE channel = '{{user.channel}}' GROUP BY 1`;
    const done = await drillQuery(data, sales, mine, point);
    expect(done.kind === 'error' && done.error.code).toBe('FORBIDDEN');
  });

  it('says drill-down is not available for a chart DuckDB cannot read or that holds no statement', async () => {
    for (const sql of ['SELEC product FROM sales', '', ';']) {
      const done = await drillQuery(data, sales, sql, point);
      expect(done.kind, `${sql}: ${JSON.stringify(done)}`).toBe('unavailable');
    }
    for (const tree of [undefined, { error: false, statements: [{}] }, { statements: [null] }]) {
      const store = storeWith({
        parseTree: (sql) => (sql === BY_PRODUCT ? Promise.resolve(tree) : data.parseTree(sql)),
      });
      const done = await drillQuery(store, sales, BY_PRODUCT, point);
      expect(done.kind, `${JSON.stringify(tree)}: ${JSON.stringify(done)}`).toBe('unavailable');
    }
  });

  it('runs nothing for a chart it cannot drill, nor when the drill-down query cannot be written', async () => {
    const join =
      'SELECT a.product, count(*) AS n FROM sales a JOIN sales b ON a.id = b.id GROUP BY 1';
    const rewriting = storeWith({
      treeSql: () => Promise.resolve('SELECT * FROM sales'),
      queryBound: anyQuery,
    });
    expect((await drillQuery(rewriting, sales, join, point)).kind).toBe('unavailable');
    const unwritable = storeWith({
      treeSql: () => Promise.resolve(undefined),
      queryBound: anyQuery,
    });
    expect((await drillQuery(unwritable, sales, BY_PRODUCT, point)).kind).toBe('unavailable');
  });

  it('answers no rows when the count or the rows fail: unavailable for a refused query, else the error', async () => {
    const refused = specError('VALIDATION_ERROR', 'refused');
    const forbidden = specError('FORBIDDEN', 'no property');
    for (const [failing, error, kind] of [
      [0, refused, 'unavailable'],
      [1, refused, 'unavailable'],
      [0, forbidden, 'error'],
      [1, forbidden, 'error'],
    ] as const) {
      let call = 0;
      const store = storeWith({
        queryBound: (...args) =>
          call++ === failing ? Promise.resolve({ ok: false, error }) : anyQuery(...args),
      });
      const done = await drillQuery(store, sales, BY_PRODUCT, point);
      expect(done.kind, `query ${String(failing)} ${error.code}`).toBe(kind);
      if (done.kind === 'error') expect(done.error).toEqual(error);
    }
  });
});
