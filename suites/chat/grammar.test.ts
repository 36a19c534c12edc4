import { expect } from 'vitest';
import type { ConnectionColumnType, ConnectionTable } from '../../spec/schemas/hooks.ts';
import { buildWorld, registerOrganization } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { chatUser, parts, theChart } from './kit.ts';
import { GRAMMAR, chat, chatBody, expectStream, pairs } from '../harness/chat.ts';

// The reference agent's question grammar (docs/reference-agent.md): value filters
// (`in <value>`), the measure named after `total` wherever it stands, grouping `by` a date
// column, and how a follow-up's value filter adds to or replaces the thread's filters. The
// expected rows are worked out here from the rows the test loaded; every test needs the
// capability agent-grammar.

/** One row of the table these tests load: two text columns to filter on, two numbers. */
interface Row {
  readonly region: string;
  readonly channel: string;
  readonly product: string;
  readonly quantity: number;
  readonly amount: number;
  readonly order_date: string;
}

interface GrammarWorld extends Asker {
  readonly rows: readonly Row[];
  readonly regions: readonly [string, string];
  readonly channels: readonly [string, string];
}

/** A table's columns, name to type, in order. */
type Columns = Readonly<Record<string, ConnectionColumnType>>;

/** The grammar world's table: two text columns to filter on, a third, two numbers, a date. */
const COLUMNS: Columns = {
  region: 'text',
  channel: 'text',
  product: 'text',
  quantity: 'number',
  amount: 'number',
  order_date: 'date',
};

/**
 * Two regions by two channels, two products each (eight rows, every product its own): the
 * quantities are below 100 and the amounts above 10,000, so a sum of the one is never a sum
 * of the other; each row lies in a year of its own, so any time bucket groups one row. The
 * values end in a tag no word of the grammar matches: letters and an apostrophe only for the
 * regions, letters and digits for the rest, the channels beginning with a digit. The user sees
 * every row (no row filter).
 */
async function grammarWorld(t: Conformance): Promise<GrammarWorld> {
  const tag = `q${t.faker.string.numeric(6)}`;
  // Region values hold no digit, channel values begin with one: both are values to filter on.
  // The region values hold an apostrophe (a value of a text column, as `o'hara` would be).
  const letters = `q${t.faker.string.alpha({ length: 6, casing: 'lower' })}`;
  const regions = [`north'${letters}`, `south'${letters}`] as const;
  const channels = [`7online-${tag}`, `8retail-${tag}`] as const;
  const rows: Row[] = [];
  for (const region of regions)
    for (const channel of channels)
      for (let k = 0; k < 2; k++) {
        const i = rows.length;
        rows.push({
          region,
          channel,
          product: `p${String(i)}-${tag}`,
          quantity: t.faker.number.int({ min: 1, max: 99 }),
          amount: t.faker.number.int({ min: 10_000, max: 90_000 }),
          order_date: `${String(2016 + i)}-${String(1 + i).padStart(2, '0')}-15`,
        });
      }
  const asker = await tableWorld(
    t,
    tag,
    'grammar (eac)',
    COLUMNS,
    rows.map((r) => ({ ...r })),
    'Grammar analyst',
  );
  return { ...asker, rows, regions, channels };
}

/** A chat agent, and the token of a user who may ask it. */
interface Asker {
  readonly agentId: string;
  readonly token: string;
}

/**
 * An agent (named `agentName`, when given) over one table `orders` of `columns` holding `rows`,
 * and a user of an organization tagged `tag` who sees every row (no row filter).
 */
async function tableWorld(
  t: Conformance,
  tag: string,
  connectionName: string,
  columns: Columns,
  rows: ConnectionTable['rows'],
  agentName?: string,
): Promise<Asker> {
  const w = await buildWorld(t);
  const { connectionId } = await t.hooks.createConnection(w.account.organizationId, {
    name: connectionName,
    table: {
      name: 'orders',
      columns: Object.entries(columns).map(([name, type]) => ({ name, type })),
      rows,
    },
    rowFilters: [],
  });
  const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
    ...(agentName === undefined ? {} : { name: agentName }),
    connectionId,
  });
  const org = await registerOrganization(t, w, { properties: { tenant: tag } });
  const user = await chatUser(t, w, org.projectOrganizationId, { tenant: tag, region: tag });
  return { agentId, token: user.token };
}

/** `key -> sum of value` over rows. */
function sums<R>(
  rows: readonly R[],
  key: (r: R) => string,
  value: (r: R) => number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) out[key(r)] = (out[key(r)] ?? 0) + value(r);
  return out;
}

