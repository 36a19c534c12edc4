import { expect } from 'vitest';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { openHub, type HubView } from '../harness/browser.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { dashboardPath, expectCount, needsData, parts, viewer, HUB_TIMEOUT } from './kit.ts';

// Row-level security reads a property's value as stored, whatever its class (§1, §2.4
// `{{user.<key>}}`): on an embedded page (§4.17) as much as through the API. A page shows a
// chart's rows, and drill-down (§2.2) the rows behind one of its points; both are read for the
// token's user. 0, false and '' open the rows of those values; a user whose filtered
// properties are null or absent never sees the rows unfiltered (how such a user is filtered is
// left open: resources.properties.missing-property).

/** The value classes, each a row-filtered column of its own type, and two values of it. */
const CLASSES = [
  { key: 'level', type: 'integer', values: [0, 7] },
  { key: 'score', type: 'number', values: [0.25, -3.5] },
  { key: 'active', type: 'boolean', values: [false, true] },
  { key: 'code', type: 'text', values: ['', 'x'] },
] as const;

/** The properties of user `i` (0 or 1): value `i` of every class. */
const propertiesOf = (i: 0 | 1): Record<string, unknown> =>
  Object.fromEntries(CLASSES.map((c) => [c.key, c.values[i]]));

interface ClassWorld extends World {
  readonly dashboardId: string;
  /** items[i]: the item of the one row user i may see. */
  readonly items: readonly [string, string];
  /** The title of the chart of the items: the page has loaded its charts once it shows it. */
  readonly itemsTitle: string;
}

/**
 * A table of two rows, row i holding value i of every class and an item no other row holds,
 * each class's column filtered by the property of its name; a dashboard of one bar chart of
 * the items (one point each) and one of their single group (one point, for drill-down).
 */
async function classWorld(t: Conformance): Promise<ClassWorld> {
  const w = await buildWorld(t);
  const tag = t.faker.string.alpha({ length: 6, casing: 'lower' });
  const table = `classes_${tag}`;
  const items = [`Item0${tag}`, `Item1${tag}`] as const;
  await t.hooks.createConnection(w.account.organizationId, {
    name: `${table} data`,
    table: {
      name: table,
      columns: [
        ...CLASSES.map((c) => ({ name: c.key, type: c.type })),
        { name: 'item', type: 'text' },
        { name: 'grp', type: 'text' },
        { name: 'amount', type: 'integer' },
      ],
      rows: ([0, 1] as const).map((i) => ({
        ...propertiesOf(i),
        item: items[i],
        grp: 'all',
        amount: 10 + i,
      })),
    },
    rowFilters: CLASSES.map((c) => ({ column: c.key, property: c.key })),
  });
  const ws = await createWorkspace(t, w, { dashboardName: `Classes ${tag}` });
  const bar = (title: string, dimension: string, sql: string) =>
    createChart(t, w, ws.dashboardId, title, {
      title,
      type: 'bar',
      dimensions: [{ name: dimension, field: dimension, label: dimension, format: '' }],
      measures: [{ name: 'total', field: 'total', label: 'Total', format: '' }],
      sqlOverride: sql,
    });
  await bar(
    `Items ${tag}`,
    'item',
    `SELECT item, SUM(amount) AS total FROM ${table} GROUP BY item`,
  );
  await bar(`Group ${tag}`, 'grp', `SELECT grp, SUM(amount) AS total FROM ${table} GROUP BY grp`);
  return { ...w, dashboardId: ws.dashboardId, items, itemsTitle: `Items ${tag}` };
}

/** How many times each item shows on the page (0 or more), once its charts are shown. */
async function itemsShown(view: HubView, w: ClassWorld): Promise<number[]> {
  await expectCount(
    view.frame.getByText(w.itemsTitle, { exact: true }).first(),
    1,
    'the chart of the items',
  );
  return Promise.all(w.items.map((item) => view.frame.getByText(item, { exact: true }).count()));
}

/** Drills into the one group point and answers the drilled rows (cells joined by `|`). */
async function drilledRows(view: HubView): Promise<string[]> {
  const control = view.thing('drillDown', { value: 'all' });
  await expectCount(control, 1, 'a drill-down control for the point all');
  await control.click();
  const region = view.thing('drillDownRows', { value: 'all' });
  await expectCount(region, 1, 'drilling into all shows the rows behind it');
  return view.rows(region, 'drillDown', 'the rows behind all').read();
}

conformance(
  [
    'resources.properties.row-level-security',
    'resources.user.properties-rls',
    'security.data.rows-of-the-user',
  ],
  'a page shows each user the rows its number, boolean and empty-string properties open, 0 and false included, on a chart and in drill-down',
  async (t) => {
    const w = await classWorld(t);
    for (const i of [0, 1] as const) {
      const props = propertiesOf(i);
      const user = await viewer(t, w, { drillDown: true }, { properties: props });
      const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: user.token }));
      const what = `user ${String(i)} (${JSON.stringify(props)})`;
      const [own, others] = i === 0 ? w.items : [w.items[1], w.items[0]];
      await expectCount(
        view.frame.getByText(own, { exact: true }).first(),
        1,
        `${what}: the chart shows the item of its row`,
      );
      expect(
        (await itemsShown(view, w))[i === 0 ? 1 : 0],
        `${what}: the chart shows the item of the other user's row`,
      ).toBe(0);
      const drilled = await drilledRows(view);
      expect(
        drilled.filter((r) => r.split('|').includes(own)),
        `${what}: drill-down shows its row: ${drilled.join('; ')}`,
      ).toHaveLength(1);
      expect(
        drilled.filter((r) => r.split('|').includes(others)),
        `${what}: drill-down shows the other user's row: ${drilled.join('; ')}`,
      ).toEqual([]);
      await view.close();
    }
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

conformance(
  ['security.data.missing-property-not-unfiltered', 'security.data.rows-of-the-user'],
  'a page never shows a user whose filtered properties are null or absent the rows unfiltered',
  async (t) => {
    const w = await classWorld(t);
    const unset = [
      ['null values', Object.fromEntries(CLASSES.map((c) => [c.key, null]))],
      ['no such keys', { other: 'x' }],
    ] as const;
    for (const [what, properties] of unset) {
      const user = await viewer(t, w, null, { properties });
      const view = await openHub(t, dashboardPath(w.dashboardId, { jwt: user.token }));
      // Whichever way a server compares null, it matches one row's values at most.
      const shown = await itemsShown(view, w);
      expect(
        shown.every((n) => n > 0),
        `a user with ${what} sees the items of both rows: ${JSON.stringify(shown)}`,
      ).toBe(false);
      await view.close();
    }
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
