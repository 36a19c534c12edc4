import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import { renderHtml } from '../reports/html.ts';
import { renderJunit } from '../reports/junit.ts';
import { sampleResults } from '../reports/sample-results.ts';
import { ResultsSchema, type Results } from '../reports/schema.ts';
import { renderSummary } from '../reports/summary-md.ts';
import { closingSummary } from './run.ts';
import { checkGates, parseThresholds, type Thresholds } from './thresholds.ts';

function thresholds(maxNotRun: string | undefined, minCoverage: string[]): Thresholds {
  const parsed = parseThresholds(maxNotRun, minCoverage);
  if (parsed === undefined || typeof parsed === 'string') throw new Error(String(parsed));
  return parsed;
}

/** The sample run (1 of 6 tests not-run) gated at no not-run at all: breached. */
function breachedRun(): Results {
  const run = sampleResults();
  return { ...run, gates: checkGates(run, thresholds('0', ['security=1']), catalogue) };
}

describe('a breached gate in the reports', () => {
  it('results.json holds every gate with whether it was breached', () => {
    const run = breachedRun();
    expect(ResultsSchema.parse(run).gates).toEqual([
      {
        name: '--max-not-run 0',
        kind: 'max-not-run',
        breached: true,
        detail: '1 of 6 tests was not run',
      },
      {
        name: '--min-coverage security=1',
        kind: 'min-coverage',
        breached: false,
        detail: expect.stringMatching(/^1 of \d+ security clauses covered$/) as unknown,
      },
    ]);
  });

  it('summary.md says so in its headline and lists the gates', () => {
    const md = renderSummary(breachedRun());
    expect(md).toContain('**Gate breached: --max-not-run 0** (1 of 6 tests was not run)');
    expect(md).toMatch(
      /## Gates \(1 of 2 breached\)[^]*✗ `--max-not-run 0`[^]*✓ `--min-coverage security=1`/,
    );
    expect(renderSummary(sampleResults())).not.toContain('## Gates');
  });

  it('index.html says so in its headline and has a section of gates', () => {
    const html = renderHtml(breachedRun());
    expect(html).toMatch(/<p class="breach">[^<]*Gate breached: <code>--max-not-run 0<\/code>/);
    expect(html).toContain('<h2 class="fail" id="gates">Gates (1 of 2 breached)</h2>');
  });

  it('junit.xml has a failing test case named after the gate', () => {
    const xml = renderJunit(breachedRun());
    expect(xml).toMatch(
      /<testsuite name="gates" tests="2" failures="1"[^]*<testcase classname="eac.gates" name="--max-not-run 0"[^>]*>\s*<failure message="1 of 6 tests was not run"/,
    );
    expect(xml).toMatch(/<testsuites name="eac" tests="8" failures="2"/);
    expect(xml).toMatch(/<testcase classname="eac.gates" name="--min-coverage security=1"[^>]*\/>/);
  });

  it('the closing lines name it', () => {
    expect(closingSummary(breachedRun(), '/r/x', undefined)).toContain(
      'gate breached: --max-not-run 0: 1 of 6 tests was not run',
    );
  });

  it('the expectations file is one of the gates when it was given', () => {
    const run = sampleResults();
    const gate = {
      expectationsFile: '/x/e.yaml',
      entries: 0,
      expectedFailures: 0,
      unexpectedFailures: 1,
      unexpectedPasses: 0,
      otherUnexpected: 0,
      unexpected: 1,
      unused: [],
    };
    expect(checkGates({ ...run, gate }, undefined, catalogue)).toEqual([
      {
        name: '--expectations /x/e.yaml',
        kind: 'expectations',
        breached: true,
        detail: '1 unexpected (1 unexpected failure, 0 unexpected passes, 0 other)',
      },
    ]);
  });
});

describe('coverage gates with --only', () => {
  it('count over the clauses the selection cites, not the whole document', () => {
    const run = sampleResults();
    const floor = thresholds(undefined, ['portable=40%']);
    // Over the document, 2 portable clauses are far below 40%.
    expect(checkGates(run, floor, catalogue)[0]?.breached).toBe(true);
    const gates = checkGates({ ...run, only: ['roles'] }, floor, catalogue);
    expect(gates[0]).toMatchObject({
      breached: false,
      detail:
        '2 of 5 must/observed clauses covered portably (over the 7 clauses the --only selection cites)',
    });
  });
});
