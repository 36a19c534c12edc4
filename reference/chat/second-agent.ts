import type { DataConnection, DataStore } from '../data/database.ts';
import { quoteIdent, rowFiltersOf, type ExposedTable } from '../data/sql.ts';
import type { ChatStreamEvent } from './events.ts';

/**
 * The reference's second chat agent (latitude behaviour `chat.second-agent`): it stands for an
 * agent whose words, SQL and charts the suites cannot predict, as a language model's are. It
 * shares no reading of questions with the grammar agent (grammar.ts): it looks for keywords
 * (an aggregation word, a numeric column, `per`/`by`/`for each`/`across` a text column or a
 * period, a chart word, `only for <value>`), writes its SQL its own way, and streams its answer
 * in several text messages with tool results arriving late and event types of its own.
 *
 * What it shares with the grammar agent is what the document requires of any agent: §6's
 * event grammar, §2.7's chat result with the §2.6 shapes, chartData being the rows of its SQL
 * for the asking user, row-level security as strict (the SQL keeps `{{user.<key>}}` filters,
 * so a chart saved from it loads the same rows for the same user), a thread's context (§4.15).
 */

export type PlainOp = 'sum' | 'avg' | 'count' | 'max' | 'min';
export type PlainLook = 'bar' | 'line' | 'pie' | 'table';

/** What the agent charts: its own record of a question, kept per thread. */
export interface PlainPlan {
  readonly table: string;
  readonly op: PlainOp;
  /** A numeric column; null when counting rows. */
  readonly measure: string | null;
  /** A text column, or a date column read by month or year. */
  readonly by: { readonly column: string; readonly grain: 'month' | 'year' | null } | null;
  readonly only: readonly { readonly column: string; readonly value: string }[];
  readonly look: PlainLook;
}

export type PlainAnswer =
  | {
      readonly kind: 'chart';
      readonly plan: PlainPlan;
      readonly sql: string;
      readonly chartConfig: Record<string, unknown>;
      readonly chartData: Record<string, unknown>[];
      /** The message before the tools, the one while the query runs, and the summary. */
      readonly opening: string;
      readonly waiting: string;
      readonly summary: string;
      readonly explanation: string;
    }
  | { readonly kind: 'text'; readonly text: string };

interface Col {
  readonly name: string;
  readonly type: string;
}

const numeric = (c: Col) =>
  /^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|DOUBLE|FLOAT|REAL|DECIMAL)/i.test(c.type);
const textual = (c: Col) => /^VARCHAR/i.test(c.type);
const dated = (c: Col) => /^(DATE|TIMESTAMP)/i.test(c.type);
const words = (name: string) => name.replaceAll('_', ' ');
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const OP_WORDS: readonly [RegExp, PlainOp][] = [
  [/\b(average|mean|avg)\b/, 'avg'],
  [/\b(how many|count|number of)\b/, 'count'],
  [/\b(largest|biggest|max|maximum|highest)\b/, 'max'],
  [/\b(smallest|min|minimum|lowest)\b/, 'min'],
  [/\b(total|sum|summed|how much)\b/, 'sum'],
];

const LOOK_WORDS: readonly [RegExp, PlainLook][] = [
  [/\b(pie|donut)\b/, 'pie'],
  [/\b(line|trend)\b/, 'line'],
  [/\btable\b/, 'table'],
  [/\b(bar|bars|columns)\b/, 'bar'],
];

/** Words that make a question a change of the conversation's last chart. */
const FOLLOW_UP =
  /^\s*(now|and|only|just|instead|also|then|same|make it|show it|switch)\b|\binstead\b/;

interface Heard {
  readonly op?: PlainOp;
  readonly measure?: string;
  readonly by?: NonNullable<PlainPlan['by']>;
  readonly look?: PlainLook;
  readonly phrases: readonly string[];
  readonly followUp: boolean;
}

