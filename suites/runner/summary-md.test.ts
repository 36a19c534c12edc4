import { describe, expect, it } from 'vitest';
import { catalogue } from '../../spec/clauses/index.ts';
import { REPORTED_TOP_SECTIONS } from './coverage.ts';
import { sampleResults } from './sample-results.ts';
import { renderSummary } from './summary-md.ts';

function levelCounts(top: string): [number, number, number] {
  const inTop = catalogue.filter((c) => c.section === top || c.section.startsWith(`${top}.`));
  return [
    inTop.filter((c) => c.level === 'must').length,
    inTop.filter((c) => c.level === 'observed').length,
    inTop.filter((c) => c.level === 'unspecified').length,
  ];
}

describe('renderSummary', () => {
  const run = sampleResults();
  const md = renderSummary(run);

  it('opens with the counts, the target and the seed', () => {
    expect(md).toMatch(/\*\*1 pass, 1 fail, 1 not-run, 1 probe\*\* \(4 tests\)/);
    expect(md).toContain('| Target | http://127.0.0.1:4000 (embedded reference) |');
    expect(md).toContain('| Seed | 1 |');
    expect(md).toContain('`npx eac run --seed 1`');
  });

  it.each(REPORTED_TOP_SECTIONS)('has a §%s table whose totals follow the catalogue', (top) => {
    const [must, observed, unspecified] = levelCounts(top);
    const row = md.split('\n').find((line) => line.startsWith(`| **§${top} all** |`));
    expect(row, `no total row for §${top}`).toBeDefined();
    const cells = row?.split('|').map((c) => c.trim()) ?? [];
    expect(cells.slice(2, 5)).toEqual([String(must), String(observed), String(unspecified)]);
    expect(cells[5]).toMatch(new RegExp(`^\\d+/${must + observed + unspecified}$`));
  });

  it('has a row per subsection of §4 that holds clauses', () => {
    const sub = [...new Set(catalogue.map((c) => c.section).filter((s) => s.startsWith('4.')))];
    expect(sub.length).toBeGreaterThan(0);
    for (const s of sub) expect(md).toMatch(new RegExp(`^\\| §${s.replace('.', '\\.')} `, 'm'));
  });

  it('counts a clause as covered by a passing test and as failing by a failing one', () => {
    const covered = run.coverage.reduce(
      (n, row) => (row.section.includes('.') ? n : n + row.covered),
      0,
    );
    const failing = run.coverage.reduce(
      (n, row) => (row.section.includes('.') ? n : n + (row.failing ?? 0)),
      0,
    );
    // Two clauses of the passing test plus one of the probe; one clause of the failing test.
    expect(covered).toBe(3);
    expect(failing).toBe(1);
  });

  it('lists the failure with its replay line, the probe with the decision, the not-run with its reason', () => {
    const failures = md.slice(md.indexOf('## Failures'), md.indexOf('## Probes'));
    expect(failures).toContain('expected 200, got 500');
    expect(failures).toContain('`npx eac run --seed 1 --only');
    const probes = md.slice(md.indexOf('## Probes'), md.indexOf('## Not run'));
    expect(probes).toMatch(/\| `[\w.-]+` \| 400 VALIDATION_ERROR \| answered 422 \|/);
    expect(md.slice(md.indexOf('## Not run'))).toContain('hook clock missing');
  });

  it('keeps hostile text from breaking the tables or injecting HTML', () => {
    expect(md).not.toContain('<script>');
    const failureRow = md.split('\n').find((l) => l.startsWith('| hostile'));
    // 4 columns -> 5 unescaped pipes.
    expect(failureRow?.replace(/\\\|/g, '').split('|')).toHaveLength(6);
  });
});
