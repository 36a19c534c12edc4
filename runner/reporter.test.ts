import { describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { EacReporter } from './reporter.ts';
import type { ProgressCounts } from './progress.ts';

/** Just what the reporter reads of a test module and its cases. */
function fakeModule(
  file: string,
  outcomes: readonly ('passed' | 'failed' | 'not-run' | 'probe')[],
) {
  const module = { moduleId: `/root/${file}` };
  const cases = outcomes.map(
    (outcome, i) =>
      ({
        name: `t${i}`,
        module,
        options: { mode: 'run' },
        result: () => ({
          state: outcome === 'not-run' ? 'skipped' : outcome === 'probe' ? 'passed' : outcome,
        }),
        meta: () => (outcome === 'not-run' || outcome === 'probe' ? { eac: { outcome } } : {}),
        diagnostic: () => ({ duration: 1 }),
      }) as unknown as TestCase,
  );
  const testModule = {
    ...module,
    children: { allTests: () => cases[Symbol.iterator]() },
  } as unknown as TestModule;
  return { testModule, cases };
}

describe('EacReporter while the tests run', () => {
  it('counts per area, names the area under way and says when an area finished', () => {
    const seen: ProgressCounts[] = [];
    const reporter = new EacReporter({
      root: '/root',
      runSeed: 1,
      targetArgs: [],
      onProgress: (counts) => seen.push(counts),
    });
    const a = fakeModule('suites/identity/a.test.ts', ['passed', 'failed']);
    const b = fakeModule('suites/identity/b.test.ts', ['not-run']);
    const c = fakeModule('suites/hub/c.test.ts', ['passed', 'probe']);
    reporter.onTestRunStart([a.testModule, b.testModule, c.testModule]);
    for (const m of [a, b, c]) {
      reporter.onTestModuleCollected(m.testModule);
      reporter.onTestModuleStart(m.testModule);
    }
    for (const t of a.cases) reporter.onTestCaseResult(t);
    reporter.onTestModuleEnd(a.testModule);
    expect(reporter.counts.areas).toEqual([
      { area: 'identity', pass: 1, failed: 1, notRun: 0, probe: 0, finished: false },
      { area: 'hub', pass: 0, failed: 0, notRun: 0, probe: 0, finished: false },
    ]);
    for (const t of c.cases) reporter.onTestCaseResult(t);
    expect(reporter.counts.current).toBe('hub');
    reporter.onTestModuleEnd(c.testModule);
    for (const t of b.cases) reporter.onTestCaseResult(t);
    reporter.onTestModuleEnd(b.testModule);
    expect(seen.at(-1)).toMatchObject({
      done: 5,
      total: 5,
      failed: 1,
      notRun: 1,
      current: 'identity',
      areas: [
        { area: 'identity', pass: 1, failed: 1, notRun: 1, probe: 0, finished: true },
        { area: 'hub', pass: 1, failed: 0, notRun: 0, probe: 1, finished: true },
      ],
    });
  });
});
