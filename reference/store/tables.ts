import { WRITES, type Table, type TableWrites } from '../../spec/machines/table.ts';

/**
 * The store's tables: the machines' keyed records (spec/machines/table.ts), written without
 * copying. A state the store builds (emptyIdentity, emptyDashboards) holds these, and every
 * table a command makes beside one of them is of the same kind.
 *
 * Why not a plain record: a pure machine that copies a record on every command
 * (`{ ...state.users, [id]: user }`) pays for every entry it holds, so registering n users
 * cost n²/2 copies (issue 7, part 0).
 *
 * Why not a persistent hash trie (immutable's Map, used here before): an update is cheap, but
 * every read walks O(log₃₂ n) nodes, each found by hashing the key again, so a read at 50k
 * entries cost three times one at 500 (a v1 dashboard list reads some 600 entries:
 * bench/results/scale.json).
 *
 * What it is: a persistent map by rerooting (Baker's "shallow binding", as in Conchon and
 * Filliâtre's persistent arrays). The versions of a table form a chain; exactly one of them,
 * the head, holds a JS Map with its entries, and every other holds the few changes that turn
 * its neighbour towards the head back into itself. Reading or writing the head (what a store
 * does: it keeps the newest state only) is a Map operation, O(1) whatever the size. Reading an
 * older version first moves the head there, undoing the changes in between (and keeping them,
 * inverted, on the versions left behind), so it costs what separates the two versions. Every
 * version still reads as it was made: purity is kept, only the cost moves.
 *
 * Enumeration order is the Map's (insertion order of the head); nothing may rely on it, as
 * nothing could on a record's or a trie's: lists are sorted where they are answered.
 */
const absent: unique symbol = Symbol('absent');
type Slot<V> = V | typeof absent;

/** The changes (key, value to set or absent to delete) that turn one version into another. */
type Changes<V> = readonly (readonly [string, Slot<V>])[];

type Node<V> =
  | { readonly kind: 'head'; readonly map: Map<string, V> }
  | { readonly kind: 'diff'; readonly changes: Changes<V>; readonly next: Version<V> };

class Version<V> {
  constructor(public node: Node<V>) {}
}

/**
 * Makes `version` the head of its chain and gives its Map. Walks to the current head, then
 * back: each step applies a version's changes (newest first) and leaves their inverse on the
 * version that was the head.
 */
function reroot<V>(version: Version<V>): Map<string, V> {
  if (version.node.kind === 'head') return version.node.map;
  const path: Version<V>[] = [];
  let at: Version<V> = version;
  while (at.node.kind === 'diff') {
    path.push(at);
    at = at.node.next;
  }
  const map = at.node.map;
  for (let i = path.length - 1; i >= 0; i--) {
    const older = path[i] as Version<V>;
    const node = older.node as Extract<Node<V>, { kind: 'diff' }>;
    const inverse: (readonly [string, Slot<V>])[] = [];
    for (let c = node.changes.length - 1; c >= 0; c--) {
      const [key, value] = node.changes[c] as readonly [string, Slot<V>];
      inverse.push([key, map.has(key) ? (map.get(key) as V) : absent]);
      if (value === absent) map.delete(key);
      else map.set(key, value);
    }
    node.next.node = { kind: 'diff', changes: inverse, next: older };
    older.node = { kind: 'head', map };
  }
  return map;
}

const versionKey: unique symbol = Symbol('table version');

interface Target {
  readonly [versionKey]: Version<unknown>;
}

/** One handler for every table, so the engine sees one shape at every read site. */
const handler: ProxyHandler<Target> = {
  get(target, key) {
    if (key === WRITES) return persistentTables;
    if (typeof key === 'string') {
      const map = reroot(target[versionKey]);
      const value = map.get(key);
      if (value !== undefined) return value;
    }
    // Like a record, what is not an entry is looked up on Object.prototype.
    return Reflect.get(target, key) as unknown;
  },
  has(target, key) {
    return (typeof key === 'string' && reroot(target[versionKey]).has(key)) || key in target;
  },
  ownKeys(target) {
    return [...reroot(target[versionKey]).keys()];
  },
  getOwnPropertyDescriptor(target, key) {
    if (typeof key !== 'string') return undefined;
    const map = reroot(target[versionKey]);
    return map.has(key)
      ? { value: map.get(key), writable: false, enumerable: true, configurable: true }
      : undefined;
  },
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
  setPrototypeOf: () => false,
};

function view<V>(version: Version<V>): Table<V> {
  // The target stays extensible and its one own property configurable, so the traps may
  // report exactly the entries as its properties.
  const target = {};
  Object.defineProperty(target, versionKey, { value: version, configurable: true });
  return new Proxy(target as Target, handler) as unknown as Table<V>;
}

function versionOf<V>(table: Table<V>): Version<V> {
  const version = (table as unknown as Partial<Target>)[versionKey];
  if (!(version instanceof Version))
    throw new TypeError('not a table: build one with emptyTable()');
  return version as Version<V>;
}

/** A new empty table (each call its own: tables of one chain share their Map). */
function emptyTable<V>(): Table<V> {
  return view(new Version<V>({ kind: 'head', map: new Map() }));
}

/** A copy of a table's entries as a Map (for structural checks and bulk reads). */
export function entriesOf<V>(table: Table<V>): ReadonlyMap<string, V> {
  return new Map(reroot(versionOf(table)));
}

/** A new version of `table` after `changes`; `table` itself keeps reading as it was. */
function change<V>(table: Table<V>, changes: Changes<V>): Table<V> {
  const version = versionOf(table);
  const map = reroot(version);
  const inverse: (readonly [string, Slot<V>])[] = [];
  for (const [key, value] of changes) {
    inverse.push([key, map.has(key) ? (map.get(key) as V) : absent]);
    if (value === absent) map.delete(key);
    else map.set(key, value);
  }
  const next = new Version<V>({ kind: 'head', map });
  // Kept in the order applied: reroot undoes them from the last one back.
  version.node = { kind: 'diff', changes: inverse, next };
  return view(next);
}

function put<V>(table: Table<V>, key: string, value: V): Table<V> {
  return change(table, [[key, value]]);
}

function putAll<V>(table: Table<V>, pairs: Iterable<readonly [string, V]>): Table<V> {
  const changes = [...pairs];
  return changes.length === 0 ? table : change(table, changes);
}

function drop<V>(table: Table<V>, key: string): Table<V> {
  return key in table ? change<V>(table, [[key, absent]]) : table;
}

/** The writes the store's tables carry (spec/machines/table.ts's WRITES). */
export const persistentTables: TableWrites = { empty: emptyTable, put, putAll, drop };

export function sizeOf(table: Table<unknown>): number {
  return reroot(versionOf(table)).size;
}
