import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import type { Clause } from '../spec/clauses/types.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import { citationProblems, collectConformance } from './citations.ts';
import { PROJECT_ROOT } from './cli.ts';

const clauses: Clause[] = [
  { id: 'a.must', section: '4.1', level: 'must', summary: 'm' },
  { id: 'a.seen', section: '4.1', level: 'observed', summary: 'o' },
  { id: 'a.open', section: '4.1', level: 'unspecified', summary: 'u', decision: 'd' },
  { id: 'a.safe', section: '5', level: 'security', summary: 's' },
  { id: 'a.loose', section: '4.1', level: 'unspecified', summary: 'u', decision: 'd' },
];
/** Where a profile states a.open; a.loose has no row. */
const reliance = { 'a.open': 'follows' };

function declared(overrides: Partial<DeclaredTest>): DeclaredTest {
  return {
    kind: 'conformance',
    clauses: ['a.must'],
    relies: [],
    needs: [],
    parts: [],
    ...overrides,
  };
}

describe('citationProblems', () => {
  it('accepts conformance tests of firm clauses and probes of open ones', () => {
    const tests = [
      { where: 'x', declared: declared({ clauses: ['a.must', 'a.open'], relies: ['a.open'] }) },
      { where: 'y', declared: declared({ clauses: ['a.safe'] }) },
      { where: 'z', declared: declared({ kind: 'probe', clauses: ['a.open'] }) },
    ];
    expect(citationProblems(tests, clauses, reliance)).toEqual([]);
  });

  it('refuses a conformance test citing only unspecified clauses', () => {
    const tests = [{ where: 'x', declared: declared({ clauses: ['a.open'] }) }];
    expect(citationProblems(tests, clauses, reliance)).toEqual([
      'x: a conformance test citing only unspecified clauses (make it a probe)',
    ]);
  });

  it('refuses a probe citing a must, observed or security clause', () => {
    const tests = [
      { where: 'p', declared: declared({ kind: 'probe', clauses: ['a.open', 'a.must'] }) },
      { where: 'q', declared: declared({ kind: 'probe', clauses: ['a.seen'] }) },
      { where: 'r', declared: declared({ kind: 'probe', clauses: ['a.safe'] }) },
    ];
    const problems = citationProblems(tests, clauses, reliance);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^p: a probe citing a\.must \(must\)/);
    expect(problems[1]).toMatch(/^q: .*a\.seen \(observed\)/);
    expect(problems[2]).toMatch(/^r: .*a\.safe \(security\)/);
  });

  it('refuses relies on a clause that is not unspecified, and unknown ids', () => {
    const tests = [
      { where: 'x', declared: declared({ relies: ['a.must'] }) },
      { where: 'y', declared: declared({ clauses: ['a.must', 'nope'] }) },
    ];
    expect(citationProblems(tests, clauses, reliance)).toEqual([
      'x: relies on a.must, which is not unspecified',
      'y: unknown clause ids nope',
    ]);
  });

  it('refuses a reliance that no profile entry could state', () => {
    const tests = [{ where: 'x', declared: declared({ relies: ['a.loose'] }) }];
    expect(citationProblems(tests, clauses, reliance)).toEqual([
      'x: relies on a.loose, which spec/reliance.ts maps to no profile entry',
    ]);
  });

  it('refuses two tests of one area with the same explicit id', () => {
    const tests = [
      { where: 'suites/roles/a.test.ts > x', declared: declared({ id: 'renames' }) },
      { where: 'suites/roles/b.test.ts > y', declared: declared({ id: 'renames' }) },
      { where: 'suites/tokens/c.test.ts > z', declared: declared({ id: 'renames' }) },
    ];
    expect(citationProblems(tests, clauses, reliance)).toEqual([
      'suites/roles/b.test.ts > y: id roles/renames is already the id of suites/roles/a.test.ts > x',
    ]);
  });

  it('refuses a test registered without the harness', () => {
    expect(citationProblems([{ where: 'x', declared: undefined }], clauses, reliance)).toHaveLength(
      1,
    );
  });
});

describe('the conformance tests of suites/', () => {
  it('cite what they check: no conformance test of open clauses only, no probe of firm clauses, relies only on open clauses', async () => {
    const { tests, fileErrors } = await collectConformance(
      PROJECT_ROOT,
      path.join(PROJECT_ROOT, 'vitest.config.ts'),
    );
    // A file that does not load hides its tests (the harness refuses some citations there).
    expect(fileErrors, 'suite files that could not be collected').toEqual([]);
    expect(tests.length, 'tests collected').toBeGreaterThan(100);
    expect(citationProblems(tests, catalogue)).toEqual([]);
  }, 120_000);
});
