import { describe, expect, it } from 'vitest';

import { emptyRow } from '../reports/coverage.ts';
import type { Results } from '../reports/schema.ts';
import {
  checkGates,
  mostlyNotRun,
  parseMaxNotRun,
  parseMinCoverage,
  parseThresholds,
  type Thresholds,
} from './thresholds.ts';

type Row = Results['coverage'][number];
const row = (section: string, over: Partial<Row>): Row => ({ ...emptyRow(section), ...over });

// Section 4 counts its subsections once; 4.6 is one of them.
const run = {
  summary: { pass: 30, fail: 0, notRun: 70, probe: 0, total: 100, probeErrors: 0 },
  coverage: [
    row('2', { must: 10, portable: 2, throughDecision: 1, security: 4, securityCovered: 4 }),
    row('4', {
      must: 30,
      observed: 10,
      portable: 20,
      throughDecision: 10,
      unspecified: 8,
      probed: 2,
    }),
    row('4.6', { must: 5, portable: 1 }),
  ],
};

/** Every breached gate as one line naming the gate and the figures. */
const breaches = (r: typeof run, t: Thresholds) =>
  checkGates(r, t, [])
    .filter((g) => g.breached)
    .map((g) => `${g.name}: ${g.detail}`);

describe('thresholds', () => {
  it('reads counts and percentages, and refuses what is neither', () => {
    expect(parseMaxNotRun('10')).toEqual({ count: 10 });
    expect(parseMaxNotRun('5%')).toEqual({ percent: 5 });
    expect(parseMaxNotRun('ten')).toMatch(/count or a percentage/);
    expect(parseMaxNotRun('120%')).toMatch(/count or a percentage/);
    expect(parseMinCoverage('portable=60%')).toEqual({ kind: 'portable', floor: { percent: 60 } });
    expect(parseMinCoverage('covered@4.6=3')).toEqual({
      kind: 'covered',
      section: '4.6',
      floor: { count: 3 },
    });
    expect(parseMinCoverage('portabel=3')).toMatch(/no kind "portabel"/);
    expect(parseThresholds(undefined, [])).toBeUndefined();
    expect(parseThresholds('x', undefined)).toMatch(/--max-not-run/);
  });

  it('names each breached gate with its figures, and only those', () => {
    const gates = parseThresholds('10%', [
      'portable=50%', // 22 of 50: breached
      'covered=30', // 33: holds
      'security=4', // 4 of 4: holds
      'probed=50%', // 2 of 8: breached
      'portable@4.6=2', // 1 of 5: breached
      'covered@9.9=1', // no such section
    ]);
    if (gates === undefined || typeof gates === 'string') throw new Error('not parsed');
    expect(breaches(run, gates)).toEqual([
      '--max-not-run 10%: 70 of 100 tests were not run',
      '--min-coverage portable=50%: 22 of 50 must/observed clauses covered portably',
      '--min-coverage probed=50%: 2 of 8 unspecified clauses probed',
      '--min-coverage portable@4.6=2: 1 of 5 must/observed clauses covered portably',
      '--min-coverage covered@9.9=1: the document has no section 9.9',
    ]);
    expect(breaches(run, { maxNotRun: { count: 70 }, minCoverage: [] })).toEqual([]);
  });

  it('warns of a run that left more than half its tests not-run', () => {
    expect(mostlyNotRun(run)).toBe(true);
    expect(mostlyNotRun({ summary: { ...run.summary, notRun: 50 } })).toBe(false);
  });
});
