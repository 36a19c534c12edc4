/**
 * A clause is one checkable statement of the document (`../shared/spec/service-api.md`).
 * Summaries are our own words; the document is cited by section only.
 */
/**
 * - `must`: the document states it; `observed`: the document shows it in an example;
 * - `unspecified`: the document is silent ("not shown"); the reference's choice is `decision`;
 * - `security`: what no trustworthy server may do although the document does not spell it out
 *   (accepting a token it did not issue, writing on a refused request). A failing security test
 *   is a failure; its coverage is reported apart from the document's.
 */
export type ClauseLevel = 'must' | 'observed' | 'unspecified' | 'security';

export interface Clause {
  /** Stable slug, `area.topic.detail`, lowercase words joined by `-`, parts joined by `.`. */
  readonly id: string;
  /** Section of the document, e.g. `4.10` or `2.2`. */
  readonly section: string;
  readonly level: ClauseLevel;
  readonly summary: string;
  /** Only for `unspecified` clauses: what the reference does where the document is silent. */
  readonly decision?: string;
  /**
   * Only for `must` and `observed` clauses: why no test can observe the clause on a target
   * without leaning on an open point (a field name, a path or a claim the document leaves to
   * the server). Such a clause, covered through a decision, is counted apart in the coverage.
   */
  readonly noPortableCheck?: string;
}

/** Keeps the literal ids of a clause list so that `ClauseId` is a checked union. */
export function defineClauses<const T extends readonly Clause[]>(clauses: T): T {
  return clauses;
}
