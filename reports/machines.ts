/**
 * The transition tables of spec/machines, as the report lists them (ARCHITECTURE: the tables
 * are data, so the report can draw them), with the rows the run took where the target counted
 * them. A test over HTTP does not say which row it took; the embedded reference counts the
 * rows its store's commands take, so a run against it knows, and a run against any other
 * target does not (the rows carry no count then).
 */
import { rowKey, type Transition } from '../spec/machines/machine.ts';
import { MACHINE_TABLES } from '../spec/machines/tables.ts';
import type { MachineRowsTaken, ReportedMachine } from './schema.ts';

export function machineTables(
  tables: readonly (readonly [string, readonly Transition[]])[] = MACHINE_TABLES,
  taken?: readonly MachineRowsTaken[],
): ReportedMachine[] {
  return tables.map(([name, transitions]) => {
    const counted = taken?.find((m) => m.machine === name);
    return {
      name,
      transitions: transitions.map((t) => ({
        command: t.command,
        from: t.from,
        to: t.to,
        ...(t.note !== undefined ? { note: t.note } : {}),
        section: t.section,
        ...(t.guards !== undefined ? { guards: [...t.guards] } : {}),
        ...(counted !== undefined ? { taken: counted.rows[rowKey(t)] ?? 0 } : {}),
      })),
      ...(counted !== undefined ? { refused: { ...counted.guards } } : {}),
    };
  });
}

/** Of one machine: its rows, those the run took, and whether that is known. */
export function rowsCovered(machine: ReportedMachine): {
  readonly rows: number;
  readonly covered: number | undefined;
} {
  const rows = machine.transitions.length;
  if (machine.refused === undefined) return { rows, covered: undefined };
  return { rows, covered: machine.transitions.filter((t) => (t.taken ?? 0) > 0).length };
}
