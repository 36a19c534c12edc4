import fc from 'fast-check';
import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  tokenFor,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace } from '../harness/given/dashboards.ts';
import type { Reply } from '../harness/http.ts';
import { describeAnswer } from '../harness/expect.ts';
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
// the baseline is each user's reads taken alone, of copies of the charts nobody else reads
// (the same rows under another table alias: a chart's rows are its sqlOverride's, §2.6), so
// that a cache of the first reader's rows cannot hide in it. The properties span the value classes
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

/**
 * One table per class, two rows per value, item names unique to the run; per table a shared
 * chart, and `copies` more charts of the same rows under another alias each (the private
 * copies a baseline is read from).
 */
async function classCharts(t: Conformance, w: World, copies: number) {
  const tag = t.faker.string.alpha({ length: 6, casing: 'lower' });
  const ws = await createWorkspace(t, w, { dashboardName: `Metamorphic ${tag}` });
  const charts: { key: string; chartId: string; copies: string[] }[] = [];
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
    const chart = async (alias: string) => {
      const title = `Items by ${c.key} (${alias})`;
      const made = await createChart(t, w, ws.dashboardId, title, {
        title,
        type: 'table',
        dimensions: [{ name: 'item', field: 'item', label: 'Item', format: '' }],
        measures: [],
        sqlOverride: `SELECT ${alias}.item FROM ${table} AS ${alias} ORDER BY ${alias}.item`,
      });
      return made.chartId;
    };
    const chartId = await chart('shared');
    const own: string[] = [];
    for (let k = 0; k < copies; k++) own.push(await chart(`own${k}`));
    charts.push({ key: c.key, chartId, copies: own });
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
    const charts = await classCharts(t, w, 4);
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

    // The baseline: each user reads, with its first token, a copy of each chart that nobody
    // else reads, before anyone reads the shared charts.
    const baseline = new Map<string, string>();
    for (const [k, v] of viewers.filter((x) => x.name === x.user).entries())
      for (const c of charts)
        baseline.set(`${v.user} ${c.key}`, shown(await read(v.token, c.copies[k] ?? '')));

    // Steps name who does what, so that a counterexample reads as it is.
    type Step =
      | { readonly read: string; readonly by: string }
      | { readonly update: 'user 4'; readonly to: number };
    const byName = new Map(viewers.map((v) => [v.name, v]));
    const byKey = new Map(charts.map((c) => [c.key, c]));
    const steps: Step[] = [
      ...viewers.flatMap((v) => charts.map((c): Step => ({ read: c.key, by: v.name }))),
      ...charts.map((c): Step => ({ read: c.key, by: 'user 4' })),
      ...[0, 2, 3].map((to): Step => ({ update: 'user 4', to })),
    ];
    const text = (s: Step) =>
      'update' in s ? `user 4 takes the properties of user ${s.to}` : `${s.by} reads ${s.read}`;

    await fc.assert(
      fc.asyncProperty(schedules(steps), async (batches) => {
        const done = await runSchedule(batches, async (s) => {
          if ('update' in s) {
            await updateUser(t, w, noisy.userId, { name: 'Noisy', properties: propertiesOf(s.to) });
            noisyToken = await tokenFor(t, w, noisy.userId);
            return undefined;
          }
          const chartId = byKey.get(s.read)?.chartId ?? '';
          const viewer = byName.get(s.by);
          if (viewer === undefined) {
            const res = await read(noisyToken, chartId);
            expect(res.status, `a read of user 4: ${describeAnswer(res)}`).toBeLessThan(500);
            return undefined;
          }
          return shown(await read(viewer.token, chartId));
        });
        for (const [s, seen] of done) {
          const user = 'by' in s ? byName.get(s.by)?.user : undefined;
          if ('update' in s || user === undefined) continue;
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not what ${user} got alone (properties ${JSON.stringify(propertiesOf(Number(user.slice(5))))})`,
          ).toBe(baseline.get(`${user} ${s.read}`));
        }
      }),
      t.fc(12),
    );
  },
  { needs, parts: ['identity'], timeout: 60_000 },
);
