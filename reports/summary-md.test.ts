import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import { REPORTED_TOP_SECTIONS } from './coverage.ts';
import { summarize } from './results.ts';
import { clauseOf, hublessResults, sampleResults } from './sample-results.ts';
import type { Result, Results } from './schema.ts';
import { capLength, MAX_SUMMARY_CHARS, renderSummary } from './summary-md.ts';

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

  it('says a run given no --hub tested no hub, and counts one test as one', () => {
    const text = renderSummary(hublessResults(run));
    expect(text).toContain('| Hub | none (not tested) |');
    expect(text).toContain(
      '- part, 1 test: --hub URL (the hub pages were not tested) would run 1 test',
    );
    expect(text).toMatch(/\*\* \(1 test\)/);
    expect(md).toContain('| Hub | http://127.0.0.1:4000/hub |');
  });

  it('opens with the counts, the target, the profile and the seed', () => {
    expect(md).toMatch(/\*\*3 pass, 1 fail, 1 not-run, 1 probe\*\* \(6 tests\)/);
    expect(md).toContain('| Target | http://127.0.0.1:4000 (embedded reference) |');
    expect(md).toContain('| Profile | reference default |');
    expect(md).toContain('| Parts served | identity, tenant-flow |');
    expect(md).toContain('| Seed | 1 |');
    expect(md).toContain('`npx eac run --seed 1`');
  });

  it.each(REPORTED_TOP_SECTIONS)('has a §%s row whose totals follow the catalogue', (top) => {
    const [must, observed, unspecified] = levelCounts(top);
    const row = md.split('\n').find((line) => line.startsWith(`| §${top} `));
    expect(row, `no row for §${top}`).toBeDefined();
    const cells = row?.split('|').map((c) => c.trim()) ?? [];
    expect(cells.slice(2, 4)).toEqual([String(must), String(observed)]);
    expect(cells[4]).toMatch(new RegExp(`^\\d+/${must + observed}$`));
    expect(cells[7]).toBe(String(unspecified));
    expect(cells[8]).toMatch(new RegExp(`^\\d+/${unspecified}$`));
  });

  it('keeps coverage short: the top sections only, the subsections left to index.html', () => {
    const coverage = between(md, '## Clause coverage by section', '\n## ');
    expect(coverage).not.toMatch(/^\| §4\.1 /m);
    expect(coverage).toContain('index.html lists them, the subsections and the security clauses');
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
    expect(md).toMatch(
      /Coverage: must\/observed 2 portable \+ 1 through a decision \+ 0 with no portable check of \d+/,
    );
    const security = md.split('\n').filter((l) => /^\| §\d+ .* \| 1\/\d+ \|$/.test(l));
    expect(security).toHaveLength(1);
  });

  it('counts the clauses covered only through a decision and the open ones no probe answered', () => {
    const decisionOnly = run.gaps.reduce((n, g) => n + g.decisionOnly.length, 0);
    const unprobed = run.gaps.reduce((n, g) => n + g.unprobed.length, 0);
    expect(decisionOnly).toBeGreaterThan(0);
    expect(md).toContain(
      `${decisionOnly} must/observed clause${decisionOnly === 1 ? ' is' : 's are'} covered only through a decision and ${unprobed} open clauses have no probe`,
    );
  });

  it('puts failures, then not-run causes, then coverage, then the register', () => {
    const order = ['## Failures', '## Not run', '## Clause coverage', '## Ambiguity register'];
    const at = order.map((heading) => md.indexOf(heading));
    expect(at.every((n) => n > 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
  });

  it('lists the failure under its cause with its replay line, the register in short, the not-run by cause', () => {
    const failures = between(md, '## Failures', '\n## Not run');
    expect(failures).toContain('### 1 test: expected 200, got 500');
    expect(failures).toContain('`npx eac run --seed 1 --only');
    const register = md.slice(md.indexOf('## Ambiguity register'));
    expect(register).toContain(`(1 of ${run.register.length} open clauses probed)`);
    expect(register).toContain(
      `1 clause had an answer that departs from the reference’s decision: \`${clauseOf('unspecified', 0)}\``,
    );
    const notRun = between(md, '## Not run', '\n## Clause coverage');
    expect(notRun).toContain('- hook, 1 test: the hook clock would run 1 test');
  });

  it('keeps hostile text from breaking the tables or injecting HTML', () => {
    expect(md).not.toContain('<script>');
    const failureRow = md.split('\n').find((l) => l.startsWith('| hostile'));
    // 3 columns -> 4 unescaped pipes.
    expect(failureRow?.replace(/\\\|/g, '').split('|')).toHaveLength(5);
  });
});

/** The sample run with `extra` results added (and the counts made to agree). */
function withResults(extra: readonly Result[]): Results {
  const base = sampleResults();
  const results = [...base.results, ...extra];
  return { ...base, results, summary: summarize(results) };
}

function failing(n: number, reason: (i: number) => string): Result[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `hub/dashboard-${i}`,
    name: `the dashboard ${i} is shown`,
    area: 'hub',
    file: 'suites/hub/dashboard.test.ts',
    clauses: [clauseOf('must', 5)],
    relies: [],
    outcome: 'fail' as const,
    seed: i,
    durationMs: 1,
    reason: reason(i),
    replay: `npx eac run --seed 1 --only hub/dashboard-${i}`,
  }));
}

describe('renderSummary on a large run', () => {
  it('makes 55 failures of one cause one group of ten tests and a count of the rest', () => {
    const md = renderSummary(
      withResults(
        failing(
          55,
          (i) =>
            `the dashboard is shown: expected +0 to be 1 (account 3f2a9c1e-0b1d-4c2e-9f00-${String(i).padStart(12, '0')})\n  seed 1 (test seed ${i * 7919}); replay: x`,
        ),
      ),
    );
    expect(md.match(/^### /gm)).toHaveLength(2);
    expect(md).toContain(
      '### 55 tests: the dashboard is shown: expected +0 to be 1 (account {id})',
    );
    expect(md).toContain('and 45 more (index.html lists them all).');
    expect(md.length).toBeLessThan(MAX_SUMMARY_CHARS);
  });

  it('stays under the cap with thousands of tests of distinct causes, and says what it left out', () => {
    const md = renderSummary(
      withResults(
        failing(3000, (i) => `${'a long and distinct message '.repeat(3)}${'x'.repeat(i % 50)}`),
      ),
    );
    expect(md.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(md).toMatch(
      /\*\*summary\.md stops here\*\*: \d+ more lines .* index\.html in the same folder holds the whole report\.\n$/,
    );
    expect(renderSummary(withResults(failing(3000, () => 'same')))).not.toContain('stops here');
  });

  it('cuts at a whole line and keeps short text as it is', () => {
    expect(capLength('a\nb\n', 10)).toBe('a\nb\n');
    const cut = capLength(`${'line\n'.repeat(100)}`, 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut.split('\n').filter((l) => l === 'line').length).toBeGreaterThan(0);
  });
});
