import { specError, type SpecError } from '../../spec/errors.ts';

/**
 * Row-level security on the SQL text (§1, §2.4): `{{user.<key>}}` becomes a bound parameter,
 * never the value spliced into the text, and the connection's tables are reached only through
 * filtered common table expressions. Pure functions; reference/data/database.ts runs them.
 */

/** A value DuckDB binds: what a user property turns into. */
export type SqlParam = string | number | boolean;

export interface BoundSql {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

export type Bound = { ok: true; value: BoundSql } | { ok: false; error: SpecError };

const PLACEHOLDER = /^\{\{\s*user\.([A-Za-z0-9_.-]+)\s*\}\}/;

/** Decision resources.properties.missing-property: 403 FORBIDDEN naming the key. */
export const missingProperty = (key: string) =>
  specError('FORBIDDEN', `the user has no property "${key}", which this data needs`, {
    reason: 'missing-user-property',
    property: key,
  });

/** A property as a bound value: scalars as they are, anything else as its JSON text. */
export function propertyParam(value: unknown): SqlParam | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return JSON.stringify(value);
}

/** The text a row filter compares a column with (the column is compared as text too). */
export function propertyText(value: unknown): string | undefined {
  const p = propertyParam(value);
  return p === undefined ? undefined : String(p);
}

/**
 * Replaces every `{{user.<key>}}` by `$n` (one n per key), numbering from `first`. Outside a
 * string literal the value is bound as it is; inside one (`'{{user.region}}'`, `'%{{user.x}}%'`)
 * the literal becomes a concatenation with the value bound as text. Comments and quoted
 * identifiers are copied unchanged. `binding` `text` binds every value as text, a bare one too
 * (another way a server may carry the values, resources.properties.bound-not-spliced).
 */
export function bindUserPlaceholders(
  sql: string,
  properties: Readonly<Record<string, unknown>>,
  first = 1,
  binding: 'typed' | 'text' = 'typed',
): Bound {
  const params: SqlParam[] = [];
  const slots = new Map<string, string>();
  let missing: string | undefined;
  const slot = (key: string, inLiteral: boolean): string => {
    const asText = inLiteral || binding === 'text';
    const value = propertyParam(properties[key]);
    if (value === undefined) {
      missing ??= key;
      return 'NULL';
    }
    const name = `${key}${asText ? ':text' : ''}`;
    let ref = slots.get(name);
    if (ref === undefined) {
      ref = bindValue(params, asText ? String(value) : value, first);
      slots.set(name, ref);
    }
    return ref;
  };

  let out = '';
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const ch = sql[i];
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === '"' && sql[j + 1] !== '"')) j += sql[j] === '"' ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "'") {
      // Read the literal's content ('' is an escaped quote).
      let j = i + 1;
      let content = '';
      let closed = false;
      while (j < sql.length) {
        if (sql[j] === "'" && sql[j + 1] === "'") {
          content += "'";
          j += 2;
        } else if (sql[j] === "'") {
          closed = true;
          break;
        } else content += sql[j++];
      }
      if (!closed) {
        // An unclosed literal is left as it is for the parser to refuse, never closed here.
        out += sql.slice(i);
        break;
      }
      i = j + 1;
      out += literalWithPlaceholders(content, (key) => slot(key, true));
    } else if ((ch === '$' && /^\$[0-9A-Za-z_]/.test(rest)) || ch === '?') {
      // Parameters of its own would take the values bound for the user's properties.
      return {
        ok: false,
        error: specError('VALIDATION_ERROR', 'the SQL was refused: it may not hold parameters', {
          reason: 'sql-refused',
          issues: [{ path: ['sql'], message: 'parameters are not allowed', code: 'sql' }],
        }),
      };
    } else {
      const m = PLACEHOLDER.exec(rest);
      if (m !== null) {
        out += slot(m[1] ?? '', false);
        i += m[0].length;
      } else {
        out += ch;
        i += 1;
      }
    }
  }
  if (missing !== undefined) return { ok: false, error: missingProperty(missing) };
  return { ok: true, value: { sql: out, params } };
}

/**
 * Binds one value: adds it to the parameters and answers the `$n` that names it. The one
 * place a value meets the SQL text, for the placeholders and the row filters alike.
 */
export function bindValue(params: SqlParam[], value: SqlParam, first: number): string {
  params.push(value);
  return `$${String(first + params.length - 1)}`;
}

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

function literalWithPlaceholders(content: string, slot: (key: string) => string): string {
  const parts: string[] = [];
  let text = '';
  let k = 0;
  while (k < content.length) {
    const m = PLACEHOLDER.exec(content.slice(k));
    if (m === null) {
      text += content[k++];
      continue;
    }
    if (text !== '') parts.push(quoteLiteral(text));
    text = '';
    parts.push(slot(m[1] ?? ''));
    k += m[0].length;
  }
  if (text !== '' || parts.length === 0) parts.push(quoteLiteral(text));
  return parts.length === 1 ? (parts[0] ?? "''") : `(${parts.join(' || ')})`;
}

/** A table a connection exposes, and the rows of it a user may see. */
export interface ExposedTable {
  /** The name SQL uses (`orders`). */
  readonly name: string;
  /** Where the rows live (`seed.orders`, `c_….sales`). */
  readonly source: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
}

