import { Map as PersistentMap } from 'immutable';

/**
 * A keyed collection held in a machine's state. Readers see a read-only record
 * (`state.users[id]`, `Object.values(state.tenants)`), as they always have; writers go through
 * `put` and `drop`, which return a new table and leave the old one as it was.
 *
 * Why not a plain record: a pure machine that copies a record on every command
 * (`{ ...state.users, [id]: user }`) pays for every entry it holds, so registering n users
 * cost n²/2 copies (issue 7, part 0). Underneath, a table is a persistent hash array mapped
 * trie (immutable's Map): an update copies the O(log₃₂ n) nodes on one path and shares the
 * rest with the previous table, so it costs the same at 100k entries as at 10. The record
 * view is a Proxy over that map, so a lookup by key is a lookup in the trie; enumerating the
 * keys walks the whole map, as enumerating a record always did.
 */
export type Table<V> = Readonly<Record<string, V>>;

const entriesKey: unique symbol = Symbol('table entries');

type Held<V> = Table<V> & { readonly [entriesKey]: PersistentMap<string, V> };

const missing = Symbol('missing');

function view<V>(entries: PersistentMap<string, V>): Table<V> {
  // The target stays empty and extensible: every own property is reported by the traps.
  const handler: ProxyHandler<object> = {
    get(target, key) {
      if (key === entriesKey) return entries;
      const value = typeof key === 'string' ? entries.get(key, missing) : missing;
      // Like a record, what is not an entry is looked up on Object.prototype.
      return value === missing ? (Reflect.get(target, key) as unknown) : value;
    },
    has(target, key) {
      return (typeof key === 'string' && entries.has(key)) || Reflect.has(target, key);
    },
    ownKeys() {
      return [...entries.keys()];
    },
    getOwnPropertyDescriptor(_target, key) {
      if (typeof key !== 'string') return undefined;
      const value = entries.get(key, missing);
      return value === missing
        ? undefined
        : { value, writable: false, enumerable: true, configurable: true };
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    setPrototypeOf: () => false,
  };
  return new Proxy({}, handler);
}

const emptyTableValue = view(PersistentMap<string, never>());

export function emptyTable<V>(): Table<V> {
  return emptyTableValue;
}

/** The persistent map under a table (for structural checks and bulk reads). */
export function entriesOf<V>(table: Table<V>): PersistentMap<string, V> {
  const entries = (table as Held<V>)[entriesKey] as PersistentMap<string, V> | undefined;
  if (entries === undefined) throw new TypeError('not a table: build one with emptyTable()');
  return entries;
}

/** A table holding `value` at `key`, sharing everything else with `table`. */
export function put<V>(table: Table<V>, key: string, value: V): Table<V> {
  return view(entriesOf(table).set(key, value));
}

/** A table holding every pair of `pairs` (a later pair wins), sharing the rest with `table`. */
export function putAll<V>(table: Table<V>, pairs: Iterable<readonly [string, V]>): Table<V> {
  const entries = entriesOf(table).withMutations((m) => {
    for (const [key, value] of pairs) m.set(key, value);
  });
  return entries === entriesOf(table) ? table : view(entries);
}

/** A table without `key`, sharing everything else with `table`. */
export function drop<V>(table: Table<V>, key: string): Table<V> {
  const entries = entriesOf(table);
  return entries.has(key) ? view(entries.delete(key)) : table;
}

export function sizeOf(table: Table<unknown>): number {
  return entriesOf(table).size;
}

/** Entries from a plain record (tests and fixtures build states this way). */
export function tableOf<V>(record: Readonly<Record<string, V>>): Table<V> {
  return view(PersistentMap<string, V>(Object.entries(record)));
}
