import fc from 'fast-check';
import { expect } from 'vitest';
import { openHub } from '../harness/browser.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { productTotalsChart } from '../harness/given/content.ts';
import {
  HUB_TIMEOUT,
  dashboardPath,
  expectCount,
  expectedTotals,
  hubWorld,
  needsChartData,
  needsData,
  parts,
  salesConnection,
  tokenOf,
  viewer,
  type HubWorld,
} from './kit.ts';
import type { Reply } from '../harness/http.ts';
import {
  replyShown,
  rowSet,
  runSchedule,
  scheduleText,
  schedules,
} from '../harness/metamorphic.ts';

// Metamorphic relations of a chart's rows (issue 34): a user's properties decide which rows the
// user sees (§1, §2.4), and a token names its user (§4.7, §4.17 jwt). So the rows a viewer
// gets from a chart do not depend on what other users did before or do at the same time,
// on which of the viewer's tokens asks, nor on the order of the reads; and two viewers of
// different properties each get their own. The rows are read through the chart-data hook (as a
// page loads them for a token), and on the dashboard page itself (a few page loads only).

/** Two viewers of different regions: A sees north rows, B south rows (SALES holds both). */
const REGIONS = { A: 'north', B: 'south' } as const;
type Name = keyof typeof REGIONS;

interface Seen {
  readonly name: Name;
  readonly userId: string;
  readonly tokens: readonly string[];
}

/** Two viewers of each region's properties, two tokens each. */
async function viewers(t: Conformance, w: World): Promise<Seen[]> {
  const out: Seen[] = [];
  for (const name of Object.keys(REGIONS) as Name[]) {
    const v = await viewer(t, w, null, { properties: { region: REGIONS[name] } });
    out.push({ name, userId: v.userId, tokens: [v.token, await tokenOf(t, w, v.userId)] });
  }
  return out;
}

/** The rows of a chart-data answer as a set, or the refusal. */
function rowsShown(res: Reply): string {
  const rows = (res.body as { data?: { rows?: unknown } } | undefined)?.data?.rows;
  return res.status === 200 && Array.isArray(rows) ? JSON.stringify(rowSet(rows)) : replyShown(res);
}

/** An account holding SALES behind a row filter on region, and the chart of its product totals. */
async function chartWorld(t: Conformance): Promise<{ w: World; chartId: string }> {
  const w = await buildWorld(t);
  await salesConnection(t, w.account.organizationId);
  const ws = await createWorkspace(t, w, { dashboardName: 'Sales' });
  const title = `Sales by product ${t.faker.string.alphanumeric(4)}`;
  const chart = await createChart(t, w, ws.dashboardId, title, productTotalsChart(title));
  return { w, chartId: chart.chartId };
}

type DataStep =
  | { readonly reads: Name; readonly token: number; readonly again: boolean }
  | { readonly registers: string };

