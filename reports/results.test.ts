import { describe, expect, it } from 'vitest';
import type { EacMeta } from '../suites/harness/meta.ts';
import {
  areaFromFile,
  assignIds,
  parseTestName,
  summarize,
  toResult,
  type RawCase,
} from './results.ts';

const context = { runSeed: 99, targetArgs: [] };
const meta: EacMeta = {
  clauses: ['roles.update.renames'],
  relies: [],
  name: 'renames',
  area: 'roles',
  seed: 5,
};
const exchange = { request: { method: 'GET', url: 'http://t/', headers: {} }, ms: 1 };

function raw(overrides: Partial<RawCase>): RawCase {
  return {
    testName: 'renames {roles.update.renames}',
    file: 'suites/roles/update.test.ts',
    state: 'passed',
    errors: [],
    durationMs: 3.4,
    meta,
    ...overrides,
  };
}

describe('toResult', () => {
  it('maps passed to pass, or to probe when the test marked itself a probe', () => {
    expect(toResult(raw({}), context)?.outcome).toBe('pass');
    const probe = toResult(
      raw({ meta: { ...meta, outcome: 'probe', reason: 'answered 422', decision: '400' } }),
      context,
    );
    expect(probe).toMatchObject({ outcome: 'probe', reason: 'answered 422', decision: '400' });
  });

  it('maps failed to fail with the first error message as reason', () => {
    const result = toResult(
      raw({ state: 'failed', errors: [{ message: 'expected 200' }, { message: 'later' }] }),
      context,
    );
    expect(result).toMatchObject({ outcome: 'fail', reason: 'expected 200' });
  });

  it('maps a skip marked not-run to not-run, reason from meta or else the skip note', () => {
    const marked = { ...meta, outcome: 'not-run' as const };
    expect(
      toResult(raw({ state: 'skipped', meta: { ...marked, reason: 'no clock hook' } }), context)
        ?.reason,
    ).toBe('no clock hook');
    expect(
      toResult(raw({ state: 'skipped', meta: marked, skipNote: 'note' }), context)?.reason,
    ).toBe('note');
  });

  it('leaves deselected tests (other skips, pending) out of the report', () => {
    expect(toResult(raw({ state: 'skipped' }), context)).toBeUndefined();
    expect(toResult(raw({ state: 'pending' }), context)).toBeUndefined();
  });

  it('keeps exchanges for fail and probe only', () => {
    const withExchanges = { ...meta, exchanges: [exchange] };
    expect(toResult(raw({ meta: withExchanges }), context)?.exchanges).toBeUndefined();
    expect(
      toResult(raw({ state: 'failed', meta: withExchanges, errors: [{ message: 'x' }] }), context)
        ?.exchanges,
    ).toEqual([exchange]);
  });

  it('falls back to the test name and path for a test without meta', () => {
    const bare: RawCase = { ...raw({}) };
    delete (bare as { meta?: EacMeta }).meta;
    const result = toResult(
      { ...bare, testName: 'lists roles {roles.list.path roles.list.order}' },
      context,
    );
    expect(result).toMatchObject({
      name: 'lists roles',
      area: 'roles',
      clauses: ['roles.list.path', 'roles.list.order'],
      seed: 99,
    });
  });

  it('builds the replay line from the run seed and the test id, which runs that test alone', () => {
    expect(toResult(raw({}), context)?.replay).toBe('npx eac run --seed 99 --only roles/renames');
    expect(toResult(raw({ meta: { ...meta, id: 'kept-id' } }), context)?.replay).toBe(
      'npx eac run --seed 99 --only roles/kept-id',
    );
  });
});

describe('helpers', () => {
  it('parses names with and without a clause suffix', () => {
    expect(parseTestName('a b {x.y  z.w}')).toEqual({ name: 'a b', clauses: ['x.y', 'z.w'] });
    expect(parseTestName('plain')).toEqual({ name: 'plain', clauses: [] });
  });

  it('finds the area in a suites path', () => {
    expect(areaFromFile('suites/roles/x.test.ts')).toBe('roles');
    expect(areaFromFile('x.test.ts')).toBe('unknown');
  });

  it('gives stable ids, suffixing collisions', () => {
    const base = {
      area: 'roles',
      file: 'f',
      clauses: [],
      relies: [],
      outcome: 'pass' as const,
      seed: 1,
      replay: '',
      durationMs: 0,
    };
    const ids = assignIds([
      { ...base, name: 'Renames a Role!' },
      { ...base, name: 'renames a role' },
    ]).map((r) => r.id);
    expect(ids).toEqual(['roles/renames-a-role', 'roles/renames-a-role-2']);
  });

  it('names a test with an explicit id by it, whatever its name, and before derived ids', () => {
    const base = {
      area: 'roles',
      file: 'f',
      clauses: [],
      relies: [],
      outcome: 'pass' as const,
      seed: 1,
      replay: '',
      durationMs: 0,
    };
    const results = assignIds([
      { ...base, name: 'a rename' },
      { ...base, name: 'renamed wording of an old test', explicitId: 'a-rename' },
    ]);
    expect(results.map((r) => [r.name, r.id])).toEqual([
      ['a rename', 'roles/a-rename-2'],
      ['renamed wording of an old test', 'roles/a-rename'],
    ]);
    expect(results.every((r) => !('explicitId' in r))).toBe(true);
    const meta = {
      clauses: ['c.x'],
      relies: [],
      name: 'worded anew',
      area: 'roles',
      seed: 3,
      id: 'kept',
    };
    expect(toResult(raw({ meta }), context)).toMatchObject({
      explicitId: 'kept',
      name: 'worded anew',
    });
  });

  it('carries relies, kind and every observation of a probe, also when it failed', () => {
    const observations = [
      { observation: 'answered 422', matchesDecision: false, endpoint: 'POST /v1/x' },
      { observation: 'answered 400', matchesDecision: true },
    ];
    const probed = { ...meta, kind: 'probe' as const, relies: ['a.b'], observations };
    expect(toResult(raw({ meta: { ...probed, outcome: 'probe' } }), context)).toMatchObject({
      kind: 'probe',
      relies: ['a.b'],
      observations,
    });
    expect(
      toResult(raw({ state: 'failed', errors: [{ message: 'departs' }], meta: probed }), context)
        ?.observations,
    ).toEqual(observations);
    expect(toResult(raw({}), context)?.observations).toBeUndefined();
  });

  it('keeps a probe reason short while its observations stay whole', () => {
    const long = 'x'.repeat(10_000);
    const probed = {
      ...meta,
      outcome: 'probe' as const,
      reason: long,
      observations: [{ observation: long, matchesDecision: true }],
    };
    const result = toResult(raw({ meta: probed }), context);
    expect(result?.reason?.length).toBeLessThan(4100);
    expect(result?.observations?.[0]?.observation).toBe(long);
  });

  it('summarizes outcomes', () => {
    const outcomes = ['pass', 'pass', 'fail', 'not-run', 'probe'] as const;
    expect(summarize(outcomes.map((outcome) => ({ outcome })))).toEqual({
      pass: 2,
      fail: 1,
      notRun: 1,
      probe: 1,
      total: 5,
      probeErrors: 0,
    });
  });

  it('counts the probes that broke while recording apart from the probes', () => {
    const results = [
      { outcome: 'probe-error' as const },
      { outcome: 'probe' as const },
      { outcome: 'pass' as const },
    ];
    expect(summarize(results)).toMatchObject({ probe: 1, probeErrors: 1, total: 3 });
  });
});
