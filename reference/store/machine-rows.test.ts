import { describe, expect, it } from 'vitest';
import { specError } from '../../spec/errors.ts';
import { MachineRows } from './machine-rows.ts';

describe('the rows a store counts', () => {
  it('counts rows taken and guards that refused per machine, and gives each answer back as it was', () => {
    const rows = new MachineRows();
    const taken = { ok: true, state: 1, result: 'r', row: 'a: absent -> x' } as const;
    const refused = { ok: false, error: specError('CONFLICT', 'no', {}), guard: 'g' } as const;
    expect(rows.count('m', taken)).toBe(taken);
    rows.count('m', taken);
    rows.count('m', refused);
    // A plain answer (no table's move made it) counts nothing, but names the machine.
    rows.count('n', { ok: true, state: 1, result: 'r' });
    expect(rows.counts()).toEqual([
      { machine: 'm', rows: { 'a: absent -> x': 2 }, guards: { g: 1 } },
      { machine: 'n', rows: {}, guards: {} },
    ]);
  });
});
