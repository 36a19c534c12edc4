import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, type Results } from '../reports/schema.ts';
import { parseCommand } from './args.ts';
import { main } from './cli.ts';
import { applyExpectations } from '../reports/expectations.ts';
import { renderHtml } from '../reports/html.ts';
import { renderJunit } from '../reports/junit.ts';
import { closingSummary } from './run.ts';
import { readResultsFile } from '../reports/report-files.ts';
import { summarize } from '../reports/results.ts';
import { sampleResults } from '../reports/sample-results.ts';
import { renderSummary } from '../reports/summary-md.ts';

/** hostile: expected fail; renames-a-role: unexpected pass; needs-clock: not-run as expected. */
function gatedSample(): Results {
  const run = sampleResults();
  const { results, gate } = applyExpectations(
    run.results,
    {
      expectations: [
        { test: 'roles/hostile', outcome: 'fail', reason: 'known 500', issue: 'https://x.test/7' },
        { test: 'roles/renames-a-role', outcome: 'fail', reason: 'was broken' },
        { test: 'tokens/needs-clock', outcome: 'not-run', reason: 'no clock hook' },
      ],
    },
    '/x/exp.yaml',
  );
  return { ...run, results, gate };
}

describe('reports of a run with expectations', () => {
  it('summary.md shows unexpected failures, unexpected passes and expected failures apart', () => {
    const md = renderSummary(gatedSample());
    expect(md).toContain('**Against the expectations file: 1 unexpected**');
    expect(md).toContain('## Unexpected failures (0)');
    expect(md).toContain('## Unexpected passes and other outcomes (1)');
    expect(md).toMatch(/renames a role .*\| pass \| fail: was broken/);
    expect(md).toContain('## Expected failures (1)');
    expect(md).toContain('https://x.test/7');
    expect(renderSummary(sampleResults())).toContain('## Failures (1)');
  });

  it('index.html and the closing lines show them apart too', () => {
    const html = renderHtml(gatedSample());
    expect(html).toContain('Unexpected failures (0)');
    expect(html).toContain('Unexpected passes and other outcomes (1)');
    expect(html).toContain('Expected failures (1)');
    expect(html).toContain('Expected: <strong>fail</strong>');
    const closing = closingSummary(gatedSample(), '/r/run', undefined);
    expect(closing).toContain(
      'expectations /x/exp.yaml: 1 unexpected (0 unexpected failures, 1 unexpected pass, 0 other), 1 expected failure',
    );
    expect(closing).not.toContain('Failures:');
    expect(closing).toMatch(/! roles: renames a role: pass, expected fail/);
  });

  it('junit: an expected failure is skipped, an unexpected pass is a failure', () => {
    const xml = renderJunit(gatedSample());
    expect(xml).toMatch(/<testsuites name="eac" tests="6" failures="1" errors="0" skipped="2"/);
    expect(xml).toContain('<skipped message="expected failure: known 500"/>');
    expect(xml).toContain('type="UnexpectedPass"');
    expect(renderJunit(sampleResults())).toMatch(
      /<testsuites name="eac" tests="6" failures="1" errors="0" skipped="1"/,
    );
  });

  it('reads a results.json of schema version 2 as the current version', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-gate-'));
    const file = path.join(dir, 'results.json');
    await writeFile(file, JSON.stringify({ ...sampleResults(), schemaVersion: 2 }));
    expect((await readResultsFile(file)).schemaVersion).toBe(SCHEMA_VERSION);
    await writeFile(file, JSON.stringify({ ...sampleResults(), schemaVersion: 99 }));
    await expect(readResultsFile(file)).rejects.toThrow(
      /version 99; this eac reads versions 2 and 3 and 4/,
    );
  });

  it('eac expectations --from and eac diff from the command line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-gate-'));
    const base = sampleResults();
    const results = base.results.map((r) =>
      r.id === 'roles/renames-a-role' ? { ...r, outcome: 'fail' as const, reason: 'boom' } : r,
    );
    await writeFile(path.join(dir, 'a.json'), JSON.stringify(base));
    await writeFile(
      path.join(dir, 'b.json'),
      JSON.stringify({ ...base, results, summary: summarize(results) }),
    );
    const exp = path.join(dir, 'exp.yaml');
    expect(await main(['expectations', '--from', path.join(dir, 'a.json'), '--out', exp])).toBe(0);
    expect(await readFile(exp, 'utf8')).toContain('test: roles/hostile');
    const out = path.join(dir, 'diff.md');
    const args = ['diff', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--out', out];
    expect(await main(args)).toBe(1);
    expect(await readFile(out, 'utf8')).toContain('`roles/renames-a-role`');
    expect(
      await main([
        'diff',
        path.join(dir, 'a.json'),
        path.join(dir, 'a.json'),
        '--json',
        '--out',
        out,
      ]),
    ).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ regression: false });
  });

  it('parses the gate options and commands', () => {
    expect(
      parseCommand(['run', '--expectations', 'e.yaml', '--baseline', 'reports/latest']),
    ).toMatchObject({
      kind: 'run',
      options: { expectations: 'e.yaml', baseline: 'reports/latest' },
    });
    expect(parseCommand(['expectations', '--from', 'r'])).toEqual({
      kind: 'expectations',
      from: 'r',
    });
    expect(parseCommand(['diff', 'a', 'b', '--json', '--out', 'd.json'])).toEqual({
      kind: 'diff',
      base: 'a',
      next: 'b',
      json: true,
      out: 'd.json',
    });
    expect(() => parseCommand(['diff', 'a'])).toThrow(/give two runs/);
    expect(() => parseCommand(['expectations'])).toThrow(/--from/);
    expect(() => parseCommand(['run', '--expectations', ''])).toThrow(/needs a value/);
  });
});
