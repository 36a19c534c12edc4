import { describe, expect, it } from 'vitest';
import { hookAccount, postJson, referenceForTests, type Envelope } from '../test-client.ts';

type Body = Envelope;
type Answer = { status: number; body: Body };

// What spec/hooks.openapi.yaml says of the connections hook's column types and refusals, and
// of the chart-data hook's edges: a blank sqlOverride, which connection a chart reads, filters
// holding arrays, null or an unknown field, and the reasons of a refused SQL.
describe('connections and chart-data hooks, as the hooks contract words them', () => {
  const ref = referenceForTests({ hooks: true, seed: 43 });
  const post = (url: string, body: unknown) => postJson<Body>(url, body);
  const expectInvalid = (res: Answer, what: string) => {
    expect(res.status, what).toBe(400);
    expect(res.body.status, what).toBe('error');
    expect(res.body.error?.code, what).toBe('VALIDATION_ERROR');
  };

  /** An account with one project user (no properties) and helpers for connections and charts. */
  async function account() {
    const { org, userToken } = await hookAccount(ref);
    const token = await userToken();
    const dashboardId = String(
      (await post(`${ref.hooks}/accounts/${org}/workspaces`, { name: 'W' })).body.data[
        'dashboardId'
      ],
    );
    const connect = (body: unknown) => post(`${ref.hooks}/accounts/${org}/connections`, body);
    /** A chart made by the charts hook (not saved from chat) holding the given sqlOverride. */
    const chart = async (sqlOverride: string) => {
      const res = await post(`${ref.hooks}/accounts/${org}/dashboards/${dashboardId}/charts`, {
        name: 'C',
        chartConfig: { type: 'table', sqlOverride },
      });
      expect(res.status).toBe(201);
      return String(res.body.data['chartId']);
    };
    const read = async (sqlOverride: string, filters?: unknown) =>
      post(`${ref.hooks}/accounts/${org}/charts/${await chart(sqlOverride)}/data`, {
        token,
        ...(filters === undefined ? {} : { filters }),
      });
    return { org, connect, chart, read };
  }

  const typed = {
    name: 'typed',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'label', type: 'text' },
      { name: 'amount', type: 'number' },
      { name: 'day', type: 'date' },
      { name: 'active', type: 'boolean' },
    ],
  };

  it('holds each column type and reads it back as JSON; any column holds null', async () => {
    const w = await account();
    const made = await w.connect({
      table: {
        ...typed,
        rows: [
          { id: 1, label: 'one', amount: 1.5, day: '2025-01-02', active: true },
          { id: 2, label: 'two', amount: -3, day: '2024-02-29', active: false },
          { id: 3, label: null, amount: null, day: null, active: null },
          { id: 4 },
        ],
      },
    });
    expect(made.status).toBe(201);
    expect(made.body.data['tables']).toEqual(['typed']);
    const rows = await w.read('SELECT * FROM typed ORDER BY id');
    expect(rows.status).toBe(200);
    expect(rows.body.data).toEqual({
      columns: ['id', 'label', 'amount', 'day', 'active'],
      rows: [
        { id: 1, label: 'one', amount: 1.5, day: '2025-01-02', active: true },
        { id: 2, label: 'two', amount: -3, day: '2024-02-29', active: false },
        { id: 3, label: null, amount: null, day: null, active: null },
        { id: 4, label: null, amount: null, day: null, active: null },
      ],
    });
  });

  it('refuses a value that does not fit its column, or a row key naming no column, making nothing', async () => {
    const w = await account();
    const misfits: [string, unknown][] = [
      ['label', 5],
      ['label', true],
      ['id', 1.5],
      ['id', '7'],
      ['id', true],
      ['amount', '12'],
      ['amount', true],
      ['active', 'true'],
      ['active', 1],
      ['day', '2025/01/02'],
      ['day', '2025-13-01'],
      // No calendar holds these days (Date.parse alone would roll them over).
      ['day', '2025-02-30'],
      ['day', '2023-02-29'],
      ['day', '2025-04-31'],
      ['day', ' 2025-01-02'],
      ['day', '2025-01-02T10:00'],
      ['day', ['2025-01-02']],
      ['day', 20250102],
    ];
    for (const [column, value] of misfits)
      expectInvalid(
        await w.connect({ table: { ...typed, rows: [{ id: 1, [column]: value }] } }),
        `${JSON.stringify(value)} in ${column}`,
      );
    for (const value of ['x', '2025-01-02'])
      expectInvalid(
        await w.connect({ table: { ...typed, rows: [{ id: 1, nowhere: value }] } }),
        'a row key naming no column',
      );
    const after = await w.read('SELECT * FROM typed');
    expectInvalid(after, 'no connection holds typed: the chart reads the seeded dataset');
    expect(after.body.error?.details?.['reason']).toBe('sql-refused');
  });

  it('refuses a column named twice, in any case', async () => {
    const w = await account();
    expectInvalid(
      await w.connect({
        table: {
          name: 'twice',
          columns: [
            { name: 'Amount', type: 'number' },
            { name: 'amount', type: 'number' },
          ],
          rows: [],
        },
      }),
      'a column named twice',
    );
  });

  it('refuses a row filter on a column the table, or the seeded dataset, lacks', async () => {
    const w = await account();
    expectInvalid(
      await w.connect({ rowFilters: [{ column: 'nowhere', property: 'organization' }] }),
      'a row filter on no column of the seeded dataset',
    );
    expectInvalid(
      await w.connect({
        table: { ...typed, rows: [] },
        rowFilters: [{ column: 'nowhere', property: 'organization' }],
      }),
      'a row filter on no column of the table',
    );
  });

  it('answers 409 chart-without-sql for a blank sqlOverride', async () => {
    const w = await account();
    const res = await w.read('   ');
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe('CONFLICT');
    expect(res.body.error?.details?.['reason']).toBe('chart-without-sql');
  });

  it("reads the account's newest connection holding the table the SQL names, in any case", async () => {
    const w = await account();
    const table = (name: string, n: number) => ({
      name,
      columns: [{ name: 'n', type: 'integer' }],
      rows: [{ n }],
    });
    expect((await w.connect({ table: table('legacy', 1) })).status).toBe(201);
    expect((await w.connect({ table: table('sales', 2) })).status).toBe(201);
    expect((await w.connect({ table: table('sales', 3) })).status).toBe(201);
    expect((await w.read('SELECT n FROM sales')).body.data['rows'], 'the newest').toEqual([
      { n: 3 },
    ]);
    expect((await w.read('SELECT n FROM SALES')).body.data['rows'], 'any case').toEqual([{ n: 3 }]);
    expect((await w.read('SELECT n FROM legacy')).body.data['rows'], 'an older one').toEqual([
      { n: 1 },
    ]);
  });

  it('filters: an array keeps any of its items, an empty array or null none, an unknown field is ignored', async () => {
    const w = await account();
    await w.connect({
      table: {
        name: 'sales',
        columns: [
          { name: 'region', type: 'text' },
          { name: 'amount', type: 'integer' },
        ],
        rows: [
          { region: 'north', amount: 1 },
          { region: 'south', amount: 2 },
          { region: 'east', amount: 3 },
        ],
      },
    });
    const sql = 'SELECT region FROM sales ORDER BY amount';
    const rows = async (filters: unknown) => {
      const res = await w.read(sql, filters);
      expect(res.status, JSON.stringify(filters)).toBe(200);
      return res.body.data['rows'];
    };
    expect(await rows([{ field: 'region', value: ['north', 'east'] }])).toEqual([
      { region: 'north' },
      { region: 'east' },
    ]);
    expect(await rows([{ field: 'region', value: [] }])).toEqual([]);
    expect(await rows([{ field: 'region', value: null }])).toEqual([]);
    expect(await rows([{ field: 'region', value: [null, 'south'] }])).toEqual([
      { region: 'south' },
    ]);
    expect(await rows([{ field: 'nowhere', value: 'north' }])).toEqual([
      { region: 'north' },
      { region: 'south' },
      { region: 'east' },
    ]);
  });

  it('refuses SQL before it runs (sql-refused) or when the database cannot run it (sql-failed)', async () => {
    const w = await account();
    await w.connect({ table: { ...typed, rows: [] } });
    const twice = await w.read('SELECT 1 FROM typed; SELECT 2 FROM typed');
    expectInvalid(twice, 'two statements');
    expect(twice.body.error?.details?.['reason']).toBe('sql-refused');
    const unknown = await w.read('SELECT nowhere FROM typed');
    expectInvalid(unknown, 'an unknown column');
    expect(unknown.body.error?.details?.['reason']).toBe('sql-failed');
  });
});