conformance(
  ['resources.properties.row-level-security', 'security.data.rows-of-the-user'],
  "the rows a viewer gets from a chart do not depend on other users' reads and registrations before or at the same time, on which of its tokens asks, nor on the order of reads; two viewers of different properties each get their own",
  async (t) => {
    const { w, chartId } = await chartWorld(t);
    const people = await viewers(t, w);
    const byName = new Map(people.map((p) => [p.name, p]));
    const read = async (token: string) =>
      rowsShown(await t.hooks.chartData(w.account.organizationId, chartId, token));
    // The baseline: each viewer alone, with its first token, one after the other.
    const baseline = new Map<Name, string>();
    for (const p of people) baseline.set(p.name, await read(p.tokens[0] ?? ''));
    const [a, b] = [baseline.get('A') ?? '', baseline.get('B') ?? ''];
    expect(a, `viewer A's rows alone: ${a}`).toMatch(/^\[/);
    expect(b, `viewer B's rows alone: ${b}`).toMatch(/^\[/);
    // §1, §2.4: the rows rest on the viewer's properties; SALES holds rows of each region.
    expect(a, 'viewers of different regions each get their own rows').not.toBe(b);
    const steps: DataStep[] = [
      ...(['A', 'B'] as const).flatMap((reads) =>
        [0, 1].flatMap((token) => [false, true].map((again) => ({ reads, token, again }))),
      ),
      { registers: 'north' },
      { registers: 'south' },
    ];
    const text = (s: DataStep) =>
      'reads' in s
        ? `${s.reads} reads with token#${s.token}${s.again ? ' (again)' : ''}`
        : `a new ${s.registers} user is registered and reads`;
    await fc.assert(
      fc.asyncProperty(schedules(steps, 4, steps.length), async (batches) => {
        const done = await runSchedule(batches, async (s) => {
          if ('reads' in s) return read(byName.get(s.reads)?.tokens[s.token] ?? '');
          const other = await viewer(t, w, null, { properties: { region: s.registers } });
          await read(other.token);
          return undefined;
        });
        for (const [s, seen] of done) {
          if (!('reads' in s)) continue;
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not the rows ${s.reads} got alone`,
          ).toBe(baseline.get(s.reads));
        }
      }),
      t.fc(6),
    );
  },
  { needs: needsChartData, parts, timeout: 60_000 },
);

/** The chart's rows on the dashboard page opened with `token`. */
async function pageRows(t: Conformance, w: HubWorld, token: string): Promise<string> {
  const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: token }));
  const chart = view.thing('chart', { title: w.board.chartTitle });
  await expectCount(chart, 1, 'the chart is shown');
  const rows = await view.rows(chart, 'chart', 'the chart').read();
  await view.close();
  return JSON.stringify(rows);
}

type PageStep = { readonly reads: Name; readonly token: number };

conformance(
  [
    'hub.dashboard.page',
    'hub.query.jwt',
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
  ],
  "a dashboard page shows each viewer its own rows, whichever of its tokens opens it, one after the other or at the same time as another viewer's page",
  async (t) => {
    const w = await hubWorld(t, { data: true });
    // A is the world's north viewer; B a south viewer; each with a second token.
    const south = await viewer(t, w, {}, { properties: { region: REGIONS.B } });
    const tokens: Record<Name, readonly string[]> = {
      A: [w.viewer.token, await tokenOf(t, w, w.viewer.userId)],
      B: [south.token, await tokenOf(t, w, south.userId)],
    };
    // The baseline: each alone with its first token; the rows §1 and §2.4 give each region.
    const baseline = new Map<Name, string>();
    for (const name of ['A', 'B'] as const) {
      const rows = await pageRows(t, w, tokens[name][0] ?? '');
      expect(JSON.parse(rows), `viewer ${name} alone: the rows of ${REGIONS[name]}`).toEqual(
        expectedTotals(REGIONS[name]),
      );
      baseline.set(name, rows);
    }
    // Three page loads: A and B at the same time, each with a token drawn, then the one drawn
    // with its other token, after the other viewer's page.
    const schedule = fc
      .record({
        a: fc.nat({ max: 1 }),
        b: fc.nat({ max: 1 }),
        then: fc.constantFrom<Name>('A', 'B'),
      })
      .map(({ a, b, then }): PageStep[][] => [
        [
          { reads: 'A', token: a },
          { reads: 'B', token: b },
        ],
        [{ reads: then, token: 1 - (then === 'A' ? a : b) }],
      ]);
    const text = (s: PageStep) => `${s.reads} opens the page with token#${s.token}`;
    await fc.assert(
      fc.asyncProperty(schedule, async (batches) => {
        const done = await runSchedule(batches, (s) =>
          pageRows(t, w, tokens[s.reads][s.token] ?? ''),
        );
        for (const [s, seen] of done)
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not the rows ${s.reads} saw alone`,
          ).toBe(baseline.get(s.reads));
      }),
      t.fc(1),
    );
  },
  { needs: needsData, parts, timeout: HUB_TIMEOUT },
);
