import { defineClauses } from './types.ts';

// §4.17: pages the hub serves for embedding.
export const s4Hub = defineClauses([
  {
    id: 'hub.application.page',
    section: '4.17',
    level: 'must',
    summary: '/share/application/{applicationId} embeds a whole application, navigation included.',
  },
  {
    id: 'hub.application.dashboard-id',
    section: '4.17',
    level: 'must',
    summary:
      'With ?dashboardId the application page shows only that dashboard, no sidebar, no tabs.',
  },
  {
    id: 'hub.dashboard.page',
    section: '4.17',
    level: 'must',
    summary:
      '/share/dashboard/{dashboardId} finds the application of the dashboard and opens it there.',
  },
  {
    id: 'hub.dashboard.navigation',
    section: '4.17',
    level: 'unspecified',
    summary:
      "Whether the dashboard page shows the application's navigation and tabs, or the dashboard alone, is left open.",
    decision:
      'The application with its navigation and tabs, the dashboard open in it, as the application page without dashboardId shows it.',
  },
  {
    id: 'hub.dashboard.jwt-required',
    section: '4.17',
    level: 'must',
    summary: 'The dashboard page cannot be opened without a jwt.',
  },
  {
    id: 'hub.query.jwt',
    section: '4.17',
    level: 'must',
    summary: 'The jwt query parameter carries a project-user token.',
  },
  {
    id: 'hub.query.hide-header',
    section: '4.17',
    level: 'must',
    summary: 'hideHeader=true hides the page header.',
  },
  {
    id: 'hub.query.hide-download-button',
    section: '4.17',
    level: 'must',
    summary: 'hideDownloadButton=true hides the download control.',
  },
  {
    id: 'hub.query.filter-control',
    section: '4.17',
    level: 'must',
    summary: 'filter_{controlKey} with a JSON value sets a controlled filter.',
  },
  {
    id: 'hub.query.db-auth-token',
    section: '4.17',
    level: 'must',
    summary: 'The pages accept a dbAuthToken query parameter.',
  },
  {
    id: 'hub.query.auto-height',
    section: '4.17',
    level: 'must',
    summary:
      'autoHeight=true plus parentOrigin makes the page report its content height to the parent.',
  },
  {
    id: 'hub.events.embed-params',
    section: '4.17',
    level: 'must',
    summary: "Filter changes reach the parent window as an 'embed:params' postMessage.",
  },
  {
    id: 'hub.ids.v1-and-v2',
    section: '4.17',
    level: 'must',
    summary: 'Embedded pages take v1 and v2 dashboard ids alike.',
  },
  {
    id: 'hub.errors.not-found-text',
    section: '4.17',
    level: 'must',
    summary: "A dashboard the token may not see renders the text 'Dashboard not found.'.",
  },
  {
    id: 'hub.errors.invalid-token-text',
    section: '4.17',
    level: 'must',
    summary: "A missing or bad jwt renders the text 'Invalid or missing token.'.",
  },
  {
    id: 'hub.theme.not-by-parameter',
    section: '4.17',
    level: 'must',
    summary: 'The theme comes from hub settings; no query parameter changes it.',
  },
  {
    id: 'hub.events.origin-only',
    section: '4.17',
    level: 'security',
    summary:
      'A page posts to its parent only addressed to parentOrigin, never to any origin (`*`) or another.',
  },
  {
    id: 'hub.security.names-are-text',
    section: '4.17',
    level: 'security',
    summary:
      'Names and properties a page shows are text: markup in them builds no element and runs no script.',
  },
  {
    id: 'hub.events.target-origin',
    section: '4.17',
    level: 'unspecified',
    summary: 'What a page posts to its parent when no parentOrigin is given is left open.',
    decision:
      'Without a parentOrigin (or with one that is not a bare http(s) origin) the page posts nothing at all.',
  },
  {
    id: 'hub.events.embed-params-shape',
    section: '4.17',
    level: 'unspecified',
    summary: "The members of the 'embed:params' message are left open.",
    decision:
      "{type: 'embed:params', params: {filter_<controlKey>: <the JSON text>, ...}}: every controlled filter as the page now has it; the jwt is never in it. The page then reloads with those values.",
  },
  {
    id: 'hub.events.height-message',
    section: '4.17',
    level: 'unspecified',
    summary: 'How a page reports its content height to the parent is left open.',
    decision:
      "{type: 'embed:height', height: <CSS pixels, the document's scroll height>}, on load and on every change of size (the profile's hub.heightMessage).",
  },
  {
    id: 'hub.query.db-auth-token-use',
    section: '4.17',
    level: 'unspecified',
    summary: 'What a page does with dbAuthToken is left open.',
    decision:
      'Accepted and not used: the reference has no customer database to hand it to; the page is the same with or without it and never shows or posts the value.',
  },
  {
    id: 'hub.filters.values',
    section: '4.17',
    level: 'unspecified',
    summary: 'How a controlled filter value applies to the data, and a value that is not JSON.',
    decision:
      "filter_<controlKey> keeps the rows whose column (the control's field) equals the JSON value, before the chart's SQL runs; the filter bar shows it set (a string as is, other values as JSON). A value that is not JSON, or a key no control has, sets nothing. A chart whose table has no column of that field is not filtered by it.",
  },
  {
    id: 'hub.v1-component.page',
    section: '4.17',
    level: 'unspecified',
    summary: 'Which page is the v1 dashboard component after finalize is left open.',
    decision:
      '/share/dashboard/{v1 dashboard id} and /share/application/{v1 workspace id}: they show the v1 state as finalize froze it (as the tenant the user came from saw it). v2 ids show the live dashboards; in a v2 application page a v1 dashboardId names the v2 dashboard it became.',
  },
  {
    id: 'hub.chart.unloadable',
    section: '4.17',
    level: 'unspecified',
    summary:
      'What a page shows in place of the rows of a chart that cannot load them (§2.6: saved without its sqlOverride) is left open.',
    decision:
      "The chart's table heads one column per field its chartConfig names, dimensions before measures, each field once, holds no row, and a line beside it says why.",
  },
  {
    id: 'hub.schedule-report.organization',
    section: '4.17',
    level: 'unspecified',
    summary: 'Which organizations have scheduled reports enabled is left open.',
    decision: 'Every organization of the reference has scheduled reports enabled.',
  },
  {
    id: 'hub.controls.placement',
    section: '4.17',
    level: 'unspecified',
    summary:
      'Where the controls §2.2 names sit on the page, their accessible names, and what the ones whose feature is not described open.',
    decision:
      "Schedule report is in the header (banner); download, set as default, duplicate, AI insights, AI charts and edit from session in a 'Dashboard actions' toolbar outside it; the editing tools in an 'Editing tools' toolbar; the filter bar (search) in each dashboard. The controls without a described feature open a small dialog saying the feature is not simulated; AI insights opens a sidebar. Names: fixtures/profiles/reference.json hub.things.",
  },
  {
    id: 'hub.drill-down.rows',
    section: '4.17',
    level: 'unspecified',
    summary: 'What drilling into a chart point shows is left open beyond the data behind it.',
    decision:
      "One 'Drill down into <value>' button per point of a chart's dimension. It reloads the page with drillChart=<chartId>&drillValue=<the point's value as JSON>, and the page then shows a region 'Rows behind <value>': a read-only table of the rows of the chart's source table whose dimension expression equals the value (bound, never spliced into the SQL) and that the chart's WHERE keeps, every column of the table, under the same row-level security (the token's properties) and controlled filters as the chart, at most the first 100 with the count of all. The page checks the token and its drillDown (off under readOnly) again on that reload: the address alone shows nothing.",
  },
  {
    id: 'hub.drill-down.single-table',
    section: '4.17',
    level: 'unspecified',
    summary: "Which charts' points can be drilled into is left open.",
    decision:
      "A chart whose SQL is one SELECT over one table of its connection (no join, subquery, common table expression, set operation, QUALIFY or SAMPLE), with the dimension a column or expression of its select list that is not an aggregate or window: its drill-down region says 'Drill-down is not available for this chart: <why>.' otherwise. The GROUP BY, HAVING, ORDER BY and LIMIT of the chart do not apply to the rows behind a point.",
  },
  {
    id: 'hub.rows.markup',
    section: '4.17',
    level: 'unspecified',
    summary:
      "How a page lays out the rows it shows, a chart's and those behind a drilled point, is left open.",
    decision:
      "Each as an HTML table: its caption (the chart's title, or the drill-down region's name), one head row of column heads, one row per row shown, a cell per column; the profile's hub.rows leaves both at table.",
  },
  {
    id: 'hub.errors.status',
    section: '4.17',
    level: 'unspecified',
    summary: 'The HTTP status of the hub error pages is left open.',
    decision:
      'The error texts are served as HTML with 404 (dashboard not found) and 401 (token missing or invalid).',
  },
]);
