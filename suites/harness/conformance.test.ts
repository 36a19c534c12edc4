import { describe, expect, it } from 'vitest';
import { PROFILE_PARTS, TargetProfile } from '../../spec/profile.ts';
import { notRunReason, testTarget } from './conformance.ts';
import { NO_HUB_REASON, type Target } from './target.ts';

const everything = TargetProfile.parse({ serves: [...PROFILE_PARTS] });
const withHub: Target = {
  baseUrl: 'http://api',
  hubUrl: 'http://hub',
  hooks: ['accounts'],
  checkDecisions: false,
  seed: 1,
  profile: everything,
};
const { hubUrl: _hub, ...hubless } = withHub;
void _hub;

describe('the not-run decision of the harness', () => {
  it('runs a hub test on a target with a hub', () => {
    expect(notRunReason(withHub, { parts: ['hub'], needs: ['accounts'] })).toBeUndefined();
  });

  it('names --hub for a hub test on a target without one, whatever its profile says', () => {
    const hub = { reason: NO_HUB_REASON, causes: [{ kind: 'part', entry: 'part:hub' }] };
    expect(notRunReason(hubless, { parts: ['hub'] })).toEqual(hub);
    expect(NO_HUB_REASON).toContain('--hub');
    const noHubPart = { ...hubless, profile: { ...everything, serves: ['identity' as const] } };
    expect(notRunReason(noHubPart, { parts: ['hub'] })).toEqual(hub);
  });

  it('names both causes when the hub and another part are missing', () => {
    const identityOnly = { ...hubless, profile: { ...everything, serves: ['identity' as const] } };
    expect(notRunReason(identityOnly, { parts: ['hub', 'v1-dashboards'] })).toEqual({
      reason: `the target's profile does not serve v1-dashboards; ${NO_HUB_REASON}`,
      causes: [
        { kind: 'part', entry: 'part:v1-dashboards' },
        { kind: 'part', entry: 'part:hub' },
      ],
    });
  });

  it('leaves a test that does not touch the hub alone on a target without one', () => {
    expect(notRunReason(hubless, { parts: ['identity'], needs: ['accounts'] })).toBeUndefined();
    expect(notRunReason(hubless, { needs: ['clock'] })).toEqual({
      reason: 'the target lacks the host hook clock',
      causes: [{ kind: 'hook', entry: 'hook:clock' }],
    });
  });

  it('names the entry of each reliance the profile does not state, by kind', () => {
    const bare = { ...withHub, profile: TargetProfile.parse({ serves: ['identity'] }) };
    expect(
      notRunReason(bare, { relies: ['tokens.claims', 'users.update.response-fields'] })?.causes,
    ).toEqual([
      { kind: 'shape', entry: 'shapes.tokenClaims' },
      { kind: 'shape', entry: 'shapes.userUpdate' },
    ]);
    expect(
      notRunReason(bare, { relies: ['users.update.absent-fields-unchanged'] })?.causes,
    ).toEqual([{ kind: 'follows', entry: 'follows:users.update.absent-fields-unchanged' }]);
  });
});

describe('the target a test sees', () => {
  const notRun = (reason: string): never => {
    throw new Error(`not-run: ${reason}`);
  };

  it('reads the hub address of a target with a hub', () => {
    expect(testTarget(withHub, notRun).hubUrl).toBe('http://hub');
    expect(testTarget(withHub, notRun).baseUrl).toBe('http://api');
  });

  it('ends the test not-run naming --hub when it reaches for a hub the run was not given', () => {
    const seen = testTarget(hubless, notRun);
    expect(seen.baseUrl).toBe('http://api');
    expect(() => seen.hubUrl).toThrow(`not-run: ${NO_HUB_REASON}`);
  });
});
