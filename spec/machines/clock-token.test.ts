import { describe, expect, it } from 'vitest';
import { EXPIRATIONS, EXPIRATION_SECONDS } from '../schemas/common.ts';
import { LATEST_INSTANT, applyClock, readClock, realClock } from './clock.ts';
import { issueLifetime, tokenState } from './token.ts';

describe('clock', () => {
  it('freezes and advances forward only', () => {
    const frozen = applyClock(realClock, { type: 'freeze', at: 10_000 }, 5_000);
    if (!frozen.ok) throw new Error('freeze refused');
    expect(readClock(frozen.state, 99_999)).toBe(10_000);
    const advanced = applyClock(frozen.state, { type: 'advance', seconds: 1.5 }, 0);
    expect(advanced.ok && readClock(advanced.state, 0)).toBe(11_500);
    expect(applyClock(frozen.state, { type: 'freeze', at: 9_999 }, 0).ok).toBe(false);
    expect(applyClock(frozen.state, { type: 'advance', seconds: -1 }, 0).ok).toBe(false);
  });

  it('refuses to go past the latest instant ISO 8601 can write a week later', () => {
    expect(applyClock(realClock, { type: 'advance', seconds: 1e300 }, 0).ok).toBe(false);
    expect(applyClock(realClock, { type: 'freeze', at: LATEST_INSTANT + 1 }, 0).ok).toBe(false);
    expect(applyClock(realClock, { type: 'freeze', at: LATEST_INSTANT }, 0).ok).toBe(true);
    expect(issueLifetime(LATEST_INSTANT, '7d').expiresAt).toMatch(/^9999-12-31T/);
  });

  it('freezes at its own now and advances by zero, up to the latest instant exactly', () => {
    const here = applyClock(realClock, { type: 'freeze' }, 5_000);
    expect(here.ok && readClock(here.state, 0)).toBe(5_000);
    if (!here.ok) throw new Error('freeze refused');
    expect(applyClock(here.state, { type: 'freeze', at: 5_000 }, 0).ok).toBe(true);
    expect(applyClock(here.state, { type: 'advance', seconds: 0 }, 0).ok).toBe(true);
    const last = applyClock(
      here.state,
      { type: 'advance', seconds: (LATEST_INSTANT - 5_000) / 1000 },
      0,
    );
    expect(last.ok && readClock(last.state, 0)).toBe(LATEST_INSTANT);
    expect(applyClock(realClock, { type: 'advance', seconds: 0.001 }, LATEST_INSTANT).ok).toBe(
      false,
    );
  });

  // The clock hook (spec/hooks.openapi.yaml) answers refusals in the §7 envelope: a
  // VALIDATION_ERROR naming the field of the body at fault.
  it.each([
    ['freeze into the past', { type: 'freeze', at: 4_999 }, 'at', 'too_small'],
    ['advance backwards', { type: 'advance', seconds: -0.5 }, 'seconds', 'too_small'],
    ['advance by NaN', { type: 'advance', seconds: Number.NaN }, 'seconds', 'too_small'],
    ['freeze past the latest instant', { type: 'freeze', at: LATEST_INSTANT + 1 }, 'at', 'too_big'],
    ['advance past the latest instant', { type: 'advance', seconds: 1e300 }, 'seconds', 'too_big'],
  ] as const)(
    'refuses to %s as a VALIDATION_ERROR naming the field',
    (_what, command, field, code) => {
      const r = applyClock(realClock, command, 5_000);
      if (r.ok) throw new Error('accepted');
      expect(r.error.code).toBe('VALIDATION_ERROR');
      expect(r.error.message.trim()).not.toBe('');
      const issues = (
        r.error.details as { issues: { path: string[]; message: string; code: string }[] }
      ).issues;
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toEqual(['body', field]);
      expect(issues[0]?.code).toBe(code);
      expect(issues[0]?.message.trim()).not.toBe('');
    },
  );

  it('shifts a running clock by the advance', () => {
    const r = applyClock(realClock, { type: 'advance', seconds: 60 }, 1_000);
    expect(r.ok && readClock(r.state, 2_000)).toBe(62_000);
  });
});

describe('token lifetime', () => {
  it.each(EXPIRATIONS)('%s lives exactly its duration from the whole-second issue time', (e) => {
    const life = issueLifetime(Date.UTC(2026, 4, 1, 12, 0, 0, 750), e);
    expect(life.exp - life.iat).toBe(EXPIRATION_SECONDS[e]);
    expect(Date.parse(life.expiresAt) / 1000).toBe(life.exp);
    expect(life.expiresAt).toMatch(/\.000Z$/);
  });

  it('defaults to one hour', () => {
    const life = issueLifetime(0);
    expect(life.exp).toBe(3600);
  });

  it('through-expires-at: still valid at the instant of expiresAt, exp the second after', () => {
    const life = issueLifetime(Date.UTC(2026, 4, 1, 12, 0, 0, 750), '5m', 'through-expires-at');
    const end = Date.parse(life.expiresAt);
    expect(end / 1000 - life.iat).toBe(300);
    expect(life.exp).toBe(end / 1000 + 1);
    expect(tokenState(life.exp, end)).toBe('valid');
    expect(tokenState(life.exp, end + 1000)).toBe('expired');
  });

  it('is valid until exp, exclusive', () => {
    expect(tokenState(100, 99_999)).toBe('valid');
    expect(tokenState(100, 100_000)).toBe('expired');
  });
});
