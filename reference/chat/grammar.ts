/**
 * The reference agent's question grammar (docs/reference-agent.md): deterministic, no
 * model. A question names a measure, maybe a dimension or a time bucket, maybe a top N,
 * filters and a chart type; a follow-up in the same thread changes only what it names.
 */

export type Aggregation = 'sum' | 'avg' | 'min' | 'max' | 'count';
export type Bucket = 'day' | 'week' | 'month' | 'quarter' | 'year';
export const CHART_TYPES = ['bar', 'line', 'pie', 'area', 'table', 'number', 'scatter'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface Column {
  readonly name: string;
  /** DuckDB's type name (VARCHAR, DATE, BIGINT, DOUBLE, BOOLEAN, ...). */
  readonly type: string;
}

export interface ChartSpec {
  readonly table: string;
  readonly measure: { readonly aggregation: Aggregation; readonly column: string | null };
  readonly dimension: { readonly column: string; readonly bucket: Bucket | null } | null;
  readonly top: number | null;
  /** Equality filters on text columns, by value the user named. */
  readonly filters: readonly { readonly column: string; readonly value: string }[];
  /** `only 2025`: the year of the table's first date column. */
  readonly year: { readonly column: string; readonly value: number } | null;
  readonly type: ChartType | null;
}

/** What a question says, before it is merged with a thread's previous chart. */
export interface Reading {
  readonly measure?: ChartSpec['measure'];
  readonly dimension?: NonNullable<ChartSpec['dimension']>;
  readonly top?: number;
  /** Phrases after `in`, `for`, `only`, `where ... is`: candidate filter values. */
  readonly phrases: readonly string[];
  readonly year?: number;
  readonly type?: ChartType;
  /** `without filters`, `all years`: drop the previous chart's filters. */
  readonly clearFilters: boolean;
}

export const isNumeric = (t: string) =>
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|DOUBLE|FLOAT|REAL|DECIMAL)/i.test(
    t,
  );
export const isDate = (t: string) => /^(DATE|TIMESTAMP)/i.test(t);

const TYPE_WORDS: readonly [RegExp, ChartType][] = [
  [/\b(bar|bars|column|columns|histogram)\b/, 'bar'],
  [/\b(line|lines|trend|over time)\b/, 'line'],
  [/\b(pie|donut|doughnut)\b/, 'pie'],
  [/\barea\b/, 'area'],
  [/\b(table|grid|list)\b/, 'table'],
  [/\b(number|kpi|single value|big number|metric)\b/, 'number'],
  [/\bscatter\b/, 'scatter'],
];

const AGGREGATIONS: readonly [string, Aggregation][] = [
  ['total', 'sum'],
  ['sum of', 'sum'],
  ['sum', 'sum'],
  ['average', 'avg'],
  ['avg', 'avg'],
  ['mean', 'avg'],
  ['maximum', 'max'],
  ['max', 'max'],
  ['highest', 'max'],
  ['minimum', 'min'],
  ['min', 'min'],
  ['lowest', 'min'],
];

const BUCKETS: readonly [RegExp, Bucket][] = [
  [/\b(by|per|each) day\b|\bdaily\b/, 'day'],
  [/\b(by|per|each) week\b|\bweekly\b/, 'week'],
  [/\b(by|per|each) month\b|\bmonthly\b/, 'month'],
  [/\b(by|per|each) quarter\b|\bquarterly\b/, 'quarter'],
  [/\b(by|per|each) year\b|\byearly\b|\bannual(ly)?\b/, 'year'],
];

/** A column's name as words (`order_date` -> `order date`), lower case. */
const spoken = (name: string) => name.toLowerCase().replaceAll('_', ' ');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The column a phrase names, singular or plural, with spaces or underscores. */
function columnAt(text: string, columns: readonly Column[], where: (c: Column) => boolean) {
  let best: { column: Column; index: number } | undefined;
  for (const column of columns.filter(where)) {
    const re = new RegExp(`\\b${escape(spoken(column.name))}(e?s)?\\b`);
    const m = re.exec(text);
    if (m !== null && (best === undefined || m.index < best.index))
      best = { column, index: m.index };
  }
  return best;
}

/** Synonyms the seeded orders table understands (the words people use for its amount). */
const SYNONYMS: readonly [RegExp, string][] = [
  [/\b(revenue|sales|turnover)\b/g, 'amount'],
  [/\b(units|items)\b/g, 'quantity'],
];

export function normalise(question: string, columns: readonly Column[]): string {
  let text = ` ${question
    .toLowerCase()
    .replace(/[?!.,;:]+/g, ' ')
    .replace(/\s+/g, ' ')} `;
  for (const [re, word] of SYNONYMS) {
    if (columns.some((c) => c.name === word)) text = text.replace(re, word);
  }
  return text;
}

