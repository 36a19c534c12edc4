import { quoteIdent, type ExposedTable, type RowFilterRule } from './sql.ts';
import { words } from './words.ts';

/** The seeded dataset is the same in every reference process: a fixed seed, a fixed size. */
export const DATA_SEED = 20_251;
export const ORDER_ROWS = 300_000;

/** The seeded `orders` table, as a connection without a table of its own exposes it. */
export const ORDERS: ExposedTable = {
  name: 'orders',
  source: 'seed.orders',
  columns: [
    { name: 'organization', type: 'VARCHAR' },
    { name: 'region', type: 'VARCHAR' },
    { name: 'product', type: 'VARCHAR' },
    { name: 'category', type: 'VARCHAR' },
    { name: 'channel', type: 'VARCHAR' },
    { name: 'order_date', type: 'DATE' },
    { name: 'quantity', type: 'INTEGER' },
    { name: 'amount', type: 'DOUBLE' },
  ],
};

/**
 * Decision (docs/reference-agent.md): a connection to the seeded dataset shows a user
 * only the orders of the organization named by the user's `organization` property.
 */
export const ORDERS_ROW_FILTERS: readonly RowFilterRule[] = [
  { column: 'organization', property: 'organization' },
];

const list = (values: readonly string[]) =>
  `[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]`;

/**
 * The statements that build `seed.orders` inside DuckDB from `range()`: every pick is a hash
 * of the row number and the seed, so the rows are the same in every process and no row is
 * built in JavaScript. Sorted by organization, so a row filter on it skips most of the table.
 */
export function seedStatements(rows = ORDER_ROWS, seed = DATA_SEED): string {
  const w = words();
  // One hash per row and salt; hash(i, a, b) of several arguments correlates across salts.
  const h = (salt: number) => `hash(i * 7919 + ${String(salt * 104_729 + seed)})`;
  const pick = (values: string, n: number, salt: number) =>
    `${values}[CAST(1 + ${h(salt)} % ${String(n)} AS BIGINT)]`;
  const products = w.products;
  const p = `CAST(1 + ${h(4)} % ${String(products.length)} AS BIGINT)`;
  return `
CREATE SCHEMA IF NOT EXISTS seed;
CREATE TABLE seed.orders AS
WITH picks AS (
  SELECT
    ${pick(list(w.organizations), w.organizations.length, 1)} AS organization,
    ${pick(list(w.regions), w.regions.length, 2)} AS region,
    ${pick(list(w.channels), w.channels.length, 3)} AS channel,
    ${p} AS p,
    DATE '2023-01-01' + CAST(${h(5)} % 1096 AS INTEGER) AS order_date,
    CAST(1 + ${h(6)} % 20 AS INTEGER) AS quantity,
    0.8 + CAST(${h(7)} % 41 AS DOUBLE) / 100 AS discount
  FROM range(${String(rows)}) t(i)
)
SELECT
  organization, region,
  ${list(products.map((x) => x.name))}[p] AS ${quoteIdent('product')},
  ${list(products.map((x) => x.category))}[p] AS category,
  channel, order_date, quantity,
  round(quantity * [${products.map((x) => String(x.price)).join(', ')}][p] * discount, 2) AS amount
FROM picks
ORDER BY organization, order_date;`;
}
