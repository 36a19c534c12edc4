import { isObject, successOf, withJson } from './answer.ts';
import { bodyObjectOf, pathOfUrl, queryOf, withBody, withQuery } from './request.ts';
import type { Transform } from './transform.ts';

// The form of ids (§1: a UUID is 8-4-4-4-12 hexadecimal, its case not given).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Members naming an id: `id`, `…Id`, `…_id`; `…Ids` hold lists of them. */
const ID_MEMBER = /^(id|.+Id|.+_id)$/;
const IDS_MEMBER = /^.+Ids$/;

/**
 * Members whose values are the caller's own data, kept as sent (§2.3, §2.4, §2.6, §2.7): an
 * externalId, properties and their deprecated payload, metadata, a chart's configuration and
 * rows. Nothing under them is an id the service issued.
 */
const CALLERS = /^(externalId|properties|payload|metadata|chartConfig|chartData|rows)$/;

/** Every id-named member's UUID under `value` written by `write`, the callers' data left alone. */
function rewriteIds(value: unknown, write: (id: string) => string, key = ''): unknown {
  if (CALLERS.test(key) || /external/i.test(key)) return value;
  if (Array.isArray(value)) {
    const ids = IDS_MEMBER.test(key);
    return value.map((v) =>
      ids && typeof v === 'string' && UUID.test(v) ? write(v) : rewriteIds(v, write),
    );
  }
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteIds(v, write, k)]));
  return typeof value === 'string' && ID_MEMBER.test(key) && UUID.test(value)
    ? write(value)
    : value;
}

/** Every string under `value`, callers' data aside, mapped by `map`. */
function mapStrings(value: unknown, map: (text: string) => string, key = ''): unknown {
  if (CALLERS.test(key) || /external/i.test(key)) return value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map, k)]));
  return typeof value === 'string' ? map(value) : value;
}

/**
 * `ids.upper-case`: a server that writes the UUIDs it answers in upper case (§1 gives no case),
 * and reads either case. Every id-named member of a success answer (`id`, `…Id`, `…_id`, the
 * lists of `…Ids`) holding a UUID is written in upper case; the callers' own data (externalIds,
 * properties, chart configurations and rows) is left as it is. A request naming an id this proxy
 * wrote in upper case reaches the target in the form it issued, as such a server would find it
 * (the reference matches some members, projectOrganizationId among them, as written).
 */
export function idsUpperCase(): Transform {
  /** The ids written in upper case so far, in the target's own (lower-case) form. */
  const written = new Set<string>();
  const back = (text: string) => {
    const lower = text.toLowerCase();
    return text !== lower && UUID.test(text) && written.has(lower) ? lower : text;
  };
  return {
    id: 'ids.upper-case',
    apply(answer) {
      const envelope = successOf(answer);
      if (envelope === undefined) return undefined;
      let changed = false;
      const out = rewriteIds(envelope, (id) => {
        const upper = id.toUpperCase();
        if (upper === id) return id;
        written.add(id.toLowerCase());
        changed = true;
        return upper;
      });
      return changed ? withJson(answer, out) : undefined;
    },
    before(request) {
      if (written.size === 0) return undefined;
      let changed = false;
      const map = (text: string) => {
        const mapped = back(text);
        if (mapped !== text) changed = true;
        return mapped;
      };
      const path = pathOfUrl(request.url)
        .split('/')
        .map((segment) => {
          try {
            const text = decodeURIComponent(segment);
            const mapped = map(text);
            return mapped === text ? segment : encodeURIComponent(mapped);
          } catch {
            return segment;
          }
        })
        .join('/');
      const query = new URLSearchParams();
      for (const [name, value] of queryOf(request))
        query.append(name, /external/i.test(name) ? value : map(value));
      const body = bodyObjectOf(request);
      const mapped = body === undefined ? undefined : mapStrings(body, map);
      if (!changed) return undefined;
      const out = withQuery({ ...request, url: path }, query);
      return { request: mapped === undefined ? out : withBody(out, mapped) };
    },
  };
}
