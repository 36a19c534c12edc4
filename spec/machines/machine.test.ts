import { describe, expect, it } from 'vitest';
import { specError, type SpecError } from '../errors.ts';
import { applyBy, effected, rowKey, transitionsOf, type MachineTable } from './machine.ts';

// A two-state lamp: the smallest table that has a guard on the move, a guard on a row, two
// rows leaving one state, and an effect that can be made to land where no row goes.
type Lamp = 'off' | 'on' | 'broken';
type LampCommand =
  | { readonly type: 'switch'; readonly to: Lamp }
  | { readonly type: 'paint'; readonly colour: string };

const refusal = (why: string) => specError('CONFLICT', why, {});

type LampTable = MachineTable<Lamp, LampCommand, { switch: Lamp; paint: string }>;

const lamp = (landsIn: (target: Lamp) => Lamp = (t) => t): LampTable => ({
  switch: {
    subject: (state) => state,
    guards: [
      {
        name: 'not-broken',
        refuses: (state) => state === 'broken',
        error: () => refusal('broken'),
      },
    ],
    rows: [
      { from: 'off', to: 'on', section: 'decision' },
      {
        from: 'on',
        to: 'off',
        section: 'decision',
        guards: [
          { name: 'stays-on', refuses: (_, c) => c.to === 'broken', error: () => refusal('no') },
        ],
      },
      { from: 'on', to: 'on', note: 'switched to on again', section: 'decision' },
    ],
    effect: (_, c) => effected(landsIn(c.to), c.to),
    landed: (after) => after,
  },
  paint: {
    subject: (state) => state,
    rows: [{ from: 'any', to: 'same', section: 'decision' }],
    effect: (state, c) => effected(state, c.colour),
    landed: (after) => after,
  },
});

const run = (table: LampTable, state: Lamp, command: LampCommand, now: number) =>
  applyBy<Lamp, LampCommand, { switch: Lamp; paint: string }, SpecError, LampCommand>(
    table,
    state,
    command,
    now,
  );

describe('applyBy: the table is the machine', () => {
  it('takes the row whose from is the subject state and whose to the effect landed in', () => {
    const done = run(lamp(), 'on', { type: 'switch', to: 'off' }, 0);
    expect(done).toEqual({ ok: true, state: 'off', result: 'off', row: 'switch: on -> off' });
    const again = run(lamp(), 'on', { type: 'switch', to: 'on' }, 0);
    expect(again.ok && again.row).toBe('switch: on -> on');
  });

  it("asks the move's guards, then the guards of the rows leaving the state, and names the one that refused", () => {
    expect(run(lamp(), 'broken', { type: 'switch', to: 'on' }, 0)).toMatchObject({
      ok: false,
      guard: 'not-broken',
    });
    expect(run(lamp(), 'on', { type: 'switch', to: 'broken' }, 0)).toMatchObject({
      ok: false,
      guard: 'stays-on',
      error: { code: 'CONFLICT' },
    });
    // The row guard of `on` is not asked for a lamp that is off.
    expect(run(lamp(), 'off', { type: 'switch', to: 'on' }, 0).ok).toBe(true);
  });

  it('throws when an effect lands where none of the rows leaving the state goes', () => {
    expect(() =>
      run(
        lamp(() => 'broken'),
        'off',
        { type: 'switch', to: 'on' },
        0,
      ),
    ).toThrow('no row from off lands in broken');
  });

  it('throws when no row leaves the state the guards let through', () => {
    const table: LampTable = { ...lamp(), switch: { ...lamp().switch, guards: [] } };
    expect(() => run(table, 'broken', { type: 'switch', to: 'on' }, 0)).toThrow(
      'no row leaves broken',
    );
  });

  it('reads `any` as every state and `same` as the state it left', () => {
    expect(run(lamp(), 'on', { type: 'paint', colour: 'red' }, 0)).toMatchObject({
      ok: true,
      row: 'paint: any -> same',
      result: 'red',
    });
  });

  it('lists each row with the guards of its move and its own, keyed as the report counts it', () => {
    const rows = transitionsOf<Lamp, LampCommand, { switch: Lamp; paint: string }, SpecError>(
      lamp(),
    );
    expect(rows.map((r) => [rowKey(r), r.guards])).toEqual([
      ['switch: off -> on', ['not-broken']],
      ['switch: on -> off', ['not-broken', 'stays-on']],
      ['switch: on -> on', ['not-broken']],
      ['paint: any -> same', undefined],
    ]);
  });
});
