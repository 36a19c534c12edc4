import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore, type DataConnection } from './database.ts';
import { drillQuery, type DrillRows } from './drill-down.ts';

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
