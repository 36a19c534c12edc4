import { randomBytes } from 'node:crypto';
import { runSql, tableOf, visibleRows } from './data.ts';
import type { Row, Table } from './sql.ts';
import type { Connection } from './store.ts';

/**
 * "Ledger", this service's chat agent: a keyword reader, not a language model. It finds a
 * measure (a numeric column and an aggregation word), a dimension (a text column, or a date
 * column with a time grain), value and year filters, "top N" and a chart type in a question,
 * writes one SELECT, runs it under the user's row-level security and answers with a chart.
 * A follow-up without a measure in the same thread refines the previous chart.
 */

type Agg = 'sum' | 'avg' | 'min' | 'max' | 'count';
type Grain = 'day' | 'week' | 'month' | 'quarter' | 'year';
type ChartType = 'bar' | 'line' | 'pie' | 'area' | 'table' | 'kpi' | 'scatter' | 'donut';

export interface Spec {
  agg: Agg;
  measure: string | null;
  dimension: string | null;
  grain: Grain | null;
  filters: { field: string; value: string }[];
  year: number | null;
  top: number | null;
  type: ChartType | null;
}

export type Answer =
  | { kind: 'text'; text: string }
  | {
      kind: 'chart';
      spec: Spec;
      sql: string;
      chartConfig: Record<string, unknown>;
      chartData: Row[];
      generatedChartRef: string;
      explanation: string;
      text: string;
    };

const TYPE_WORDS: [RegExp, ChartType][] = [
  [/\b(pie)\b/, 'pie'],
  [/\b(donut|doughnut)\b/, 'donut'],
  [/\b(line|trend|timeline)\b/, 'line'],
  [/\b(area)\b/, 'area'],
  [/\b(table|grid|list)\b/, 'table'],
  [/\b(kpi|single number|big number)\b/, 'kpi'],
  [/\b(scatter)\b/, 'scatter'],
  [/\b(bar|bars|column chart|histogram)\b/, 'bar'],
];

const GRAIN_WORDS: [RegExp, Grain][] = [
  [/\b(daily|per day|by day|each day)\b/, 'day'],
  [/\b(weekly|per week|by week|each week)\b/, 'week'],
  [/\b(monthly|per month|by month|each month|over time|trend)\b/, 'month'],
  [/\b(quarterly|per quarter|by quarter|each quarter)\b/, 'quarter'],
  [/\b(yearly|annual|annually|per year|by year|each year)\b/, 'year'],
];

function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

function phraseAt(text: string, phrase: string): number {
  const p = phrase.toLowerCase().trim();
  if (p === '') return -1;
  const re = new RegExp(`(^|\\s)${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\s|$)`);
  const m = re.exec(text);
  return m ? m.index : -1;
}

