import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../reference/server.ts';
import { cause } from '../suites/harness/causes.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import type { Target } from '../suites/harness/target.ts';
import { parseCommand } from './args.ts';
import { PROJECT_ROOT } from './cli.ts';
import { checkHub, doctor, HUB_PROBE_PATH, planRun, renderDoctor } from './doctor.ts';
import { resolveOnly } from './only.ts';

function declared(parts: string[], needs: string[], relies: string[] = []): DeclaredTest {
  return { kind: 'conformance', clauses: ['x'], relies, parts, needs };
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
      { kind: 'part', entry: 'part:chat', tests: 1, alone: 1 },
      // One test lacks both: neither alone would let it run.
      { kind: 'hook', entry: 'hook:clock', tests: 1, alone: 0 },
      { kind: 'hook', entry: 'hook:snapshot', tests: 1, alone: 0 },
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
    expect(byClause.causes).toEqual([{ kind: 'hook', entry: 'hook:snapshot', tests: 1, alone: 1 }]);
  });

  it('predicts the reliances the profile does not state, then what the set-up lacks', () => {
    const more = [
      ...tests,
      {
        where: 'suites/roles/a.test.ts > leans {roles.lean}',
        declared: declared(['identity'], [], ['users.update.absent-fields-unchanged']),
      },
      { where: 'suites/hub/p.test.ts > page {hub.x}', declared: declared([], []) },
      { where: 'suites/hub/q.test.ts > http {hub.y}', declared: declared([], []) },
    ];
    const plan = planRun(more, resolveOnly([], ['roles', 'chat', 'hub']), target, () => false, {
      browser: { cause: cause.browser('chromium'), uses: (f) => f.endsWith('p.test.ts') },
    });
    expect(plan).toMatchObject({ tests: 7, willRun: 3, notRun: 4 });
    expect(plan.causes.filter((c) => c.kind === 'follows' || c.kind === 'browser')).toEqual([
      {
        kind: 'follows',
        entry: 'follows:users.update.absent-fields-unchanged',
        tests: 1,
        alone: 1,
      },
      { kind: 'browser', entry: 'browser:chromium', tests: 1, alone: 1 },
    ]);
  });

  it('parses its options', () => {
    expect(
      parseCommand(['doctor', '--target', 'http://x', '--only', 'identity', '--json']),
    ).toEqual({
      kind: 'doctor',
      options: {
        target: { target: 'http://x', checkDecisions: false },
        only: ['identity'],
        json: true,
        observe: false,
      },
    });
    expect(parseCommand(['doctor', '--observe'])).toMatchObject({ options: { observe: true } });
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
      {
        target: { target: running.url, hub: running.hubUrl, checkDecisions: false },
        only: ['protocol'],
        json: false,
      },
      PROJECT_ROOT,
      `${PROJECT_ROOT}/vitest.config.ts`,
      `${PROJECT_ROOT}/suites`,
    );
    expect(report.embedded).toBe(false);
    expect(report.hooks).toEqual([]);
    expect(report.hub.state).toBe('hub');
    expect(report.problems).toEqual([]);
    expect(report.tests).toBeGreaterThan(0);
    expect(report.areas.map((a) => a.area)).toEqual(['protocol']);
    expect(report.causes.find((c) => c.entry === 'hook:accounts')?.tests).toBe(report.notRun);
    expect(renderDoctor(report)).toMatch(
      /will be not-run for what they declare or the set-up lacks\n.*\n\s+\d+ {2}the hook accounts would run/,
    );
  }, 180_000);
});

describe('eac doctor --observe', () => {
  let running: RunningReference;
  beforeAll(async () => {
    running = await start({ hooks: true, seed: 5 });
  });
  afterAll(() => running.close());

  it('shows where a profile differs from what the target shows', async () => {
    // The example profile states identity only: the other parts the target serves are additions.
    const profile = `${PROJECT_ROOT}/fixtures/profiles/identity-only.yaml`;
    const report = await doctor(
      {
        target: {
          target: running.url,
          hooks: running.hooksUrl ?? '',
          profile,
          checkDecisions: false,
        },
        only: ['identity'],
        json: false,
        observe: true,
      },
      PROJECT_ROOT,
      `${PROJECT_ROOT}/vitest.config.ts`,
      `${PROJECT_ROOT}/suites`,
    );
    const rows = report.observed?.rows ?? [];
    expect(report.observed?.error).toBeUndefined();
    expect(rows.find((r) => r.at === 'serves.identity')?.verdict).toBe('same');
    expect(rows.find((r) => r.at === 'serves.v2')?.verdict).toBe('unstated');
    expect(rows.find((r) => r.at === 'shapes.tokenClaims.subject')?.verdict).toBe('same');
    expect(renderDoctor(report)).toContain('the profile against what the target showed');
  }, 180_000);
});

describe('eac doctor and the hub', () => {
  let running: RunningReference;
  beforeAll(async () => {
    running = await start({ hooks: false, seed: 4 });
  });
  afterAll(() => running.close());

  it("takes the hub's page for a hub: HTML with the §4.17 text for a page without a token", async () => {
    expect(await checkHub(running.hubUrl)).toMatchObject({ state: 'hub' });
  });

  it('says the API is not a hub, and why', async () => {
    const check = await checkHub(running.url);
    expect(check.state).toBe('not-a-hub');
    expect(check.detail).toBe(
      `--hub points at ${running.url}, which answered JSON 404 ROUTE_NOT_FOUND at ${HUB_PROBE_PATH}, not a hub page (§4.17)`,
    );
    const gone = await checkHub('http://127.0.0.1:9');
    expect(gone.state).toBe('unreachable');
    expect(gone.detail).not.toMatch(/ECONNREFUSED.*ECONNREFUSED/);
  });

  it('never says ready about a hub it was not given, nor about an API given as the hub', async () => {
    const where = [
      PROJECT_ROOT,
      `${PROJECT_ROOT}/vitest.config.ts`,
      `${PROJECT_ROOT}/suites`,
    ] as const;
    const none = await doctor(
      { target: { target: running.url, checkDecisions: false }, only: ['hub'], json: false },
      ...where,
    );
    expect(none.hub.state).toBe('none');
    expect(none.problems).toEqual([]);
    expect(none.untested).toEqual(['hub pages (no --hub)']);
    expect(none.causes[0]).toEqual({
      kind: 'part',
      entry: 'part:hub',
      tests: none.tests,
      alone: none.tests,
    });
    expect(renderDoctor(none)).toMatch(
      /^eac doctor: ready, but not everything will be tested: hub pages \(no --hub\)\n/,
    );
    const api = await doctor(
      {
        target: { target: running.url, hub: running.url, checkDecisions: false },
        only: ['hub'],
        json: false,
      },
      ...where,
    );
    expect(api.hub.state).toBe('not-a-hub');
    expect(api.problems[0]).toMatch(/which answered JSON 404 ROUTE_NOT_FOUND/);
    expect(renderDoctor(api)).toMatch(/^eac doctor: 1 problem\n/);
  }, 240_000);
});
