/**
 * The five v1 dashboard writes (§9's table) and the v2 rows that replace them (§4.16): what the
 * dashboards area's migration tests and the migration area's properties read a 410 by.
 */

export type WriteKind = 'create' | 'clone' | 'add-charts' | 'remove-charts' | 'append-charts-from';

/**
 * §4.16's table, the row that replaces each v1 write, spelled out from the document: method
 * and path template ({} for an id). That a 410 names its write's row is §7's; how it names it
 * (message or details, ids filled in or placeholders, with or without the method) is open
 * (errors.migrated-to-v2.details), so a named endpoint is recognised in any of those forms.
 */
export const V2_REPLACEMENT = {
  create: ['POST', '/v2/api/applications/{}/dashboards'],
  clone: ['POST', '/v2/api/applications/{}/dashboards/{}/clone'],
  'add-charts': ['POST', '/v2/api/applications/{}/dashboards/{}/charts'],
  'remove-charts': ['DELETE', '/v2/api/applications/{}/dashboards/{}/charts/{}'],
  'append-charts-from': ['POST', '/v2/api/applications/{}/dashboards/{}/append-charts'],
} as const satisfies Record<WriteKind, readonly [string, string]>;

/**
 * The writes whose V2_REPLACEMENT row an error's text names. Each /v2/api/ path in it is read with its id
 * segments (after applications/, dashboards/, charts/) as placeholders, whatever they hold (an
 * id, `{applicationId}`, `:dashboardId`), and matched whole against a row's template, so the
 * add-charts path is not read into the remove-chart one it begins. A method written just before
 * the path must be the row's.
 */
export function namedReplacements(text: string): Set<WriteKind> {
  const named = new Set<WriteKind>();
  const mention =
    /(?:\b(GET|POST|PUT|PATCH|DELETE)\s+)?(?:https?:\/\/[^\s"'`/]+)?(\/v2\/api\/[^\s"'`,;)?#]*)/gi;
  for (const [, method, path = ''] of text.matchAll(mention)) {
    const template = path
      .replace(/[.]+$/, '')
      .replace(/\/+$/, '')
      .replace(/\/(applications|dashboards|charts)\/[^/]+/g, '/$1/{}');
    for (const [row, [rowMethod, rowPath]] of Object.entries(V2_REPLACEMENT) as [
      WriteKind,
      (typeof V2_REPLACEMENT)[WriteKind],
    ][])
      if (template === rowPath && (method === undefined || method.toUpperCase() === rowMethod))
        named.add(row);
  }
  return named;
}
