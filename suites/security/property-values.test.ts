import { expect } from 'vitest';
import { ChatResult } from '../../spec/schemas/chat.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  tokenFor,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, refusedAs } from '../harness/expect.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import {
  CHAT,
  GRAMMAR,
  chat,
  chatBody,
  expectStream,
  isStreamed,
  pairs,
  type ChatAnswer,
} from '../harness/chat.ts';
import type { Reply } from '../harness/http.ts';
import { updateUser } from '../harness/readback.ts';

// Row-level security reads a property's value as stored (§1, §2.4 `{{user.<key>}}`), whatever
// its class: numbers, booleans and the empty string as much as non-empty strings. 0, false and
// '' are values like any other, so a server that drops or blanks them loses the rows they open.
// The paths that read properties: a saved chart's rows (chart-data hook) and chat answers. How
// a null value or an absent key filters rows is left open; only "never unfiltered" is required
// of them (security.data.missing-property-not-unfiltered).

/** The value classes, each a row-filtered column of its own type and two values of it. */
const CLASSES = [
  { key: 'level', type: 'integer', values: [0, 7] },
  { key: 'score', type: 'number', values: [0.25, -3.5] },
  { key: 'active', type: 'boolean', values: [false, true] },
  { key: 'code', type: 'text', values: ['', 'x'] },
] as const;
type ClassKey = (typeof CLASSES)[number]['key'];

/** The properties of user `i` (0 or 1): value `i` of every class. */
function propertiesOf(i: 0 | 1): Record<ClassKey, unknown> {
  return Object.fromEntries(CLASSES.map((c) => [c.key, c.values[i]])) as Record<ClassKey, unknown>;
}

/** Item names no other row, account or user holds: any of them in an answer tells whose row. */
const itemName = (tag: string, what: string) => `item-${what}-${tag}`;

async function registered(t: Conformance, w: World, properties: Record<string, unknown>) {
  const org = await registerOrganization(t, w);
  const { userId } = await registerUser(t, w, {
    projectOrganizationId: org.projectOrganizationId,
    properties,
  });
  return tokenFor(t, w, userId);
}

/** The item names among a chart-data answer's rows, whatever the column is called. */
function itemsOf(res: Reply, tag: string): string[] {
  const rows = (res.body as { data?: { rows?: unknown } }).data?.rows;
  const text = JSON.stringify(Array.isArray(rows) ? rows : []);
  return [...text.matchAll(new RegExp(`item-[a-z0-9.-]+-${tag}`, 'g'))].map((m) => m[0]).sort();
}

// ---- a saved chart's rows (hook chart-data) ----

const needsChartData: readonly HookName[] = [
  'accounts',
  'projects',
  'workspaces',
  'charts',
  'connections',
  'chart-data',
];

interface ClassChart {
  readonly key: ClassKey;
  readonly chartId: string;
  /** items[i]: the items a user of value i sees. */
  readonly items: readonly [readonly string[], readonly string[]];
}

/**
 * One connection per class: a table whose row filter reads that class's property, two rows per
 * value; one chart per table, listing its items.
 */
async function classCharts(t: Conformance, w: World, tag: string): Promise<ClassChart[]> {
  const ws = await createWorkspace(t, w, { dashboardName: `Values ${tag}` });
  const charts: ClassChart[] = [];
  for (const c of CLASSES) {
    const table = `pv_${c.key}_${tag}`;
    const items = c.values.map((_, i) => [0, 1].map((k) => itemName(tag, `${c.key}${i}${k}`)));
    await t.hooks.createConnection(w.account.organizationId, {
      name: `${c.key} values`,
      table: {
        name: table,
        columns: [
          { name: 'item', type: 'text' },
          { name: 'v', type: c.type },
        ],
        rows: c.values.flatMap((v, i) => (items[i] ?? []).map((item) => ({ item, v }))),
      },
      rowFilters: [{ column: 'v', property: c.key }],
    });
    const title = `Items by ${c.key}`;
    const chart = await createChart(t, w, ws.dashboardId, title, {
      title,
      type: 'table',
      dimensions: [{ name: 'item', field: 'item', label: 'Item', format: '' }],
      measures: [],
      sqlOverride: `SELECT item FROM ${table} ORDER BY item`,
    });
    charts.push({
      key: c.key,
      chartId: chart.chartId,
      items: [(items[0] ?? []).sort(), (items[1] ?? []).sort()],
    });
  }
  return charts;
}

const newTag = (t: Conformance) => t.faker.string.alpha({ length: 6, casing: 'lower' });

