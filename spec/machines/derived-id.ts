import { createHash } from 'node:crypto';

/**
 * A UUID (version 8, RFC 9562 §5.8) derived from its parts by SHA-256: the same parts give the
 * same id, different parts practically never collide. Machines stay pure this way when one
 * command makes many records (a deep copy's charts, a user's copy of a shared dashboard):
 * the caller passes one fresh id and every other id is derived from it.
 */
export function derivedUuid(namespace: string, ...parts: readonly (string | number)[]): string {
  const h = createHash('sha256')
    .update([namespace, ...parts].map(String).join('\u0000'))
    .digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x80;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
