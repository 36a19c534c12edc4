import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsSchema, verdictOf, type Results } from './schema.ts';
import { ExpectationsFile } from '../spec/expectations.ts';
import {
  applyExpectations,
  expectationsFromRun,
  parseExpectations,
  readExpectations,
  renderExpectations,
  unexpectedCount,
} from './expectations.ts';
import { gateExit } from '../runner/run.ts';
import { clauseOf, sampleResults } from './sample-results.ts';

function gated(run: Results, file: ExpectationsFile): Results {
  const { results, gate } = applyExpectations(run.results, file, '/x/expectations.json');
  return { ...run, results, gate };
}

describe('expectations files', () => {
  it('reads JSON and YAML, and refuses a malformed file with the path of the problem', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-exp-'));
    const yaml = path.join(dir, 'e.yaml');
    await writeFile(
      yaml,
      'expectations:\n  - test: roles/hostile\n    outcome: fail\n    reason: known 500\n    issue: https://example.test/1\n',
    );
    expect((await readExpectations(yaml)).expectations).toEqual([
      {
        test: 'roles/hostile',
        outcome: 'fail',
        reason: 'known 500',
        issue: 'https://example.test/1',
      },
    ]);
    const json = path.join(dir, 'e.json');
    await writeFile(
      json,
      JSON.stringify({ expectations: [{ clause: 'a.b', outcome: 'not-run', reason: 'r' }] }),
    );
    expect((await readExpectations(json)).expectations[0]).toEqual({
      clause: 'a.b',
      outcome: 'not-run',
      reason: 'r',
    });
    await expect(readExpectations(path.join(dir, 'none.json'))).rejects.toThrow(
      /cannot read.*ENOENT/,
    );
    expect(() => parseExpectations('{', 'x.json')).toThrow(/is not JSON/);
    expect(() =>
      parseExpectations(
        JSON.stringify({ expectations: [{ test: 'a', outcome: 'broken', reason: 'r' }] }),
        'x.json',
      ),
    ).toThrow(/expectations\.0/);
    // Neither a test nor a clause, both, no reason, and a repeated entry are refused.
    for (const entry of [
      { outcome: 'fail', reason: 'r' },
      { test: 'a', clause: 'b', outcome: 'fail', reason: 'r' },
      { test: 'a', outcome: 'fail' },
    ])
      expect(ExpectationsFile.safeParse({ expectations: [entry] }).success).toBe(false);
    const twice = { test: 'a', outcome: 'fail', reason: 'r' };
    expect(() =>
      parseExpectations(JSON.stringify({ expectations: [twice, twice] }), 'x.json'),
    ).toThrow(/a second entry for test a/);
  });

  it('sorts results into expected failures, unexpected failures, unexpected passes and others', () => {
    const run = sampleResults();
    const out = gated(run, {
      expectations: [
        { test: 'roles/hostile', outcome: 'fail', reason: 'known 500' },
        // A pass where a failure is expected is an unexpected pass.
        { test: 'roles/renames-a-role', outcome: 'fail', reason: 'was broken' },
        // A not-run where a pass is expected is another unexpected outcome.
        { clause: clauseOf('must', 3), outcome: 'pass', reason: 'has the clock now' },
        { test: 'tokens/claims', outcome: 'pass', reason: 'fine' },
        { test: 'gone/test', outcome: 'fail', reason: 'no longer exists' },
      ],
    });
    expect(ResultsSchema.safeParse(out).success).toBe(true);
    const verdicts = Object.fromEntries(out.results.map((r) => [r.id, verdictOf(r)]));
    expect(verdicts).toEqual({
      'roles/renames-a-role': 'unexpected-pass',
      'roles/hostile': 'expected-fail',
      'errors/validation-status': 'ok',
      'tokens/claims': 'ok',
      'security/alg-none': 'ok',
      'tokens/needs-clock': 'unexpected-other',
    });
    expect(out.gate).toEqual({
      expectationsFile: '/x/expectations.json',
      entries: 5,
      expectedFailures: 1,
      unexpectedFailures: 0,
      unexpectedPasses: 1,
      otherUnexpected: 1,
      unexpected: 2,
      unused: ['test gone/test'],
    });
    expect(out.results.find((r) => r.id === 'tokens/needs-clock')?.expected?.by).toBe(
      clauseOf('must', 3),
    );
    expect(gateExit(out, false, false)).toBe(1);
  });

  it('lets an entry for the test win over an entry for a clause it cites', () => {
    const run = sampleResults();
    const out = gated(run, {
      expectations: [
        { clause: clauseOf('must', 2), outcome: 'pass', reason: 'clause-wide' },
        { test: 'roles/hostile', outcome: 'fail', reason: 'this one test' },
      ],
    });
    const hostile = out.results.find((r) => r.id === 'roles/hostile');
    expect(hostile?.expected).toEqual({ outcome: 'fail', reason: 'this one test', by: 'test' });
    expect(out.gate?.unexpected).toBe(0);
  });

  it('fails a run on a failure nobody expected, and the schema checks the gate counts', () => {
    const run = sampleResults();
    const out = gated(run, { expectations: [] });
    expect(out.gate?.unexpectedFailures).toBe(1);
    expect(unexpectedCount(out)).toBe(1);
    expect(gateExit(out, false, false)).toBe(1);
    const wrong = { ...out, gate: { ...out.gate, unexpected: 0 } };
    expect(ResultsSchema.safeParse(wrong).success).toBe(false);
  });

  it('writes a file from a run that the same run then meets with nothing unexpected', () => {
    const run = sampleResults();
    const file = expectationsFromRun(run, 'reports/latest');
    expect(file.expectations).toEqual([
      { test: 'roles/hostile', outcome: 'fail', reason: 'expected 200, got 500' },
      {
        test: 'tokens/needs-clock',
        outcome: 'not-run',
        reason: 'the target lacks the host hook clock',
      },
    ]);
    expect(file.description).toMatch(/reports\/latest .*1 fail, 1 not-run/);
    const out = gated(run, file);
    expect(out.gate?.unexpected).toBe(0);
    expect(out.gate?.expectedFailures).toBe(1);
    expect(gateExit(out, false, false)).toBe(0);
    // Round trip through both formats.
    for (const name of ['e.json', 'e.yaml'])
      expect(parseExpectations(renderExpectations(file, name), name)).toEqual(file);
    expect(renderExpectations(file, 'e.yml')).toMatch(/^description: /);
    expect(renderExpectations(file, undefined)).toMatch(/^\{/);
  });

  it('matches test ids whatever service ids or times they carry', () => {
    const run = sampleResults();
    const withIds = run.results.map((r) =>
      r.id === 'roles/hostile'
        ? { ...r, id: 'roles/hostile-0b7e3c1a-1111-4222-8333-944445555666' }
        : r,
    );
    const out = applyExpectations(
      withIds,
      {
        expectations: [
          {
            test: 'roles/hostile-aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
            outcome: 'fail',
            reason: 'r',
          },
        ],
      },
      'f',
    );
    expect(out.gate.expectedFailures).toBe(1);
  });

  it('exit codes: baseline alone counts only regressions; without either, any failure', () => {
    const run = sampleResults();
    expect(gateExit(run, false, false)).toBe(1);
    expect(gateExit(run, true, false)).toBe(0);
    expect(gateExit(run, true, true)).toBe(1);
    const accepted = gated(run, expectationsFromRun(run, 'x'));
    expect(gateExit(accepted, true, true)).toBe(1);
    expect(gateExit(accepted, true, false)).toBe(0);
  });
});
