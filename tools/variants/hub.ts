import type { Variant } from './variant.ts';

/**
 * Wrong variants of the hub pages (§4.17) and the §2.2 flags a page shows. Each runs the hub
 * tests citing the clauses it breaks (the browser suite is the slowest of the kit).
 */
export const hubVariants: readonly Variant[] = [
  {
    name: 'hub: hideHeader ignored (query parameter and role flag)',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: 'const showHeader = !query.hideHeader && !flags.hideHeader;',
    to: 'const showHeader = true;',
    only: ['hub.query.hide-header', 'permissions.hide-header'],
  },
  {
    name: 'hub: a download button under hideDownloadButton',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: '!query.hideDownloadButton && !flags.hideDownloadButton\n      ? opener(',
    to: 'true\n      ? opener(',
    only: ['hub.query.hide-download-button', 'permissions.hide-download-button'],
  },
  {
    name: 'hub: editing tools under readOnly',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: 'const tools = EDITING_TOOLS.filter(([flag]) => flags[flag])',
    to: 'const tools = EDITING_TOOLS.filter(([flag]) => flags[flag] || flags.readOnly)',
    only: ['permissions.read-only'],
  },
  {
    name: 'hub: drill-down under readOnly',
    file: 'reference/hub/html.ts',
    within: 'drillDown',
    from: "if (!flags.drillDown || chart.dimension === undefined) return '';",
    to: "if ((!flags.drillDown && !flags.readOnly) || chart.dimension === undefined) return '';",
    only: ['permissions.drill-down'],
  },
  {
    name: "hub: drill-down shows the chart's aggregated rows instead of the rows behind the point",
    file: 'reference/hub/page.ts',
    within: 'drillView',
    from: 'const rows = await loadDrillRows(ctx, viewer, chart, dimension, drill.value, filters);',
    to: "const agg = await loadChartData(ctx, viewer, chart, filters); const rows = { kind: 'rows' as const, columns: [...agg.columns], rows: agg.rows.filter((r) => JSON.stringify(r[dimension] ?? null) === JSON.stringify(drill.value ?? null)).map((r) => ({ ...r })), total: 1 };",
    only: ['permissions.drill-down'],
  },
  {
    name: 'hub: drill-down rows ignore row-level security',
    file: 'reference/charts/drill-down.ts',
    within: 'drillQuery',
    from: 'data.queryBound(connection, { sql: text, params }, input.properties, filters);',
    to: 'data.queryBound({ ...connection, rowFilters: [] }, { sql: text, params }, input.properties, filters);',
    only: ['permissions.drill-down.effect'],
    kind: 'sibling',
  },
  {
    name: "hub: embed:params (and the height) posted to '*'",
    file: 'reference/hub/client.ts',
    within: 'CLIENT_SCRIPT',
    from: 'window.parent.postMessage(message, cfg.parentOrigin);',
    to: "window.parent.postMessage(message, '*');",
    only: ['hub.events'],
  },
  {
    name: 'hub: a dashboard name rendered as HTML',
    file: 'reference/hub/html.ts',
    within: 'panel',
    from: '<h2>${text(d.name)}</h2>',
    to: '<h2>${d.name}</h2>',
    only: ['hub.security'],
  },
  {
    name: 'hub: an expired jwt shows the dashboard',
    file: 'reference/hub/viewer.ts',
    within: 'viewerOf',
    from: 'const verified = await ctx.tokens.verify(jwt, ctx.store.now(account));',
    to: 'const verified = await ctx.tokens.verify(jwt, 0);',
    only: ['hub.errors.invalid-token-text'],
  },
  {
    name: "hub: both the shared dashboard and the user's copy listed",
    file: 'reference/hub/page.ts',
    within: 'applicationPage',
    from: 'const shown = dashboardsFor(scope.state, id, scope.actor);',
    to: "const shown = [...dashboardsFor(scope.state, id, { kind: 'api-key' }), ...dashboardsFor(scope.state, id, scope.actor).filter((x) => x.copyOf !== null)];",
    only: ['dashboards.copy.one-entry'],
  },
  {
    // html.ts button(): no control says what it opens.
    name: 'hub: no control opens its dialog or the sidebar',
    file: 'reference/hub/html.ts',
    within: 'button',
    from: 'data-opens="${attr(opens)}" aria-haspopup="dialog"',
    to: 'aria-haspopup="dialog"',
    only: ['hub.controls.placement', 'permissions.ai-insight.effect'],
  },
  {
    // html.ts StringLiteral: an unset filter input holds a value, posted at the next change.
    name: 'hub: an unset filter input holds a stray value',
    file: 'reference/hub/html.ts',
    within: 'filterBar',
    from: "const value = 'value' in c ? shown(c.value) : '';",
    to: "const value = 'value' in c ? shown(c.value) : 'Stryker was here!';",
    only: ['hub.events.embed-params-shape'],
    decision: 'hub.events.embed-params-shape',
  },
  {
    // html.ts StringLiteral -> "": set as default opens a dialog of no id.
    name: 'hub: set as default opens nothing',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: "opener('dlg-default', NAMES.setDefault)",
    to: "opener('', NAMES.setDefault)",
    only: ['hub.controls.placement'],
    decision: 'hub.controls.placement',
  },
  {
    // html.ts StringLiteral -> "": AI insights opens no sidebar.
    name: 'hub: AI insights opens no sidebar',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: "button(NAMES.aiInsight, 'ai-insights')",
    to: "button(NAMES.aiInsight, '')",
    only: ['permissions.ai-insight.effect'],
  },
  {
    // html.ts StringLiteral -> ``: every editing tool opens a dialog of no id.
    name: 'hub: the editing tools open nothing',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: 'opener(`dlg-tool-${flag}`, name)',
    to: 'opener(``, name)',
    only: ['hub.controls.placement'],
    decision: 'hub.controls.placement',
  },
  {
    // Stryker's hub sample (reference/data/drill.ts:82:9): the search for what makes a chart
    // more than one table stops at the first node, so a subquery in WHERE goes unseen.
    name: 'hub: a chart filtering through a subquery is drilled into',
    decision: 'hub.drill-down.single-table',
    file: 'reference/data/drill.ts',
    within: 'holds',
    from: "    if (typeof v === 'string' && kinds.has(v)) return v;",
    to: "    if (typeof v === 'string' && kinds.has(v) && v !== 'SUBQUERY') return v;",
    only: ['hub.drill-down.single-table'],
  },
  {
    // Stryker's hub sample (reference/data/drill.ts:164:7): QUALIFY and SAMPLE no longer stop
    // a drill-down.
    name: 'hub: a chart with QUALIFY or sampling its table is drilled into',
    decision: 'hub.drill-down.single-table',
    file: 'reference/data/drill.ts',
    within: 'drillTree',
    from: "  if (node['qualify'] != null || (samples && sampled === 'refuse'))",
    to: '  if (false)',
    only: ['hub.drill-down.single-table'],
  },
  {
    // Stryker's hub run (reference/hub/rows.ts:29:40): a field named by a dimension and a
    // measure heads two columns of a chart that cannot load.
    name: 'hub: an unloadable chart heads a repeated field twice',
    decision: 'hub.chart.unloadable',
    file: 'reference/hub/rows.ts',
    within: 'configColumns',
    from: "if (typeof field === 'string' && !out.includes(field)) out.push(field);",
    to: "if (typeof field === 'string') out.push(field);",
    only: ['hub.chart.unloadable'],
  },
  {
    // Stryker's hub run (reference/hub/rows.ts:23:21): measures before dimensions.
    name: 'hub: an unloadable chart heads its measures first',
    decision: 'hub.chart.unloadable',
    file: 'reference/hub/rows.ts',
    within: 'configColumns',
    from: "for (const key of ['dimensions', 'measures'])",
    to: "for (const key of ['measures', 'dimensions'])",
    only: ['hub.chart.unloadable'],
  },
  {
    // §5 rule 6 (reference/hub/viewer.ts:36-37): any token of the account opens the pages, a
    // tenant JWT included.
    name: 'hub: a tenant JWT opens the pages',
    file: 'reference/hub/viewer.ts',
    within: 'viewerOf',
    from: "  if (!verified.ok || verified.claims.kind !== 'project-user') return undefined;\n  const user = account.identity.users[verified.sub];\n  if (user === undefined) return undefined;\n",
    to: '  if (!verified.ok) return undefined;\n  const user = account.identity.users[verified.sub]!;\n',
    only: ['auth.hub.project-user-token-only'],
  },
  {
    // §4.17 dbAuthToken: a page given one reads it as its credential in place of the jwt.
    name: 'hub: a dbAuthToken stands in for the jwt',
    file: 'reference/hub/query.ts',
    within: 'readQuery',
    from: "  const jwt = first('jwt');",
    to: "  const jwt = first('dbAuthToken') ?? first('jwt');",
    only: ['hub.query.db-auth-token'],
  },
  // Issue 23 part 6: one user-settable string rendered as markup in one region of the page,
  // each caught by suites/hub/names-everywhere.test.ts (the string is still text elsewhere).
  {
    name: 'hub: the application name rendered as HTML in the header',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: '<h1>${text(view.applicationName)}</h1>',
    to: '<h1>${view.applicationName}</h1>',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: 'hub: a chart title rendered as HTML in its caption',
    file: 'reference/hub/html.ts',
    within: 'chartFigure',
    from: '<figcaption>${text(chart.title)}</figcaption>',
    to: '<figcaption>${chart.title}</figcaption>',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: "hub: a chart title unescaped in its card's aria-label attribute",
    file: 'reference/hub/html.ts',
    within: 'chartFigure',
    from: 'role="figure" aria-label="${attr(chart.title)}"',
    to: 'role="figure" aria-label="${chart.title}"',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: 'hub: a filter control label rendered as HTML in the filter bar',
    file: 'reference/hub/html.ts',
    within: 'filterBar',
    from: '${text(c.label)}</label>',
    to: '${c.label}</label>',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: 'hub: a table cell value rendered as HTML',
    file: 'reference/hub/html.ts',
    within: 'tableOf',
    from: '<td>${text(shown(r[c]))}</td>',
    to: '<td>${shown(r[c])}</td>',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: 'hub: dashboard names rendered as HTML in the navigation',
    file: 'reference/hub/html.ts',
    within: 'renderPage',
    from: "aria-current=\"page\"' : ''}>${text(d.name)}</a></li>",
    to: "aria-current=\"page\"' : ''}>${d.name}</a></li>",
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: "hub: a controlled filter value unescaped in its input's value attribute",
    file: 'reference/hub/html.ts',
    within: 'filterBar',
    from: 'value="${attr(value)}"',
    to: 'value="${value}"',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  {
    name: "hub: the viewer's name rendered as HTML on the page",
    file: 'reference/hub/html.ts',
    within: 'signedIn',
    from: '<span>${text(names.userName)}</span>',
    to: '<span>${names.userName}</span>',
    only: ['hub.security.names-are-text'],
    kind: 'encoding',
  },
  // §2.3, §2.4: a display name the document says the hub shows, shown on no page.
  {
    name: "hub: the viewer's organization name shown on no page",
    file: 'reference/hub/html.ts',
    within: 'signedIn',
    from: ' of <span>${text(names.organizationName)}</span>',
    to: '',
    only: ['resources.organization.name'],
  },
  {
    name: "hub: the viewer's name shown on no page",
    file: 'reference/hub/html.ts',
    within: 'signedIn',
    from: ' as <span>${text(names.userName)}</span>',
    to: '',
    only: ['resources.user.name'],
  },
  // Issue 34, the inventory "every error path of a page" (suites/hub/error-paths.test.ts).
  {
    name: "hub: a refused jwt on the application page with dashboardId shows 'Dashboard not found.'",
    file: 'reference/hub/server.ts',
    within: 'serve',
    from: 'const page = viewer === undefined ? invalidToken : await open(viewer, req.params.id, query);',
    to: "const page = viewer === undefined ? (query.dashboardId !== undefined ? { ...invalidToken, status: 404, text: 'Dashboard not found.' } : invalidToken) : await open(viewer, req.params.id, query);",
    only: ['hub.errors.invalid-token-text'],
  },
  {
    name: "hub: a dashboard of the viewer's account the token may not see shows 'Invalid or missing token.'",
    file: 'reference/hub/page.ts',
    within: 'dashboardPage',
    from: `  const d = resolveFor(scope.state, id, scope.actor);
  if (d === undefined) return notFound;`,
    to: `  const d = resolveFor(scope.state, id, scope.actor);
  if (d === undefined) return scope.state.dashboards[id] !== undefined ? invalidToken : notFound;`,
    only: ['hub.errors.not-found-text'],
  },
];
