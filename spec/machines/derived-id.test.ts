import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivedUuid } from './derived-id.ts';

// RFC 9562 §4 (layout), §5.8 (version 8: custom bits, here SHA-256 of the parts).
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('derivedUuid', () => {
  it('writes a version-8 UUID of the RFC 9562 variant', () => {
    for (let i = 0; i < 200; i++) expect(derivedUuid('ns', i, `p${i}`)).toMatch(UUID_V8);
  });

  it('gives the same id for the same parts and another for other parts', () => {
    expect(derivedUuid('chart', 'a', 1)).toBe(derivedUuid('chart', 'a', 1));
    expect(derivedUuid('chart', 'a', 1)).not.toBe(derivedUuid('chart', 'a', 2));
    expect(derivedUuid('chart', 'a')).not.toBe(derivedUuid('dashboard', 'a'));
  });

  it('keeps the parts apart (no two splits of one text collide)', () => {
    expect(derivedUuid('ns', 'ab', 'c')).not.toBe(derivedUuid('ns', 'a', 'bc'));
    expect(derivedUuid('ns', 'a', '')).not.toBe(derivedUuid('ns', 'a'));
  });

  it('is the first 128 bits of SHA-256 over the NUL-joined parts, version and variant set', () => {
    const h = createHash('sha256').update('ns\u0000x\u00007').digest('hex');
    const id = derivedUuid('ns', 'x', 7).replaceAll('-', '');
    // Everything but the version nibble (12) and the variant's two bits (16) is the hash.
    expect(id.slice(0, 12)).toBe(h.slice(0, 12));
    expect(id[12]).toBe('8');
    expect(id.slice(13, 16)).toBe(h.slice(13, 16));
    expect(parseInt(id[16] ?? '', 16) & 0x3).toBe(parseInt(h[16] ?? '', 16) & 0x3);
    expect(id.slice(17, 32)).toBe(h.slice(17, 32));
  });
});
