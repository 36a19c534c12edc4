import { describe, expect, it } from 'vitest';
import { NO_HUB_REASON } from '../suites/harness/target.ts';
import { causesOf, countNotRun } from './not-run.ts';
import { causeLabel } from './outline.ts';

describe('not-run causes', () => {
  it('reads hooks and parts as the harness words them', () => {
    expect(causesOf('the target lacks the host hooks clock, roles')).toEqual([
      { kind: 'hook', name: 'clock' },
      { kind: 'hook', name: 'roles' },
    ]);
    expect(causesOf("the target's profile does not serve v2, chat")).toEqual([
      { kind: 'part', name: 'v2' },
      { kind: 'part', name: 'chat' },
    ]);
    expect(
      causesOf(
        'this test needs 2 accounts; the credentials file holds 1 and the target has no accounts hook',
      ),
    ).toEqual([{ kind: 'hook', name: 'accounts' }]);
    expect(causesOf('needs a second account\nmore')).toEqual([
      { kind: 'other', name: 'needs a second account' },
    ]);
  });

  it('reads the hub of a run given no --hub as the hub part, and labels it as the missing --hub', () => {
    expect(causesOf(NO_HUB_REASON)).toEqual([{ kind: 'part', name: 'hub' }]);
    expect(causesOf(`the target's profile does not serve v2; ${NO_HUB_REASON}`)).toEqual([
      { kind: 'part', name: 'v2' },
      { kind: 'part', name: 'hub' },
    ]);
    const hub = { kind: 'part' as const, name: 'hub', tests: 3 };
    expect(causeLabel(hub, {})).toBe('no --hub (the hub pages were not tested)');
    // A run given a hub whose profile does not serve it: the part is unserved.
    expect(causeLabel(hub, { hubUrl: 'http://hub' })).toBe('unserved part hub');
    expect(causeLabel({ kind: 'part', name: 'v2', tests: 1 }, {})).toBe('unserved part v2');
    expect(causeLabel(hub)).toBe('unserved part hub');
  });

  it('counts how many tests each missing hook and unserved part cost', () => {
    const notRun = (reason: string) => ({ outcome: 'not-run' as const, reason });
    expect(
      countNotRun([
        notRun('the target lacks the host hook clock'),
        notRun('the target lacks the host hooks clock, roles'),
        notRun("the target's profile does not serve v2"),
        notRun('the token is not a JWT'),
        { outcome: 'pass' as const },
      ]),
    ).toEqual([
      { kind: 'part', name: 'v2', tests: 1 },
      { kind: 'hook', name: 'clock', tests: 2 },
      { kind: 'hook', name: 'roles', tests: 1 },
      { kind: 'other', name: 'the token is not a JWT', tests: 1 },
    ]);
  });
});