/** Reads what a question says about a table of these columns. */
export function readQuestion(question: string, columns: readonly Column[]): Reading {
  const text = normalise(question, columns);
  const numeric = (c: Column) => isNumeric(c.type);
  const groupable = (c: Column) => !isNumeric(c.type) && !isDate(c.type);

  let measure: ChartSpec['measure'] | undefined;
  for (const [word, aggregation] of AGGREGATIONS) {
    const m = new RegExp(`\\b${escape(word)}\\b(?: of)?(?: the)?`).exec(text);
    if (m === null) continue;
    const after = text.slice(m.index + m[0].length);
    const hit = columnAt(after, columns, numeric);
    if (hit !== undefined && hit.index <= 1) {
      measure = { aggregation, column: hit.column.name };
      break;
    }
  }
  if (measure === undefined && /\b(count|number of|how many)\b/.test(text)) {
    measure = { aggregation: 'count', column: null };
  }
  if (measure === undefined) {
    // A numeric column named on its own is summed ("amount by region").
    const hit = columnAt(text, columns, numeric);
    if (hit !== undefined && !new RegExp(`\\bby ${escape(spoken(hit.column.name))}`).test(text))
      measure = { aggregation: 'sum', column: hit.column.name };
  }

  let dimension: Reading['dimension'];
  const dateColumn = columns.find((c) => isDate(c.type));
  for (const [re, bucket] of BUCKETS) {
    if (dateColumn !== undefined && re.test(text)) {
      dimension = { column: dateColumn.name, bucket };
      break;
    }
  }
  const by = /\b(?:by|per|for each|broken down by|split by|grouped by)\s+(.*)$/.exec(text);
  if (dimension === undefined && by !== null) {
    const hit = columnAt(by[1] ?? '', columns, () => true);
    if (hit !== undefined && hit.index <= 1) {
      dimension = isDate(hit.column.type)
        ? { column: hit.column.name, bucket: 'month' }
        : { column: hit.column.name, bucket: null };
    }
  }

  let top: number | undefined;
  const topMatch = /\b(?:top|best|largest|biggest)\s+(\d{1,3})\b(?:\s+(.*))?/.exec(text);
  if (topMatch !== null) {
    top = Math.max(1, Math.min(100, Number(topMatch[1])));
    if (dimension === undefined) {
      const hit = columnAt(topMatch[2] ?? '', columns, groupable);
      if (hit !== undefined && hit.index <= 1)
        dimension = { column: hit.column.name, bucket: null };
    }
  }

  let year: number | undefined;
  const yearMatch =
    /\b(?:in|for|only|during|of)\s+((?:19|20)\d\d)\b/.exec(text) ??
    /\b((?:19|20)\d\d) only\b/.exec(text);
  if (yearMatch !== null) year = Number(yearMatch[1]);

  // Every phrase of up to four words after `in`, `for`, `only`, `from`, `at`, `with` or `is`:
  // "in north america by month" -> "north", "north america", ...
  const phrases: string[] = [];
  const words = text.trim().split(' ');
  words.forEach((word, i) => {
    if (!['in', 'for', 'only', 'from', 'at', 'with', 'is'].includes(word)) return;
    for (let n = 1; n <= 4 && i + n < words.length; n++)
      phrases.push(words.slice(i + 1, i + 1 + n).join(' '));
  });

  let type: ChartType | undefined;
  for (const [re, t] of TYPE_WORDS) {
    if (re.test(text)) {
      type = t;
      break;
    }
  }
  const clearFilters = /\b(without|no|remove|clear) filters?\b|\ball (years|data|rows)\b/.test(
    text,
  );
  return {
    ...(measure === undefined ? {} : { measure }),
    ...(dimension === undefined ? {} : { dimension }),
    ...(top === undefined ? {} : { top }),
    phrases,
    ...(year === undefined ? {} : { year }),
    ...(type === undefined ? {} : { type }),
    clearFilters,
  };
}

/** Whether a reading says anything a chart is made of. */
export function saysAnything(r: Reading, filters: readonly unknown[]): boolean {
  return (
    r.measure !== undefined ||
    r.dimension !== undefined ||
    r.top !== undefined ||
    r.year !== undefined ||
    r.type !== undefined ||
    r.clearFilters ||
    filters.length > 0
  );
}

/**
 * The chart a question asks for: a question with a measure starts a new chart; without one,
 * it refines the thread's previous chart (the type, the dimension, the filters, the year, the
 * top N it names replace the previous ones); with no previous chart, a dimension alone is
 * counted. Undefined when the question says nothing the grammar knows.
 */
export function chartFor(
  table: string,
  columns: readonly Column[],
  reading: Reading,
  filters: readonly { column: string; value: string }[],
  previous: ChartSpec | undefined,
): ChartSpec | undefined {
  if (!saysAnything(reading, filters)) return undefined;
  const dateColumn = columns.find((c) => isDate(c.type));
  const year =
    reading.year !== undefined && dateColumn !== undefined
      ? { column: dateColumn.name, value: reading.year }
      : null;
  if (reading.measure !== undefined || previous === undefined) {
    if (
      reading.measure === undefined &&
      reading.dimension === undefined &&
      reading.top === undefined
    )
      return undefined;
    return {
      table,
      measure: reading.measure ?? { aggregation: 'count', column: null },
      dimension: reading.dimension ?? null,
      top: reading.top ?? null,
      filters,
      year,
      type: reading.type ?? null,
    };
  }
  const kept = reading.clearFilters
    ? []
    : previous.filters.filter((f) => !filters.some((g) => g.column === f.column));
  return {
    ...previous,
    dimension: reading.dimension ?? previous.dimension,
    top: reading.top ?? previous.top,
    filters: [...kept, ...filters],
    year: year ?? (reading.clearFilters ? null : previous.year),
    type: reading.type ?? previous.type,
  };
}

/** The chart type a spec draws: the one asked for, else one that suits its shape. */
export function chartType(spec: ChartSpec): ChartType {
  if (spec.type !== null) return spec.type;
  if (spec.dimension === null) return 'number';
  return spec.dimension.bucket === null ? 'bar' : 'line';
}
