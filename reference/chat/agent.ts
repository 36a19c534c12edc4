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
  avg: 'average',
  min: 'minimum',
  max: 'maximum',
  count: 'count',
};

const label = (name: string) => {
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

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
    if (table?.columns.some((c) => c.name === rule.column) !== true) continue;
    const read =
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
  let title =
    m.column === null
      ? `Count of ${spec.table}`
      : `${label(AGG_WORD[m.aggregation])} ${m.column.replaceAll('_', ' ')}`;
  if (spec.dimension !== null) {
    const d = spec.dimension;
    title += d.bucket === null ? ` by ${d.column.replaceAll('_', ' ')}` : ` by ${d.bucket}`;
    if (spec.top !== null) title = `Top ${String(spec.top)}: ${title}`;
  }
  for (const f of spec.filters) title += ` in ${f.value}`;
  if (spec.year !== null) title += `, ${String(spec.year.value)}`;
  return title;
}

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
  const dimType = d === null ? undefined : (columns.find((c) => c.name === d.column)?.type ?? '');
  const measureName = measureAlias(m);
  const dateFormat =
    d?.bucket === 'year'
      ? 'yyyy'
      : d?.bucket === 'quarter'
        ? 'QQQ yyyy'
        : d?.bucket === 'month'
          ? 'MMM yyyy'
          : 'yyyy-MM-dd';
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
              format: d.bucket !== null ? 'date' : isNumeric(dimType ?? '') ? 'number' : 'text',
              type:
                d.bucket !== null || isDate(dimType ?? '')
                  ? 'time'
                  : isNumeric(dimType ?? '')
                    ? 'number'
                    : 'string',
              bucketing: d.bucket ?? 'none',
            },
          ],
    measures: [
      {
        name: measureName,
        field: m.column ?? '*',
        label:
          m.column === null
            ? 'Count'
            : `${label(AGG_WORD[m.aggregation])} ${m.column.replaceAll('_', ' ')}`,
        format: 'number',
        aggregation: m.aggregation,
      },
    ],
    format: {
      label: titleOf(spec),
      formatOptions: m.aggregation === 'count' ? 'integer' : 'number',
      formatLocale: 'en-US',
      labelSuffix: '',
      labelPrefix: '',
      dateFormat,
    },
    comparisons: [],
    filters: [
      ...spec.filters.map((f) => ({ field: f.column, value: f.value })),
      ...(spec.year === null ? [] : [{ field: spec.year.column, value: String(spec.year.value) }]),
    ],
    havingFilters: [],
    settings: {
      secondYAxis: false,
      colors: PALETTE,
      legend: type === 'pie',
      legendPosition: 'bottom',
      stacking: false,
      showDataLabels: type === 'pie' || type === 'number',
      enableLegendSlider: false,
      showAxisLabels: !['pie', 'number', 'table'].includes(type),
      debug: false,
      pageSize: 25,
      sliceLimit: spec.top ?? 10,
      layout: type === 'bar' ? 'vertical' : 'default',
    },
    orderBy:
      d === null
        ? []
        : [{ field: spec.top !== null || d.bucket === null ? measureName : dimensionAlias(d) }],
    sqlOverride: sql,
  };
}

function explain(spec: ChartSpec, rows: number): string {
  const m = spec.measure;
  const what =
    m.column === null
      ? `counted the ${spec.table} rows`
      : `took the ${AGG_WORD[m.aggregation]} of ${m.column.replaceAll('_', ' ')}`;
  const parts = [`I ${what}`];
  if (spec.dimension !== null) {
    const d = spec.dimension;
    parts.push(
      d.bucket === null
        ? `for each ${d.column.replaceAll('_', ' ')}`
        : `for each ${d.bucket} of ${d.column.replaceAll('_', ' ')}`,
    );
  }
  if (spec.filters.length > 0)
    parts.push(`where ${spec.filters.map((f) => `${f.column} is ${f.value}`).join(' and ')}`);
  if (spec.year !== null) parts.push(`in ${String(spec.year.value)}`);
  if (spec.top !== null) parts.push(`keeping the top ${String(spec.top)}`);
  return `${parts.join(' ')}, over the rows you may see, and drew it as a ${chartType(spec)} chart (${String(rows)} row${rows === 1 ? '' : 's'}).`;
}

/** The text outside the grammar gets: what the agent understands, with examples. */
export function helpText(table: string, columns: readonly Column[]): string {
  const numeric = columns.filter((c) => isNumeric(c.type)).map((c) => c.name);
  const groupable = columns.filter((c) => !isNumeric(c.type) && !isDate(c.type)).map((c) => c.name);
  const dates = columns.filter((c) => isDate(c.type)).map((c) => c.name);
  const n = numeric[numeric.length - 1] ?? 'a numeric column';
  const g = groupable[0] ?? 'a column';
  const monthExample = dates.length > 0 ? `, "average ${n} by month only 2025"` : '';
  const examples = `For example: "total ${n} by ${g}", "count by ${g} as a pie chart"${monthExample}. In the same thread, "as a bar chart", "by ${g} instead" or "only <year>" change the last chart.`;
  return [
    `I answer questions about the ${table} table with a chart.`,
    `Measures: total, average, minimum or maximum of ${numeric.join(', ') || 'a numeric column'}, or count.`,
    `Dimensions: by ${[...groupable, ...numeric].join(', ') || 'a column'}${dates.length > 0 ? `; time: by day, week, month, quarter or year (${dates.join(', ')})` : ''}.`,
    `Also: top N, filters such as "in <value>" or "only <year>", and chart types bar, line, pie, area, table, number.`,
    examples,
  ].join(' ');
}

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
  const table = connection.tables.find((t) => t.name === previous?.table) ?? connection.tables[0];
  if (table === undefined)
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
  const trimmed = phrases.map((p) => p.trim());
  const wanted = [...new Set(trimmed.filter((p) => p !== '' && !/^\d+$/.test(p)))];
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
