import type { Variant } from './variant.ts';

/**
 * Wrong variants of the reference's data layer (reference/data: the rows a saved chart loads,
 * its drill-down, the guard on a chart's SQL), each standing for a mutant Stryker's sampled run
 * left alive (bench/results/mutation-equivalent.md, triage of reference/).
 */
export const dataVariants: readonly Variant[] = [
  {
    // chart-rows.ts ConditionalExpression -> false: the rows of a chart without sqlOverride are
    // asked of no connection with no SQL, which throws, so its page answers 500.
    name: 'data: a chart saved without sqlOverride is queried anyway (its page errors)',
    file: 'reference/charts/rows.ts',
    within: 'chartRows',
    from: 'if (!source.ok) return source;',
    to: 'if (!source.ok && false) return source;',
    only: ['hub.dashboard.page'],
  },
  {
    // drill-down.ts ObjectLiteral -> {}: a drill-down of a chart without sqlOverride answers
    // nothing the page can render, so the drill address answers 500.
    name: 'data: the drill-down of a chart saved without sqlOverride answers an empty object',
    file: 'reference/charts/drill-down.ts',
    within: 'drillDownRows',
    from: "if (!source.ok) return { kind: 'error', error: source.error };",
    to: 'if (!source.ok) return {} as DrillRows;',
    only: ['permissions.drill-down.effect'],
  },
  {
    // drill.ts:61 ConditionalExpression -> true: a chart of several statements is drilled
    // through its first one.
    name: 'data: a chart of two statements is drilled through its first',
    file: 'reference/data/drill.ts',
    within: 'selectNode',
    from: 'Array.isArray(statements) && statements.length === 1 ? statements[0] : undefined;',
    to: 'Array.isArray(statements) ? statements[0] : undefined;',
    only: ['hub.drill-down.single-table'],
    decision: 'hub.drill-down.single-table',
  },
  {
    // drill.ts:150 ConditionalExpression -> false: a chart over a common table expression is
    // drilled; one named like its table shows rows the expression left out.
    name: 'data: a chart over a common table expression is drilled',
    file: 'reference/data/drill.ts',
    within: 'drillTree',
    from: "if (ctes.length > 0) return { ok: false, reason: 'its SQL uses a common table expression' };",
    to: "if (ctes.length < 0) return { ok: false, reason: 'its SQL uses a common table expression' };",
    only: ['hub.drill-down.single-table'],
    decision: 'hub.drill-down.single-table',
  },
  {
    // sql.ts:31 ConditionalExpression -> false: a boolean property is bound as its JSON text.
    name: 'data: a boolean user property is bound as the text true',
    file: 'reference/data/sql.ts',
    within: 'propertyParam',
    from: "if (typeof value === 'string' || typeof value === 'boolean') return value;",
    to: "if (typeof value === 'string') return value;",
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:84 AssignmentOperator: a block comment turns the SQL copied so far into NaN.
    name: 'data: a block comment in a chart SQL mangles it',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'end + 2;\n      out += sql.slice(i, stop);',
    to: 'end + 2;\n      out -= sql.slice(i, stop);',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // A quoted identifier is not skipped, so a ? in it reads as a parameter and a ' in it
    // opens a literal. (Stryker's `j >= sql.length` did the same, but also looped for ever on
    // a SQL ending in a lone quote, which hangs the embedded reference and the run with it.)
    name: 'data: quoted identifiers in a chart SQL are read as SQL',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: `while (j < sql.length && !(sql[j] === '"'`,
    to: `while (false && !(sql[j] === '"'`,
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:233 Regex without ^: a " with " anywhere (a literal) is taken for a leading WITH.
    name: "data: a chart SQL holding ' with ' is taken for a WITH query",
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: 'const lead = /^\\s*WITH\\s+(RECURSIVE\\s+)?/i.exec(',
    to: 'const lead = /\\s*WITH\\s+(RECURSIVE\\s+)?/i.exec(',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:256 MethodExpression: a leading block comment is not skipped, so a WITH after it
    // is wrapped as a second WITH.
    name: 'data: a block comment before WITH is not skipped',
    file: 'reference/data/sql.ts',
    within: 'withoutLeadingComments',
    from: "} else if (t.startsWith('/*')) {",
    to: "} else if (t.endsWith('/*')) {",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // Once sql.ts:275 StringLiteral 'SHOW_REF' -> "" (whole data slice); the guard now allows
    // only the kinds it lists, so the same hole is a catalog listing allowed among them: it
    // passes in a subquery and lists every account's tables and columns.
    name: "data: SHOW ALL TABLES in a chart's SQL passes the guard",
    file: 'reference/data/sql.ts',
    within: 'ALLOWED_REFS',
    from: "  'SUBQUERY',\n",
    to: "  'SUBQUERY',\n  'SHOW_REF',\n",
    only: ['security.data.other-organization'],
  },
  {
    // database.ts:125 (filter dropped): a chart made through the charts hook reads the newest
    // connection of any account holding a table of that name.
    name: "data: the connections of an organization include every account's",
    file: 'reference/data/database.ts',
    within: 'connectionsOf',
    from: 'return [...this.connections.values()].filter((c) => c.organizationId === organizationId);',
    to: 'return [...this.connections.values()];',
    only: ['security.data.other-organization'],
  },
  {
    // sql.ts:213:38 EqualityOperator === -> !== (whole data slice): a row filter is applied only
    // to tables holding some other column, so a one-column table is read unfiltered.
    name: 'data: a one-column table is read without its row filter',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: 'if (!table.columns.some((c) => c.name === rule.column)) continue;',
    to: 'if (!table.columns.some((c) => c.name !== rule.column)) continue;',
    only: ['security.data.rows-of-the-user'],
  },
  // Chart SQL shapes (bench/results/mutation-equivalent.md, data slice): each a mutant of
  // reference/data/*.ts, or, where the mutant loops forever and would hold the embedded
  // reference, an implementer's bug with the same effect that answers.
  {
    // sql.ts:78:20 ConditionalExpression -> true: after a -- comment the rest is copied unread,
    // so a {{user.x}} on a later line stays in the text.
    name: 'data: chart SQL after a -- comment is copied unread',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'const stop = end === -1 ? sql.length : end;',
    to: 'const stop = true ? sql.length : end;',
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:78:20 -> false, 78:28 -> +1 loop forever on a -- comment with no newline after it;
    // this one refuses it instead.
    name: 'data: chart SQL ending in a -- comment without a newline is refused',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: "const end = sql.indexOf('\\n', i);",
    to: "const end = sql.indexOf('\\n', i);\n      if (end === -1) return { ok: false, error: specError('VALIDATION_ERROR', 'unterminated comment', { reason: 'sql-refused' }) };",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:81:16 ConditionalExpression -> false: a block comment is read as SQL, so a ' in it
    // opens a literal and a ? in it is a parameter.
    name: 'data: chart SQL block comments are read as SQL',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: "} else if (rest.startsWith('/*')) {",
    to: '} else if (false) {',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:83:20 ConditionalExpression -> true: after a block comment the rest is copied
    // unread, so a later {{user.x}} is not bound.
    name: 'data: chart SQL after a block comment is copied unread',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'const stop = end === -1 ? sql.length : end + 2;',
    to: 'const stop = true ? sql.length : end + 2;',
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:83:46 end - 2 loops forever on /**/; this off-by-one misses the end of /**/
    // instead, so what follows it is copied unread.
    name: 'data: chart SQL /**/ is read as an open comment',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: "const end = sql.indexOf('*/', i + 2);",
    to: "const end = sql.indexOf('*/', i + 3);",
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:82:37 i + 2 -> i - 2: the end of a comment is looked for from before its start, so
    // /*/ closes at once and the rest of the comment is read as SQL.
    name: 'data: chart SQL /*/ closes a block comment at once',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: "const end = sql.indexOf('*/', i + 2);",
    to: "const end = sql.indexOf('*/', i - 2);",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:83:20 -> false loops forever on an unclosed /*; this one drops it, so the query
    // runs without it.
    name: 'data: chart SQL an unclosed block comment is dropped',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'end + 2;\n      out += sql.slice(i, stop);',
    to: 'end + 2;\n      if (end !== -1) out += sql.slice(i, stop);',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:88:67 StringLiteral '"' -> '': a quoted name never closes and swallows the rest,
    // a later {{user.x}} included.
    name: 'data: chart SQL a quoted name swallows the rest',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: `!(sql[j] === '"' && sql[j + 1] !== '"')`,
    to: `!(sql[j] === '' && sql[j + 1] !== '"')`,
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:88:89 StringLiteral '"' -> '': "" in a quoted name is not skipped as one escaped
    // quote, so the quoting flips for the rest of the SQL.
    name: 'data: chart SQL escaped quotes in a quoted name are not skipped',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: `j += sql[j] === '"' ? 2 : 1;`,
    to: `j += sql[j] === '' ? 2 : 1;`,
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:88:56 sql[j + 1] -> sql[j - 1]: a quoted name ending in an escaped quote skips
    // its closing quote and swallows the rest.
    name: 'data: chart SQL a quoted name ending in an escaped quote swallows the rest',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: `sql[j + 1] !== '"')) j +=`,
    to: `sql[j - 1] !== '"')) j +=`,
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:88:14 -> true loops forever on an unclosed "; this one closes it silently.
    name: 'data: chart SQL an unclosed quoted name is closed silently',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'out += sql.slice(i, j + 1);',
    to: 'out += j < sql.length ? sql.slice(i, j + 1) : `${sql.slice(i)}"`;',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:95:14 j <= sql.length, and the reference before this session: an unclosed string
    // literal is closed, and the repaired query runs.
    name: 'data: chart SQL an unclosed string literal is closed silently',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: 'if (!closed) {',
    to: 'if (!closed && false) {',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:104:97 / 109:19: parameters of the chart's own are refused without a reason.
    name: 'data: chart SQL parameters of its own are refused without a reason',
    file: 'reference/data/sql.ts',
    within: 'bindUserPlaceholders',
    from: "reason: 'sql-refused',",
    to: "reason: '',",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:233:16 (RECURSIVE\S+)?: a recursive query is merged as `WITH <tables>, RECURSIVE …`.
    name: 'data: chart SQL WITH RECURSIVE is merged after the tables',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: '(RECURSIVE\\s+)?/i.exec(',
    to: '(RECURSIVE\\S+)?/i.exec(',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:233:16 WITH\s: WITH followed by two blanks is cut after one, losing RECURSIVE.
    name: 'data: chart SQL WITH and RECURSIVE two blanks apart lose RECURSIVE',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: '/^\\s*WITH\\s+(RECURSIVE',
    to: '/^\\s*WITH\\s(RECURSIVE',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:252:25 /^\s/: leading blanks are stripped one at a time, so an indented comment
    // before WITH stops the skipping and the query's WITH is not merged.
    name: 'data: chart SQL leading blanks before a comment are stripped one at a time',
    file: 'reference/data/sql.ts',
    within: 'withoutLeadingComments',
    from: "const t = s.replace(/^\\s+/, '');",
    to: "const t = s.replace(/^\\s/, '');",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // chart-rows.ts:84:71 'i' -> '': a table named in another case finds no connection, and
    // the chart falls back to the seeded orders.
    name: 'data: chart SQL table names are matched with their case',
    file: 'reference/charts/rows.ts',
    within: 'chartConnection',
    from: `"?($|[^A-Za-z0-9_])\`, 'i')`,
    to: `"?($|[^A-Za-z0-9_])\`, '')`,
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // database.ts:56:67 / 57:13: every SQL refusal loses its reason.
    name: 'data: chart SQL refusals lose their reason',
    file: 'reference/data/database.ts',
    within: 'sqlRefused',
    from: "reason: 'sql-refused',",
    to: "reason: '',",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // database.ts:362:45 'sql-failed' -> '': what the database refuses loses its reason.
    name: "data: chart SQL the database's refusals lose their reason",
    file: 'reference/data/database.ts',
    within: 'sqlFailed',
    from: "interrupted ? 'sql-timeout' : 'sql-failed'",
    to: "interrupted ? 'sql-timeout' : ''",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // database.ts:307:32 () => undefined never stops a slow query (it would run for hours in
    // the copy); this one stops it only after 30 s.
    name: 'data: chart SQL a slow query is stopped only after 30 s',
    file: 'reference/data/database.ts',
    within: 'QUERY_TIMEOUT_MS',
    from: 'export const QUERY_TIMEOUT_MS = 5_000;',
    to: 'export const QUERY_TIMEOUT_MS = 30_000;',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // database.ts:362:29 'sql-timeout' -> '': a stopped query loses its reason.
    name: 'data: chart SQL a stopped query loses its reason',
    file: 'reference/data/database.ts',
    within: 'sqlFailed',
    from: "interrupted ? 'sql-timeout' : 'sql-failed'",
    to: "interrupted ? '' : 'sql-failed'",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // database.ts:321:61 -> true: a NULL in an integer column reads Number(null), 0.
    name: 'data: chart SQL a NULL integer reads 0',
    file: 'reference/data/database.ts',
    within: 'checkedRun',
    from: "NUMERIC_TEXT.has(types[k] ?? -1) && typeof v === 'string'",
    to: 'NUMERIC_TEXT.has(types[k] ?? -1)',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:219:11 -> false: a dashboard filter on a column the table lacks is applied
    // anyway, so the chart errors instead of showing its rows.
    name: 'data: chart SQL a dashboard filter on a column its table lacks is applied anyway',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: 'if (!table.columns.some((c) => c.name === filter.column)) continue;',
    to: 'if (false) continue;',
    only: ['hub.filters.values'],
    decision: 'hub.filters.values',
  },
  // Issue 23 part 6: filters against row-level security (suites/hub/filters-rls.test.ts).
  {
    name: 'data: a filter on a row-filtered column replaces the row filter',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: 'if (!table.columns.some((c) => c.name === rule.column)) continue;',
    to: 'if (!table.columns.some((c) => c.name === rule.column) || filters.some((f) => f.column === rule.column)) continue;',
    only: ['security.data.rows-of-the-user'],
  },
  {
    name: 'data: filter values are spliced into the SQL text',
    file: 'reference/data/sql.ts',
    within: 'wrapWithTables',
    from: ": `${read(filter.column)} IN (${values.map(slot).join(', ')})`,",
    to: ": `${read(filter.column)} IN (${values.map((v) => `'${v}'`).join(', ')})`,",
    only: ['security.data.rows-of-the-user'],
  },
  {
    name: "data: a page's controlled filter stands in for the user property of the same name",
    file: 'reference/hub/rows.ts',
    within: 'loadChartData',
    from: 'properties: { ...viewer.properties },\n    filters: filters.map((f) => ({ field: f.field, value: f.value })),\n  });\n  if (done.ok)',
    to: 'properties: { ...viewer.properties, ...Object.fromEntries(filters.map((f) => [f.field, f.value])) },\n    filters: filters.map((f) => ({ field: f.field, value: f.value })),\n  });\n  if (done.ok)',
    only: ['security.data.rows-of-the-user'],
  },
];
