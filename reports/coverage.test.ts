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

  it('counts a test portable whose reliances the profile states as shapes, not as decisions', () => {
    const shaped: Clause[] = [
      { id: 'c.named', section: '4.9', level: 'must', summary: '' },
      { id: 'c.carried', section: '5', level: 'must', summary: '' },
      { id: 'c.followed', section: '4.16', level: 'must', summary: '' },
    ];
    expect(
      Object.fromEntries(
        clauseStandings(shaped, [
          // shapes.registerTenant and shapes.tokenClaims: field names the profile states
          {
            clauses: ['c.named'],
            outcome: 'pass',
            relies: ['tenants.register.field-names', 'tokens.claims'],
          },
          // a follows row a shape may state otherwise (shapes.v2ApiKey)
          { clauses: ['c.carried'], outcome: 'pass', relies: ['v2.credentials.api-key-carrier'] },
          // one follows reliance is enough to make it a decision
          {
            clauses: ['c.followed'],
            outcome: 'pass',
            relies: ['tokens.claims', 'dashboards.copy.chart-ids'],
          },
        ]),
      ),
    ).toEqual({ 'c.named': 'portable', 'c.carried': 'portable', 'c.followed': 'through-decision' });
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
      { section: '4.1', decisionOnly: ['a.claims'], unprobed: [], noPortableCheck: [] },
      { section: '4.2', decisionOnly: [], unprobed: ['a.quiet'], noPortableCheck: [] },
    ]);
  });
});

describe('clauses that say why no portable check exists', () => {
  const why = 'only an open field name reaches it';
  const reasoned: Clause[] = [
    { id: 'b.explained', section: '4.9', level: 'must', summary: '', noPortableCheck: why },
    { id: 'b.checked', section: '4.9', level: 'observed', summary: '', noPortableCheck: why },
    { id: 'b.bare', section: '4.9', level: 'must', summary: '' },
    { id: 'b.idle', section: '4.9', level: 'must', summary: '', noPortableCheck: why },
    { id: 'b.open', section: '4.9', level: 'unspecified', summary: '', decision: 'd' },
  ];
  const runs = [
    {
      clauses: ['b.explained', 'b.bare', 'b.checked'],
      outcome: 'pass' as const,
      relies: ['b.open'],
    },
    // A portable test outranks the reason: the clause was observed without a decision after all.
    { clauses: ['b.checked'], outcome: 'pass' as const, relies: [] },
  ];

  it('stand apart when covered only through a decision, and nowhere else', () => {
    expect(Object.fromEntries(clauseStandings(reasoned, runs))).toMatchObject({
      'b.explained': 'no-portable-check',
      'b.checked': 'portable',
      'b.bare': 'through-decision',
      'b.idle': 'uncovered',
    });
  });

  it('are counted in their own column and listed apart from the gaps', () => {
    expect(computeCoverage(reasoned, [], runs).find((r) => r.section === '4.9')).toMatchObject({
      portable: 1,
      throughDecision: 1,
      noPortableCheck: 1,
      covered: 3,
    });
    expect(coverageGaps(reasoned, runs)).toEqual([
      {
        section: '4.9',
        decisionOnly: ['b.bare'],
        unprobed: ['b.open'],
        noPortableCheck: ['b.explained'],
      },
    ]);
  });
});