/** Asks one question (in a thread, when given) and reads the chart it draws. */
async function chartOf(t: Conformance, w: Asker, question: string, thread?: string) {
  const answer = expectStream(
    await chat(
      t,
      w.agentId,
      w.token,
      chatBody(w.agentId, { question, ...(thread === undefined ? {} : { thread_id: thread }) }),
    ),
    JSON.stringify(question),
  );
  return theChart(answer, JSON.stringify(question));
}

conformance(
  ['chat.result.chart-data-rows'],
  'a value filter ("in <value>") keeps only the rows holding that value',
  async (t) => {
    const w = await grammarWorld(t);
    const [north] = w.regions;
    const chart = await chartOf(t, w, `total amount by channel in ${north}`);
    expect(pairs(chart.chartData), `the totals by channel of the ${north} rows`).toEqual(
      sums(
        w.rows.filter((r) => r.region === north),
        (r) => r.channel,
        (r) => r.amount,
      ),
    );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  'grouping "by" a date column draws one row per period',
  async (t) => {
    const w = await grammarWorld(t);
    const chart = await chartOf(t, w, 'total amount by order date');
    // Each row lies in a year of its own: whatever the period, one amount a period.
    const measured = chart.chartData.map((row) =>
      Object.values(row).filter((v) => typeof v === 'number' && v >= 10_000),
    );
    expect(measured.flat().sort(), 'the amounts, one a period').toEqual(
      w.rows.map((r) => r.amount).sort(),
    );
    expect(chart.chartData.length, 'one row a period').toBe(w.rows.length);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.thread.keeps-context'],
  "a follow-up's value filter on another column keeps the thread's filter; on the same column it replaces it",
  async (t) => {
    const w = await grammarWorld(t);
    const [north, south] = w.regions;
    const [online] = w.channels;
    const byProduct = (rows: readonly Row[]) =>
      sums(
        rows,
        (r) => r.product,
        (r) => r.amount,
      );

    const thread = t.faker.string.uuid();
    const first = await chartOf(t, w, `total amount by product in ${north}`, thread);
    expect(pairs(first.chartData), `the ${north} rows`).toEqual(
      byProduct(w.rows.filter((r) => r.region === north)),
    );
    const both = await chartOf(t, w, `only ${online}`, thread);
    expect(pairs(both.chartData), `the ${north} rows of ${online}: both filters hold`).toEqual(
      byProduct(w.rows.filter((r) => r.region === north && r.channel === online)),
    );

    const other = t.faker.string.uuid();
    await chartOf(t, w, `total amount by product in ${north}`, other);
    const replaced = await chartOf(t, w, `in ${south}`, other);
    expect(pairs(replaced.chartData), `the ${south} rows: the region filter replaced`).toEqual(
      byProduct(w.rows.filter((r) => r.region === south)),
    );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  'grouping "by year" draws one row per year, the year as a number',
  async (t) => {
    const w = await grammarWorld(t);
    const chart = await chartOf(t, w, 'total amount by year');
    // The grammar's year bucket is year(): each row names its year; the amounts are above 10,000.
    const years = chart.chartData.map((row) =>
      Object.values(row).find((v) => typeof v === 'number' && v < 10_000),
    );
    expect(years.sort(), 'the years of the rows, as numbers').toEqual(
      w.rows.map((r) => Number(r.order_date.slice(0, 4))).sort(),
    );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  'a top N of two digits keeps the N largest rows',
  async (t) => {
    // Fourteen products of distinct amounts: `top 12` leaves out the two smallest.
    const tag = `q${t.faker.string.numeric(6)}`;
    const amounts = t.faker.helpers.uniqueArray(
      () => t.faker.number.int({ min: 1, max: 9999 }),
      14,
    );
    const rows = amounts.map((amount, i) => ({ product: `p${String(i)}-${tag}`, amount }));
    const w = await tableWorld(t, tag, 'top (eac)', { product: 'text', amount: 'number' }, rows);
    const question = 'top 12 product by total amount';
    const chart = await chartOf(t, w, question);
    const largest = [...rows].sort((a, b) => b.amount - a.amount).slice(0, 12);
    expect(pairs(chart.chartData), 'the twelve largest products').toEqual(
      Object.fromEntries(largest.map((r) => [r.product, r.amount])),
    );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.fields'],
  "a chart's chartConfig lists its value and year filters and carries the six format strings",
  async (t) => {
    const w = await grammarWorld(t);
    const [north] = w.regions;
    // The north rows lie in 2016 to 2019, one a year.
    const chart = await chartOf(t, w, `total amount by channel in ${north} only 2017`);
    const config = chart.chartConfig as Record<string, unknown>;
    expect(config['filters'], 'chartConfig.filters: the value filter and the year').toEqual(
      expect.arrayContaining([
        { field: 'region', value: north },
        { field: 'order_date', value: '2017' },
      ]),
    );
    expect((config['filters'] as unknown[]).length, 'chartConfig.filters: no other filter').toBe(2);
    const format = (config['format'] ?? {}) as Record<string, unknown>;
    for (const member of [
      'label',
      'formatOptions',
      'formatLocale',
      'labelSuffix',
      'labelPrefix',
      'dateFormat',
    ])
      expect(typeof format[member], `chartConfig.format.${member} (§2.6: a string)`).toBe('string');
    expect(pairs(chart.chartData), `the ${north} rows of 2017`).toEqual(
      sums(
        w.rows.filter((r) => r.region === north && r.order_date.startsWith('2017')),
        (r) => r.channel,
        (r) => r.amount,
      ),
    );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  'totals and averages are rounded to two decimals (docs/reference-agent.md: round(sum(col), 2))',
  async (t) => {
    // Six products of two rows each, amounts in thousandths whose sum never ends in 0.
    const tag = `q${t.faker.string.numeric(6)}`;
    const rows: { product: string; amount: number }[] = [];
    for (let p = 0; p < 6; p++) {
      const a = t.faker.number.int({ min: 1_000, max: 99_999 });
      let b = t.faker.number.int({ min: 1_000, max: 99_999 });
      if ((a + b) % 10 === 0) b += 1;
      for (const k of [a, b]) rows.push({ product: `p${String(p)}-${tag}`, amount: k / 1000 });
    }
    const w = await tableWorld(
      t,
      tag,
      'rounding (eac)',
      { product: 'text', amount: 'number' },
      rows,
    );
    for (const [question, of] of [
      ['total amount by product', (xs: number[]) => xs.reduce((x, y) => x + y, 0)],
      ['average amount by product', (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length],
    ] as const) {
      const chart = await chartOf(t, w, question);
      const got = pairs(chart.chartData);
      expect(Object.keys(got).sort(), `${question}: one row a product`).toEqual(
        [...new Set(rows.map((r) => r.product))].sort(),
      );
      for (const [product, value] of Object.entries(got)) {
        const exact = of(rows.filter((r) => r.product === product).map((r) => r.amount));
        expect(
          Math.abs(value - exact),
          `${question}, ${product}: ${String(exact)} rounded`,
        ).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(
          Math.abs(value * 100 - Math.round(value * 100)),
          `${question}, ${product}: ${String(value)} has at most two decimals`,
        ).toBeLessThan(1e-6);
      }
    }
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  'a column named sales is itself where the table has no amount column, and runs of blanks count as one',
  async (t) => {
    // Two regions of three rows each; whole numbers, so an average has at most two decimals.
    const tag = `q${t.faker.string.numeric(6)}`;
    const rows = ['east', 'west'].flatMap((region) =>
      [0, 1, 2].map(() => ({
        region: `${region}-${tag}`,
        sales: t.faker.number.int({ min: 1, max: 9999 }),
      })),
    );
    const w = await tableWorld(t, tag, 'sales (eac)', { region: 'text', sales: 'number' }, rows);
    const ask = async (question: string) => pairs((await chartOf(t, w, question)).chartData);
    // docs/reference-agent.md: `sales` means `amount` only where an amount column exists.
    const totals = sums(
      rows,
      (r) => r.region,
      (r) => r.sales,
    );
    expect(await ask('total sales by region'), 'the total sales by region').toEqual(totals);
    const averages = await ask('average   sales by region');
    expect(Object.keys(averages).sort(), 'one average a region').toEqual(
      Object.keys(totals).sort(),
    );
    for (const [region, total] of Object.entries(totals))
      expect(averages[region], `the average sales of ${region} (blanks between words)`).toBeCloseTo(
        total / 3,
        2,
      );
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  '"by" followed by no column is passed over: "how many rows sorted by size" counts them all',
  async (t) => {
    const w = await grammarWorld(t);
    const chart = await chartOf(t, w, 'how many rows sorted by size');
    const counts = chart.chartData.flatMap((row) =>
      Object.values(row).filter((v) => typeof v === 'number'),
    );
    expect(counts, 'one count, of every row').toEqual([w.rows.length]);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.fields'],
  "the grammar's chart type words give chartConfig.type",
  async (t) => {
    const w = await grammarWorld(t);
    for (const [word, type] of [
      ['bar', 'bar'],
      ['column', 'bar'],
      ['line', 'line'],
      ['trend', 'line'],
      ['pie', 'pie'],
      ['donut', 'pie'],
      ['area', 'area'],
      ['table', 'table'],
      ['number', 'number'],
      ['kpi', 'number'],
      ['scatter', 'scatter'],
    ] as const) {
      const chart = await chartOf(t, w, `total amount by channel as a ${word} chart`);
      expect((chart.chartConfig as { type?: unknown }).type, `"${word}"`).toBe(type);
    }
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  "the grammar's measure words each give their aggregation, wherever a numeric column stands first",
  async (t) => {
    const w = await grammarWorld(t);
    const of = (pick: (xs: number[]) => number) => {
      const out: Record<string, number> = {};
      for (const region of w.regions)
        out[region] = pick(w.rows.filter((r) => r.region === region).map((r) => r.amount));
      return out;
    };
    const total = of((xs) => xs.reduce((a, b) => a + b, 0));
    // Four whole amounts a region: an average has at most two decimals.
    const average = of((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
    const highest = of((xs) => Math.max(...xs));
    const lowest = of((xs) => Math.min(...xs));
    // `units` (quantity) comes first: the word before `revenue` still names the measure.
    for (const [question, expected] of [
      ['units by region sum of revenue', total],
      ['units by region average revenue', average],
      ['units by region avg revenue', average],
      ['units by region mean revenue', average],
      ['units by region max revenue', highest],
      ['units by region highest revenue', highest],
      ['units by region min revenue', lowest],
      ['units by region lowest revenue', lowest],
    ] as const)
      expect(pairs((await chartOf(t, w, question)).chartData), question).toEqual(expected);
  },
  { needs: GRAMMAR, parts },
);

conformance(
  ['chat.result.chart-data-rows'],
  '"by week" draws one row per week, and "units" means quantity',
  async (t) => {
    const w = await grammarWorld(t);
    // Each row lies in a year of its own: one week a row.
    const weekly = await chartOf(t, w, 'total amount by week');
    const amounts = weekly.chartData.flatMap((row) =>
      Object.values(row).filter((v) => typeof v === 'number' && v >= 10_000),
    );
    expect(amounts.sort(), 'the amounts, one a week').toEqual(w.rows.map((r) => r.amount).sort());
    const units = await chartOf(t, w, 'total units by region');
    expect(pairs(units.chartData), 'the total quantity by region').toEqual(
      sums(
        w.rows,
        (r) => r.region,
        (r) => r.quantity,
      ),
    );
  },
  { needs: GRAMMAR, parts },
);

/**
 * Questions over every row of the grammar world whose chart is one sum a group: which column
 * the grammar takes as the dimension, and which as the measure (none: rows are counted).
 */
const WHOLE_TABLE: readonly {
  readonly name: string;
  readonly question: string;
  /** What the expected rows are, in words. */
  readonly what: string;
  readonly by: 'region' | 'channel';
  readonly measure?: 'amount';
}[] = [
  {
    // `units` and `revenue` are the grammar's words for quantity and amount.
    name: 'the column after "total" is the measure, though another numeric column is named first',
    question: 'units by region total revenue',
    what: 'the total amount by region',
    by: 'region',
    measure: 'amount',
  },
  {
    // `sales` is the grammar's word for amount.
    name: 'a numeric column named on its own is summed, though a text column is named before it',
    question: 'product sales by channel',
    what: 'the total amount by channel',
    by: 'channel',
    measure: 'amount',
  },
  {
    // region comes before channel in the table; the question names it after `by channel`.
    name: 'the column right after "by" is the dimension, though a column listed before it in the table is named later',
    question: 'total amount by channel and region',
    what: 'the total amount by channel',
    by: 'channel',
    measure: 'amount',
  },
  {
    // `highest` names a measure only with a numeric column after it; here it has none.
    name: 'a grammar word not followed by what it needs is passed over: "count by channel highest first" counts by channel',
    question: 'count by channel highest first',
    what: 'the number of rows of each channel',
    by: 'channel',
  },
  {
    // Four rows a channel, one a product: the counts by channel are 4 and 4.
    name: 'the column after a top N is the dimension only when no "by" names one: "top 2 product by channel" ranks channels',
    question: 'top 2 product by channel',
    what: 'the number of rows of each channel',
    by: 'channel',
  },
];

for (const c of WHOLE_TABLE)
  conformance(
    ['chat.result.chart-data-rows'],
    c.name,
    async (t) => {
      const w = await grammarWorld(t);
      const chart = await chartOf(t, w, c.question);
      expect(pairs(chart.chartData), c.what).toEqual(
        sums(
          w.rows,
          (r) => r[c.by],
          (r) => (c.measure === undefined ? 1 : r[c.measure]),
        ),
      );
    },
    { needs: GRAMMAR, parts },
  );