export interface RowFilterRule {
  readonly column: string;
  readonly property: string;
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The row filters a connection applies: the one place both the agent's SQL and the wrapping
 * of every query read them from.
 */
export function rowFiltersOf(connection: {
  readonly rowFilters: readonly RowFilterRule[];
}): readonly RowFilterRule[] {
  return connection.rowFilters;
}

/** A dashboard filter (hub `filter_{controlKey}`, chart-data `filters`): column equals value. */
export interface ValueFilter {
  readonly column: string;
  readonly value: unknown;
}

/**
 * Puts the connection's tables in front of a query as common table expressions, each holding
 * only the rows the user may see: a row filter keeps a row when its column, read as text,
 * equals the user's property, bound as a parameter numbered from `first`.
 */
export function wrapWithTables(
  query: string,
  tables: readonly ExposedTable[],
  rowFilters: readonly RowFilterRule[],
  properties: Readonly<Record<string, unknown>>,
  first: number,
  filters: readonly ValueFilter[] = [],
): Bound {
  const params: SqlParam[] = [];
  const ctes: string[] = [];
  const slot = (value: string) => bindValue(params, value, first);
  for (const table of tables) {
    const conditions: string[] = [];
    const read = (name: string) => {
      const column = table.columns.find((c) => c.name === name);
      return column?.type === 'VARCHAR' ? quoteIdent(name) : `CAST(${quoteIdent(name)} AS VARCHAR)`;
    };
    for (const rule of rowFilters) {
      if (!table.columns.some((c) => c.name === rule.column)) continue;
      const value = propertyText(properties[rule.property]);
      if (value === undefined) return { ok: false, error: missingProperty(rule.property) };
      conditions.push(`${read(rule.column)} = ${slot(value)}`);
    }
    for (const filter of filters) {
      if (!table.columns.some((c) => c.name === filter.column)) continue;
      const values = (Array.isArray(filter.value) ? filter.value : [filter.value])
        .map(propertyText)
        .filter((v): v is string => v !== undefined);
      conditions.push(
        values.length === 0
          ? 'FALSE'
          : `${read(filter.column)} IN (${values.map(slot).join(', ')})`,
      );
    }
    const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
    ctes.push(`${quoteIdent(table.name)} AS (SELECT * FROM ${table.source}${where})`);
  }
  const body = stripTrailingSemicolons(query);
  const lead = /^\s*WITH\s+(RECURSIVE\s+)?/i.exec(withoutLeadingComments(body));
  if (ctes.length === 0) return { ok: true, value: { sql: body, params } };
  if (lead !== null) {
    const rest = withoutLeadingComments(body).slice(lead[0].length);
    return {
      ok: true,
      value: { sql: `WITH ${lead[1] ?? ''}${ctes.join(', ')}, ${rest}`, params },
    };
  }
  return { ok: true, value: { sql: `WITH ${ctes.join(', ')} ${body}`, params } };
}

export function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}

export function withoutLeadingComments(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s+/, '');
    if (t.startsWith('--')) {
      const end = t.indexOf('\n');
      s = end === -1 ? '' : t.slice(end + 1);
    } else if (t.startsWith('/*')) {
      const end = t.indexOf('*/');
      s = end === -1 ? '' : t.slice(end + 2);
    } else return t;
  }
}

/** Table-reference node types a read-only chart query may use. */
const ALLOWED_REFS = new Set([
  'BASE_TABLE',
  'JOIN',
  'SUBQUERY',
  'EMPTY',
  'EXPRESSION_LIST',
  'PIVOT',
]);
// Every other kind of table reference is refused: TABLE_FUNCTION (read_csv, glob, ...) and
// SHOW_REF among those the parser gives, and any kind a newer parser adds.

/**
 * Checks the parse tree DuckDB gives (json_serialize_sql, which only parses one kind of
 * statement: SELECT) of a query: exactly one statement, no table functions (file readers,
 * `query()`, catalog listings), and every table it names either one of the connection's
 * tables or a common table expression of its own, never schema-qualified. Answers the reason
 * a query is refused, or undefined.
 */
export function refusalOfTree(tree: unknown, allowedTables: readonly string[]): string | undefined {
  if (typeof tree !== 'object' || tree === null) return 'the SQL cannot be read';
  const root = tree as { error?: boolean; error_message?: string; statements?: unknown[] };
  if (root.error === true) return `only one read-only SELECT may run: ${root.error_message ?? ''}`;
  if (!Array.isArray(root.statements) || root.statements.length !== 1)
    return 'exactly one SELECT statement may run';
  const ctes = new Set<string>();
  const bases: { schema: string; catalog: string; name: string }[] = [];
  let refused: string | undefined;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    const type = o['type'];
    // A table reference (a typed node with an alias, not an expression): only the kinds allowed
    // pass, so a kind this guard does not know (a newer DuckDB's) is refused, not let through.
    if (typeof type === 'string' && 'alias' in o && !('class' in o)) {
      if (!ALLOWED_REFS.has(type)) refused ??= `${type.toLowerCase()} is not allowed here`;
      if (type === 'BASE_TABLE') {
        const text = (v: unknown) => (typeof v === 'string' ? v : '');
        bases.push({
          schema: text(o['schema_name']),
          catalog: text(o['catalog_name']),
          name: text(o['table_name']),
        });
      }
    }
    const cteMap = o['cte_map'] as { map?: { key?: unknown }[] } | undefined;
    for (const entry of cteMap?.map ?? []) {
      if (typeof entry.key === 'string') ctes.add(entry.key.toLowerCase());
    }
    for (const value of Object.values(o)) walk(value);
  };
  walk(root.statements);
  if (refused !== undefined) return refused;
  const allowed = new Set(allowedTables.map((t) => t.toLowerCase()));
  const listed = allowedTables.join(', ');
  for (const b of bases) {
    if (b.schema !== '' || b.catalog !== '')
      return `table ${b.schema === '' ? '' : `${b.schema}.`}${b.name} is not one of the connection's tables`;
    const name = b.name.toLowerCase();
    if (!allowed.has(name) && !ctes.has(name))
      return `table ${b.name} is not one of the connection's tables (${listed})`;
  }
  return undefined;
}
