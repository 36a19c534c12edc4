import type { Applied } from '../../spec/machines/machine.ts';

/** What a store's commands took of one machine's table: rows by key, refusing guards by name. */
export interface MachineRowCount {
  readonly machine: string;
  /** `command: from -> to` (spec/machines/machine.ts rowKey) -> times taken. */
  readonly rows: Readonly<Record<string, number>>;
  /** Guard name -> times it refused. */
  readonly guards: Readonly<Record<string, number>>;
}

/**
 * Counts, for each machine the store runs, the rows its commands took and the guards that
 * refused them: what a run covered of the tables (the rows-taken hook serves it). Commands a
 * machine runs inside another (the identity commands of a migration) are not counted.
 */
export class MachineRows {
  private readonly taken = new Map<
    string,
    { rows: Map<string, number>; guards: Map<string, number> }
  >();

  /** Notes what `applied` took of `machine`'s table and gives it back unchanged. */
  count<A extends Applied<unknown, unknown, unknown>>(machine: string, applied: A): A {
    let counts = this.taken.get(machine);
    if (counts === undefined) {
      counts = { rows: new Map(), guards: new Map() };
      this.taken.set(machine, counts);
    }
    const [table, key] = applied.ok ? [counts.rows, applied.row] : [counts.guards, applied.guard];
    if (key !== undefined) table.set(key, (table.get(key) ?? 0) + 1);
    return applied;
  }

  /** Every machine counted so far, by name. */
  counts(): MachineRowCount[] {
    return [...this.taken]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([machine, { rows, guards }]) => ({
        machine,
        rows: Object.fromEntries([...rows].sort(([a], [b]) => a.localeCompare(b))),
        guards: Object.fromEntries([...guards].sort(([a], [b]) => a.localeCompare(b))),
      }));
  }
}
