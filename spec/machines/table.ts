/**
 * A keyed collection in a machine's state (users by id, dashboards by id, ...), read as a
 * plain read-only record: `state.users[id]`, `Object.values(state.tenants)`.
 *
 * The machines write one through `put`, `putAll` and `drop`, which return a new table and
 * leave the one they were given as it was. A table may carry its own writes (`WRITES`): the
 * reference's store gives its tables writes that do not copy the record
 * (reference/store/tables.ts); a table without them is a plain record, copied on each write.
 * Tables made inside a command (`emptyLike`) write as the table they are made beside.
 */
export type Table<V> = Readonly<Record<string, V>>;

/** How a kind of table is made and written; each write leaves its input as it was. */
export interface TableWrites {
  empty<V>(): Table<V>;
  put<V>(table: Table<V>, key: string, value: V): Table<V>;
  /** A later pair wins. */
  putAll<V>(table: Table<V>, pairs: Iterable<readonly [string, V]>): Table<V>;
  drop<V>(table: Table<V>, key: string): Table<V>;
}

/** Where a table keeps its writes (a symbol, so it is never one of its keys). */
export const WRITES: unique symbol = Symbol('table writes');

/** Plain records, copied on each write (what a state built without a store holds). */
export const plainTables: TableWrites = {
  empty: () => ({}),
  put: (table, key, value) => ({ ...table, [key]: value }),
  putAll: (table, pairs) => {
    const changes = [...pairs];
    return changes.length === 0 ? table : { ...table, ...Object.fromEntries(changes) };
  },
  drop: (table, key) => {
    if (!Object.hasOwn(table, key)) return table;
    const { [key]: _dropped, ...rest } = table;
    return rest;
  },
};

const writesOf = (table: Table<unknown>): TableWrites =>
  (table as { readonly [WRITES]?: TableWrites })[WRITES] ?? plainTables;

/** A new empty table of the kind `writes` makes (plain records unless a store gives its own). */
export function emptyTable<V>(writes: TableWrites = plainTables): Table<V> {
  return writes.empty();
}

/** A new empty table that writes as `beside` does. */
export function emptyLike<V>(beside: Table<unknown>): Table<V> {
  return writesOf(beside).empty();
}

/** A table holding `value` at `key`, the rest as in `table`. */
export function put<V>(table: Table<V>, key: string, value: V): Table<V> {
  return writesOf(table).put(table, key, value);
}

/** A table holding every pair of `pairs` (a later pair wins), the rest as in `table`. */
export function putAll<V>(table: Table<V>, pairs: Iterable<readonly [string, V]>): Table<V> {
  return writesOf(table).putAll(table, pairs);
}

/** A table without `key`, the rest as in `table`. */
export function drop<V>(table: Table<V>, key: string): Table<V> {
  return writesOf(table).drop(table, key);
}
