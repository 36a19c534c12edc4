/**
 * Drill-down on the parse tree (§2.2 drillDown: the data behind one point of a chart). A saved
 * chart's SQL aggregates one table; the rows behind one point are that table's rows the chart's
 * WHERE keeps and whose dimension expression equals the point's value. Reading the chart's
 * DuckDB parse tree (json_serialize_sql) rather than its text finds the table and the dimension
 * expression whatever the spelling; DuckDB turns the rewritten tree back into SQL
 * (json_deserialize_sql). Pure functions; reference/charts/drill-down.ts runs them.
 *
 * Decision hub.drill-down.single-table: only a chart that is one SELECT over one of its
 * connection's tables (no join, subquery, common table expression, set operation, QUALIFY or
 * SAMPLE) can be drilled; any other chart says drill-down is not available for it.
 */

export type DrillPlan =
  { ok: true; tree: unknown; sampleSetAside: boolean } | { ok: false; reason: string };

/** Names the rewrite template uses for the parts it splices in. */
export const POINT_PLACEHOLDER = '__eac_drill_point';
export const WHERE_PLACEHOLDER = '__eac_drill_where';
export const TABLE_PLACEHOLDER = '__eac_drill_table';

/**
 * The SQL whose parse tree is the shape of a drill-down query: every column of the table, where
 * the chart's WHERE holds (when it has one) and the dimension equals parameter `$param` (or is
 * NULL, for a NULL point). Names only, no value: the value is bound.
 */
export function drillTemplateSql(options: {
  hasWhere: boolean;
  nullPoint: boolean;
  param: number;
}): string {
  const point = options.nullPoint
    ? `"${POINT_PLACEHOLDER}" IS NULL`
    : `"${POINT_PLACEHOLDER}" IS NOT DISTINCT FROM $${String(options.param)}`;
  const where = options.hasWhere ? `"${WHERE_PLACEHOLDER}" AND (${point})` : point;
  return `SELECT * FROM "${TABLE_PLACEHOLDER}" WHERE ${where}`;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every query_location to 0: DuckDB writes "unknown" as 2^64-1, which a JS number cannot hold. */
export function withoutLocations(tree: unknown): unknown {
  if (Array.isArray(tree)) return tree.map(withoutLocations);
  if (!isObject(tree)) return tree;
  const out: Json = {};
  for (const [k, v] of Object.entries(tree))
    out[k] = k === 'query_location' ? 0 : withoutLocations(v);
  return out;
}

/** The one SELECT node of a parse tree, or why there is none. */
function selectNode(
  tree: unknown,
): { ok: true; node: Json; statement: Json } | { ok: false; reason: string } {
  if (!isObject(tree) || tree['error'] === true)
    return { ok: false, reason: 'its SQL cannot be read' };
  const statements = tree['statements'];
  const statement: unknown =
    Array.isArray(statements) && statements.length === 1 ? statements[0] : undefined;
  if (!isObject(statement) || !isObject(statement['node']))
    return { ok: false, reason: 'its SQL is not one SELECT' };
  const node = statement['node'];
  if (node['type'] !== 'SELECT_NODE')
    return { ok: false, reason: 'its SQL is not one SELECT (a set operation)' };
  return { ok: true, node, statement };
}

/** Whether a node holds anything of these expression classes or table-reference types. */
function holds(node: unknown, kinds: ReadonlySet<string>): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = holds(n, kinds);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  for (const key of ['class', 'type']) {
    const v = node[key];
    if (typeof v === 'string' && kinds.has(v)) return v;
  }
  for (const v of Object.values(node)) {
    const found = holds(v, kinds);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The name of a base table DuckDB did not name (it always does): no connection table has it. */
const NO_TABLE = '';

const NOT_SINGLE_TABLE = new Set([
  'SUBQUERY',
  'JOIN',
  'TABLE_FUNCTION',
  'EXPRESSION_LIST',
  'PIVOT',
]);

/** The name a select-list entry gives its output column, when it names one plainly. */
function outputName(expr: Json): string | undefined {
  const alias = expr['alias'];
  if (typeof alias === 'string' && alias !== '') return alias;
  if (expr['class'] === 'COLUMN_REF') {
    const names = expr['column_names'];
    const last: unknown = Array.isArray(names) ? names[names.length - 1] : undefined;
    return typeof last === 'string' ? last : undefined;
  }
  return undefined;
}

/** The select-list expression the chart's dimension column comes from. */
function dimensionExpression(node: Json, dimension: string): Json | undefined {
  const list = Array.isArray(node['select_list']) ? node['select_list'].filter(isObject) : [];
  return (
    list.find((e) => outputName(e) === dimension) ??
    list.find((e) => outputName(e)?.toLowerCase() === dimension.toLowerCase())
  );
}

/** Replaces the column reference named `name` (anywhere in `tree`) by `by`. */
function replaceColumn(tree: unknown, name: string, by: unknown): unknown {
  if (Array.isArray(tree)) return tree.map((t) => replaceColumn(t, name, by));
  if (!isObject(tree)) return tree;
  const names = tree['column_names'];
  if (
    tree['class'] === 'COLUMN_REF' &&
    Array.isArray(names) &&
    names.length === 1 &&
    names[0] === name
  )
    return by;
  return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, replaceColumn(v, name, by)]));
}

