import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { judge, wholeFileFailures, type VitestFileTask } from './runner.mjs';

const test = (state: string | undefined) => ({ type: 'test', result: state && { state } });
const file = (name: string, state: string | undefined, tasks: unknown[], message?: string) =>
  ({
    filepath: join(process.cwd(), name),
    type: 'suite',
    result: state === undefined ? undefined : { state, errors: message ? [{ message }] : [] },
    tasks,
  }) satisfies VitestFileTask;

describe('the eac-vitest runner', () => {
  it('finds the files that failed with no failing test of their own', () => {
    const files = [
      file('suites/a.test.ts', 'fail', [], 'reference did not start'),
      file('suites/b.test.ts', 'fail', [{ type: 'suite', tasks: [test('fail')] }]),
      file('suites/c.test.ts', 'pass', [test('pass')]),
      file('suites/d.test.ts', undefined, []),
    ];
    expect(wholeFileFailures(files)).toEqual([
      { file: 'suites/a.test.ts', message: 'reference did not start' },
    ]);
  });

  it('turns a survivor into a kill by the tests of the failed file', () => {
    const failures = [{ file: 'suites/a.test.ts', message: 'boom' }];
    const ids = ['suites/a.test.ts#x', 'suites/b.test.ts#y', 'suites/a.test.ts#z'];
    expect(judge({ status: 'survived', nrOfTests: 3 }, failures, ids)).toEqual({
      status: 'killed',
      failureMessage: 'suites/a.test.ts failed as a whole: boom',
      killedBy: ['suites/a.test.ts#x', 'suites/a.test.ts#z'],
      nrOfTests: 3,
    });
  });

  it('leaves other verdicts, and survivors of clean runs, as they are', () => {
    const failures = [{ file: 'suites/a.test.ts', message: 'boom' }];
    const killed = { status: 'killed', nrOfTests: 1 };
    expect(judge(killed, failures, [])).toBe(killed);
    const survived = { status: 'survived', nrOfTests: 2 };
    expect(judge(survived, [], ['suites/a.test.ts#x'])).toBe(survived);
  });
});
