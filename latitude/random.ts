/** mulberry32: a small seeded generator, the same on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator of one answer: from the run's seed and the request's place in the run. */
export function perAnswer(seed: number, sequence: number): () => number {
  return seeded((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(sequence + 1, 0x85ebca6b)) >>> 0);
}
