import { describe, expect, it } from 'vitest';
import { IsoUtc, sameInstant, utcInstant } from './common.ts';

describe('utcInstant (§2.5: ISO 8601 UTC)', () => {
  const at = Date.UTC(2026, 10, 28, 18, 0, 0, 500);

  it('reads every form that names UTC as the same instant', () => {
    for (const text of [
      '2026-11-28T18:00:00.500Z',
      '2026-11-28T18:00:00.5Z',
      '2026-11-28T18:00:00.500000+00:00',
      '2026-11-28T18:00:00.500000000Z',
      '2026-11-28T18:00:00,5+0000',
      '20261128T180000.5Z',
      '2026-11-28T18:00:00.5+00',
    ])
      expect(utcInstant(text), text).toBe(at);
    expect(sameInstant('2026-11-28T18:00:00Z', '2026-11-28T18:00:00.000+00:00')).toBe(true);
    expect(sameInstant('2026-11-28T18:00:00Z', '2026-11-28T18:00:01Z')).toBe(false);
  });

  it('refuses another offset, no designator, a date alone and text that is no date-time', () => {
    for (const text of [
      '2026-11-28T18:00:00+01:00',
      '2026-11-28T18:00:00',
      '2026-11-28',
      '2026-11-28 18:00:00Z',
      'tomorrow',
      '',
    ]) {
      expect(utcInstant(text), text).toBe(undefined);
      expect(IsoUtc.safeParse(text).success, text).toBe(false);
    }
  });
});
