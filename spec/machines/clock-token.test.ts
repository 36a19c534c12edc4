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

  it('is valid until exp, exclusive', () => {
    expect(tokenState(100, 99_999)).toBe('valid');
    expect(tokenState(100, 100_000)).toBe('expired');
  });
});
