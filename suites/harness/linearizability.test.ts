import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLinearizable, partition, type Model, type Operation } from './linearizability.ts';

/** A register: write replaces the value, read answers the last value written. */
type In = { readonly write: number } | { readonly read: true };
const register: Model<number, In, number | null> = {
  step: (state, input, output) =>
    'write' in input ? input.write : output === state ? state : undefined,
  key: String,
  describe: (input, output) => ('write' in input ? `write ${input.write}` : `read -> ${output}`),
};
const w = (client: number, value: number, call: number, ret: number) =>
  ({ client, input: { write: value }, output: null, call, ret }) as const;
const r = (client: number, value: number, call: number, ret: number) =>
  ({ client, input: { read: true }, output: value, call, ret }) as const;

describe('checkLinearizable', () => {
  it('accepts a read that sees a write still in flight (the write takes effect inside its interval)', () => {
    const verdict = checkLinearizable(register, 0, [w(0, 1, 0, 10), r(1, 1, 2, 3), r(1, 1, 4, 5)]);
    expect(verdict.result).toBe('linearizable');
  });

  it('accepts concurrent writes read in either order, when every reader agrees on one order', () => {
    const history = [w(0, 1, 0, 10), w(1, 2, 0, 10), r(2, 2, 1, 2), r(2, 1, 3, 4), r(3, 1, 11, 12)];
    expect(checkLinearizable(register, 0, history).result).toBe('linearizable');
  });

  it('refuses a stale read after the write returned', () => {
    const verdict = checkLinearizable(register, 0, [w(0, 1, 0, 10), r(1, 0, 11, 12)]);
    expect(verdict.result).toBe('not-linearizable');
    if (verdict.result !== 'not-linearizable') return;
    expect(verdict.unexplained).toContain('read -> 0');
    expect(verdict.explained).toBe(1);
  });

  it('refuses readers that see two concurrent writes in opposite orders, one after the other', () => {
    const history = [
      w(0, 1, 0, 10),
      w(1, 2, 0, 10),
      r(2, 1, 1, 2),
      r(2, 2, 3, 4),
      r(3, 2, 11, 12),
      r(3, 1, 13, 14),
    ];
    expect(checkLinearizable(register, 0, history).result).toBe('not-linearizable');
  });

  it('refuses a lost update: two adds to a set, then a read missing one of them', () => {
    type SetIn = { readonly add: string } | { readonly read: true };
    const set: Model<string, SetIn, string | null> = {
      step: (state, input, output) => {
        const members = new Set(state === '' ? [] : state.split(','));
        if ('add' in input) return [...members.add(input.add)].sort().join(',');
        return output === state ? state : undefined;
      },
      key: (s) => s,
    };
    const history: Operation<SetIn, string | null>[] = [
      { client: 0, input: { add: 'a' }, output: null, call: 0, ret: 5 },
      { client: 1, input: { add: 'b' }, output: null, call: 1, ret: 6 },
      { client: 2, input: { read: true }, output: 'b', call: 7, ret: 8 },
    ];
    expect(checkLinearizable(set, '', history).result).toBe('not-linearizable');
    const fine = history.map((op) => (op.client === 2 ? { ...op, output: 'a,b' } : op));
    expect(checkLinearizable(set, '', fine).result).toBe('linearizable');
  });

  it('treats operations that touch at one instant as overlapping', () => {
    expect(checkLinearizable(register, 0, [w(0, 1, 0, 5), r(1, 0, 5, 6)]).result).toBe(
      'linearizable',
    );
  });

  it('gives up with unknown when the step budget runs out', () => {
    const verdict = checkLinearizable(register, 0, [w(0, 1, 0, 10), r(1, 1, 2, 3)], {
      maxSteps: 1,
    });
    expect(verdict.result).toBe('unknown');
  });

  it('refuses an operation that returns before it is called', () => {
    expect(() => checkLinearizable(register, 0, [w(0, 1, 5, 4)])).toThrow(RangeError);
  });

  it('accepts any history of a register that applies each operation atomically inside its interval', () => {
    // Each client's operations follow one another; the register acts at a random instant
    // inside each interval, in instant order, and the reads answer what it held then.
    const op = fc.record({
      write: fc.boolean(),
      value: fc.integer({ min: 1, max: 3 }),
      gap: fc.integer({ min: 0, max: 3 }),
      length: fc.integer({ min: 1, max: 8 }),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (clients) => {
          const planned = clients.flatMap((ops, client) => {
            let t = 0;
            return ops.map((o) => {
              const call = t + o.gap;
              const ret = call + o.length;
              t = ret;
              return { client, o, call, ret, effect: call + o.at * o.length };
            });
          });
          let value = 0;
          const answers = new Map<(typeof planned)[number], number>();
          for (const p of [...planned].sort((a, b) => a.effect - b.effect)) {
            if (p.o.write) value = p.o.value;
            else answers.set(p, value);
          }
          const history = planned.map((p) =>
            p.o.write
              ? w(p.client, p.o.value, p.call, p.ret)
              : r(p.client, answers.get(p) ?? 0, p.call, p.ret),
          );
          expect(checkLinearizable(register, 0, history).result).toBe('linearizable');
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });
});

describe('partition', () => {
  it('groups items by key, keeping their order', () => {
    const parts = partition(['a1', 'b1', 'a2'], (s) => s.charAt(0));
    expect([...parts.entries()]).toEqual([
      ['a', ['a1', 'a2']],
      ['b', ['b1']],
    ]);
  });
});