conformance(
  [
    'resources.properties.row-level-security',
    'resources.user.properties-rls',
    'security.data.rows-of-the-user',
  ],
  'a saved chart shows each user the rows its number, boolean or empty-string property opens, 0 and false included',
  async (t) => {
    const w = await buildWorld(t);
    const tag = newTag(t);
    const charts = await classCharts(t, w, tag);
    for (const i of [0, 1] as const) {
      const props = propertiesOf(i);
      const token = await registered(t, w, props);
      for (const c of charts) {
        const what = `the chart over ${c.key} for a user of ${c.key} ${JSON.stringify(props[c.key])}`;
        const res = await t.hooks.chartData(w.account.organizationId, c.chartId, token);
        expect(res.status, `${what}: ${describeAnswer(res)}`).toBe(200);
        expect(itemsOf(res, tag), `${what}: exactly the rows of that value`).toEqual(c.items[i]);
      }
    }
  },
  { needs: needsChartData, parts: ['identity'], timeout: 60_000 },
);

conformance(
  [
    'resources.properties.row-level-security',
    'users.update.properties-replace',
    'security.data.rows-of-the-user',
  ],
  'after an update sets 0, false and the empty string, the next token opens the rows of those values',
  async (t) => {
    const w = await buildWorld(t);
    const tag = newTag(t);
    const charts = await classCharts(t, w, tag);
    const org = await registerOrganization(t, w);
    const { userId, body } = await registerUser(t, w, {
      projectOrganizationId: org.projectOrganizationId,
      properties: propertiesOf(1),
    });
    await updateUser(t, w, userId, { name: body.name, properties: propertiesOf(0) });
    const token = await tokenFor(t, w, userId);
    for (const c of charts) {
      const res = await t.hooks.chartData(w.account.organizationId, c.chartId, token);
      const what = `the chart over ${c.key} after ${c.key} became ${JSON.stringify(propertiesOf(0)[c.key])}`;
      expect(res.status, `${what}: ${describeAnswer(res)}`).toBe(200);
      expect(itemsOf(res, tag), `${what}: exactly the rows of the new value`).toEqual(c.items[0]);
    }
  },
  { needs: needsChartData, parts: ['identity'], timeout: 60_000 },
);

/** Null values of every class, and no key at all: what §2.4 leaves open. */
const UNSET: readonly { readonly what: string; readonly properties: Record<string, unknown> }[] = [
  { what: 'null values', properties: Object.fromEntries(CLASSES.map((c) => [c.key, null])) },
  { what: 'no such keys', properties: { other: 'x' } },
];

conformance(
  ['security.data.missing-property-not-unfiltered', 'security.data.rows-of-the-user'],
  'a user whose filtered properties are null or absent never gets a chart’s rows unfiltered',
  async (t) => {
    const w = await buildWorld(t);
    const tag = newTag(t);
    const charts = await classCharts(t, w, tag);
    for (const unset of UNSET) {
      const token = await registered(t, w, unset.properties);
      for (const c of charts) {
        const res = await t.hooks.chartData(w.account.organizationId, c.chartId, token);
        const what = `the chart over ${c.key} for a user with ${unset.what}`;
        expect(res.status, `${what}: ${describeAnswer(res)}`).toBeLessThan(500);
        if (res.status !== 200) continue; // refused: nothing shown
        // Whichever way a server compares null, it matches one value at most, never both.
        const seen = itemsOf(res, tag);
        const both =
          c.items[0].some((x) => seen.includes(x)) && c.items[1].some((x) => seen.includes(x));
        expect(both, `${what}: rows of both values, ${JSON.stringify(seen)}`).toBe(false);
      }
    }
  },
  { needs: needsChartData, parts: ['identity'], timeout: 60_000 },
);

probe(
  ['resources.properties.missing-property'],
  'the chart-data answer for a user whose filtered property is null or absent',
  async (t) => {
    const w = await buildWorld(t);
    const tag = newTag(t);
    const [chart] = await classCharts(t, w, tag);
    if (chart === undefined) return expect.fail('no chart was made');
    for (const unset of UNSET) {
      const token = await registered(t, w, unset.properties);
      const res = await t.hooks.chartData(w.account.organizationId, chart.chartId, token);
      t.observe(
        `${unset.what}: ${describeAnswer(res)}, items ${JSON.stringify(itemsOf(res, tag))}`,
        unset.what === 'null values' ||
          refusedAs(res, 403, 'FORBIDDEN', { reason: 'missing-user-property' }),
      );
    }
  },
  { needs: needsChartData, parts: ['identity'] },
);

// ---- chat answers ----

/**
 * A sales table whose row filters read one property of every class. Cells are the tuples of
 * values: user i holds value i of every class; two mixed cells hold the values crossed, so no
 * user sees them. Items and amounts are the cell's own.
 */
interface ChatCell {
  readonly values: Record<ClassKey, unknown>;
  readonly items: readonly { readonly item: string; readonly amount: number }[];
}

function chatCells(t: Conformance, tag: string): ChatCell[] {
  const tuples: [string, Record<ClassKey, unknown>][] = [
    ['u0', propertiesOf(0)],
    ['u1', propertiesOf(1)],
    ['m0', { ...propertiesOf(0), active: true }],
    ['m1', { ...propertiesOf(1), level: 0 }],
  ];
  return tuples.map(([name, values]) => ({
    values,
    items: [0, 1, 2].map((k) => ({
      item: itemName(tag, `${name}${k}`),
      amount: t.faker.number.int({ min: 1, max: 900 }),
    })),
  }));
}

