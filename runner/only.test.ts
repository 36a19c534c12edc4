import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  areaOfFile,
  clausePattern,
  listAreas,
  planFile,
  resolveOnly,
  testPattern,
  unmatchedValues,
} from './only.ts';

const areas = ['identity', 'roles', 'tokens'];

describe('resolveOnly', () => {
  it('takes a suite folder name as an area and anything else as a clause prefix', () => {
    expect(resolveOnly(['roles', 'roles.update', 'tokens/'], areas)).toEqual({
      areas: ['roles', 'tokens'],
      clausePrefixes: ['roles.update'],
    });
  });

  it('never treats the plumbing folders as areas', () => {
    const found = listAreas(path.resolve(import.meta.dirname, '..', 'suites'));
    expect(found).toContain('identity');
    expect(found).not.toContain('harness');
    expect(resolveOnly(['harness'], found).clausePrefixes).toEqual(['harness']);
  });

  it('reports values that match no clause id', () => {
    const selection = resolveOnly(['roles.update', 'rolez'], areas);
    expect(unmatchedValues(selection, ['roles.update.renames', 'tokens.user.path'])).toEqual([
      'rolez',
    ]);
  });
});

describe('clausePattern', () => {
  const pattern = clausePattern(['roles.update']);

  it('matches an id or id prefix inside the {...} suffix', () => {
    expect(pattern?.test('renames a role {roles.update.renames}')).toBe(true);
    expect(pattern?.test('two clauses {tokens.user.path roles.update.path}')).toBe(true);
    expect(pattern?.test('exact {roles.update}')).toBe(true);
  });

  it('does not match ids that merely contain the value, or the behaviour name', () => {
    expect(pattern?.test('other {xroles.update.renames}')).toBe(false);
    expect(pattern?.test('roles.update in the name only {tokens.user.path}')).toBe(false);
    expect(pattern?.test('no suffix roles.update')).toBe(false);
  });

  it('escapes regular-expression characters in the value', () => {
    expect(clausePattern(['roles.upd'])?.test('x {rolesXupd.a}')).toBe(false);
    expect(clausePattern(['a+b'])?.test('x {a+b.c}')).toBe(true);
  });

  it('is undefined without prefixes and ORs several', () => {
    expect(clausePattern([])).toBeUndefined();
    const both = clausePattern(['roles.update', 'tokens']);
    expect(both?.test('t {tokens.user.path}')).toBe(true);
    expect(both?.test('t {identity.x}')).toBe(false);
  });
});

describe('planFile', () => {
  const suites = '/p/suites';

  it('runs everything without a selection', () => {
    expect(planFile({ areas: [], clausePrefixes: [] }, 'roles')).toEqual({ run: true });
  });

  it('runs a selected area whole, filters other files by clause, or skips them', () => {
    const selection = resolveOnly(['roles', 'tokens.user'], areas);
    expect(planFile(selection, areaOfFile(suites, '/p/suites/roles/a.test.ts'))).toEqual({
      run: true,
    });
    const other = planFile(selection, areaOfFile(suites, '/p/suites/identity/b.test.ts'));
    expect(other.run && other.pattern?.test('x {tokens.user.path}')).toBe(true);
    expect(planFile(resolveOnly(['roles'], areas), 'identity')).toEqual({ run: false });
  });

  it('finds the area of a file relative to the suites folder', () => {
    expect(areaOfFile(suites, '/p/suites/roles/deep/a.test.ts')).toBe('roles');
    expect(areaOfFile(suites, '/elsewhere/a.test.ts')).toBeUndefined();
  });
});

describe('a test id', () => {
  // The names of a real file's tests, as vitest sees them (name and clause suffix).
  const names = [
    'the dashboard is shown {hub.dashboard.page}',
    'the dashboard is shown twice {hub.dashboard.page}',
    'then the dashboard is shown {hub.dashboard.page}',
    'who’s shown: the dashboard (v2) {hub.dashboard.page hub.v2}',
  ];
  const ids = ['hub/the-dashboard-is-shown', 'hub/who-s-shown-the-dashboard-v2'];

  it('is taken as one test, not as a clause prefix, and is no unknown value', () => {
    const selection = resolveOnly(ids, ['hub', 'identity']);
    expect(selection).toEqual({ areas: [], clausePrefixes: [], tests: ids });
    expect(unmatchedValues(selection, [])).toEqual([]);
    expect(resolveOnly(['nohub/the-dashboard-is-shown'], ['hub']).tests).toBeUndefined();
  });

  it('resolves to the files of its area and a pattern matching exactly its name', () => {
    const plan = planFile(resolveOnly([ids[0] as string], ['hub', 'identity']), 'hub');
    expect(plan.run).toBe(true);
    const pattern = plan.run ? plan.pattern : undefined;
    expect(names.filter((n) => pattern?.test(n) === true)).toEqual([names[0]]);
    expect(planFile(resolveOnly(ids, ['hub', 'identity']), 'identity')).toEqual({ run: false });
  });

  it('matches its name across punctuation and case, and adds up with other values', () => {
    expect(names.filter((n) => testPattern('who-s-shown-the-dashboard-v2').test(n))).toEqual([
      names[3],
    ]);
    expect(testPattern('ab-c').test('AB c {x}')).toBe(true);
    const both = planFile(resolveOnly([...ids, 'hub.other'], ['hub']), 'hub');
    const pattern = both.run ? both.pattern : undefined;
    expect(names.filter((n) => pattern?.test(n) === true)).toEqual([names[0], names[3]]);
    expect(pattern?.test('x {hub.other.thing}')).toBe(true);
  });

  it('finds a test by the explicit id it carries, whatever its name says', () => {
    const named = 'model runs over v1 dashboards (v1: 3 runs × 20 commands) [model-runs] {a.b c.d}';
    expect(testPattern('model-runs').test(named)).toBe(true);
    expect(testPattern('model-runs-over-v1-dashboards').test(named)).toBe(false);
    expect(testPattern('runs').test(named)).toBe(false);
    expect(testPattern('model-runs').test('model runs {a.b}')).toBe(true);
  });
});
