import { DuckDBInstance, DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import { specError, type SpecError } from '../../spec/errors.ts';
import type { ConnectionColumnType, ConnectionTable, RowFilter } from '../../spec/schemas/hooks.ts';
import type { Done } from '../done.ts';
import { withoutLocations } from './drill.ts';
import { ORDERS, ORDERS_ROW_FILTERS, seedStatements } from './seed.ts';
import {
  bindUserPlaceholders,
  quoteIdent,
  refusalOfTree,
  rowFiltersOf,
  stripTrailingSemicolons,
  wrapWithTables,
  type ExposedTable,
  type RowFilterRule,
  type BoundSql,
  type ValueFilter,
} from './sql.ts';

/** A data connection (hooks `connections`): the tables it exposes and its row filters. */
export interface DataConnection {
  readonly connectionId: string | null;
  readonly organizationId: string;
  readonly name: string;
  readonly tables: readonly ExposedTable[];
  readonly rowFilters: readonly RowFilterRule[];
  /** Where a table of its own lives (dropped with the connection). */
  readonly schema?: string;
}

export interface QueryRows {
  readonly columns: string[];
  readonly rows: Record<string, unknown>[];
}

/** The words of a recursive query's refusal, where recursion is refused. */
export const RECURSION_REFUSED = 'recursive queries are not allowed';

/** Decision: a query running longer than this is stopped and refused (400). */
export const QUERY_TIMEOUT_MS = 5_000;

const DUCK_TYPES: Record<ConnectionColumnType, string> = {
  text: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  date: 'DATE',
  boolean: 'BOOLEAN',
};

const NUMERIC_TEXT = new Set<number>([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.DECIMAL,
]);

const sqlRefused = (reason: string, extra: Record<string, unknown> = {}) =>
  specError('VALIDATION_ERROR', `the SQL was refused: ${reason}`, {
    reason: 'sql-refused',
    issues: [{ path: ['sql'], message: reason, code: 'sql' }],
    ...extra,
  });

/**
 * The reference's analytics data: one in-memory DuckDB database per reference process, with
 * the seeded `orders` dataset (built inside DuckDB when first wanted, so the server starts
 * listening without waiting for it) and one schema per connection that holds a table of its
 * own. Every query a user's request runs goes through query(): read-only, row filters
 * applied, `{{user.<key>}}` bound.
 */
export class DataStore {
  private instance: Promise<DuckDBInstance> | undefined;
  private seeded: Promise<void> | undefined;
  private readonly connections = new Map<string, DataConnection>();
  private schemas = 0;

  /**
   * `rows`: the size of the seeded orders (unit tests use a small one). `recursion`: whether a
   * recursive common table expression may run (decision resources.data.read-only-sql: it may),
   * or is refused before it runs. `binding`: how a bare `{{user.<key>}}` is bound (bindUser).
   */
  constructor(
    private readonly options: {
      rows?: number;
      recursion?: 'allowed' | 'refused';
      binding?: 'typed' | 'text';
    } = {},
  ) {}

  /**
   * A chart's SQL with its `{{user.<key>}}` bound from the user's properties (decision
   * resources.properties.bound-not-spliced: a bare one as it is; `binding: 'text'`, as text).
   */
  bindUser(sql: string, properties: Readonly<Record<string, unknown>>) {
    return bindUserPlaceholders(
      stripTrailingSemicolons(sql),
      properties,
      1,
      this.options.binding ?? 'typed',
    );
  }

  private db(): Promise<DuckDBInstance> {
    this.instance ??= DuckDBInstance.create(':memory:', {
      // Chart SQL comes from callers: no files, no network, no extensions.
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: '2',
    });
    return this.instance;
  }

  /** Builds the seeded dataset once; the first query that needs it waits for it. */
  start(): Promise<void> {
    this.seeded ??= (async () => {
      await this.withConnection((c) => c.run(seedStatements(this.options.rows)));
    })();
    return this.seeded;
  }

  /** The connections of the statements running now (stop()). */
  private readonly running = new Set<DuckDBConnection>();

  private async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await (await this.db()).connect();
    this.running.add(c);
    try {
      return await fn(c);
    } finally {
      this.running.delete(c);
      c.closeSync();
    }
  }

  /**
   * Interrupts every statement still running, as the reference closes: each ends as a query
   * stopped by its time limit would. Without it, closing waited for the requests still running
   * one, and the process could not exit while DuckDB's threads ran it.
   */
  stop(): void {
    for (const c of this.running) c.interrupt();
  }

  /** The connection an agent without one reaches: the seeded orders, default row filter. */
  seedConnection(organizationId: string): DataConnection {
    return {
      connectionId: null,
      organizationId,
      name: 'orders',
      tables: [ORDERS],
      rowFilters: ORDERS_ROW_FILTERS,
    };
  }

  /** A connection of this account, or undefined (another account's ids look the same). */
  connection(organizationId: string, connectionId: string): DataConnection | undefined {
    const c = this.connections.get(connectionId);
    return c?.organizationId === organizationId ? c : undefined;
  }

  /** The account's connections, oldest first. */
  connectionsOf(organizationId: string): DataConnection[] {
    return [...this.connections.values()].filter((c) => c.organizationId === organizationId);
  }

  async createConnection(
    organizationId: string,
    connectionId: string,
    input: { name?: string; table?: ConnectionTable; rowFilters?: readonly RowFilter[] },
  ): Promise<Done<DataConnection>> {
    const name = input.name ?? input.table?.name ?? 'orders';
    if (input.table === undefined) {
      const filters = input.rowFilters ?? ORDERS_ROW_FILTERS;
      const unknown = filters.find((f) => !ORDERS.columns.some((c) => c.name === f.column));
      if (unknown !== undefined) return { ok: false, error: noSuchColumn(unknown.column, 0) };
      const made: DataConnection = {
        connectionId,
        organizationId,
        name,
        tables: [ORDERS],
        rowFilters: filters,
      };
      this.connections.set(connectionId, made);
      return { ok: true, value: made };
    }
    const table = input.table;
    const checked = checkRows(table);
    if (checked !== undefined) return { ok: false, error: checked };
    const filters = input.rowFilters ?? [];
    const index = filters.findIndex((f) => !table.columns.some((c) => c.name === f.column));
    if (index !== -1)
      return { ok: false, error: noSuchColumn(filters[index]?.column ?? '', index) };
    const names = new Set<string>();
    for (const c of table.columns) {
      if (names.has(c.name.toLowerCase()))
        return {
          ok: false,
          error: validation(['table', 'columns'], `column ${c.name} is named twice`),
        };
      names.add(c.name.toLowerCase());
    }

    const schema = `c_${String(++this.schemas)}`;
    const source = `${schema}.${quoteIdent(table.name)}`;
    const columns = table.columns.map((c) => `${quoteIdent(c.name)} ${DUCK_TYPES[c.type]}`);
    const structure = JSON.stringify(
      Object.fromEntries(table.columns.map((c) => [c.name, DUCK_TYPES[c.type]])),
    );
    const rows = table.rows.map((r) =>
      Object.fromEntries(table.columns.map((c) => [c.name, r[c.name] ?? null])),
    );
    try {
      await this.withConnection(async (c) => {
        await c.run(`CREATE SCHEMA ${schema}; CREATE TABLE ${source} (${columns.join(', ')});`);
        if (rows.length > 0) {
          await c.run(
            `INSERT INTO ${source} SELECT unnest(from_json($1::JSON, '[${structure.replaceAll("'", "''")}]'), recursive := true)`,
            [JSON.stringify(rows)],
          );
        }
      });
    } catch (err) {
      // Whatever DuckDB still refuses after checkRows (none known): a 400, never a 5xx.
      await this.withConnection((c) => c.run(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      const message = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
      return { ok: false, error: validation(['table', 'rows'], message) };
    }
    const made: DataConnection = {
      connectionId,
      organizationId,
      name,
      schema,
      tables: [
        {
          name: table.name,
          source,
          columns: table.columns.map((c) => ({ name: c.name, type: DUCK_TYPES[c.type] })),
        },
      ],
      rowFilters: filters,
    };
    this.connections.set(connectionId, made);
    return { ok: true, value: made };
  }

  /**
   * Runs one read-only query on a connection for a user: `{{user.<key>}}` bound from the
   * user's properties, the connection's tables reached only through their row filters.
   */
  async query(
    connection: DataConnection,
    sql: string,
    properties: Readonly<Record<string, unknown>>,
    filters: readonly ValueFilter[] = [],
  ): Promise<Done<QueryRows>> {
    const bound = this.bindUser(sql, properties);
    if (!bound.ok) return bound;
    return this.guarded(connection, bound.value, properties, filters);
  }

  /**
   * Runs an already bound query (its `$n` are the given parameters, numbered from 1) on a
   * connection for a user, through the same checks and row filters as query(): drill-down
   * builds its SQL from a chart's parse tree and binds the point's value.
   */
  queryBound(
    connection: DataConnection,
    bound: BoundSql,
    properties: Readonly<Record<string, unknown>>,
    filters: readonly ValueFilter[] = [],
  ): Promise<Done<QueryRows>> {
    return this.guarded(connection, bound, properties, filters);
  }

  /** DuckDB's parse tree of one SELECT (json_serialize_sql), locations zeroed; none: undefined. */
  async parseTree(sql: string): Promise<unknown> {
    try {
      return await this.withConnection(async (c) => {
        const reader = await c.runAndReadAll(
          `SELECT json_serialize_sql('${sql.replaceAll("'", "''")}') AS tree`,
        );
        const text = reader.getRowObjectsJson()[0]?.['tree'];
        return typeof text === 'string' ? withoutLocations(JSON.parse(text)) : undefined;
      });
    } catch {
      return undefined;
    }
  }

  /** The SQL text of a parse tree (json_deserialize_sql); the tree is bound, never spliced. */
  async treeSql(tree: unknown): Promise<string | undefined> {
    try {
      return await this.withConnection(async (c) => {
        const reader = await c.runAndReadAll('SELECT json_deserialize_sql($1::JSON) AS sql', [
          JSON.stringify(tree),
        ]);
        const sql = reader.getRowObjectsJson()[0]?.['sql'];
        return typeof sql === 'string' ? sql : undefined;
      });
    } catch {
      return undefined;
    }
  }

  private async guarded(
    connection: DataConnection,
    bound: BoundSql,
    properties: Readonly<Record<string, unknown>>,
    filters: readonly ValueFilter[],
  ): Promise<Done<QueryRows>> {
    try {
      if (connection.tables.some((t) => t.source === ORDERS.source)) await this.start();
      return await this.checkedRun(connection, bound, properties, filters);
    } catch (err) {
      return { ok: false, error: sqlFailed(err) };
    }
  }

  private checkedRun(
    connection: DataConnection,
    bound: BoundSql,
    properties: Readonly<Record<string, unknown>>,
    filters: readonly ValueFilter[],
  ): Promise<Done<QueryRows>> {
    return this.withConnection(async (c) => {
      const tree = await c.runAndReadAll(
        `SELECT json_serialize_sql('${bound.sql.replaceAll("'", "''")}') AS tree`,
      );
      const text = tree.getRowObjectsJson()[0]?.['tree'];
      const refusal = refusalOfTree(
        typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined,
        connection.tables.map((t) => t.name),
      );
      if (refusal !== undefined) return { ok: false, error: sqlRefused(refusal) };
      const recursive = typeof text === 'string' && text.includes('"RECURSIVE_CTE_NODE"');
      if (this.options.recursion === 'refused' && recursive)
        return { ok: false, error: sqlRefused(RECURSION_REFUSED) };
      const wrapped = wrapWithTables(
        bound.sql,
        connection.tables,
        rowFiltersOf(connection),
        properties,
        bound.params.length + 1,
        filters,
      );
      if (!wrapped.ok) return wrapped;
      const params = [...bound.params, ...wrapped.value.params];
      const timer = setTimeout(() => c.interrupt(), QUERY_TIMEOUT_MS);
      try {
        const prepared = await c.prepare(wrapped.value.sql);
        if (prepared.parameterCount !== params.length) {
          return { ok: false, error: sqlRefused('the SQL may not hold parameters of its own') };
        }
        prepared.bind(params);
        const reader = await prepared.runAndReadAll();
        const columns = reader.columnNames();
        const types = reader.columnTypes().map((t) => t.typeId as number);
        const rows = reader.getRowObjectsJson().map((row) => {
          const out: Record<string, unknown> = {};
          columns.forEach((name, k) => {
            const v = row[name];
            out[name] = NUMERIC_TEXT.has(types[k] ?? -1) && typeof v === 'string' ? Number(v) : v;
          });
          return out;
        });
        return { ok: true, value: { columns, rows } };
      } catch (err) {
        return { ok: false, error: sqlFailed(err) };
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /** Drops every connection of an account (the reset hook). */
  async dropAccount(organizationId: string): Promise<void> {
    const mine = [...this.connections.values()].filter((c) => c.organizationId === organizationId);
    for (const c of mine) if (c.connectionId !== null) this.connections.delete(c.connectionId);
    const schemas = mine.flatMap((c) => (c.schema === undefined ? [] : [c.schema]));
    if (schemas.length === 0) return;
    const drops = schemas.map((s) => `DROP SCHEMA IF EXISTS ${s} CASCADE;`);
    await this.withConnection((c) => c.run(drops.join(' ')));
  }

  /** DuckDB's own time for a statement, for bench/chat.ts. */
  async raw(sql: string, params: (string | number | boolean)[] = []): Promise<QueryRows> {
    await this.start();
    return this.withConnection(async (c) => {
      const reader = await c.runAndReadAll(sql, params);
      return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() };
    });
  }
}

function sqlFailed(err: unknown): SpecError {
  const message = err instanceof Error ? err.message : String(err);
  const interrupted = /interrupt/i.test(message);
  return sqlRefused(
    interrupted
      ? `it ran longer than ${String(QUERY_TIMEOUT_MS)} ms`
      : (message.split('\n')[0] ?? message),
    { reason: interrupted ? 'sql-timeout' : 'sql-failed' },
  );
}

const validation = (path: (string | number)[], message: string) =>
  specError('VALIDATION_ERROR', message, {
    issues: [{ path, message, code: 'custom' }],
  });

const noSuchColumn = (column: string, index: number) =>
  validation(['rowFilters', index, 'column'], `the table has no column ${column}`);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A YYYY-MM-DD date some calendar day holds (2025-02-30 is none: Date.parse would roll it over). */
function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** Every row's values fit their columns; no row names a column the table lacks. */
function checkRows(table: ConnectionTable): SpecError | undefined {
  const types = new Map(table.columns.map((c) => [c.name, c.type]));
  for (const [i, row] of table.rows.entries()) {
    for (const [key, value] of Object.entries(row)) {
      const type = types.get(key);
      const path = ['table', 'rows', i, key];
      if (type === undefined) return validation(path, `the table has no column ${key}`);
      if (value === null) continue;
      const fits =
        type === 'text'
          ? typeof value === 'string'
          : type === 'integer'
            ? Number.isSafeInteger(value)
            : type === 'number'
              ? typeof value === 'number' && Number.isFinite(value)
              : type === 'boolean'
                ? typeof value === 'boolean'
                : typeof value === 'string' && isCalendarDate(value);
      if (!fits) return validation(path, `the value does not fit the column's type ${type}`);
    }
  }
  return undefined;
}
