import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DataConnection, DataStore } from '../data/database.ts';
import { ORDERS } from '../data/seed.ts';
import { answer, sqlFor } from './agent.ts';
import { deltas } from './events.ts';
import { chartFor, readQuestion, type ChartSpec } from './grammar.ts';

// The reference agent's own choices that no conformance test can see (the grammar of docs/reference-agent.md is
// tested through the agent-grammar capability in suites/chat): the SQL it saves with a chart
// names the row filters, the streamed text joins back to the answer, and the question forms
// beyond the list in docs/reference-agent.md.

const columns = ORDERS.columns;
const spec = (question: string) =>
  chartFor('orders', columns, readQuestion(question, columns), [], undefined) as ChartSpec;

describe('the SQL the agent saves with a chart (sqlOverride)', () => {
  const connection: DataConnection = {
    connectionId: 'c1',
    organizationId: 'o1',
    name: 'sales',
    tables: [
      {
        name: 'sales',
        source: 'c_1.sales',
        columns: [
          { name: 'tenant', type: 'VARCHAR' },
          { name: 'vip', type: 'INTEGER' },
          { name: 'amount', type: 'DOUBLE' },
          { name: 'day', type: 'DATE' },
        ],
      },
    ],
    rowFilters: [
      { column: 'tenant', property: 'tenant' },
      { column: 'vip', property: 'level' },
      { column: 'region', property: 'region' },
    ],
  };
  const chart: ChartSpec = {
    table: 'sales',
    measure: { aggregation: 'sum', column: 'amount' },
    dimension: { column: 'tenant', bucket: null },
    top: null,
    filters: [],
    year: null,
    type: null,
  };

  it("names the connection's row filters on the table's columns as {{user.<key>}}", () => {
    // Read through a connection without row filters, the saved SQL still says whose rows it
    // reads; a rule on a column the table lacks is left out.
    const sql = sqlFor(chart, connection);
    const where = sql.split('\n').find((line) => line.startsWith('WHERE ')) ?? '';
    expect(where, sql).toContain("'{{user.tenant}}'");
    expect(where, sql).toContain("'{{user.level}}'");
    expect(sql).not.toContain('{{user.region}}');
  });

  it('reads a text column as it is and any other through CAST(... AS VARCHAR), as the data store does', () => {
    // A property is text: a non-text column compared without the cast fails on a property that
    // is no number, and the chart becomes a text answer.
    const where = sqlFor(chart, connection)
      .split('\n')
      .find((line) => line.startsWith('WHERE '));
    expect(where).toBe(
      `WHERE "tenant" = '{{user.tenant}}' AND CAST("vip" AS VARCHAR) = '{{user.level}}'`,
    );
  });

  it('rounds sums and averages to two decimals (docs/reference-agent.md: round(sum(col), 2)), not minimums, maximums or counts', () => {
    const select = (aggregation: ChartSpec['measure']['aggregation']) =>
      sqlFor(
        {
          ...chart,
          measure: { aggregation, column: aggregation === 'count' ? null : 'amount' },
        },
        connection,
      ).split('\n')[0];
    expect(select('sum')).toContain(', round(sum("amount"), 2) AS ');
    expect(select('avg')).toContain(', round(avg("amount"), 2) AS ');
    expect(select('min')).toContain(', min("amount") AS ');
    expect(select('max')).toContain(', max("amount") AS ');
    expect(select('count')).toContain(', count(*) AS ');
  });

  it('orders a time series by its period, a top N and any other grouping by the measure', () => {
    const order = (change: Partial<ChartSpec>) =>
      sqlFor({ ...chart, ...change }, connection)
        .split('\n')
        .slice(3);
    expect(order({})).toEqual(['GROUP BY 1', 'ORDER BY 2 DESC, 1 LIMIT 1000']);
    expect(order({ top: 5 })).toEqual(['GROUP BY 1', 'ORDER BY 2 DESC, 1 LIMIT 5']);
    expect(order({ dimension: { column: 'day', bucket: 'month' } })).toEqual([
      'GROUP BY 1',
      'ORDER BY 1',
    ]);
    expect(order({ dimension: { column: 'day', bucket: 'month' }, top: 3 })).toEqual([
      'GROUP BY 1',
      'ORDER BY 2 DESC, 1 LIMIT 3',
    ]);
    expect(order({ dimension: null })).toEqual([]);
  });
});

describe('the text deltas of an answer', () => {
  it('join back to the text exactly, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '.', '\u00e9') }), (s) => {
        expect(deltas(s).join('')).toBe(s);
      }),
      { seed: 11, numRuns: 300 },
    );
    expect(deltas('   ')).toEqual(['   ']);
    expect(deltas('')).toEqual(['']);
  });

  it('carry four words each, the last one the rest', () => {
    expect(deltas('one two three four five six')).toEqual(['one two three four ', 'five six']);
    expect(deltas('Here is the chart.')).toEqual(['Here is the chart.']);
    expect(deltas('a  b')).toEqual(['a  b']);
  });
});

