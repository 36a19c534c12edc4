import { describe, expect, it } from 'vitest';
import { sampleResults } from './sample-results.ts';
import { ResultsSchema, SCHEMA_VERSION } from './schema.ts';

describe('ResultsSchema', () => {
  it('accepts a run with one result of each outcome', () => {
    const parsed = ResultsSchema.safeParse(sampleResults());
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('survives a JSON round trip unchanged', () => {
    const run = sampleResults();
    expect(ResultsSchema.parse(JSON.parse(JSON.stringify(run)))).toEqual(run);
  });

  it('rejects summary counts that disagree with the results', () => {
    const run = sampleResults();
    const parsed = ResultsSchema.safeParse({ ...run, summary: { ...run.summary, fail: 0 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain('summary');
  });

  it('rejects two results with one id', () => {
    const run = sampleResults();
    const [first] = run.results;
    if (!first) throw new Error('sample has results');
    const results = [...run.results, { ...first }];
    const summary = { ...run.summary, pass: run.summary.pass + 1, total: run.summary.total + 1 };
    const parsed = ResultsSchema.safeParse({ ...run, results, summary });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/duplicate result id/);
  });

  it('carries its schema version, and refuses another', () => {
    const run = sampleResults();
    expect(run.schemaVersion).toBe(SCHEMA_VERSION);
    expect(ResultsSchema.safeParse({ ...run, schemaVersion: SCHEMA_VERSION - 1 }).success).toBe(
      false,
    );
  });

  it('carries relies per test and observations per probe', () => {
    const run = sampleResults();
    const bad = run.results.map((r) =>
      r.outcome === 'probe'
        ? { ...r, observations: [{ observation: 'x', matchesDecision: 'yes' }] }
        : r,
    );
    expect(ResultsSchema.safeParse({ ...run, results: bad }).success).toBe(false);
    const { relies: _dropped, ...withoutRelies } = run.results[0] ?? { relies: [] };
    void _dropped;
    const missing = [withoutRelies, ...run.results.slice(1)];
    expect(ResultsSchema.safeParse({ ...run, results: missing }).success).toBe(false);
  });

  it('rejects an unknown outcome and a malformed section', () => {
    const run = sampleResults();
    const badOutcome = run.results.map((r, i) => (i === 0 ? { ...r, outcome: 'skipped' } : r));
    expect(ResultsSchema.safeParse({ ...run, results: badOutcome }).success).toBe(false);
    const badSection = run.coverage.map((c, i) => (i === 0 ? { ...c, section: '§2' } : c));
    expect(ResultsSchema.safeParse({ ...run, coverage: badSection }).success).toBe(false);
  });
});
