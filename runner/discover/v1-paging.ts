/**
 * Discover: whether the target pages its list answers (§8 leaves paging open), and how a page
 * names the next one (shapes.paging). A list is seen paged when it answers fewer of the items
 * just made than were made; the form is proven by following the pages to the end and finding
 * every item made, each once.
 */
import type { ProfileShapes } from '../../spec/profile.ts';
import type { z } from 'zod';
import { isObject, pathsWhere, pointer, valueAt, type Json, type Watch } from './watch.ts';
import type { Reply } from '../../suites/harness/http.ts';

export type Paging = NonNullable<z.infer<typeof ProfileShapes>['paging']>;

/** Asks for one page: the list's own query with `extra` added. */
export type Ask = (extra: Readonly<Record<string, string>>) => Promise<Reply>;

/** The bound on pages followed while proving a form (the made items fit in far fewer). */
const MAX_PAGES = 60;

/** Query parameters commonly asking for the next page, tried after those named after the member. */
const PARAMETERS = [
  'cursor',
  'page',
  'pageToken',
  'page_token',
  'after',
  'next',
  'offset',
  'continuationToken',
  'startingAfter',
  'starting_after',
  'marker',
  'token',
];

/** Every item of every array in an answer's body in which one of `ids` appears, by its text. */
function itemsHolding(body: unknown, ids: ReadonlySet<string>): string[] {
  const lists = pathsWhere(body, Array.isArray).map((p) => valueAt(body, p) as unknown[]);
  return lists.flatMap((items) =>
    items
      .filter((item) => pathsWhere(item, (v) => typeof v === 'string' && ids.has(v)).length > 0)
      .map((item) => JSON.stringify(item)),
  );
}

/** The made ids an answer holds (anywhere inside its lists' items). */
function idsIn(body: unknown, ids: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const text of itemsHolding(body, ids)) {
    const item: unknown = JSON.parse(text);
    for (const p of pathsWhere(item, (v) => typeof v === 'string' && ids.has(v)))
      found.add(valueAt(item, p) as string);
  }
  return found;
}

/** The scalars of a body outside its arrays (not the envelope's status): cursor candidates. */
function scalarsOf(body: unknown): { at: string[]; value: string }[] {
  return pathsWhere(
    body,
    (v) => (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)),
  )
    .filter((p) => p.join('/') !== 'status')
    .map((p) => ({ at: p, value: String(valueAt(body, p)) }));
}

/** The parameter names to try for a cursor found at member `name`: its own forms first. */
function parametersFor(name: string): string[] {
  const stripped = name.replace(/^next[_-]?/i, '');
  const own = stripped === '' ? [] : [stripped[0]?.toLowerCase() + stripped.slice(1), stripped];
  return [...new Set([...own, name, ...PARAMETERS])];
}

/**
 * Follows the pages from `first` by the cursor at `at`, asked for in `parameter`; the made ids
 * found, or undefined when an item came twice, a page failed or the pages did not end.
 */
async function follow(
  first: Reply,
  at: readonly string[],
  parameter: string,
  ask: Ask,
  made: ReadonlySet<string>,
): Promise<Set<string> | undefined> {
  const seenItems = new Set(itemsHolding(first.body, made));
  const found = idsIn(first.body, made);
  const cursors = new Set<string>();
  let page = first;
  for (;;) {
    const value = valueAt(page.body, at);
    const cursor =
      typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
    if (cursor === '') return found;
    if (cursors.has(cursor) || cursors.size >= MAX_PAGES) return undefined;
    cursors.add(cursor);
    page = await ask({ [parameter]: cursor });
    if (page.status < 200 || page.status > 299 || !isObject(page.body)) return undefined;
    for (const item of itemsHolding(page.body, made)) {
      if (seenItems.has(item)) return undefined;
      seenItems.add(item);
    }
    for (const id of idsIn(page.body, made)) found.add(id);
  }
}

/**
 * Looks at one list (`what`) holding the items `made`: undefined when it answered them all on
 * one page (or could not be read), else the paging form proven by following the pages (an
 * empty object when the list is paged in a form not found).
 */
export async function pagingOf(
  w: Watch,
  what: string,
  made: ReadonlySet<string>,
  ask: Ask,
): Promise<Paging | undefined> {
  const first = await ask({});
  if (first.status < 200 || first.status > 299 || !isObject(first.body)) {
    w.saw(`paging: ${what} answered ${first.status}; not looked at`);
    return undefined;
  }
  const shown = idsIn(first.body, made);
  if (shown.size === made.size) {
    w.saw(`paging: ${what} answered all ${made.size} items made in one answer`);
    return undefined;
  }
  if (shown.size === 0) {
    w.saw(`paging: ${what} answered none of the ${made.size} items made; not looked at`);
    return undefined;
  }
  w.saw(`paging: ${what} answered ${shown.size} of the ${made.size} items made: the list is paged`);
  for (const { at, value } of scalarsOf(first.body)) {
    for (const parameter of parametersFor(at[at.length - 1] ?? '')) {
      const found = await follow(first, at, parameter, ask, made);
      if (found?.size !== made.size) continue;
      const paging: Paging = { cursor: { pointer: pointer(at), parameter } };
      w.saw(
        `paging: ${what}: the next page's cursor is at ${pointer(at)} (first ${JSON.stringify(value)}), asked for with ?${parameter}=; the pages held all ${made.size} items, each once`,
      );
      return paging;
    }
  }
  const link = first.headers['link'];
  w.cannot(
    'shapes.paging.cursor',
    `${what} answered ${shown.size} of the ${made.size} items made, but no member of the answer followed as a cursor in a query parameter (${PARAMETERS.slice(0, 4).join(', ')}, ...) gave the rest${link === undefined ? '' : `; it sends a Link header (${link.slice(0, 120)}), a form shapes.paging cannot state`}. The draft states shapes.paging without a cursor, so tests reading a list end not-run; write the form by hand`,
  );
  return {};
}

/** Lets the watch's own reads follow the pages too (the Http client reads the target's profile). */
export function readWhole(w: Watch, paging: Paging) {
  const shapes = w.t.target.profile.shapes as Json;
  shapes['paging'] = paging;
}
