import { chatStreamTransitions } from './chat-stream.ts';
import { clockTransitions } from './clock.ts';
import { dashboardsTransitions } from './dashboards.ts';
import { identityTransitions } from './identity.ts';
import type { Transition } from './machine.ts';
import { migrationTransitions } from './migration.ts';
import { tokenTransitions } from './token.ts';

/** Every machine of spec/machines by name, with its transition table (the reports draw them). */
export const MACHINE_TABLES: readonly (readonly [string, readonly Transition[]])[] = [
  ['identity', identityTransitions],
  ['token', tokenTransitions],
  ['clock', clockTransitions],
  ['dashboards', dashboardsTransitions],
  ['migration', migrationTransitions],
  ['chat-stream', chatStreamTransitions],
];
