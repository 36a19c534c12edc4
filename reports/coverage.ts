/**
 * Clause coverage by section of the document: how many clauses each section holds per level,
 * and how many of them a run covered, in kinds kept apart: portably (a passing test that
 * relies on no decision of ours), through a decision, through a decision with a written reason
 * why no portable check exists (the clause's `noPortableCheck`), probed (open clauses), and
 * security.
 */
import type { Clause } from '../spec/clauses/types.ts';
import type { CoverageGap, CoverageRow, Result } from './schema.ts';

export interface SectionTitle {
  readonly section: string;
  readonly title: string;
}

/** The document's numbered top-level sections the summary always shows, even when empty. */
export const REPORTED_TOP_SECTIONS = ['2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** Orders `2`, `2.1`, `2.10`, `3` numerically, part by part. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x !== y) return x - y;
  }
  return 0;
}

export function topSection(section: string): string {
  return section.split('.')[0] ?? section;
}

/** A section's row before any clause is counted in it. */
export function emptyRow(
  section: string,
  titles: ReadonlyMap<string, string> = new Map(),
): CoverageRow {
  const row: CoverageRow = {
    section,
    must: 0,
    observed: 0,
    unspecified: 0,
    security: 0,
    portable: 0,
    throughDecision: 0,
    noPortableCheck: 0,
    probed: 0,
    securityCovered: 0,
    securityThroughDecision: 0,
    covered: 0,
    failing: 0,
    securityFailing: 0,
  };
  const title = titles.get(section);
  if (title !== undefined) row.title = title;
  return row;
}

type Cited = Pick<Result, 'clauses' | 'outcome'> & { readonly relies?: readonly string[] };

/** How one clause stands after a run. */
export type ClauseStanding =
  'portable' | 'through-decision' | 'no-portable-check' | 'probed' | 'failing' | 'uncovered';

/**
 * The standing of every clause the results cite. A probe backs only a clause the document
 * leaves open; a passing test backs the others, portably when it relies on no decision; a
 * clause covered only through a decision stands apart when it says why no portable check
 * exists (`noPortableCheck`); a failing test takes a clause out of coverage whatever else
 * cites it.
 */
export function clauseStandings(
  clauses: readonly Clause[],
  results: readonly Cited[],
): Map<string, ClauseStanding> {
  const levels = new Map(clauses.map((c) => [c.id, c.level]));
  const explained = new Set(
    clauses
      .filter(
        (c) => c.noPortableCheck !== undefined && (c.level === 'must' || c.level === 'observed'),
      )
      .map((c) => c.id),
  );
  const portable = new Set<string>();
  const throughDecision = new Set<string>();
  const probed = new Set<string>();
  const failing = new Set<string>();
  for (const result of results) {
    for (const id of result.clauses) {
      const open = levels.get(id) === 'unspecified';
      if (result.outcome === 'fail') failing.add(id);
      else if (result.outcome === 'probe' && open) probed.add(id);
      else if (result.outcome === 'pass' && !open) {
        if ((result.relies ?? []).length === 0) portable.add(id);
        else throughDecision.add(id);
      }
    }
  }
  const standings = new Map<string, ClauseStanding>();
  for (const clause of clauses) {
    const id = clause.id;
    standings.set(
      id,
      failing.has(id)
        ? 'failing'
        : portable.has(id)
          ? 'portable'
          : throughDecision.has(id)
            ? explained.has(id)
              ? 'no-portable-check'
              : 'through-decision'
            : probed.has(id)
              ? 'probed'
              : 'uncovered',
    );
  }
  return standings;
}

