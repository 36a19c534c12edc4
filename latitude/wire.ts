import type { Transform } from './transform.ts';

// The form transforms of the HTTP framing (spec/latitude.ts): how an answer travels, not what
// it says.

/** Media types the proxy sends with a charset parameter when they come without parameters. */
const TEXT_TYPES = new Set(['application/json', 'text/event-stream', 'text/html']);

export const contentTypeCharset: Transform = {
  id: 'content-type.charset',
  apply(answer) {
    const type = answer.headers['content-type']?.trim();
    if (type === undefined) return undefined;
    const [media = '', ...params] = type.split(';').map((p) => p.trim());
    if (!TEXT_TYPES.has(media.toLowerCase())) return undefined;
    // Without parameters: add the charset. With the usual `; charset=utf-8`: write it in the
    // other spelling RFC 9110 allows (no space, upper-case value).
    let next: string;
    if (params.length === 0) next = `${media}; charset=utf-8`;
    else if (params.length === 1 && params[0]?.toLowerCase() === 'charset=utf-8')
      next = `${media};charset=UTF-8`;
    else return undefined;
    return { ...answer, headers: { ...answer.headers, 'content-type': next } };
  },
};

/**
 * Every body of two bytes or more goes out chunked, cut at random places into two to five
 * pieces (the proxy flushes each on its own). A cut made earlier, by another transform, stays.
 */
export const bodyChunked: Transform = {
  id: 'body.chunked',
  apply(answer, random) {
    if (answer.pieces !== undefined || answer.body.length < 2) return undefined;
    const count = Math.min(answer.body.length, 2 + Math.floor(random() * 4));
    const cuts = new Set<number>();
    while (cuts.size < count - 1) cuts.add(1 + Math.floor(random() * (answer.body.length - 1)));
    const at = [0, ...[...cuts].sort((a, b) => a - b), answer.body.length];
    const pieces = at.slice(1).map((end, i) => answer.body.subarray(at[i], end));
    return { ...answer, pieces };
  },
};

/**
 * Carried out by the proxy's listener, before any answer exists (latitude/framing.ts): this
 * entry only stands in the registry so that choosing and counting treat it like the others.
 */
export const framingEmptyBody: Transform = {
  id: 'framing.empty-body',
  apply: () => undefined,
};
