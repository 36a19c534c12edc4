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
    file: 'reference/data/chart-rows.ts',
    from: 'if (!source.ok) return source;',
    to: 'if (!source.ok && false) return source;',
    only: ['hub.dashboard.page'],
  },
  {
    // drill-down.ts ObjectLiteral -> {}: a drill-down of a chart without sqlOverride answers
    // nothing the page can render, so the drill address answers 500.
    name: 'data: the drill-down of a chart saved without sqlOverride answers an empty object',
    file: 'reference/data/drill-down.ts',
    from: "if (!source.ok) return { kind: 'error', error: source.error };",
    to: 'if (!source.ok) return {} as DrillRows;',
    only: ['permissions.drill-down.effect'],
  },
  {
    // drill.ts:61 ConditionalExpression -> true: a chart of several statements is drilled
    // through its first one.
    name: 'data: a chart of two statements is drilled through its first',
    file: 'reference/data/drill.ts',
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
    from: "if (ctes.length > 0) return { ok: false, reason: 'its SQL uses a common table expression' };",
    to: "if (ctes.length < 0) return { ok: false, reason: 'its SQL uses a common table expression' };",
    only: ['hub.drill-down.single-table'],
    decision: 'hub.drill-down.single-table',
  },
  {
    // sql.ts:31 ConditionalExpression -> false: a boolean property is bound as its JSON text.
    name: 'data: a boolean user property is bound as the text true',
    file: 'reference/data/sql.ts',
    from: "if (typeof value === 'string' || typeof value === 'boolean') return value;",
    to: "if (typeof value === 'string') return value;",
    only: ['resources.properties.bound-not-spliced'],
    decision: 'resources.properties.bound-not-spliced',
  },
  {
    // sql.ts:84 AssignmentOperator: a block comment turns the SQL copied so far into NaN.
    name: 'data: a block comment in a chart SQL mangles it',
    file: 'reference/data/sql.ts',
    from: 'end + 2;\n      out += sql.slice(i, stop);',
    to: 'end + 2;\n      out -= sql.slice(i, stop);',
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:88 EqualityOperator: a quoted identifier is not skipped, so a ? in it reads as a
    // parameter and a ' in it opens a literal.
    name: 'data: quoted identifiers in a chart SQL are read as SQL',
    file: 'reference/data/sql.ts',
    from: `while (j < sql.length && !(sql[j] === '"'`,
    to: `while (j >= sql.length && !(sql[j] === '"'`,
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:233 Regex without ^: a " with " anywhere (a literal) is taken for a leading WITH.
    name: "data: a chart SQL holding ' with ' is taken for a WITH query",
    file: 'reference/data/sql.ts',
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
    from: "} else if (t.startsWith('/*')) {",
    to: "} else if (t.endsWith('/*')) {",
    only: ['resources.data.read-only-sql'],
    decision: 'resources.data.read-only-sql',
  },
  {
    // sql.ts:275 StringLiteral 'SHOW_REF' -> "" (whole data slice): a catalog listing in a
    // subquery is no longer a table reference the guard knows, so it passes and lists every
    // account's tables and columns.
    name: "data: SHOW ALL TABLES in a chart's SQL passes the guard",
    file: 'reference/data/sql.ts',
    from: "  'SHOW_REF',\n",
    to: "  '',\n",
    only: ['security.data.other-organization'],
  },
  {
    // database.ts:125 (filter dropped): a chart made through the charts hook reads the newest
    // connection of any account holding a table of that name.
    name: "data: the connections of an organization include every account's",
    file: 'reference/data/database.ts',
    from: 'return [...this.connections.values()].filter((c) => c.organizationId === organizationId);',
    to: 'return [...this.connections.values()];',
    only: ['security.data.other-organization'],
  },
  {
    // sql.ts:213:38 EqualityOperator === -> !== (whole data slice): a row filter is applied only
    // to tables holding some other column, so a one-column table is read unfiltered.
    name: 'data: a one-column table is read without its row filter',
    file: 'reference/data/sql.ts',
    from: 'if (!table.columns.some((c) => c.name === rule.column)) continue;',
    to: 'if (!table.columns.some((c) => c.name !== rule.column)) continue;',
    only: ['security.data.rows-of-the-user'],
  },
];
