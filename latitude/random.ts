import { seeded } from '../suites/harness/random.ts';

/** The generator of one answer: from the run's seed and the request's place in the run. */
export function perAnswer(seed: number, sequence: number): () => number {
  return seeded((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(sequence + 1, 0x85ebca6b)) >>> 0);
}
