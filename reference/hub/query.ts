/**
 * §4.17 query parameters of the hub pages, read from the raw query string (never from a
 * framework's parsed object, so that a repeated or odd parameter is read one known way: the
 * first occurrence wins).
 */
export interface PageQuery {
  readonly jwt?: string;
  readonly dashboardId?: string;
  readonly hideHeader: boolean;
  readonly hideDownloadButton: boolean;
  /** `filter_{controlKey}=<JSON>`: controlKey -> the parsed value (decision hub.filters.values). */
  readonly filters: ReadonlyMap<string, unknown>;
  readonly autoHeight: boolean;
  /** An http(s) origin exactly (scheme, host, port); anything else is dropped. */
  readonly parentOrigin?: string;
  /** Accepted and not used by the reference (decision hub.query.db-auth-token-use). */
  readonly dbAuthToken?: string;
  /**
   * The chart point whose rows the page shows (§2.2 drillDown): `drillChart=<chartId>` and
   * `drillValue=<the point's value as JSON>`, set by the page's drill-down buttons (decision
   * hub.drill-down.rows). Not a §4.17 parameter; a value that is not JSON drills nothing.
   */
  readonly drill?: { readonly chartId: string; readonly value: unknown };
}

export const FILTER_PREFIX = 'filter_';

/** The origin `text` names exactly, or undefined when it is not a bare http(s) origin. */
export function exactOrigin(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const bare = text.replace(/\/$/, '');
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === bare ? url.origin : undefined;
}

/** The value of a JSON text, or null when the text is not JSON. */
function jsonOf(text: string): { readonly value: unknown } | null {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
}

export function readQuery(search: URLSearchParams): PageQuery {
  const first = (name: string): string | undefined => search.get(name) ?? undefined;
  const filters = new Map<string, unknown>();
  for (const [name, value] of search) {
    if (!name.startsWith(FILTER_PREFIX) || name.length === FILTER_PREFIX.length) continue;
    const key = name.slice(FILTER_PREFIX.length);
    if (filters.has(key)) continue;
    const parsed = jsonOf(value);
    // Decision hub.filters.values: a value that is not JSON sets nothing.
    if (parsed !== null) filters.set(key, parsed.value);
  }
  const jwt = first('jwt');
  const dashboardId = first('dashboardId');
  const parentOrigin = exactOrigin(first('parentOrigin'));
  const dbAuthToken = first('dbAuthToken');
  const drill = drillOf(search.get('drillChart'), search.get('drillValue'));
  return {
    ...(jwt !== undefined ? { jwt } : {}),
    ...(dashboardId !== undefined ? { dashboardId: dashboardId.toLowerCase() } : {}),
    hideHeader: first('hideHeader') === 'true',
    hideDownloadButton: first('hideDownloadButton') === 'true',
    filters,
    autoHeight: first('autoHeight') === 'true',
    ...(parentOrigin !== undefined ? { parentOrigin } : {}),
    ...(dbAuthToken !== undefined ? { dbAuthToken } : {}),
    ...(drill !== undefined ? { drill } : {}),
  };
}

function drillOf(chartId: string | null, value: string | null): PageQuery['drill'] | undefined {
  if (chartId === null || chartId === '' || value === null) return undefined;
  const point = jsonOf(value);
  return point === null ? undefined : { chartId: chartId.toLowerCase(), value: point.value };
}