export function computeCoverage(
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
  results: readonly Cited[],
): CoverageRow[] {
  const standings = clauseStandings(clauses, results);
  const titles = new Map(sections.map((s) => [s.section, s.title]));
  const rows = new Map<string, CoverageRow>();
  const rowFor = (section: string): CoverageRow => {
    let row = rows.get(section);
    if (!row) {
      row = emptyRow(section, titles);
      rows.set(section, row);
    }
    return row;
  };
  for (const top of REPORTED_TOP_SECTIONS) rowFor(top);
  for (const clause of clauses) {
    const top = topSection(clause.section);
    // A top-level row totals its subsections; a clause of `3` itself counts there only.
    const targets = clause.section === top ? [rowFor(top)] : [rowFor(top), rowFor(clause.section)];
    const standing = standings.get(clause.id) ?? 'uncovered';
    for (const row of targets) {
      row[clause.level] += 1;
      if (standing === 'failing') {
        if (clause.level === 'security') row.securityFailing += 1;
        else row.failing += 1;
      }
      if (standing === 'uncovered' || standing === 'failing') continue;
      row.covered += 1;
      if (clause.level === 'security') {
        row.securityCovered += 1;
        if (standing === 'through-decision') row.securityThroughDecision += 1;
      } else if (clause.level === 'unspecified') row.probed += 1;
      else if (standing === 'portable') row.portable += 1;
      else if (standing === 'no-portable-check') row.noPortableCheck += 1;
      else row.throughDecision += 1;
    }
  }
  return [...rows.values()].sort((a, b) => compareSections(a.section, b.section));
}

/**
 * Per section, the must/observed clauses covered only through a decision and the unspecified
 * clauses no probe answered: what a reader of the summary should look at next; and apart, the
 * must/observed clauses covered through a decision that say why no portable check exists.
 */
export function coverageGaps(clauses: readonly Clause[], results: readonly Cited[]): CoverageGap[] {
  const standings = clauseStandings(clauses, results);
  const gaps = new Map<
    string,
    { decisionOnly: string[]; unprobed: string[]; noPortableCheck: string[] }
  >();
  const gapFor = (section: string) => {
    let gap = gaps.get(section);
    if (!gap) {
      gap = { decisionOnly: [], unprobed: [], noPortableCheck: [] };
      gaps.set(section, gap);
    }
    return gap;
  };
  for (const clause of clauses) {
    const standing = standings.get(clause.id);
    if ((clause.level === 'must' || clause.level === 'observed') && standing === 'through-decision')
      gapFor(clause.section).decisionOnly.push(clause.id);
    if (standing === 'no-portable-check') gapFor(clause.section).noPortableCheck.push(clause.id);
    if (clause.level === 'unspecified' && standing !== 'probed')
      gapFor(clause.section).unprobed.push(clause.id);
  }
  return [...gaps.entries()]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([section, gap]) => ({ section, ...gap }));
}

export interface SectionGroup {
  readonly top: CoverageRow;
  readonly subsections: readonly CoverageRow[];
}

/** Groups coverage rows under their top-level section, in document order. */
export function groupCoverage(rows: readonly CoverageRow[]): SectionGroup[] {
  const tops = rows.filter((r) => !r.section.includes('.'));
  const known = new Set(tops.map((t) => t.section));
  const groups: SectionGroup[] = tops.map((top) => ({
    top,
    subsections: rows.filter(
      (r) => r.section.includes('.') && topSection(r.section) === top.section,
    ),
  }));
  // Subsections whose top-level row is missing (hand-edited results.json): still shown.
  for (const orphan of rows.filter(
    (r) => r.section.includes('.') && !known.has(topSection(r.section)),
  )) {
    groups.push({ top: orphan, subsections: [] });
  }
  return groups.sort((a, b) => compareSections(a.top.section, b.top.section));
}

/** The document's own clauses of a row (security clauses are counted apart). */
export function clauseTotal(row: CoverageRow): number {
  return row.must + row.observed + row.unspecified;
}

/** must + observed clauses of a row: what portable and through-a-decision coverage count. */
export function firmTotal(row: CoverageRow): number {
  return row.must + row.observed;
}

/** Clause ids cited by results that the catalogue does not know. */
export function unknownClauses(
  clauses: readonly Clause[],
  results: readonly Pick<Result, 'clauses'>[],
): string[] {
  const known = new Set(clauses.map((c) => c.id));
  const unknown = new Set<string>();
  for (const r of results) for (const id of r.clauses) if (!known.has(id)) unknown.add(id);
  return [...unknown].sort();
}
