import { describe, expect, it } from 'vitest';
import { drop, emptyLike, emptyTable, put, putAll, WRITES, type TableWrites } from './table.ts';

describe('tables: keyed records a write never changes', () => {
  it('writes plain records by default, leaving the one given as it was', () => {
    const a = put(emptyTable<number>(), 'a', 1);
    const ab = put(a, 'b', 2);
    expect(a).toEqual({ a: 1 });
    expect(ab).toEqual({ a: 1, b: 2 });
    expect(drop(ab, 'a')).toEqual({ b: 2 });
    expect(ab).toEqual({ a: 1, b: 2 });
    expect(
      putAll(a, [
        ['b', 2],
        ['a', 3],
        ['b', 4],
      ]),
    ).toEqual({ a: 3, b: 4 });
    expect(a).toEqual({ a: 1 });
  });

  it('gives back the same table for a write that changes nothing', () => {
    const a = put(emptyTable<number>(), 'a', 1);
    expect(drop(a, 'missing')).toBe(a);
    expect(drop(a, 'toString')).toBe(a);
    expect(putAll(a, [])).toBe(a);
  });

  it('holds any string as a key, __proto__ included', () => {
    const t = put(emptyTable<number>(), '__proto__', 1);
    expect(Object.keys(t)).toEqual(['__proto__']);
    expect(t['__proto__']).toBe(1);
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
    expect(drop(t, '__proto__')).toEqual({});
  });

  it('writes a table that carries its own writes with them, and makes tables beside it of its kind', () => {
    const calls: string[] = [];
    const traced: TableWrites = {
      empty: () => Object.defineProperty({}, WRITES, { value: traced }),
      put: (table, key, value) => {
        calls.push(`put ${key}`);
        return Object.defineProperty({ ...table, [key]: value }, WRITES, { value: traced });
      },
      putAll: (table, pairs) => {
        calls.push('putAll');
        return Object.defineProperty({ ...table, ...Object.fromEntries(pairs) }, WRITES, {
          value: traced,
        });
      },
      drop: (table, key) => {
        calls.push(`drop ${key}`);
        return table;
      },
    };
    const t = emptyTable<number>(traced);
    drop(putAll(put(t, 'a', 1), [['b', 2]]), 'a');
    put(emptyLike<string>(t), 'c', 'x');
    put(emptyLike<string>({}), 'd', 'y');
    expect(calls).toEqual(['put a', 'putAll', 'drop a', 'put c']);
  });
});
