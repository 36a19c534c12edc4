/**
 * The transition tables of spec/machines, as the report lists them (ARCHITECTURE: the tables
 * are data, so the report can draw them). Which transitions a run covered is not counted: a
 * test over HTTP does not say which transition of the model it took.
 */
import { clockTransitions } from '../spec/machines/clock.ts';
import { identityTransitions } from '../spec/machines/identity.ts';
import type { Transition } from '../spec/machines/machine.ts';
import { tokenTransitions } from '../spec/machines/token.ts';
import type { ReportedMachine } from './schema.ts';

const TABLES: readonly (readonly [string, readonly Transition[]])[] = [
  ['identity', identityTransitions],
  ['token', tokenTransitions],
  ['clock', clockTransitions],
];

export function machineTables(
  tables: readonly (readonly [string, readonly Transition[]])[] = TABLES,
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