function columnAt(text: string, name: string): number {
  const forms = new Set([name, name.replace(/_/g, ' '), `${name}s`, `${name.replace(/_/g, ' ')}s`]);
  if (name.endsWith('y')) forms.add(`${name.slice(0, -1)}ies`);
  let best = -1;
  for (const f of forms) {
    const at = phraseAt(text, f.toLowerCase());
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

const isNumeric = (t: string) => t === 'integer' || t === 'number';

function measureColumn(table: Table, text: string): string | null {
  let best: { at: number; name: string } | null = null;
  for (const c of table.columns) {
    if (!isNumeric(c.type)) continue;
    const at = columnAt(text, c.name);
    if (at >= 0 && (!best || at < best.at)) best = { at, name: c.name };
  }
  if (best) return best.name;
  const numeric = table.columns.filter((c) => isNumeric(c.type)).map((c) => c.name);
  const find = (...names: string[]) => numeric.find((n) => names.includes(n.toLowerCase())) ?? null;
  if (/\b(revenue|sales|turnover|income|spend|money)\b/.test(text))
    return find('amount', 'revenue', 'sales', 'total', 'price') ?? numeric[0] ?? null;
  if (/\b(units|volume|items)\b/.test(text)) return find('quantity', 'units', 'qty') ?? null;
  return null;
}

function aggregation(text: string): Agg | null {
  if (/\b(how many|count|number of)\b/.test(text)) return 'count';
  if (/\b(average|avg|mean|typical)\b/.test(text)) return 'avg';
  if (/\b(max|maximum|highest|largest|biggest|peak)\b/.test(text)) return 'max';
  if (/\b(min|minimum|lowest|smallest)\b/.test(text)) return 'min';
  if (/\b(total|sum|overall|combined)\b/.test(text)) return 'sum';
  return null;
}

function dimensionColumn(table: Table, text: string, exclude: Set<string>): string | null {
  let best: { at: number; name: string } | null = null;
  for (const c of table.columns) {
    if (isNumeric(c.type) || c.type === 'date' || exclude.has(c.name)) continue;
    const at = columnAt(text, c.name);
    if (at >= 0 && (!best || at < best.at)) best = { at, name: c.name };
  }
  return best?.name ?? null;
}

function grainOf(text: string, table: Table): Grain | null {
  for (const [re, grain] of GRAIN_WORDS) if (re.test(text)) return grain;
  const date = table.columns.find((c) => c.type === 'date');
  if (date && columnAt(text, date.name) >= 0 && /\b(by|per|over|across)\b/.test(text))
    return 'month';
  return null;
}

function valueFilters(table: Table, rows: Row[], text: string): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const names = new Set(table.columns.map((c) => c.name.toLowerCase()));
  for (const c of table.columns) {
    if (c.type !== 'text') continue;
    const seen = new Set<string>();
    for (const row of rows) {
      const v = row[c.name];
      if (typeof v !== 'string' || seen.has(v)) continue;
      seen.add(v);
      if (seen.size > 500) break;
      if (v.length < 2 || names.has(v.toLowerCase())) continue;
      if (phraseAt(text, normalise(v).trim()) >= 0) {
        out.push({ field: c.name, value: v });
        break;
      }
    }
  }
  return out;
}

function typeOf(text: string): ChartType | null {
  for (const [re, type] of TYPE_WORDS) if (re.test(text)) return type;
  return null;
}

const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
const ident = (n: string) => (/^[a-z_][a-z0-9_]*$/.test(n) ? n : `"${n}"`);
const label = (n: string) => n.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

function measureAlias(spec: Spec): string {
  if (spec.agg === 'count' || !spec.measure) return 'row_count';
  return `${{ sum: 'total', avg: 'average', min: 'lowest', max: 'highest', count: 'count' }[spec.agg]}_${spec.measure}`;
}

function dimensionAlias(spec: Spec): string | null {
  if (!spec.dimension) return null;
  return spec.grain ? `${spec.dimension}_${spec.grain}` : spec.dimension;
}

function buildSql(table: Table, spec: Spec): string {
  const m = spec.measure ? ident(spec.measure) : null;
  const measureExpr =
    spec.agg === 'count' || !m
      ? 'COUNT(*)'
      : spec.agg === 'sum'
        ? `ROUND(SUM(${m}), 2)`
        : spec.agg === 'avg'
          ? `ROUND(AVG(${m}), 2)`
          : `${spec.agg.toUpperCase()}(${m})`;
  const dimExpr = spec.dimension
    ? spec.grain
      ? `DATE_TRUNC('${spec.grain}', ${ident(spec.dimension)})`
      : ident(spec.dimension)
    : null;
  const where: string[] = spec.filters.map((f) => `${ident(f.field)} = ${quote(f.value)}`);
  const date = table.columns.find((c) => c.type === 'date');
  if (spec.year !== null && date) where.push(`YEAR(${ident(date.name)}) = ${spec.year}`);
  const parts = [
    `SELECT ${dimExpr ? `${dimExpr} AS ${dimensionAlias(spec)}, ` : ''}${measureExpr} AS ${measureAlias(spec)}`,
    `FROM ${ident(table.name)}`,
  ];
  if (where.length > 0) parts.push(`WHERE ${where.join(' AND ')}`);
  if (dimExpr) {
    parts.push(`GROUP BY ${dimExpr}`);
    if (spec.top !== null) parts.push(`ORDER BY ${measureAlias(spec)} DESC LIMIT ${spec.top}`);
    else parts.push(`ORDER BY ${dimensionAlias(spec)} ASC`);
  }
  return parts.join(' ');
}

function chartTypeOf(spec: Spec): ChartType {
  if (spec.type) return spec.type;
  if (!spec.dimension) return 'kpi';
  return spec.grain ? 'line' : 'bar';
}

function titleOf(spec: Spec): string {
  const what =
    spec.agg === 'count' || !spec.measure
      ? 'Number of records'
      : `${{ sum: 'Total', avg: 'Average', min: 'Lowest', max: 'Highest', count: 'Count' }[spec.agg]} ${label(spec.measure).toLowerCase()}`;
  const by = spec.dimension
    ? spec.grain
      ? ` per ${spec.grain}`
      : ` by ${label(spec.dimension).toLowerCase()}`
    : '';
  const top = spec.top !== null ? `Top ${spec.top}: ` : '';
  const filters = [
    ...spec.filters.map((f) => f.value),
    ...(spec.year !== null ? [String(spec.year)] : []),
  ];
  return `${top}${what}${by}${filters.length > 0 ? ` (${filters.join(', ')})` : ''}`;
}

function chartConfigOf(table: Table, spec: Spec, sql: string): Record<string, unknown> {
  const date = table.columns.find((c) => c.type === 'date');
  const mAlias = measureAlias(spec);
  const dAlias = dimensionAlias(spec);
  return {
    title: titleOf(spec),
    type: chartTypeOf(spec),
    dimensions: spec.dimension
      ? [
          {
            name: dAlias,
            field: spec.dimension,
            label: label(spec.dimension),
            format: spec.grain ? 'date' : 'text',
            type: spec.grain ? 'time' : 'category',
            bucketing: spec.grain ?? 'none',
          },
        ]
      : [],
    measures: [
      {
        name: mAlias,
        field: spec.measure ?? '*',
        label: spec.agg === 'count' || !spec.measure ? 'Records' : label(spec.measure),
        format: spec.agg === 'count' ? 'integer' : 'decimal',
        aggregation: spec.agg,
      },
    ],
    format: {
      label: titleOf(spec),
      formatOptions: spec.agg === 'count' ? 'integer' : 'decimal:2',
      formatLocale: 'en-IE',
      labelSuffix: '',
      labelPrefix: '',
      dateFormat: 'yyyy-MM-dd',
    },
    comparisons: [],
    mapConfig: { latitude: '', longitude: '' },
    filters: [
      ...spec.filters.map((f) => ({ field: f.field, value: f.value })),
      ...(spec.year !== null && date ? [{ field: date.name, value: String(spec.year) }] : []),
    ],
    havingFilters: [],
    settings: {
      secondYAxis: false,
      colors: ['#1b6ca8', '#f49d37', '#3f8f29', '#d72638', '#7b2cbf', '#5c677d'],
      legend: spec.dimension !== null,
      legendPosition: 'bottom',
      stacking: false,
      showDataLabels: spec.dimension === null,
      enableLegendSlider: false,
      showAxisLabels: true,
      debug: false,
      pageSize: 50,
      sliceLimit: 12,
      layout: 'vertical',
    },
    orderBy: spec.dimension ? [{ field: spec.top !== null ? mAlias : (dAlias ?? mAlias) }] : [],
    sqlOverride: sql,
  };
}

const HELP =
  'I can chart this data for you. Name a number to measure (for example total, average, highest or lowest of a numeric column, or "how many"), ' +
  'a column to split by ("by region"), a time grain ("monthly"), filters ("in 2024", or a value such as a region name), "top 5" and a chart type (bar, line, pie, area, table, kpi). ';

export function describeTable(table: Table): string {
  return `The table "${table.name}" has the columns ${table.columns.map((c) => `${c.name} (${c.type})`).join(', ')}.`;
}

/** Answers one question, given the previous chart of the thread (if any). */
export function answer(
  connection: Connection | null,
  properties: Record<string, unknown>,
  question: string,
  previous: Spec | null,
): Answer {
  const table = tableOf(connection);
  const rows = visibleRows(connection, properties);
  const text = normalise(question);
  const measure = measureColumn(table, text);
  const agg = aggregation(text);
  const grain = grainOf(text, table);
  const date = table.columns.find((c) => c.type === 'date');
  const filters = valueFilters(table, rows, text);
  const yearMatch = /\b((?:19|20)\d{2})\b/.exec(text);
  const year = yearMatch ? Number(yearMatch[1]) : null;
  const topMatch = /\b(?:top|best|first)\s+(\d{1,3})\b/.exec(text);
  const top = topMatch ? Math.max(1, Number(topMatch[1])) : null;
  const type = typeOf(text);
  const dimension = dimensionColumn(table, text, new Set(filters.map((f) => f.field)));
  const clear =
    /\b(without filters?|no filters?|remove (the )?filters?|drop (the )?filters?|all years|everything)\b/.test(
      text,
    );

  let spec: Spec | null = null;
  if (measure !== null || agg !== null) {
    spec = {
      agg: agg ?? 'sum',
      measure: agg === 'count' ? null : measure,
      dimension: grain && date ? date.name : dimension,
      grain: grain && date ? grain : null,
      filters,
      year,
      top,
      type,
    };
    if (spec.agg !== 'count' && spec.measure === null) spec.agg = 'count';
  } else if (previous) {
    const next: Spec = structuredClone(previous);
    let changed = false;
    if (type) {
      next.type = type;
      changed = true;
    }
    if (grain && date) {
      next.dimension = date.name;
      next.grain = grain;
      changed = true;
    } else if (dimension) {
      next.dimension = dimension;
      next.grain = null;
      changed = true;
    }
    if (clear) {
      next.filters = [];
      next.year = null;
      changed = true;
    }
    for (const f of filters) {
      next.filters = [...next.filters.filter((x) => x.field !== f.field), f];
      changed = true;
    }
    if (year !== null) {
      next.year = year;
      changed = true;
    }
    if (top !== null) {
      next.top = top;
      changed = true;
    }
    if (changed) spec = next;
  } else if (dimension || (grain && date)) {
    spec = {
      agg: 'count',
      measure: null,
      dimension: grain && date ? date.name : dimension,
      grain: grain && date ? grain : null,
      filters,
      year,
      top,
      type,
    };
  }
  if (!spec) return { kind: 'text', text: `${HELP}${describeTable(table)}` };

  const sql = buildSql(table, spec);
  const result = runSql(connection, sql, properties);
  const chartConfig = chartConfigOf(table, spec, sql);
  const n = result.rows.length;
  const explanation =
    `I ${spec.agg === 'count' ? 'counted the rows' : `computed the ${spec.agg === 'avg' ? 'average' : spec.agg === 'sum' ? 'sum' : spec.agg === 'min' ? 'minimum' : 'maximum'} of ${spec.measure}`}` +
    `${spec.dimension ? ` for each ${spec.grain ? `${spec.grain} of ${spec.dimension}` : spec.dimension}` : ''}` +
    ` in ${table.name}${chartConfig.filters && (chartConfig.filters as unknown[]).length > 0 ? ', keeping only the filtered rows' : ''}` +
    `, over the rows you are allowed to see. The result has ${n} row${n === 1 ? '' : 's'}.`;
  return {
    kind: 'chart',
    spec,
    sql,
    chartConfig,
    chartData: result.rows,
    generatedChartRef: `draft-${randomBytes(6).toString('hex')}`,
    explanation,
    text: `Here is "${String(chartConfig.title)}" as a ${String(chartConfig.type)} chart. ${explanation}`,
  };
}