/**
 * The parse tree of the drill-down query for a chart's parse tree (`chart`), the parse tree of
 * drillTemplateSql (`template`) with the same `hasWhere`/`nullPoint`, the chart's dimension
 * column and the tables its connection exposes; or why the chart cannot be drilled.
 */
export function drillTree(
  chart: unknown,
  template: unknown,
  dimension: string,
  allowedTables: readonly string[],
  /**
   * A chart that samples its table (decision hub.drill-down.single-table: not drilled), or
   * drilled into every row behind the point, the sample set aside (settings drillSampled).
   */
  sampled: 'refuse' | 'every-row' = 'refuse',
): DrillPlan {
  const parsed = selectNode(chart);
  if (!parsed.ok) return parsed;
  const { node, statement } = parsed;
  const ctes = (node['cte_map'] as { map?: unknown[] } | undefined)?.map ?? [];
  if (ctes.length > 0) return { ok: false, reason: 'its SQL uses a common table expression' };
  const from = node['from_table'];
  if (!isObject(from) || from['type'] !== 'BASE_TABLE')
    return {
      ok: false,
      reason: 'its SQL does not read one table (a join, a subquery or no table)',
    };
  const table = typeof from['table_name'] === 'string' ? from['table_name'] : NO_TABLE;
  const qualified = from['schema_name'] !== '' || from['catalog_name'] !== '';
  if (qualified || !allowedTables.some((t) => t.toLowerCase() === table.toLowerCase()))
    return { ok: false, reason: `its table ${table} is not one of its connection's tables` };
  const other = holds(node, NOT_SINGLE_TABLE);
  if (other !== undefined)
    return { ok: false, reason: `its SQL holds a ${other.toLowerCase().replaceAll('_', ' ')}` };
  const samples = node['sample'] != null || from['sample'] != null;
  if (node['qualify'] != null || (samples && sampled === 'refuse'))
    return { ok: false, reason: 'its SQL uses QUALIFY or SAMPLE' };
  const expr = dimensionExpression(node, dimension);
  if (expr === undefined)
    return { ok: false, reason: `its SQL has no plain column ${dimension} to drill into` };
  if (holds(expr, new Set(['WINDOW'])) !== undefined)
    return { ok: false, reason: `its column ${dimension} is a window function` };

  const shape = selectNode(template);
  if (!shape.ok) return { ok: false, reason: 'the drill-down template cannot be read' };
  const where = node['where_clause'];
  let target: Json = { ...shape.node, from_table: samples ? { ...from, sample: null } : from };
  target = replaceColumn(target, POINT_PLACEHOLDER, { ...expr, alias: '' }) as Json;
  if (isObject(where)) target = replaceColumn(target, WHERE_PLACEHOLDER, where) as Json;
  const paramMap = (of: Json): unknown[] =>
    Array.isArray(of['named_param_map']) ? (of['named_param_map'] as unknown[]) : [];
  const params = [...paramMap(statement), ...paramMap(shape.statement)];
  return {
    ok: true,
    tree: {
      error: false,
      statements: [{ ...shape.statement, node: target, named_param_map: params }],
    },
    sampleSetAside: samples,
  };
}