describe('question forms beyond the list in docs/reference-agent.md', () => {
  it('reads "<year> only" as a year', () => {
    expect(spec('total amount by region 2024 only').year).toEqual({
      column: 'order_date',
      value: 2024,
    });
  });

  it('offers the phrase after "is" as a filter value', () => {
    expect(readQuestion('total amount where channel is online', columns).phrases).toContain(
      'online',
    );
  });

  it('reads a top N of two and three digits', () => {
    expect(spec('top 12 products by total amount').top).toBe(12);
    expect(spec('top 100 products by total amount').top).toBe(100);
  });

  it('offers every phrase of one to four words after a filter word, each once', () => {
    expect(readQuestion('total amount in a b c d e', columns).phrases).toEqual([
      'a',
      'a b',
      'a b c',
      'a b c d',
    ]);
    expect(readQuestion('total amount in a b', columns).phrases).toEqual(['a', 'a b']);
  });

  it('reads "minimum" and "maximum" in full, and "annual" as the year bucket', () => {
    expect(spec('minimum amount by region').measure).toEqual({
      aggregation: 'min',
      column: 'amount',
    });
    expect(spec('maximum amount by region').measure).toEqual({
      aggregation: 'max',
      column: 'amount',
    });
    expect(spec('annual total amount').dimension).toEqual({ column: 'order_date', bucket: 'year' });
  });

  it('reads a bare "sum" as a sum', () => {
    expect(spec('sum amount by region').measure).toEqual({ aggregation: 'sum', column: 'amount' });
  });

  it('drops the filters on "without filter" as on "without filters"', () => {
    expect(readQuestion('as a bar chart without filter', columns).clearFilters).toBe(true);
    expect(readQuestion('as a bar chart without filters', columns).clearFilters).toBe(true);
  });

  it('counts a dimension or a top N named alone, with no chart before', () => {
    expect(spec('by channel')).toMatchObject({
      measure: { aggregation: 'count', column: null },
      dimension: { column: 'channel', bucket: null },
      top: null,
    });
    expect(spec('top 5')).toMatchObject({
      measure: { aggregation: 'count', column: null },
      dimension: null,
      top: 5,
    });
  });

  it('sums the numeric column a question names on its own, though a text column comes first', () => {
    expect(spec('product sales by channel')).toMatchObject({
      measure: { aggregation: 'sum', column: 'amount' },
      dimension: { column: 'channel', bucket: null },
    });
  });
});

describe('filter values named in a question', () => {
  const seeded: DataConnection = {
    connectionId: null,
    organizationId: 'o1',
    name: 'orders',
    tables: [ORDERS],
    rowFilters: [],
  };
  /** A data store whose value look-up finds these (column, value) rows, in this order. */
  const store = (found: readonly (readonly [string, string])[]) =>
    ({
      query: (_c: DataConnection, sql: string) =>
        Promise.resolve({
          ok: true,
          value: sql.includes('SELECT DISTINCT')
            ? { columns: ['c', 'v'], rows: found.map(([c, v]) => ({ c, v })) }
            : { columns: [], rows: [] },
        }),
    }) as unknown as DataStore;

  it('keep the longest value a column matches, one per column, whatever order they are found in', async () => {
    const north = ['region', 'North'] as const;
    const america = ['region', 'North America'] as const;
    const online = ['channel', 'Online'] as const;
    for (const found of [
      [north, america, online],
      [america, north, online],
      [online, north, america],
      [north, online, america],
    ]) {
      const said = await answer(
        store(found),
        seeded,
        'total amount in north america for online',
        {},
        undefined,
      );
      expect(said.kind === 'chart' ? [...said.spec.filters] : said, JSON.stringify(found)).toEqual(
        expect.arrayContaining([
          { column: 'region', value: 'North America' },
          { column: 'channel', value: 'Online' },
        ]),
      );
      expect(said.kind === 'chart' && said.spec.filters.length).toBe(2);
    }
  });

  /** A data store whose value look-up fails; the chart query finds no row. */
  const lookUpFails = {
    query: (_c: DataConnection, sql: string) =>
      Promise.resolve(
        sql.includes('SELECT DISTINCT')
          ? { ok: false, error: { message: 'look-up failed' } }
          : { ok: true, value: { columns: [], rows: [] } },
      ),
  } as unknown as DataStore;

  it('draw the chart without filters when the value look-up fails', async () => {
    const said = await answer(
      lookUpFails,
      seeded,
      'total amount by region in north',
      {},
      undefined,
    );
    expect(said.kind === 'chart' ? said.spec : said).toMatchObject({
      measure: { aggregation: 'sum', column: 'amount' },
      filters: [],
    });
  });
});

describe('a chart query that fails', () => {
  it('gets a text answer that says why, never a broken chart', async () => {
    const store = {
      query: (_c: DataConnection, sql: string) =>
        Promise.resolve(
          sql.includes('SELECT DISTINCT')
            ? { ok: true, value: { columns: [], rows: [] } }
            : { ok: false, error: { message: 'the query ran out of time' } },
        ),
    } as unknown as DataStore;
    const seeded: DataConnection = {
      connectionId: null,
      organizationId: 'o1',
      name: 'orders',
      tables: [ORDERS],
      rowFilters: [],
    };
    const said = await answer(store, seeded, 'total amount by region', {}, undefined);
    expect(said.kind).toBe('text');
    expect(said.text).toContain('the query ran out of time');
  });
});
