import type { TargetProfile } from '../../spec/profile.ts';
import { cause, type NotRunCause } from './causes.ts';
import { claimAt } from './jwt.ts';

/**
 * The one list reader of the suites (limits.pagination: §8 leaves paging open). The HTTP client
 * hands it every successful GET of the API; on a target whose profile states no paging
 * (`shapes.paging` absent) it costs nothing and the answer is the list. On a paged target it
 * follows the pages as the profile states them and gives back one answer: the first page's,
 * each list of its `data` joined with the same list of every later page. So no test reads only
 * the first page of a list, whichever call it reads it through.
 */

/** What the reader needs of one answer (the HTTP client's Reply). */
export interface Page {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly text: string;
}

/** A bound on the pages of one list: a target that pages on past it is answered with an error. */
export const MAX_PAGES = 200;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The data of a success answer, when it holds a list (a member that is an array). */
function listData(page: Page): Record<string, unknown> | undefined {
  if (page.status < 200 || page.status > 299 || !isObject(page.body)) return undefined;
  const data = page.body['data'];
  if (page.body['status'] !== 'success' || !isObject(data)) return undefined;
  return Object.values(data).some(Array.isArray) ? data : undefined;
}

/** The cursor of the next page a page names, or undefined on the last. */
function nextCursor(page: Page, pointer: string): string | undefined {
  const value = claimAt(isObject(page.body) ? page.body : {}, pointer);
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Whether an answer names a next page in a `Link` header (RFC 8288, relation `next`): the one
 * sign of paging that needs no guess at a member's meaning.
 */
function linksNext(page: Page): boolean {
  const link = page.headers['link'];
  if (link === undefined) return false;
  return [...link.matchAll(/;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/gi)].some((m) =>
    (m[1] ?? m[2] ?? '').toLowerCase().split(/\s+/).includes('next'),
  );
}

/**
 * The whole list of a GET answer. `next` asks for the page a cursor names (the same request with
 * the cursor in the query parameter `parameter`); `notRun` ends the test when the profile says the
 * target pages but not how.
 */
export async function wholeList<P extends Page>(
  first: P,
  profile: TargetProfile,
  next: (parameter: string, cursor: string) => Promise<P>,
  notRun: (reason: string, causes: NotRunCause) => never,
): Promise<P> {
  const paging = profile.shapes.paging;
  if (paging === undefined) {
    // A target that pages while its profile states no paging would be read one page short: a
    // list answer naming its next page by the standard header ends the test instead.
    if (linksNext(first) && listData(first) !== undefined)
      return notRun(
        'the target names a next page of this list (a Link header with rel="next") but the profile states no paging (shapes.paging): a whole list cannot be read',
        cause.shape('shapes.paging'),
      );
    return first;
  }
  const data = listData(first);
  if (data === undefined) return first;
  if (paging.cursor === undefined)
    return notRun(
      'the profile says the target pages its list answers (shapes.paging) but not how to ask for the next page (shapes.paging.cursor): a whole list cannot be read',
      cause.shape('shapes.paging.cursor'),
    );
  const { pointer, parameter } = paging.cursor;
  const joined: Record<string, unknown> = { ...data };
  const seen = new Set<string>();
  let page: P = first;
  for (let cursor = nextCursor(first, pointer); cursor !== undefined;) {
    if (seen.has(cursor) || seen.size >= MAX_PAGES)
      throw new Error(
        `the list pages on without end: the cursor ${JSON.stringify(cursor)} after ${seen.size} pages (shapes.paging.cursor ${pointer})`,
      );
    seen.add(cursor);
    page = await next(parameter, cursor);
    const more = listData(page);
    if (more === undefined)
      throw new Error(
        `page ${seen.size + 1} of the list (${parameter}=${cursor}) is no list answer: ${page.status} ${page.text.slice(0, 200)}`,
      );
    for (const [key, value] of Object.entries(more)) {
      const sofar: unknown = joined[key];
      joined[key] =
        Array.isArray(sofar) && Array.isArray(value)
          ? [...(sofar as unknown[]), ...(value as unknown[])]
          : value;
    }
    cursor = nextCursor(page, pointer);
  }
  if (page === first) return first;
  const body = { ...(first.body as Record<string, unknown>), data: joined };
  return { ...first, body, text: JSON.stringify(body) };
}
