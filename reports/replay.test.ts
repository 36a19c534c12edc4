import { describe, expect, it } from 'vitest';
import { replayLine, runReplayLine, shellQuote, targetArgsOf } from './replay.ts';

describe('replay words', () => {
  it('points a replay at an external target and quotes what the shell would split', () => {
    const args = targetArgsOf({ baseUrl: 'http://x', hooksUrl: 'http://x/h', embedded: false });
    expect(args).toEqual(['--target', 'http://x', '--hooks', 'http://x/h']);
    // A hub at the target's own address was given, and a replay gives it again.
    expect(targetArgsOf({ baseUrl: 'http://x', hubUrl: 'http://x', embedded: false })).toEqual([
      '--target',
      'http://x',
      '--hub',
      'http://x',
    ]);
    expect(targetArgsOf({ baseUrl: 'http://x', hubUrl: 'http://x', embedded: true })).toEqual([]);
    expect(replayLine({ runSeed: 1, targetArgs: ['--target', 'http://x/?a=1&b=2'] }, 'c')).toBe(
      "npx eac run --seed 1 --only c --target 'http://x/?a=1&b=2'",
    );
  });

  it('keeps --credentials, --profile, --ca and --check-decisions in replay lines, embedded or not', () => {
    const described = {
      baseUrl: 'http://x',
      credentialsFile: '/abs/creds.json',
      profileFile: '/abs/my profile.yaml',
      checkDecisionsAsked: true,
    };
    expect(targetArgsOf({ ...described, embedded: true })).toEqual([
      '--credentials',
      '/abs/creds.json',
      '--profile',
      '/abs/my profile.yaml',
      '--check-decisions',
    ]);
    expect(targetArgsOf({ ...described, caFile: '/abs/ca.pem', embedded: false })).toContain(
      '/abs/ca.pem',
    );
    expect(
      targetArgsOf({ baseUrl: 'http://x', caFile: '/abs/ca.pem', embedded: false }).slice(-2),
    ).toEqual(['--ca', '/abs/ca.pem']);
    const args = targetArgsOf({ ...described, embedded: false });
    expect(args.slice(0, 2)).toEqual(['--target', 'http://x']);
    expect(runReplayLine({ runSeed: 3, targetArgs: args })).toBe(
      "npx eac run --seed 3 --target http://x --credentials /abs/creds.json --profile '/abs/my profile.yaml' --check-decisions",
    );
  });

  it('repeats the selection in the replay line of a whole run', () => {
    expect(runReplayLine({ runSeed: 3, targetArgs: [] }, ['roles', 'tokens.user'])).toBe(
      'npx eac run --seed 3 --only roles --only tokens.user',
    );
  });

  it('quotes only what a POSIX shell would split or expand', () => {
    expect(shellQuote('http://x:1/a,b@c%d+e=f')).toBe('http://x:1/a,b@c%d+e=f');
    expect(shellQuote('my file')).toBe("'my file'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('$HOME')).toBe("'$HOME'");
  });
});
