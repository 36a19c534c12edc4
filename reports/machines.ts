/**
 * The transition tables of spec/machines, as the report lists them (ARCHITECTURE: the tables
 * are data, so the report can draw them). Which transitions a run covered is not counted: a
 * test over HTTP does not say which transition of the model it took.
 */
import type { Transition } from '../spec/machines/machine.ts';
import { MACHINE_TABLES } from '../spec/machines/tables.ts';
import type { ReportedMachine } from './schema.ts';

export function machineTables(
  tables: readonly (readonly [string, readonly Transition[]])[] = MACHINE_TABLES,
): ReportedMachine[] {
  return tables.map(([name, transitions]) => ({
    name,
    transitions: transitions.map((t) => ({
      command: t.command,
      from: t.from,
      to: t.to,
      ...(t.note !== undefined ? { note: t.note } : {}),
      section: t.section,
    })),
  }));
}
