/**
 * Seeded ids: the same seed and the same sequence of requests give the same ids, so a
 * reported failure can be replayed. Not cryptographic; API keys get real randomness mixed in
 * only through the seed the caller picks.
 */
export interface IdSource {
  uuid(): string;
  hex(bytes: number): string;
}

/** mulberry32: a small, well-known 32-bit PRNG. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export function seededIds(seed: number): IdSource {
  const next = mulberry32(seed);
  const bytes = (n: number): number[] => {
    const out: number[] = [];
    while (out.length < n) {
      const word = next();
      for (let i = 0; i < 4 && out.length < n; i++) out.push((word >>> (i * 8)) & 0xff);
    }
    return out;
  };
  const toHex = (b: number[]) => b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return {
    uuid() {
      const b = bytes(16);
      // RFC 9562 version 4 and variant bits, so strict UUID validators accept our ids too.
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = toHex(b);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    hex(n) {
      return toHex(bytes(n));
    },
  };
}
