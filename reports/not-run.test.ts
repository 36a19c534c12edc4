import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cause, type NotRunCause } from '../suites/harness/causes.ts';
import { countNotRun, waitsOnProfile } from './not-run.ts';
import { causeLabel } from './outline.ts';
import { readResultsFile } from './report-files.ts';
import { sampleResults } from './sample-results.ts';

const notRun = (reason: string, ...causes: NotRunCause[]) => ({
  outcome: 'not-run' as const,
  reason,
  causes,
});

describe('not-run causes', () => {
  it('groups the tests by the entry they wait on, whatever their reasons say', () => {
    const embed = cause.shape('shapes.embedToken');
    const upserts = cause.follows('tokens.embed-token.upserts');
    const tally = countNotRun([
      notRun('the profile names no embed-token members (shapes.embedToken)', embed),
      notRun('worded otherwise, same entry', embed),
      notRun("the target's profile does not state tokens.embed-token.upserts (follows)", upserts),
      notRun(
        'the target lacks the host hooks clock, roles',
        cause.hook('clock'),
        cause.hook('roles'),
      ),
      notRun('the target lacks the host hook clock', cause.hook('clock')),
      notRun("the target's profile does not serve v2", cause.part('v2')),
      notRun('the target accepted the request (201)\nmore', cause.other('no refusal to check')),
      { outcome: 'pass' as const },
    ]);
    expect(tally).toEqual([
      { kind: 'part', entry: 'part:v2', tests: 1, alone: 1 },
      { kind: 'hook', entry: 'hook:clock', tests: 2, alone: 1 },
      { kind: 'hook', entry: 'hook:roles', tests: 1, alone: 0 },
      { kind: 'shape', entry: 'shapes.embedToken', tests: 2, alone: 2 },
      { kind: 'follows', entry: 'follows:tokens.embed-token.upserts', tests: 1, alone: 1 },
      { kind: 'other', entry: 'no refusal to check', tests: 1, alone: 1 },
    ]);
    expect(tally.map((c) => causeLabel(c, { hubUrl: 'http://hub' }))).toEqual([
      'serving the part v2 would run 1 test',
      'the hook clock would run 1 test, and 1 more with another entry',
      'the hook roles would run 1 test with another entry',
      'stating shapes.embedToken would run 2 tests',
      'following tokens.embed-token.upserts would run 1 test',
      'no refusal to check',
    ]);
  });

  it('reads the hub part of a run given no --hub as the missing --hub', () => {
    const [hub] = countNotRun([notRun('no hub given', cause.part('hub'))]);
    if (hub === undefined) throw new Error('one entry');
    expect(causeLabel(hub, {})).toBe('--hub URL (the hub pages were not tested) would run 1 test');
    // A run given a hub whose profile does not serve it: the part is unserved.
    expect(causeLabel(hub, { hubUrl: 'http://hub' })).toBe('serving the part hub would run 1 test');
  });

  it('counts only unstated shapes and follows as waiting on the profile', () => {
    expect(waitsOnProfile(notRun('x', cause.shape('shapes.tokenClaims')))).toBe(true);
    expect(waitsOnProfile(notRun('x', cause.follows('users.update.response-fields')))).toBe(true);
    // A part the profile leaves out on purpose, or a reason that says "profile", is not.
    expect(waitsOnProfile(notRun("the target's profile does not serve v2", cause.part('v2')))).toBe(
      false,
    );
    expect(waitsOnProfile(notRun("the target's profile does not serve v2"))).toBe(false);
  });

  it('reads an older run (schema 5) whose not-runs carry only prose as causes of kind other', async () => {
    const run = sampleResults();
    const old = {
      ...run,
      schemaVersion: 5,
      results: run.results.map(({ causes: _causes, ...r }) => r),
      notRunCauses: [{ kind: 'hook', name: 'clock', tests: 1 }],
    };
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-old-run-'));
    const file = path.join(dir, 'results.json');
    await writeFile(file, JSON.stringify(old));
    const read = await readResultsFile(file);
    const skipped = read.results.find((r) => r.outcome === 'not-run');
    expect(skipped?.causes).toEqual([
      { kind: 'other', entry: 'the target lacks the host hook clock' },
    ]);
    expect(read.notRunCauses).toEqual([
      { kind: 'other', entry: 'the target lacks the host hook clock', tests: 1, alone: 1 },
    ]);
  });
});
