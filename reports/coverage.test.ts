import { describe, expect, it } from 'vitest';
import type { Clause } from '../spec/clauses/types.ts';
import { clauseStandings, computeCoverage, coverageGaps } from './coverage.ts';

const clauses: Clause[] = [
  { id: 'a.plain', section: '4.1', level: 'must', summary: '' },
  { id: 'a.claims', section: '4.1', level: 'must', summary: '' },
  { id: 'a.both', section: '4.1', level: 'observed', summary: '' },
  { id: 'a.broken', section: '4.1', level: 'must', summary: '' },
  { id: 'a.open', section: '4.1', level: 'unspecified', summary: '', decision: 'd' },
  { id: 'a.quiet', section: '4.2', level: 'unspecified', summary: '', decision: 'd' },
  { id: 'a.safe', section: '5', level: 'security', summary: '' },
  { id: 'a.unsafe', section: '5', level: 'security', summary: '' },
];

const results = [
  { clauses: ['a.plain', 'a.both'], outcome: 'pass' as const, relies: [] },
  { clauses: ['a.claims', 'a.both'], outcome: 'pass' as const, relies: ['a.open'] },
  { clauses: ['a.broken'], outcome: 'pass' as const, relies: [] },
  { clauses: ['a.broken', 'a.unsafe'], outcome: 'fail' as const, relies: [] },
  // A probe backs only open clauses; a passing test does not make an open clause probed.
  { clauses: ['a.open', 'a.plain'], outcome: 'probe' as const, relies: [] },
  { clauses: ['a.quiet', 'a.plain'], outcome: 'pass' as const, relies: [] },
  { clauses: ['a.safe'], outcome: 'pass' as const, relies: ['a.open'] },
];

describe('coverage kinds', () => {
  it('gives each clause one standing', () => {
    expect(Object.fromEntries(clauseStandings(clauses, results))).toEqual({
      'a.plain': 'portable',
      'a.claims': 'through-decision',
      'a.both': 'portable',
      'a.broken': 'failing',
      'a.open': 'probed',
      'a.quiet': 'uncovered',
      'a.safe': 'through-decision',
      'a.unsafe': 'failing',
    });
  });

  it('counts portable, through a decision, probed and security apart in every row', () => {
    const rows = computeCoverage(clauses, [], results);
    expect(rows.find((r) => r.section === '4')).toMatchObject({
      must: 3,
      observed: 1,
      unspecified: 2,
      security: 0,
      portable: 2,
      throughDecision: 1,
      probed: 1,
      covered: 4,
      failing: 1,
    });
    expect(rows.find((r) => r.section === '4.2')).toMatchObject({ unspecified: 1, probed: 0 });
    expect(rows.find((r) => r.section === '5')).toMatchObject({
      security: 2,
      securityCovered: 1,
      securityThroughDecision: 1,
      securityFailing: 1,
      failing: 0,
      covered: 1,
    });
  });

  it('lists per section the must clauses covered only through a decision and the unprobed open ones', () => {
    expect(coverageGaps(clauses, results)).toEqual([
      { section: '4.1', decisionOnly: ['a.claims'], unprobed: [] },
      { section: '4.2', decisionOnly: [], unprobed: ['a.quiet'] },
    ]);
  });
});
