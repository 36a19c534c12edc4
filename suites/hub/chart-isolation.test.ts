import { expect } from 'vitest';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { describeAnswer } from '../harness/expect.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { needsChartData as needs, parts, viewer } from './kit.ts';

// A saved chart's rows (§2.6) never carry another account's data, nor rows its user may not
// see (§1, §2.4; security.data.*), whatever SQL the chart holds and however tables are named.
// The rows are read through the chart-data hook, as a page shows them to the token's user.

interface Column {
  readonly name: string;
  readonly type: 'text' | 'integer';
}

async function connect(
  t: Conformance,
  w: World,
  table: string,
  columns: readonly Column[],
  rows: readonly Record<string, unknown>[],
) {
  await t.hooks.createConnection(w.account.organizationId, {
    name: `${table} data`,
    table: { name: table, columns: [...columns], rows: rows.map((r) => ({ ...r })) },
    rowFilters: [{ column: 'region', property: 'region' }],
  });
}

/** The reply and body text of the rows a north user gets from a chart of `sql` in `w`. */
async function chartText(t: Conformance, w: World, sql: string, dimension: string) {
  const ws = await createWorkspace(t, w, { dashboardName: `${t.faker.commerce.department()} iso` });
  const title = `Isolation ${t.faker.string.alphanumeric(4)}`;
  const chart = await createChart(t, w, ws.dashboardId, title, {
    title,
    type: 'bar',
    dimensions: [{ name: dimension, field: dimension, label: dimension, format: '' }],
    measures: [],
    sqlOverride: sql,
  });
  // `organization` too: a server may read a table of its own (the reference's seeded orders)
  // by that property, and a user lacking it would be refused before the SQL is judged.
  const user = await viewer(t, w, null, {
    properties: { region: 'north', organization: t.faker.company.name() },
  });
  const res = await t.hooks.chartData(w.account.organizationId, chart.chartId, user.token);
  expect(res.status, `chart data: ${describeAnswer(res)}`).toBeLessThan(500);
  return { res, text: JSON.stringify(res.body) };
}

conformance(
  ['security.data.other-organization', 'errors.client-input.no-server-error'],
  "a chart's SQL that lists the database's tables names none of another account's",
  async (t) => {
    // The other account's table and columns carry names no one else would choose.
    const secret = `secret_${t.faker.string.alpha({ length: 10, casing: 'lower' })}`;
    const column = `hidden_${t.faker.string.alpha({ length: 8, casing: 'lower' })}`;
    const theirs = await buildWorld(t);
    await connect(
      t,
      theirs,
      secret,
      [
        { name: 'region', type: 'text' },
        { name: column, type: 'integer' },
      ],
      [{ region: 'north', [column]: 1 }],
    );
    const mine = await buildWorld(t);
    await connect(t, mine, 'my_sales', [{ name: 'region', type: 'text' }], [{ region: 'north' }]);
    // Catalog listings in several spellings; a server whose SQL lacks them refuses them.
    for (const sql of [
      'SELECT * FROM (SHOW ALL TABLES)',
      'SELECT name FROM (SHOW ALL TABLES)',
      'SELECT CAST(column_names AS VARCHAR) AS name FROM (SHOW ALL TABLES)',
      'SELECT name FROM (SHOW TABLES)',
      'SELECT table_name AS name FROM information_schema.tables',
      'SELECT column_name AS name FROM information_schema.columns',
    ]) {
      const { text } = await chartText(t, mine, sql, 'name');
      expect(text, `${sql}: names the other account's table`).not.toContain(secret);
      expect(text, `${sql}: names the other account's column`).not.toContain(column);
    }
  },
  { parts, needs },
);

conformance(
  ['security.data.other-organization'],
  "a chart reads its own account's table though another account's, made later, has the same name",
  async (t) => {
    const table = `sales_${t.faker.string.alpha({ length: 6, casing: 'lower' })}`;
    const columns: Column[] = [
      { name: 'region', type: 'text' },
      { name: 'product', type: 'text' },
    ];
    const mine = await buildWorld(t);
    await connect(t, mine, table, columns, [{ region: 'north', product: 'Mine' }]);
    const theirs = await buildWorld(t);
    await connect(t, theirs, table, columns, [{ region: 'north', product: 'Theirs' }]);
    const { res, text } = await chartText(t, mine, `SELECT product FROM ${table}`, 'product');
    expect(text, `the other account's row: ${describeAnswer(res)}`).not.toContain('Theirs');
    expect(text, `the account's own row: ${describeAnswer(res)}`).toContain('Mine');
  },
  { parts, needs },
);

conformance(
  ['security.data.rows-of-the-user'],
  "a chart over a one-column table holds only the user's rows",
  async (t) => {
    const w = await buildWorld(t);
    const table = `regions_${t.faker.string.alpha({ length: 6, casing: 'lower' })}`;
    await connect(
      t,
      w,
      table,
      [{ name: 'region', type: 'text' }],
      [{ region: 'north' }, { region: 'south' }, { region: 'east' }],
    );
    const { res, text } = await chartText(t, w, `SELECT region FROM ${table}`, 'region');
    expect(text, `rows of other regions: ${describeAnswer(res)}`).not.toMatch(/south|east/);
    expect(text, `the user's own row: ${describeAnswer(res)}`).toContain('north');
  },
  { parts, needs },
);
