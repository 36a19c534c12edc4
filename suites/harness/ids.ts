/**
 * How the suites compare ids (§1): a UUID is 8-4-4-4-12 hexadecimal and the document gives no
 * case, so two UUIDs that differ only in case name the same thing; an id the document types only
 * as a string is compared as written. Every id comparison goes through here: the HTTP client
 * reads each UUID of a JSON answer in its canonical form (`canonicalIds`), and a test that looks
 * for an id in text the target wrote asks `mentionsId`.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The form two ids are compared in: a UUID in lower case, any other string as it is. */
export function canonicalId(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : id;
}

/** Whether two ids name the same thing (§1: a UUID in either case). */
export function sameId(a: string, b: string): boolean {
  return canonicalId(a) === canonicalId(b);
}

/** Whether `text` (an answer or a page as written) names `id`, a UUID in either case. */
export function mentionsId(text: string, id: string): boolean {
  if (!UUID.test(id)) return text.includes(id);
  return text.replace(UUIDS, (u) => u.toLowerCase()).includes(id.toLowerCase());
}

/**
 * Members holding the caller's own data, kept exactly as sent (§2.3 externalId, §2.4 properties
 * and their deprecated payload, tenant metadata, §2.6 a chart's configuration, §2.7 its rows):
 * a UUID-looking string there is data, not an id of the service.
 */
const CALLERS_DATA = /^(externalId|properties|payload|metadata|chartConfig|chartData|rows)$/;

/** A JSON answer with every UUID outside the callers' data in its canonical form. */
export function canonicalIds(value: unknown, key = ''): unknown {
  if (CALLERS_DATA.test(key) || /external/i.test(key)) return value;
  if (typeof value === 'string') return canonicalId(value);
  if (Array.isArray(value)) return value.map((v) => canonicalIds(v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Defined, not assigned: a member named __proto__ stays a member.
    Object.defineProperty(out, k, {
      value: canonicalIds(v, k),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
