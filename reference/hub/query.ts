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
  /** Accepted and not used by the reference (decision hub.query.db-auth-token.use). */
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
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin === text.replace(/\/$/, '') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function readQuery(search: URLSearchParams): PageQuery {
  const first = (name: string): string | undefined => search.get(name) ?? undefined;
  const filters = new Map<string, unknown>();
  for (const [name, value] of search) {
    if (!name.startsWith(FILTER_PREFIX) || name.length === FILTER_PREFIX.length) continue;
    const key = name.slice(FILTER_PREFIX.length);
    if (filters.has(key)) continue;
    try {
      filters.set(key, JSON.parse(value) as unknown);
    } catch {
      // Decision hub.filters.values: a value that is not JSON sets nothing.
    }
  }
  const jwt = first('jwt');
  const dashboardId = first('dashboardId');
  const parentOrigin = exactOrigin(first('parentOrigin'));
  const dbAuthToken = first('dbAuthToken');
  const drill = drillOf(first('drillChart'), first('drillValue'));
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

function drillOf(
  chartId: string | undefined,
  value: string | undefined,
): PageQuery['drill'] | undefined {
  if (chartId === undefined || chartId === '' || value === undefined) return undefined;
  try {
    return { chartId: chartId.toLowerCase(), value: JSON.parse(value) as unknown };
  } catch {
    return undefined;
  }
}