/** What one message says, in the agent's keywords. */
function hear(message: string, columns: readonly Col[]): Heard {
  const text = ` ${message
    .toLowerCase()
    .replace(/[?!.,;:"]/g, ' ')
    .replace(/\s+/g, ' ')} `;
  const mentions = (c: Col) =>
    new RegExp(`\\b${escaped(words(c.name).toLowerCase())}s?\\b`).test(text);
  const op = OP_WORDS.find(([re]) => re.test(text))?.[1];
  const look = LOOK_WORDS.find(([re]) => re.test(text))?.[1];
  const measure = columns.find((c) => numeric(c) && mentions(c))?.name;
  let by: Heard['by'];
  const lead = String.raw`\b(?:per|by|for each|across|each|which)\s+`;
  for (const c of columns.filter(textual)) {
    if (new RegExp(`${lead}${escaped(words(c.name).toLowerCase())}s?\\b`).test(text)) {
      by = { column: c.name, grain: null };
      break;
    }
  }
  const date = columns.find(dated);
  const grain = new RegExp(`${lead}(month|year)s?\\b`).exec(text)?.[1];
  if (by === undefined && date !== undefined && (grain === 'month' || grain === 'year'))
    by = { column: date.name, grain };
  const phrases: string[] = [];
  for (const m of text.matchAll(
    /\b(?:only for|only in|just for|only|for|in)\s+([\w' -]+?)(?=\s+(?:as|per|by|across|instead|and|please)\b|\s*$)/g,
  )) {
    const phrase = (m[1] ?? '').trim();
    if (phrase !== '' && !/^(each|the|a|an)\b/.test(phrase)) phrases.push(phrase);
  }
  return {
    ...(op === undefined ? {} : { op }),
    ...(measure === undefined ? {} : { measure }),
    ...(by === undefined ? {} : { by }),
    ...(look === undefined ? {} : { look }),
    phrases,
    followUp: FOLLOW_UP.test(text),
  };
}

/** The look a plan takes when the question names none. */
const lookOf = (by: PlainPlan['by']): PlainLook =>
  by === null ? 'table' : by.grain === null ? 'bar' : 'line';

/**
 * The plan a message leads to, given the conversation's last plan: a change of that plan when
 * the message is a follow-up, a new plan when it names what to chart, none otherwise.
 */
function settle(
  heard: Heard,
  found: readonly { column: string; value: string }[],
  context: PlainPlan | undefined,
  table: ExposedTable,
): PlainPlan | 'needs-context' | undefined {
  const named = heard.op !== undefined || heard.measure !== undefined || heard.by !== undefined;
  if (heard.followUp || (!named && (heard.look !== undefined || found.length > 0))) {
    // A change with nothing to change: said so, never guessed into a chart of its own.
    if (context === undefined) return 'needs-context';
    const op =
      heard.op ?? (heard.measure !== undefined && context.op === 'count' ? 'sum' : context.op);
    const measure =
      op === 'count' ? null : (heard.measure ?? context.measure ?? firstNumeric(table));
    const by = heard.by ?? context.by;
    const only = [
      ...context.only.filter((o) => !found.some((f) => f.column === o.column)),
      ...found,
    ];
    return {
      table: context.table,
      op,
      measure,
      by,
      only,
      look: heard.look ?? (heard.by !== undefined ? lookOf(by) : context.look),
    };
  }
  return named ? fresh(heard, found, table) : undefined;
}

const firstNumeric = (table: ExposedTable) => table.columns.find(numeric)?.name ?? null;

function fresh(
  heard: Heard,
  found: readonly { column: string; value: string }[],
  table: ExposedTable,
): PlainPlan | undefined {
  const measure = heard.measure ?? firstNumeric(table);
  const op = heard.op ?? (measure === null ? 'count' : 'sum');
  if (op !== 'count' && measure === null) return undefined;
  const by = heard.by ?? null;
  return {
    table: table.name,
    op,
    measure: op === 'count' ? null : measure,
    by,
    only: [...found],
    look: heard.look ?? lookOf(by),
  };
}

/**
 * The part of the connection the agent works in: its table and the row filters that read a
 * column of it. The SQL it writes and the queries it runs both go through this scope.
 */
function scopeOf(connection: DataConnection, table: ExposedTable): DataConnection {
  const rowFilters = rowFiltersOf(connection).filter((r) =>
    table.columns.some((c) => c.name === r.column),
  );
  return { ...connection, tables: [table], rowFilters };
}

/**
 * The SQL of a plan: an inner query over the user's rows (the row filters written as
 * `{{user.<key>}}`), aggregated, read by an outer query that orders it.
 */
export function plainSql(plan: PlainPlan, scope: DataConnection): string {
  const table = scope.tables[0];
  const value =
    plan.op === 'count'
      ? 'count(*)'
      : plan.op === 'avg'
        ? `round(avg(${quoteIdent(plan.measure ?? '')}), 3)`
        : `${plan.op}(${quoteIdent(plan.measure ?? '')})`;
  const conditions: string[] = [];
  for (const rule of scope.rowFilters) {
    const column = table?.columns.find((c) => c.name === rule.column);
    const read =
      column !== undefined && textual(column)
        ? quoteIdent(rule.column)
        : `CAST(${quoteIdent(rule.column)} AS VARCHAR)`;
    conditions.push(`${read} = '{{user.${rule.property}}}'`);
  }
  for (const o of plan.only) conditions.push(`${quoteIdent(o.column)} = ${sqlText(o.value)}`);
  const where = conditions.length === 0 ? '' : `\n  WHERE ${conditions.join('\n    AND ')}`;
  const from = `FROM ${quoteIdent(plan.table)}`;
  if (plan.by === null) return `SELECT ${value} AS value\n${from}${where.replace(/^\n {2}/, '\n')}`;
  const column = quoteIdent(plan.by.column);
  const label =
    plan.by.grain === 'month'
      ? `strftime(${column}, '%Y-%m')`
      : plan.by.grain === 'year'
        ? `CAST(year(${column}) AS VARCHAR)`
        : column;
  return [
    'SELECT label, value',
    'FROM (',
    `  SELECT ${label} AS label, ${value} AS value`,
    `  ${from}${where}`,
    '  GROUP BY label',
    ') AS answer',
    'ORDER BY label',
  ].join('\n');
}

const OP_LABEL: Record<PlainOp, string> = {
  sum: 'Sum',
  avg: 'Mean',
  count: 'Number',
  max: 'Largest',
  min: 'Smallest',
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function measureLabel(plan: PlainPlan): string {
  return plan.measure === null
    ? `Number of ${plan.table} rows`
    : `${OP_LABEL[plan.op]} of ${words(plan.measure)}`;
}

function byLabel(by: NonNullable<PlainPlan['by']>): string {
  return by.grain === null ? capital(words(by.column)) : capital(by.grain);
}

function titleOf(plan: PlainPlan): string {
  let title = measureLabel(plan);
  if (plan.by !== null) title += ` per ${byLabel(plan.by).toLowerCase()}`;
  if (plan.only.length > 0) title += ` (${plan.only.map((o) => o.value).join(', ')})`;
  return title;
}

const COLOURS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d'];

/** §2.6: the agent's chart, in the document's shapes with values of its own. */
export function plainChartConfig(plan: PlainPlan, sql: string): Record<string, unknown> {
  const title = titleOf(plan);
  const by = plan.by;
  return {
    type: plan.look,
    title,
    measures: [
      {
        name: 'value',
        field: plan.measure ?? '*',
        label: measureLabel(plan),
        format: plan.op === 'count' ? 'integer' : 'decimal',
        aggregation: plan.op,
      },
    ],
    dimensions:
      by === null
        ? []
        : [
            {
              name: 'label',
              field: by.column,
              label: byLabel(by),
              format: by.grain === null ? 'text' : 'date',
              type: by.grain === null ? 'category' : 'time',
              bucketing: by.grain ?? 'none',
            },
          ],
    filters: plan.only.map((o) => ({ field: o.column, value: o.value })),
    havingFilters: [],
    comparisons: [],
    orderBy: by === null ? [] : [{ field: 'label' }],
    format: {
      label: title,
      formatOptions: plan.op === 'count' ? 'integer' : 'decimal',
      formatLocale: 'en-GB',
      labelPrefix: '',
      labelSuffix: '',
      dateFormat: by?.grain === 'year' ? 'yyyy' : 'MM/yyyy',
    },
    settings: {
      colors: COLOURS,
      legend: plan.look === 'pie' || plan.look === 'line',
      legendPosition: 'bottom',
      secondYAxis: false,
      stacking: false,
      showDataLabels: plan.look !== 'line',
      enableLegendSlider: plan.look === 'pie',
      showAxisLabels: plan.look === 'bar' || plan.look === 'line',
      debug: false,
      pageSize: 50,
      sliceLimit: 12,
      layout: plan.look === 'bar' ? 'horizontal' : 'default',
    },
    sqlOverride: sql,
  };
}

const HELP =
  'I chart the data of this connection. Ask for a sum, a mean, a count, the largest or the smallest value of a numeric column, per a text column or per month or year, and say pie, line, table or bar if you like. Afterwards you can say "now as a pie chart", "only for <value>" or "and per <column> instead".';

/** Looks phrases up among the text values the user may see, in the agent's scope. */
async function valuesNamed(
  data: DataStore,
  scope: DataConnection,
  phrases: readonly string[],
  properties: Readonly<Record<string, unknown>>,
): Promise<{ column: string; value: string }[]> {
  const table = scope.tables[0];
  const text = table?.columns.filter(textual) ?? [];
  if (table === undefined || text.length === 0 || phrases.length === 0) return [];
  const wanted = [...new Set(phrases.map((p) => p.toLowerCase()))].map(sqlText).join(', ');
  const sql = [
    'SELECT DISTINCT col, val FROM (',
    text
      .map(
        (c) =>
          `  SELECT ${sqlText(c.name)} AS col, ${quoteIdent(c.name)} AS val FROM ${quoteIdent(table.name)}`,
      )
      .join('\n  UNION ALL\n'),
    `) AS candidates WHERE lower(val) IN (${wanted})`,
    'ORDER BY col',
  ].join('\n');
  const found = await data.query(scope, sql, properties);
  if (!found.ok) return [];
  const out: { column: string; value: string }[] = [];
  for (const row of found.value.rows) {
    const column = String(row['col']);
    if (!out.some((o) => o.column === column)) out.push({ column, value: String(row['val']) });
  }
  return out;
}

export interface PlainQuestion {
  /** The conversation as the client sent it (§4.15 messages); the last user message is asked. */
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly properties: Readonly<Record<string, unknown>>;
  /** The plan the thread answered last (§4.15 thread_id), when there is one. */
  readonly previous: PlainPlan | undefined;
}

/**
 * Answers the last user message. Its context is the thread's last plan; without a thread, the
 * plan the earlier user messages of `messages` lead to, read again one by one.
 */
export async function plainAnswer(
  data: DataStore,
  connection: DataConnection,
  question: PlainQuestion,
): Promise<PlainAnswer> {
  const table = connection.tables[0];
  if (table === undefined) return { kind: 'text', text: 'There is no table here to look at.' };
  const scope = scopeOf(connection, table);
  const asked = question.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const last = asked.pop() ?? '';
  const settleOne = async (message: string, context: PlainPlan | undefined) => {
    const heard = hear(message, table.columns);
    const found = await valuesNamed(data, scope, heard.phrases, question.properties);
    return settle(heard, found, context, table);
  };
  let context = question.previous;
  if (context === undefined) {
    for (const earlier of asked) {
      const plan = await settleOne(earlier, context);
      if (typeof plan === 'object') context = plan;
    }
  }
  const plan = await settleOne(last, context);
  if (plan === 'needs-context')
    return {
      kind: 'text',
      text: 'That sounds like a change to an earlier chart, but this conversation has none yet. Ask for a chart first, for example "the sum of a numeric column per a text column".',
    };
  if (plan === undefined) return { kind: 'text', text: HELP };
  const sql = plainSql(plan, scope);
  const rows = await data.query(scope, sql, question.properties);
  if (!rows.ok)
    return { kind: 'text', text: `The query behind that chart failed (${rows.error.message}).` };
  const count = rows.value.rows.length;
  const title = titleOf(plan);
  const explanation = `${title}, computed over the ${plan.table} rows you are allowed to see${plan.only.length > 0 ? ` where ${plan.only.map((o) => `${words(o.column)} is ${o.value}`).join(' and ')}` : ''}; ${String(count)} row${count === 1 ? '' : 's'}, shown as ${plan.look === 'table' ? 'a table' : `a ${plan.look} chart`}.`;
  return {
    kind: 'chart',
    plan,
    sql,
    chartConfig: plainChartConfig(plan, sql),
    chartData: rows.value.rows,
    opening: `Looking at ${title.toLowerCase()} in ${plan.table}.`,
    waiting: 'Running the query now, only over rows your account may read.',
    summary: `Done: ${explanation}`,
    explanation,
  };
}

/** Cuts text into small deltas (a word or less each) that join back to it exactly. */
export function smallDeltas(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    for (let i = 0; i < piece.length; i += 6) out.push(piece.slice(i, i + 6));
  }
  return out.length === 0 ? [text] : out;
}

function message(text: string): ChatStreamEvent[] {
  return [
    { type: 'text-start' },
    ...smallDeltas(text).map((t) => ({ type: 'text-delta', payload: { text: t } })),
    { type: 'text-end' },
  ];
}

/**
 * The agent's stream (§6): a `start` event naming the answering version (where the printed
 * profile says, chat.versionReport), a `reasoning` note and `step-start`; for a chart, a text
 * message, the generateSql call, a second message while it runs, its result, the generateChart
 * call and result (the §2.7 chat result), a summary message; then `step-finish` and `finish`.
 */
export function plainEvents(
  said: PlainAnswer,
  context: {
    readonly version: number;
    readonly threadId: string | undefined;
    readonly question: string;
    readonly chartRef: string;
  },
): ChatStreamEvent[] {
  const opening: ChatStreamEvent[] = [
    {
      type: 'start',
      payload: {
        agent: { kind: 'plain', version: context.version },
        ...(context.threadId === undefined ? {} : { conversation: context.threadId }),
      },
    },
    {
      type: 'reasoning',
      payload: { text: 'Reading the question for a measure, a grouping and filters.' },
    },
    { type: 'step-start', payload: { step: 1 } },
  ];
  const closing: ChatStreamEvent[] = [
    { type: 'step-finish', payload: { step: 1 } },
    { type: 'finish', payload: { reason: 'complete' } },
  ];
  if (said.kind === 'text') return [...opening, ...message(said.text), ...closing];
  return [
    ...opening,
    ...message(said.opening),
    {
      type: 'tool-call',
      payload: {
        toolName: 'generateSql',
        toolCallId: 'sql_1',
        args: { request: context.question },
      },
    },
    ...message(said.waiting),
    {
      type: 'tool-result',
      payload: { toolName: 'generateSql', toolCallId: 'sql_1', result: { query: said.sql } },
    },
    {
      type: 'tool-call',
      payload: { toolName: 'generateChart', toolCallId: 'chart_1', args: { look: said.plan.look } },
    },
    {
      type: 'tool-result',
      payload: {
        toolName: 'generateChart',
        toolCallId: 'chart_1',
        result: {
          chartConfig: said.chartConfig,
          chartData: said.chartData,
          generatedChartRef: context.chartRef,
          explanation: said.explanation,
        },
      },
    },
    ...message(said.summary),
    ...closing,
  ];
}
