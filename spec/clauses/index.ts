import type { Clause } from './types.ts';
import { s1 } from './s1-overview.ts';
import { s2 } from './s2-resources.ts';
import { s3 } from './s3-states.ts';
import { s4Identity } from './s4-identity.ts';
import { s4Dashboards } from './s4-dashboards.ts';
import { s4Chat } from './s4-chat.ts';
import { s4V2 } from './s4-v2.ts';
import { s4Hub } from './s4-hub.ts';
import { s5 } from './s5-auth.ts';
import { s6 } from './s6-events.ts';
import { s7 } from './s7-errors.ts';
import { s8 } from './s8-limits.ts';
import { s9 } from './s9-versioning.ts';
import { securityTokens } from './security-tokens.ts';
import { securityRobustness } from './security-robustness.ts';
import { securityRefusals } from './security-refusals.ts';
import { securityData } from './security-data.ts';

export type { Clause, ClauseLevel } from './types.ts';

/** Every numbered heading of the document, in order (checked against the document by the unit test). */
export const documentSections = [
  '1',
  '2',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.6',
  '2.7',
  '2.8',
  '3',
  '4',
  '4.1',
  '4.2',
  '4.3',
  '4.4',
  '4.5',
  '4.6',
  '4.7',
  '4.8',
  '4.9',
  '4.10',
  '4.11',
  '4.12',
  '4.13',
  '4.14',
  '4.15',
  '4.16',
  '4.17',
  '5',
  '6',
  '7',
  '8',
  '9',
] as const;

export type DocumentSection = (typeof documentSections)[number];

/** All clauses, in document order. */
export const catalogue = [
  ...s1,
  ...s2,
  ...s3,
  ...s4Identity,
  ...s4Dashboards,
  ...s4Chat,
  ...s4V2,
  ...s4Hub,
  ...s5,
  ...s6,
  ...s7,
  ...s8,
  ...s9,
  ...securityTokens,
  ...securityRobustness,
  ...securityRefusals,
  ...securityData,
] as const;

export type ClauseId = (typeof catalogue)[number]['id'];

export const clauseById: ReadonlyMap<string, Clause> = new Map<string, Clause>(
  catalogue.map((c) => [c.id, c]),
);

export function isClauseId(id: string): id is ClauseId {
  return clauseById.has(id);
}

/** The document section a clause belongs to, e.g. `sectionOf('roles.update.path') === '4.1'`. */
export function sectionOf(id: ClauseId): string {
  const clause = clauseById.get(id);
  if (clause === undefined) throw new Error(`unknown clause id: ${id}`);
  return clause.section;
}
