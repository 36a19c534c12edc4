import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../reference/server.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import type { Target } from '../suites/harness/target.ts';
import { parseCommand } from './args.ts';
import { PROJECT_ROOT } from './cli.ts';
import { doctor, planRun, renderDoctor } from './doctor.ts';
import { resolveOnly } from './only.ts';

function declared(parts: string[], needs: string[]): DeclaredTest {
  return { kind: 'conformance', clauses: ['x'], relies: [], parts, needs };
}

const tests = [
  {
    where: 'suites/roles/a.test.ts > renames {roles.update}',
    declared: declared(['identity'], ['accounts']),
  },
  {
    where: 'suites/roles/a.test.ts > ticks {roles.clock}',
    declared: declared(['identity'], ['clock', 'snapshot']),
  },
  { where: 'suites/chat/b.test.ts > streams {chat.x}', declared: declared(['chat'], ['agents']) },
  { where: 'suites/chat/b.test.ts > plain {chat.y}', declared: declared([], []) },
];

const target: Pick<Target, 'profile' | 'hooks' | 'credentials'> = {
  profile: { serves: ['identity'] } as unknown as Target['profile'],
  hooks: ['accounts'],
};

describe('eac doctor: the plan of a run', () => {
  it('counts not-runs by unserved part first, then by each missing hook', () => {
    const plan = planRun(tests, resolveOnly([], ['roles', 'chat']), target, () => false);
    expect(plan).toMatchObject({ tests: 4, willRun: 2, notRun: 2 });
    expect(plan.causes).toEqual([
      { kind: 'part', name: 'chat', tests: 1 },
      { kind: 'hook', name: 'clock', tests: 1 },
      { kind: 'hook', name: 'snapshot', tests: 1 },
    ]);
    expect(plan.areas).toEqual([
      { area: 'chat', tests: 2, notRun: 1 },
      { area: 'roles', tests: 2, notRun: 1 },
    ]);
  });

  it('follows --only (areas and clause prefixes) and pre-provisioned stand-ins', () => {
    const areas = ['roles', 'chat'];
    expect(planRun(tests, resolveOnly(['chat'], areas), target, () => false).tests).toBe(2);
    const byClause = planRun(
      tests,
      resolveOnly(['roles.clock'], areas),
      target,
      (h) => h === 'clock',
    );
    expect(byClause).toMatchObject({ tests: 1, notRun: 1 });
    expect(byClause.causes).toEqual([{ kind: 'hook', name: 'snapshot', tests: 1 }]);
  });

  it('parses its options', () => {
    expect(
      parseCommand(['doctor', '--target', 'http://x', '--only', 'identity', '--json']),
    ).toEqual({
      kind: 'doctor',
      options: { target: 'http://x', only: ['identity'], json: true },
    });
    expect(() => parseCommand(['doctor', '--hooks', 'http://x/__eac'])).toThrow(
      /give --target too/,
    );
  });
});

describe('eac doctor against a reference without hooks, for real', () => {
  let running: RunningReference;
  beforeAll(async () => {
    running = await start({ hooks: false, seed: 3 });
  });
  afterAll(() => running.close());

  it('finds it reachable, no hook announced, and the protocol tests that need the accounts hook', async () => {
    const report = await doctor(
      { target: running.url, hub: running.hubUrl, only: ['protocol'], json: false },
      PROJECT_ROOT,
      `${PROJECT_ROOT}/vitest.config.ts`,
      `${PROJECT_ROOT}/suites`,
    );
    expect(report.embedded).toBe(false);
    expect(report.hooks).toEqual([]);
    expect(report.hub.reachable).toBe(true);
    expect(report.tests).toBeGreaterThan(0);
    expect(report.areas.map((a) => a.area)).toEqual(['protocol']);
    expect(report.causes.find((c) => c.kind === 'hook' && c.name === 'accounts')?.tests).toBe(
      report.notRun,
    );
    expect(renderDoctor(report)).toMatch(
      /will be not-run for what they declare\n.*\n\s+\d+ {2}missing hook accounts/,
    );
  }, 180_000);
});