interface ValuesChatWorld extends World {
  readonly agentId: string;
  readonly cells: readonly ChatCell[];
}

async function valuesChatWorld(t: Conformance, tag: string): Promise<ValuesChatWorld> {
  const w = await buildWorld(t);
  const cells = chatCells(t, tag);
  const { connectionId } = await t.hooks.createConnection(w.account.organizationId, {
    name: 'sales by value class',
    table: {
      name: 'sales',
      columns: [
        { name: 'item', type: 'text' },
        { name: 'amount', type: 'number' },
        ...CLASSES.map((c) => ({ name: c.key, type: c.type })),
      ],
      rows: cells.flatMap((cell) => cell.items.map((i) => ({ ...i, ...cell.values }))),
    },
    rowFilters: CLASSES.map((c) => ({ column: c.key, property: c.key })),
  });
  const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
    name: 'Sales analyst',
    connectionId,
  });
  return { ...w, agentId, cells };
}

/** Every value a chat answer shows: chart rows, tool results and the text. */
function shownText(answer: ChatAnswer): string {
  return JSON.stringify([
    ...answer.charts.flatMap((c) => {
      const parsed = ChatResult.safeParse(c);
      return parsed.success ? parsed.data.chartData : [];
    }),
    ...answer.grammar.toolResults.map((r) => r.result),
    answer.grammar.messages,
  ]);
}

/** The cells whose items an answer names. */
function cellsNamed(w: ValuesChatWorld, text: string): number[] {
  return w.cells.flatMap((cell, i) => (cell.items.some((x) => text.includes(x.item)) ? [i] : []));
}

const QUESTIONS = ['List every item with its amount', 'What is the total amount by item?'];
const chatParts = ['chat', 'identity'] as const;

conformance(
  [
    'resources.properties.row-level-security',
    'resources.user.properties-rls',
    'security.data.rows-of-the-user',
  ],
  'chat answers to users of number, boolean and empty-string properties (0 and false included) show only their rows',
  async (t) => {
    const w = await valuesChatWorld(t, newTag(t));
    for (const i of [0, 1] as const) {
      const token = await registered(t, w, propertiesOf(i));
      for (const question of QUESTIONS) {
        const answer = expectStream(
          await chat(t, w.agentId, token, chatBody(w.agentId, { question })),
          `"${question}" asked by user ${i}`,
        );
        expect(
          cellsNamed(w, shownText(answer)).filter((c) => c !== i),
          `"${question}" asked by user ${i} (${JSON.stringify(propertiesOf(i))}) names items of rows hidden from it`,
        ).toEqual([]);
      }
    }
  },
  { needs: CHAT, parts: chatParts, timeout: 60_000 },
);

conformance(
  ['resources.properties.row-level-security', 'security.data.rows-of-the-user'],
  'a chat chart for a user of 0, false and the empty string holds exactly its rows',
  async (t) => {
    const w = await valuesChatWorld(t, newTag(t));
    for (const i of [0, 1] as const) {
      const token = await registered(t, w, propertiesOf(i));
      const answer = expectStream(
        await chat(t, w.agentId, token, chatBody(w.agentId, { question: 'total amount by item' })),
        `a chart for user ${i}`,
      );
      const chart = ChatResult.parse(answer.charts.at(-1));
      const expected = Object.fromEntries((w.cells[i]?.items ?? []).map((x) => [x.item, x.amount]));
      expect(pairs(chart.chartData), `the totals by item of user ${i}`).toEqual(expected);
    }
  },
  { needs: GRAMMAR, parts: chatParts, timeout: 60_000 },
);

conformance(
  ['security.data.missing-property-not-unfiltered', 'security.data.rows-of-the-user'],
  'chat answers to a user whose filtered properties are null or absent never hold rows unfiltered',
  async (t) => {
    const w = await valuesChatWorld(t, newTag(t));
    for (const unset of UNSET) {
      const token = await registered(t, w, unset.properties);
      for (const question of QUESTIONS) {
        const answer = await chat(t, w.agentId, token, chatBody(w.agentId, { question }));
        if (!isStreamed(answer.res)) {
          expect(answer.res.status, `${unset.what}: ${describeAnswer(answer.res)}`).toBeLessThan(
            500,
          );
          continue; // refused: nothing shown
        }
        expectStream(answer, `"${question}" with ${unset.what}`);
        // Each cell is its own tuple of values: any comparison of null matches one at most.
        expect(
          cellsNamed(w, shownText(answer)).length,
          `"${question}" with ${unset.what} names items of several cells`,
        ).toBeLessThanOrEqual(1);
      }
    }
  },
  { needs: CHAT, parts: chatParts, timeout: 60_000 },
);
