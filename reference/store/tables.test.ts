import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drop, put, putAll, type Table } from '../../spec/machines/table.ts';
import { entriesOf, persistentTables, sizeOf } from './tables.ts';

/** The machines write through spec/machines/table.ts; a store's table carries these writes. */
const emptyTable = <V>(): Table<V> => persistentTables.empty<V>();

describe("the store's tables: a persistent map read as a record", () => {
  const abc = (): Table<number> => put(put(put(emptyTable<number>(), 'a', 1), 'b', 2), 'c', 3);

  it('reads like a plain record', () => {
    const t = abc();
    expect(t['b']).toBe(2);
    expect(t['missing']).toBeUndefined();
    expect('a' in t).toBe(true);
    expect('missing' in t).toBe(false);
    expect(Object.keys(t).sort()).toEqual(['a', 'b', 'c']);
    expect(Object.values(t).sort()).toEqual([1, 2, 3]);
    expect({ ...t }).toEqual({ a: 1, b: 2, c: 3 });
    expect(JSON.parse(JSON.stringify(t))).toEqual({ a: 1, b: 2, c: 3 });
    expect(t).toEqual(putAll(emptyTable<number>(), Object.entries({ c: 3, b: 2, a: 1 })));
    expect(Object.prototype.hasOwnProperty.call(t, 'a')).toBe(true);
    // Like a record, a name that is not an entry falls through to Object.prototype.
    expect(typeof t['toString']).toBe('function');
  });

  it('cannot be written to: changes go through put and drop', () => {
    const t = abc() as Record<string, number>;
    expect(() => {
      t['d'] = 4;
    }).toThrow(TypeError);
    expect(() => {
      delete t['a'];
    }).toThrow(TypeError);
    expect(t['d']).toBeUndefined();
  });

  it('leaves the table it was given as it was', () => {
    const before = abc();
    const after = drop(put(before, 'd', 4), 'a');
    expect(Object.keys(before).sort()).toEqual(['a', 'b', 'c']);
    expect(Object.keys(after).sort()).toEqual(['b', 'c', 'd']);
    expect(sizeOf(before)).toBe(3);
    expect(drop(before, 'missing')).toBe(before);
  });

  it('puts many entries at once, the later pair winning', () => {
    const t = putAll(abc(), [
      ['a', 10],
      ['e', 5],
      ['a', 11],
    ]);
    expect({ ...t }).toEqual({ a: 11, b: 2, c: 3, e: 5 });
    expect(putAll(t, [])).toBe(t);
  });

  it('shares the unchanged part of a large table instead of copying it', () => {
    let t = emptyTable<{ n: number }>();
    for (let i = 0; i < 10_000; i++) t = put(t, `k${i}`, { n: i });
    const next = put(t, 'k5000', { n: -1 });
    // The old map is intact, and every other value is the very same object in both.
    expect(entriesOf(t).get('k5000')).toEqual({ n: 5000 });
    expect([...entriesOf(t)].every(([k, v]) => k === 'k5000' || next[k] === v)).toBe(true);
  });

  it('reads every version as it was made, whichever was touched last (branches included)', () => {
    const base = abc();
    const left = put(base, 'a', 10);
    const right = drop(put(base, 'd', 4), 'b');
    const leftMore = putAll(left, [
      ['e', 5],
      ['e', 6],
    ]);
    // Alternate between the branches: each read moves the chain's head to the version read.
    for (let i = 0; i < 3; i++) {
      expect({ ...right }).toEqual({ a: 1, c: 3, d: 4 });
      expect({ ...base }).toEqual({ a: 1, b: 2, c: 3 });
      expect({ ...leftMore }).toEqual({ a: 10, b: 2, c: 3, e: 6 });
      expect(left['e']).toBeUndefined();
      expect(sizeOf(right)).toBe(3);
    }
  });

  it('behaves as a plain record copied on every write, over random writes to random versions', () => {
    const op = fc.record({
      from: fc.nat(),
      kind: fc.constantFrom('put', 'drop', 'putAll'),
      key: fc.constantFrom('a', 'b', 'c', 'd'),
      value: fc.integer(),
      read: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const tables: Table<number>[] = [emptyTable<number>()];
        const records: Record<string, number>[] = [{}];
        for (const o of ops) {
          const i = o.from % tables.length;
          const t = tables[i] as Table<number>;
          const r = records[i] as Record<string, number>;
          if (o.kind === 'put') {
            tables.push(put(t, o.key, o.value));
            records.push({ ...r, [o.key]: o.value });
          } else if (o.kind === 'drop') {
            tables.push(drop(t, o.key));
            const { [o.key]: _gone, ...rest } = r;
            records.push(rest);
          } else {
            tables.push(
              putAll(t, [
                [o.key, o.value],
                ['a', o.value + 1],
              ]),
            );
            records.push({ ...r, [o.key]: o.value, a: o.value + 1 });
          }
          const j = o.read % tables.length;
          expect({ ...tables[j] }).toEqual(records[j]);
        }
        tables.forEach((t, j) => expect({ ...t }).toEqual(records[j]));
      }),
      { seed: 7, numRuns: 300 },
    );
  });
  it('refuses every write through the record view (strict mode throws)', () => {
    const t = put(emptyTable<number>(), 'a', 1) as Record<string, number>;
    expect(() => {
      t['b'] = 2;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(t, 'b', { value: 2 })).toThrow(TypeError);
    expect(() => delete t['a']).toThrow(TypeError);
    expect(() => {
      Object.setPrototypeOf(t, null);
    }).toThrow(TypeError);
    expect({ ...t }).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
  });

  it('describes its entries as read-only enumerable properties', () => {
    const t = put(emptyTable<number>(), 'a', 1);
    expect(Object.getOwnPropertyDescriptor(t, 'a')).toEqual({
      value: 1,
      writable: false,
      enumerable: true,
      configurable: true,
    });
    expect(Object.getOwnPropertyDescriptor(t, 'b')).toBeUndefined();
  });

  it('refuses what is not a table', () => {
    expect(() => entriesOf({ a: 1 })).toThrow(/not a table/);
    expect(() => sizeOf({})).toThrow(TypeError);
  });
});
