import { MissingProperty, SqlError, execute, parseSql } from './sql.ts';
import type { Result, Row, Table, Value } from './sql.ts';
import type { Account, Connection } from './store.ts';

/**
 * The data behind charts: the seeded demo table every connection without a table of its own
 * reaches, connections' own tables, row filters and dashboard filters.
 */

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildSeeded(): Table {
  const rand = prng(20240611);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const tenants = ['northwind', 'contoso', 'initech', 'umbrella', 'hooli'];
  const regions = ['Nordics', 'Iberia', 'Benelux', 'Alps', 'Balkans'];
  const products = ['Kettle', 'Lamp', 'Desk', 'Chair', 'Shelf', 'Rug'];
  const channels = ['Web', 'Store', 'Phone', 'Reseller'];
  const rows: Row[] = [];
  const start = Date.UTC(2023, 0, 1);
  for (let i = 0; i < 4000; i++) {
    const day = Math.floor(rand() * 1095);
    const quantity = 1 + Math.floor(rand() * 9);
    rows.push({
      tenant: pick(tenants),
      region: pick(regions),
      product: pick(products),
      channel: pick(channels),
      quantity,
      amount: Math.round(quantity * (5 + rand() * 195) * 100) / 100,
      order_date: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
    });
  }
  return {
    name: 'sales',
    columns: [
      { name: 'tenant', type: 'text' },
      { name: 'region', type: 'text' },
      { name: 'product', type: 'text' },
      { name: 'channel', type: 'text' },
      { name: 'quantity', type: 'integer' },
      { name: 'amount', type: 'number' },
      { name: 'order_date', type: 'date' },
    ],
    rows,
  };
}

export const SEEDED: Table = buildSeeded();

export function tableOf(connection: Connection | null): Table {
  return connection?.table ?? SEEDED;
}

export interface DashboardFilter {
  field: string;
  value: unknown;
}

function same(a: Value, b: unknown): boolean {
  if (a === null || b === null || b === undefined) return false;
  if (typeof b !== 'string' && typeof b !== 'number' && typeof b !== 'boolean') return false;
  return String(a) === String(b);
}

/** The rows of a connection's table one user may see, after the connection's row filters. */
export function visibleRows(
  connection: Connection | null,
  properties: Record<string, unknown>,
  filters: DashboardFilter[] = [],
): Row[] {
  const table = tableOf(connection);
  const rowFilters = connection?.rowFilters ?? [];
  for (const f of rowFilters)
    if (!Object.hasOwn(properties, f.property)) throw new MissingProperty(f.property);
  const columns = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const applicable = filters
    .map((f) => ({ column: columns.get(f.field.toLowerCase()), value: f.value }))
    .filter((f): f is { column: string; value: unknown } => f.column !== undefined);
  return table.rows.filter((row) => {
    for (const f of rowFilters)
      if (!same(row[f.column] ?? null, properties[f.property])) return false;
    for (const f of applicable) {
      const v = row[f.column] ?? null;
      if (f.value === null) return false;
      if (Array.isArray(f.value)) {
        if (!f.value.some((x) => same(v, x))) return false;
      } else if (!same(v, f.value)) return false;
    }
    return true;
  });
}

/** Runs one read-only SELECT for a user, through row filters and dashboard filters. */
export function runSql(
  connection: Connection | null,
  sql: string,
  properties: Record<string, unknown>,
  filters: DashboardFilter[] = [],
): Result {
  const query = parseSql(sql);
  const table = tableOf(connection);
  if (query.table.toLowerCase() !== table.name.toLowerCase())
    throw new SqlError('sql-failed', `Unknown table "${query.table}".`);
  const rows = visibleRows(connection, properties, filters);
  return execute(query, table, rows, properties);
}

/** The connection a chart's SQL reads: its own, else the newest naming its table, else none. */
export function connectionForSql(
  account: Account,
  connectionId: string | null,
  sql: string,
): Connection | null {
  if (connectionId) {
    const own = account.connections.get(connectionId);
    if (own) return own;
  }
  let name: string | null = null;
  try {
    name = parseSql(sql).table.toLowerCase();
  } catch {
    return null;
  }
  const candidates = [...account.connections.values()]
    .filter((c) => c.table && c.table.name.toLowerCase() === name)
    .sort((a, b) => b.seq - a.seq);
  return candidates[0] ?? null;
}
