import fc from 'fast-check';
import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import { tokenFor } from '../harness/given/chat.ts';
import type { Reply } from '../harness/http.ts';
import {
  replyShown,
  rowSet,
  runSchedule,
  scheduleText,
  schedules,
} from '../harness/metamorphic.ts';
import { updateUser } from '../harness/readback.ts';

// Metamorphic relations over a saved chart's rows (issue 34): row-level security reads the
// asking user's properties (§1, §2.4) and a token is made from the user's stored data (§4.7),
// so what a user gets from a chart is the same whatever other users of the organization read
// or changed before, whichever of the user's tokens asks, while other users read the same
// charts at the same time, and in whatever order the user reads. No value is computed here:
// each viewer's reads taken alone are the baseline. The properties span the value classes
// (numbers 0 included, booleans false included, the empty string, null, no key), so the
// relation also holds where the document leaves the answer open (null, no key).

const needs: readonly HookName[] = [
  'accounts',
  'projects',
  'workspaces',
  'charts',
  'connections',
  'chart-data',
];

/** A row-filtered column per value class, and the two values its rows hold. */
const CLASSES = [
  { key: 'level', type: 'integer', values: [0, 7] },
  { key: 'active', type: 'boolean', values: [false, true] },
  { key: 'code', type: 'text', values: ['', 'x'] },
  { key: 'score', type: 'number', values: [0.5, -2.25] },
] as const;

/** What a viewer holds for a class: one of its values, null, or no such key. */
type Held = { value: unknown } | 'absent';
function held(c: (typeof CLASSES)[number], option: number): Held {
  return option < 2 ? { value: c.values[option] } : option === 2 ? { value: null } : 'absent';
}

/** Properties where viewer `k` holds option (k + class) mod 4 of every class. */
function propertiesOf(k: number): Record<string, unknown> {
  const props: Record<string, unknown> = { other: `viewer ${k}` };
  CLASSES.forEach((c, i) => {
    const h = held(c, (k + i) % 4);
    if (h !== 'absent') props[c.key] = h.value;
  });
  return props;
}

/** One table and one chart per class, two rows per value, item names unique to the run. */
async function classCharts(t: Conformance, w: World) {
  const tag = t.faker.string.alpha({ length: 6, casing: 'lower' });
  const ws = await createWorkspace(t, w, { dashboardName: `Metamorphic ${tag}` });
  const charts: { key: string; chartId: string }[] = [];
  for (const c of CLASSES) {
    const table = `mm_${c.key}_${tag}`;
    await t.hooks.createConnection(w.account.organizationId, {
      name: `${c.key} values`,
      table: {
        name: table,
        columns: [
          { name: 'item', type: 'text' },
          { name: 'v', type: c.type },
        ],
        rows: c.values.flatMap((v, i) =>
          [0, 1].map((k) => ({ item: `${c.key}${i}${k}-${tag}`, v })),
        ),
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
    charts.push({ key: c.key, chartId: chart.chartId });
  }
  return charts;
}

/** What a chart-data answer shows: status (and §7 code), and the rows as a set. */
function shown(res: Reply): string {
  const rows = (res.body as { data?: { rows?: unknown } } | undefined)?.data?.rows;
  return res.status === 200 && Array.isArray(rows)
    ? `200 ${JSON.stringify(rowSet(rows))}`
    : replyShown(res);
}

interface Viewer {
  readonly name: string;
  /** The user whose view this is: a second token of a user shares its first's baseline. */
  readonly user: string;
  readonly token: string;
}

conformance(
  [
    'resources.properties.row-level-security',
    'resources.user.properties-rls',
    'tokens.user-token.from-stored-user',
    'security.data.rows-of-the-user',
  ],
  "a user's rows from a saved chart do not depend on other users' reads and updates before or at the same time, on which of its tokens asks, nor on the order of its reads",
  async (t) => {
    const w = await buildWorld(t);
    const charts = await classCharts(t, w);
    // Three users of one project organization and one of another; the first has two tokens.
    const same = await registerOrganization(t, w);
    const other = await registerOrganization(t, w);
    const viewers: Viewer[] = [];
    for (const k of [0, 1, 2, 3]) {
      const { userId } = await registerUser(t, w, {
        projectOrganizationId: (k === 3 ? other : same).projectOrganizationId,
        properties: propertiesOf(k),
      });
      const name = `user ${k}`;
      viewers.push({ name, user: name, token: await tokenFor(t, w, userId) });
      if (k === 0)
        viewers.push({
          name: `${name} (second token)`,
          user: name,
          token: await tokenFor(t, w, userId, '24h'),
        });
    }
    // A fifth user of the same organization whose properties change between reads: its own
    // reads are noise, never compared.
    const noisy = await registerUser(t, w, {
      projectOrganizationId: same.projectOrganizationId,
      properties: propertiesOf(1),
    });
    let noisyToken = await tokenFor(t, w, noisy.userId);
    const org = w.account.organizationId;
    const read = (token: string, chartId: string) => t.hooks.chartData(org, chartId, token);

    // The baseline: each user's reads alone, one after the other, first token.
    const baseline = new Map<string, string>();
    for (const v of viewers.filter((x) => x.name === x.user))
      for (const c of charts)
        baseline.set(`${v.user} ${c.key}`, shown(await read(v.token, c.chartId)));

    type Step =
      | { readonly kind: 'read'; readonly viewer: number; readonly chart: number }
      | { readonly kind: 'noise-read'; readonly chart: number }
      | { readonly kind: 'noise-update'; readonly k: number };
    const steps: Step[] = [
      ...viewers.flatMap((_, viewer) =>
        charts.map((_c, chart): Step => ({ kind: 'read', viewer, chart })),
      ),
      ...charts.map((_c, chart): Step => ({ kind: 'noise-read', chart })),
      ...[0, 2, 3].map((k): Step => ({ kind: 'noise-update', k })),
    ];
    const text = (s: Step) =>
      s.kind === 'read'
        ? `${viewers[s.viewer]?.name ?? '?'} reads ${charts[s.chart]?.key ?? '?'}`
        : s.kind === 'noise-read'
          ? `user 4 reads ${charts[s.chart]?.key ?? '?'}`
          : `user 4 takes the properties of user ${s.k}`;

    await fc.assert(
      fc.asyncProperty(schedules(steps), async (batches) => {
        const done = await runSchedule(batches, async (s) => {
          if (s.kind === 'noise-update') {
            await updateUser(t, w, noisy.userId, { name: 'Noisy', properties: propertiesOf(s.k) });
            noisyToken = await tokenFor(t, w, noisy.userId);
            return undefined;
          }
          const chart = charts[s.chart];
          if (chart === undefined) return undefined;
          if (s.kind === 'noise-read') {
            expect((await read(noisyToken, chart.chartId)).status, 'a read of user 4').toBeLessThan(
              500,
            );
            return undefined;
          }
          return shown(await read(viewers[s.viewer]?.token ?? '', chart.chartId));
        });
        for (const [s, seen] of done) {
          if (s.kind !== 'read') continue;
          const v = viewers[s.viewer];
          const c = charts[s.chart];
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not what ${v?.user ?? '?'} got alone (properties ${JSON.stringify(propertiesOf(Number(v?.user.slice(5))))})`,
          ).toBe(baseline.get(`${v?.user ?? '?'} ${c?.key ?? '?'}`));
        }
      }),
      t.fc(12),
    );
  },
  { needs, parts: ['identity'], timeout: 60_000 },
);
