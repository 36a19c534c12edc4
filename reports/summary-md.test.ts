import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import { REPORTED_TOP_SECTIONS } from './coverage.ts';
import { clauseOf, sampleResults } from './sample-results.ts';
import { renderSummary } from './summary-md.ts';

function levelCounts(top: string): [number, number, number] {
  const inTop = catalogue.filter((c) => c.section === top || c.section.startsWith(`${top}.`));
  return [
    inTop.filter((c) => c.level === 'must').length,
    inTop.filter((c) => c.level === 'observed').length,
    inTop.filter((c) => c.level === 'unspecified').length,
  ];
}

function between(md: string, from: string, to: string): string {
  const start = md.indexOf(from);
  expect(start, `no "${from}"`).toBeGreaterThanOrEqual(0);
  const end = md.indexOf(to, start);
  return md.slice(start, end < 0 ? undefined : end);
}

describe('renderSummary', () => {
  const run = sampleResults();
  const md = renderSummary(run);

  it('opens with the counts, the target, the profile and the seed', () => {
    expect(md).toMatch(/\*\*3 pass, 1 fail, 1 not-run, 1 probe\*\* \(6 tests\)/);
    expect(md).toContain('| Target | http://127.0.0.1:4000 (embedded reference) |');
    expect(md).toContain('| Profile | reference default |');
    expect(md).toContain('| Parts served | identity, tenant-flow |');
    expect(md).toContain('| Seed | 1 |');
    expect(md).toContain('`npx eac run --seed 1`');
  });

  it.each(REPORTED_TOP_SECTIONS)('has a §%s table whose totals follow the catalogue', (top) => {
    const [must, observed, unspecified] = levelCounts(top);
    const row = md.split('\n').find((line) => line.startsWith(`| **§${top} all** |`));
    expect(row, `no total row for §${top}`).toBeDefined();
    const cells = row?.split('|').map((c) => c.trim()) ?? [];
    expect(cells.slice(2, 4)).toEqual([String(must), String(observed)]);
    expect(cells[4]).toMatch(new RegExp(`^\\d+/${must + observed}$`));
    expect(cells[6]).toBe(String(unspecified));
    expect(cells[7]).toMatch(new RegExp(`^\\d+/${unspecified}$`));
  });

  it('has a row per subsection of §4 that holds clauses', () => {
    const sub = [...new Set(catalogue.map((c) => c.section).filter((s) => s.startsWith('4.')))];
    expect(sub.length).toBeGreaterThan(0);
    for (const s of sub) expect(md).toMatch(new RegExp(`^\\| §${s.replace('.', '\\.')} `, 'm'));
  });

  it('keeps portable, through-a-decision, probed and security coverage apart', () => {
    const tops = run.coverage.filter((row) => !row.section.includes('.'));
    const sum = (pick: (row: (typeof tops)[number]) => number) =>
      tops.reduce((n, row) => n + pick(row), 0);
    // Two must clauses of the plain pass; one of the pass that relies on a decision.
    expect(sum((r) => r.portable)).toBe(2);
    expect(sum((r) => r.throughDecision)).toBe(1);
    expect(sum((r) => r.probed)).toBe(1);
    expect(sum((r) => r.securityCovered)).toBe(1);
    expect(sum((r) => r.failing)).toBe(1);
    expect(sum((r) => r.covered)).toBe(5);
    expect(md).toMatch(/Coverage: must\/observed 2 portable \+ 1 through a decision of \d+/);
    const security = between(md, '## Security clauses', '\n## ');
    expect(security).toMatch(/\| §\d+ [^|]+ \| \d+ \| 1 \| 0 \| 0 \|/);
  });

  it('lists per section the clauses covered only through a decision and the open ones no probe answered', () => {
    const gaps = between(md, '## Covered only through a decision', '\n## Failures');
    expect(gaps).toContain(`\`${clauseOf('must', 4)}\``);
    expect(gaps).toContain(`\`${clauseOf('unspecified', 1)}\``);
    // The probed clause is not listed as unprobed.
    expect(gaps).not.toContain(`\`${clauseOf('unspecified', 0)}\``);
  });

  it('lists the failure with its replay line, the register by clause, the not-run by cause', () => {
    const failures = between(md, '## Failures', '\n## Ambiguity register');
    expect(failures).toContain('expected 200, got 500');
    expect(failures).toContain('`npx eac run --seed 1 --only');
    const register = between(md, '## Ambiguity register', '\n## Not run');
    expect(register).toContain(`(1 of ${run.register.length} open clauses probed)`);
    expect(register).toMatch(
      /\| `[\w.-]+` §[\d.]+ \| [^|]+ \| ✗ answered 422 \| `POST \/v1\/x\/\{id\}` \(1 test: errors\/validation-status\) \|/,
    );
    const notRun = md.slice(md.indexOf('## Not run'));
    expect(notRun).toContain('| missing hook clock | 1 |');
    expect(notRun).toContain('the target lacks the host hook clock');
  });

  it('lists the transition tables of the machines', () => {
    const machines = md.slice(md.indexOf('## State machines'));
    expect(machines).toContain('### identity');
    expect(machines).toMatch(/\| `updateRole` \| role \| role \|/);
  });

  it('keeps hostile text from breaking the tables or injecting HTML', () => {
    expect(md).not.toContain('<script>');
    const failureRow = md.split('\n').find((l) => l.startsWith('| hostile'));
    // 4 columns -> 5 unescaped pipes.
    expect(failureRow?.replace(/\\\|/g, '').split('|')).toHaveLength(6);
  });
});
