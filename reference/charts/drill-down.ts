import type { SpecError } from '../../spec/errors.ts';
import type { ReferenceContext } from '../context.ts';
import type { DataConnection, DataStore } from '../data/database.ts';
import { drillTemplateSql, drillTree } from '../data/drill.ts';
import { propertyParam } from '../data/sql.ts';
import { chartSource } from './rows.ts';

/** Decision hub.drill-down.rows: a drill-down shows at most this many rows, with the count. */
export const DRILL_LIMIT = 100;

export type DrillRows =
  /** The first rows behind the point (at most the limit) and how many there are in all. */
  | { kind: 'rows'; columns: string[]; rows: Record<string, unknown>[]; total: number }
  /** The chart's SQL is not a single-table query drill-down can read (decision hub.drill-down.single-table). */
  | { kind: 'unavailable'; reason: string }
  | { kind: 'error'; error: SpecError };

/** The point a drill-down is asked for, and how the chart's rows are filtered. */
export interface DrillInput {
  /** The chart's dimension column (its output name in the chart's rows). */
  dimension: string;
  /** The point's value in that column, as the chart's rows hold it. */
  value: unknown;
  properties: Readonly<Record<string, unknown>>;
  filters?: readonly { field: string; value: unknown }[];
  limit?: number;
}

/**
 * §2.2 drillDown: the rows of a saved chart's table behind one point, the rows whose dimension
 * expression equals the point's value. They run like the chart's own rows (chartRows): on the
 * chart's connection, under row-level security with the user's properties bound, with the
 * page's controlled filters; the point's value is one more bound parameter.
 */
export async function drillDownRows(
  ctx: Pick<ReferenceContext, 'store'>,
  input: DrillInput & { organizationId: string; chartId: string },
): Promise<DrillRows> {
  const source = chartSource(ctx, input.organizationId, input.chartId);
  if (!source.ok) return { kind: 'error', error: source.error };
  return drillQuery(ctx.store.data, source.connection, source.sql, input);
}

/** The same on a connection and a chart's SQL (drillDownRows; unit tests). */
export async function drillQuery(
  data: DataStore,
  connection: DataConnection,
  chartSql: string,
  input: DrillInput,
): Promise<DrillRows> {
  const bound = data.bindUser(chartSql, input.properties);
  if (!bound.ok) return { kind: 'error', error: bound.error };
  const tables = connection.tables.map((t) => t.name);
  const chart = await data.parseTree(bound.value.sql);
  // None for a NULL point: propertyParam answers undefined for null and undefined.
  const point = propertyParam(input.value);
  const param = bound.value.params.length + 1;
  const template = await data.parseTree(
    drillTemplateSql({ hasWhere: hasWhere(chart), nullPoint: point === undefined, param }),
  );
  const plan = drillTree(chart, template, input.dimension, tables);
  if (!plan.ok) return { kind: 'unavailable', reason: plan.reason };
  const sql = await data.treeSql(plan.tree);
  if (sql === undefined)
    return {
      kind: 'unavailable',
      reason: 'its SQL cannot be rewritten',
    };

  const params = point === undefined ? bound.value.params : [...bound.value.params, point];
  const filters = (input.filters ?? []).map((f) => ({ column: f.field, value: f.value }));
  const run = (text: string) =>
    data.queryBound(connection, { sql: text, params }, input.properties, filters);
  const counted = await run(`SELECT count(*) AS "n" FROM (${sql}) AS "drill"`);
  if (!counted.ok) return failed(counted.error);
  const limit = input.limit ?? DRILL_LIMIT;
  const rows = await run(`${sql} LIMIT ${String(Math.max(0, Math.floor(limit)))}`);
  if (!rows.ok) return failed(rows.error);
  return {
    kind: 'rows',
    columns: rows.value.columns,
    rows: rows.value.rows,
    total: Number(counted.value.rows[0]?.['n'] ?? 0),
  };
}

/** Whether a parse tree's SELECT has a WHERE clause (the template has a slot for it then). */
function hasWhere(tree: unknown): boolean {
  const statements = (tree as { statements?: { node?: { where_clause?: unknown } }[] } | undefined)
    ?.statements;
  return statements?.[0]?.node?.where_clause != null;
}

/**
 * A drill-down query DuckDB refused (the dimension is an aggregate, a type the value does not
 * cast to) is a chart drill-down cannot read; a missing property stays the user's problem.
 */
function failed(error: SpecError): DrillRows {
  return error.code === 'VALIDATION_ERROR'
    ? {
        kind: 'unavailable',
        reason: `its drill-down query failed: ${error.message}`,
      }
    : { kind: 'error', error };
}
