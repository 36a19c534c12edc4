/**
 * The one seeded generator of the suites and their tools (mulberry32): small, and the same on
 * every machine, so a seed replays the same draws. The reference keeps its own.
 */
export function seededWords(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Numbers in [0, 1) from a seed. */
export function seeded(seed: number): () => number {
  const next = seededWords(seed);
  return () => next() / 2 ** 32;
}

/** A version-4 UUID drawn from a seeded generator of numbers in [0, 1). */
export function uuidFrom(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
