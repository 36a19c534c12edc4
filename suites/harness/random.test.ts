import { describe, expect, it } from 'vitest';
import { seeded, seededWords, uuidFrom } from './random.ts';

describe('the seeded generator', () => {
  it('replays the same draws for the same seed and others for another', () => {
    const draws = (seed: number) => Array.from({ length: 5 }, seeded(seed));
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
    for (const x of draws(7)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('draws numbers in [0, 1) that are its 32-bit words scaled', () => {
    const words = seededWords(9);
    const numbers = seeded(9);
    for (let i = 0; i < 5; i++) expect(numbers()).toBe(words() / 2 ** 32);
  });

  it('makes version-4 UUIDs, the same for the same seed', () => {
    const id = uuidFrom(seeded(1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFrom(seeded(1))).toBe(id);
  });
});
