/**
 * Clause coverage by section of the document: how many clauses each section holds per level,
 * and how many of them a run covered: cited by a passing test (or by a probe, for a clause
 * the document leaves open) and by no failing one.
 */
import type { Clause } from '../../spec/clauses/types.ts';
import type { CoverageRow, Result } from '../../reports/schema.ts';

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

function emptyRow(section: string, titles: ReadonlyMap<string, string>): CoverageRow {
  const row: CoverageRow = {
    section,
    must: 0,
    observed: 0,
    unspecified: 0,
    covered: 0,
    failing: 0,
  };
  const title = titles.get(section);
  if (title !== undefined) row.title = title;
  return row;
}

export function computeCoverage(
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
  results: readonly Pick<Result, 'clauses' | 'outcome'>[],
): CoverageRow[] {
  const backed = new Set<string>();
  const failing = new Set<string>();
  const levels = new Map(clauses.map((c) => [c.id, c.level]));
  for (const result of results) {
    for (const id of result.clauses) {
      // A probe records what a target did; it backs only a clause the document leaves open.
      const counts =
        result.outcome === 'pass' ||
        (result.outcome === 'probe' && levels.get(id) === 'unspecified');
      if (counts) backed.add(id);
      if (result.outcome === 'fail') failing.add(id);
    }
  }
  // Covered: backed by a passing test (or a probe, for an open clause) and failed by none.
  const covered = new Set([...backed].filter((id) => !failing.has(id)));
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
    for (const row of targets) {
      row[clause.level] = (row[clause.level] ?? 0) + 1;
      if (covered.has(clause.id)) row.covered += 1;
      if (failing.has(clause.id)) row.failing = (row.failing ?? 0) + 1;
    }
  }
  return [...rows.values()].sort((a, b) => compareSections(a.section, b.section));
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

export function clauseTotal(row: CoverageRow): number {
  return row.must + row.observed + row.unspecified;
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
