import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { expectError, expectSuccess, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  createChart,
  createDashboard,
  createWorkspace,
  dashboardsOf as v1DashboardsOf,
  layoutOf,
  tenantToken,
  v1AddCharts,
  v1Post,
} from '../harness/given/dashboards.ts';
import {
  V2_KEY,
  applicationsOf,
  byLegacy,
  dashboardsOf as v2DashboardsOf,
  finalize,
  snapshot,
  v2Delete,
  v2Post,
  writtenDashboard,
  type Dashboard,
} from '../harness/given/v2.ts';
import { APPEND, CLONE, REMOVE, dashboardPath } from '../harness/paths.ts';

// Issue 7 property 10 (§2.2 rule 3, §2.8, §5 rule 6, §7 409, §9): arbitrary interleavings of
// chart edits (add, remove, append) and clones by several users with editing roles, through
// v1 with tenant JWTs before finalize and through v2 with the same JWTs after it. The expected
// state is kept here, from the document: the shared dashboards never change through a user's
// edit; each user's list holds exactly one entry per shared dashboard (the shared one, or the
// user's copy once the user edited it) plus the user's clones; each user sees their own edits
// and nobody else's; after finalize a user's copy is that user's v2 'dashboard' and a
// template edit is refused with 409 SHARED_DASHBOARD_READ_ONLY.
const USERS = 3;
const MAX_CLONES = 2;
const READ_ONLY = 'SHARED_DASHBOARD_READ_ONLY';
const EDITOR = { addChart: true, removeChart: true, canDuplicateDashboard: true };
/** A chart placed by append or clone: a copy under an id of its own (decisions below). */
const NEW = '*';

type Kind = 'add' | 'remove' | 'append' | 'clone';
interface Op {
  readonly user: number;
  readonly kind: Kind;
  readonly entry: number;
  readonly pick: number;
}
const op: fc.Arbitrary<Op> = fc.record({
  user: fc.integer({ min: 0, max: USERS - 1 }),
  kind: fc.constantFrom<Kind>('add', 'remove', 'append', 'clone'),
  entry: fc.nat(),
  pick: fc.nat(),
});

/** One entry of a user's list as the model holds it. */
interface Entry {
  /** Which shared dashboard it stands for; undefined for a clone. */
  readonly shared: number | undefined;
  /** Whether it is the user's own (a copy or a clone) rather than the shared dashboard. */
  own: boolean;
  v1Id: string | undefined;
  v2Id: string | undefined;
  /** Chart ids of the layout; NEW for a chart copied under an id the model does not know. */
  layout: string[];
  readonly label: string;
}

interface Board {
  readonly dashboardId: string;
  readonly chartIds: readonly string[];
}

interface Run {
  readonly t: Conformance;
  readonly w: World;
  readonly workspaceId: string;
  readonly boards: readonly Board[];
  readonly tokens: readonly string[];
  readonly entries: Entry[][];
  readonly known: ReadonlySet<string>;
  applicationId?: string;
  phase: 'v1' | 'v2';
}

const idOf = (run: Run, e: Entry) => (run.phase === 'v1' ? e.v1Id : e.v2Id) ?? '';
const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

/** Chart ids as the model compares them: known ids sorted, then how many others. */
function shape(chartIds: readonly string[], known: ReadonlySet<string>): string {
  const mine = chartIds.filter((c) => known.has(c)).sort();
  return `${mine.join(',')} +${chartIds.length - mine.length}`;
}

async function world(t: Conformance): Promise<Omit<Run, 'entries' | 'phase'>> {
  const w = await buildWorld(t);
  const ws = await createWorkspace(t, w, { dashboardName: 'Sales' });
  const second = await createDashboard(t, w, ws.workspaceId, 'Stock');
  const boards: Board[] = [];
  for (const [dashboardId, charts] of [
    [ws.dashboardId, 3],
    [second.dashboardId, 2],
  ] as const) {
    const chartIds: string[] = [];
    for (let i = 0; i < charts; i++)
      chartIds.push((await createChart(t, w, dashboardId, `Chart ${i}`)).chartId);
    boards.push({ dashboardId, chartIds });
  }
  const tokens: string[] = [];
  for (let u = 0; u < USERS; u++) tokens.push(await tenantToken(t, w, EDITOR));
  return {
    t,
    w,
    workspaceId: ws.workspaceId,
    boards,
    tokens,
    known: new Set(boards.flatMap((b) => b.chartIds)),
  };
}

/** The ids and layouts a user's list shows, in the phase's API. */
async function listed(
  run: Run,
  user: number,
): Promise<{ id: string; own: boolean; chartIds: string[] }[]> {
  const token = run.tokens[user] ?? '';
  if (run.phase === 'v1') {
    return (await v1DashboardsOf(run.t, run.w, run.workspaceId, { token })).map((d) => ({
      id: d.id,
      own: d.tenantId !== null,
      chartIds: d.chartIds,
    }));
  }
  return (await v2DashboardsOf(run.t, run.w, run.applicationId ?? '', { token })).map((d) => ({
    id: d.id,
    own: d.kind === 'dashboard',
    chartIds: d.chartIds ?? [],
  }));
}

/** A user's first edit of a shared dashboard through v1 gives the user a copy in its place. */
async function learnCopy(run: Run, user: number, e: Entry, what: string): Promise<void> {
  const ids = (await listed(run, user)).map((d) => d.id);
  const others = new Set(run.entries[user]?.filter((x) => x !== e).map((x) => x.v1Id));
  const fresh = ids.filter((id) => !others.has(id));
  expect(fresh, `${what}: the user's copy takes the shared dashboard's place, once`).toHaveLength(
    1,
  );
  expect(fresh[0], `${what}: the shared dashboard is no longer in the user's list`).not.toBe(
    e.v1Id,
  );
  e.v1Id = fresh[0];
  e.own = true;
}

/** A success: 200 where the document shows it (§4.10–§4.12), else any 2xx (§4.16). */
function expectOk(res: Reply, what: string, statusShown: boolean): void {
  const ok = statusShown ? res.status === 200 : successStatus(res.status);
  expect(ok, `${what}: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
}

async function edit(run: Run, o: Op): Promise<void> {
  const { t, w } = run;
  const entries = run.entries[o.user] ?? [];
  const e = pick(entries, o.entry);
  if (e === undefined) return;
  const token = run.tokens[o.user] ?? '';
  const what = `${run.phase} ${o.kind} by user ${o.user} on ${e.label}`;
  const template = run.phase === 'v2' && !e.own;
  const at = run.phase === 'v2' ? dashboardPath(run.applicationId ?? '', idOf(run, e)) : '';
  let res: Reply;
  let next: string[];
  if (o.kind === 'clone') {
    if (entries.length >= 2 + MAX_CLONES) return;
    const name = `Clone ${o.user}.${entries.length}`;
    let id: string;
    if (run.phase === 'v1') {
      res = await v1Post(t, CLONE, token, { sourceDashboardId: idOf(run, e), name });
      id = expectSuccess(res, CloneDashboardResponse.shape.data, what).dashboardId;
    } else {
      const site = {
        call: 'v2.clone',
        applicationId: run.applicationId ?? '',
        as: { token },
      } as const;
      const before = await v2DashboardsOf(t, w, site.applicationId, site.as);
      res = await v2Post(t, w, `${at}/clone`, site.as, { name });
      id = (await writtenDashboard(t, w, res, { ...site, before }, what)).id;
    }
    // §4.10: a deep copy, every chart copied along with the dashboard.
    entries.push({
      shared: undefined,
      own: true,
      v1Id: run.phase === 'v1' ? id : undefined,
      v2Id: run.phase === 'v2' ? id : undefined,
      layout: e.layout.map(() => NEW),
      label: `user ${o.user}'s ${name}`,
    });
    return;
  }
  if (o.kind === 'remove') {
    const chart = pick(
      e.layout.filter((c) => c !== NEW),
      o.pick,
    );
    if (chart === undefined) return;
    res =
      run.phase === 'v1'
        ? await v1Post(t, REMOVE, token, { dashboardId: idOf(run, e), chartIds: [chart] })
        : await v2Delete(t, w, `${at}/charts/${chart}`, { token });
    next = e.layout.filter((c) => c !== chart);
  } else if (o.kind === 'add') {
    const chart = pick(
      [...run.known].filter((c) => !e.layout.includes(c)),
      o.pick,
    );
    if (chart === undefined) return;
    res =
      run.phase === 'v1'
        ? await v1AddCharts(t, token, idOf(run, e), [chart])
        : await v2Post(t, w, `${at}/charts`, { token }, { charts: [chart] });
    next = [...e.layout, chart];
  } else {
    const source = entries[e.shared === 0 ? 1 : 0];
    if (source === undefined) return;
    res =
      run.phase === 'v1'
        ? await v1Post(t, APPEND, token, {
            sourceDashboardId: idOf(run, source),
            targetDashboardId: idOf(run, e),
          })
        : await v2Post(
            t,
            w,
            `${at}/append-charts`,
            { token },
            {
              sourceDashboardId: idOf(run, source),
            },
          );
    next = [...e.layout, ...source.layout.map(() => NEW)];
  }
  if (template) {
    expectError(res, documentedStatus(READ_ONLY), what, READ_ONLY);
    return;
  }
  expectOk(res, what, run.phase === 'v1' && o.kind !== 'add');
  e.layout = next;
  if (run.phase === 'v1' && !e.own) await learnCopy(run, o.user, e, what);
}

/** What the host's key sees of the shared dashboards, in the phase's API. */
async function sharedSeen(run: Run): Promise<string> {
  if (run.phase === 'v1') return layoutOf(await v1DashboardsOf(run.t, run.w, run.workspaceId));
  return snapshot(await v2DashboardsOf(run.t, run.w, run.applicationId ?? ''));
}

/** Every user's list is exactly the model's entries, each with the model's layout. */
async function expectInStep(run: Run, when: string): Promise<void> {
  for (let u = 0; u < USERS; u++) {
    const seen = await listed(run, u);
    const entries = run.entries[u] ?? [];
    expect(
      seen.map((d) => d.id).sort(),
      `${when}: user ${u}'s list holds one entry per shared dashboard plus their own clones, nobody else's`,
    ).toEqual(entries.map((e) => idOf(run, e)).sort());
    for (const e of entries) {
      const item = seen.find((d) => d.id === idOf(run, e));
      expect(
        item?.own,
        `${when}: user ${u}'s ${e.label} is ${e.own ? 'their own' : 'shared'}`,
      ).toBe(e.own);
      expect(
        shape(item?.chartIds ?? [], run.known),
        `${when}: user ${u} sees their own edits on ${e.label}`,
      ).toBe(shape(e.layout, run.known));
    }
  }
}

/** After finalize: every entry's v2 id, found by its v1 id (§9 legacyDashboardId). */
async function toV2(run: Run, templates: readonly Dashboard[]): Promise<void> {
  for (let u = 0; u < USERS; u++) {
    const token = run.tokens[u] ?? '';
    const seen = await v2DashboardsOf(run.t, run.w, run.applicationId ?? '', { token });
    const owners = new Set<string | null>();
    for (const e of run.entries[u] ?? []) {
      const d = byLegacy(e.own ? seen : templates, e.v1Id ?? '', `user ${u}'s ${e.label}`);
      e.v2Id = d.id;
      expect(d.kind, `after finalize, user ${u}'s ${e.label}`).toBe(
        e.own ? 'dashboard' : 'template',
      );
      if (e.own) owners.add(d.ownerProjectUserId);
    }
    expect(
      [...owners].every((o) => o !== null) && owners.size <= 1,
      `after finalize, user ${u}'s own dashboards are in one user's space`,
    ).toBe(true);
  }
}

conformance(
  [
    'permissions.editing.edits-go-to-own-copy',
    'dashboards.copy.replaces-shared',
    'dashboards.copy.one-entry',
    'dashboards.v1-record.tenant-id-own',
    'auth.tenant-jwt.translated',
    'v2.dashboard.kind-dashboard',
    'errors.shared-dashboard-read-only',
  ],
  "any interleaving of users' edits and clones, v1 before finalize and v2 after, leaves the shared dashboards unchanged and each user's list one entry per shared dashboard with only their own edits",
  async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 6 }),
        fc.array(op, { maxLength: 5 }),
        async (v1Ops, v2Ops) => {
          const base = await world(t);
          const run: Run = {
            ...base,
            phase: 'v1',
            entries: base.tokens.map(() =>
              base.boards.map((b, i) => ({
                shared: i,
                own: false,
                v1Id: b.dashboardId,
                v2Id: undefined,
                layout: [...b.chartIds],
                label: `shared dashboard ${i}`,
              })),
            ),
          };
          const shared = await sharedSeen(run);
          for (const o of v1Ops) await edit(run, o);
          expect(await sharedSeen(run), 'the shared dashboards before finalize').toBe(shared);
          await expectInStep(run, 'before finalize');

          await finalize(t, run.w);
          run.phase = 'v2';
          const app = (await applicationsOf(t, run.w)).find(
            (a) => a.legacyWorkspaceId === run.workspaceId,
          );
          if (app === undefined) expect.fail('no application for the v1 workspace');
          run.applicationId = app.applicationId;
          const templates = await v2DashboardsOf(t, run.w, app.applicationId);
          await toV2(run, templates);
          await expectInStep(run, 'right after finalize');
          const held = await sharedSeen(run);
          for (const o of v2Ops) await edit(run, o);
          expect(await sharedSeen(run), 'the templates after finalize').toBe(held);
          await expectInStep(run, 'after the v2 edits');
        },
      ),
      t.fc(8),
    );
  },
  {
    needs: [...CONTENT, 'dashboards', 'migration'],
    parts: ['v1-dashboards', 'tenant-flow', 'v2'],
    relies: [
      ...READ_BACK,
      ...TENANT_FIELDS,
      ...V2_KEY,
      'dashboards.copy.chart-ids',
      'dashboards.copy.clone-beside',
      'dashboards.append-charts-from.copies',
      'migration.tenant-users',
      'migration.chart-ids-kept',
    ],
    timeout: 240_000,
  },
);

probe(
  ['migration.chart-ids-kept'],
  "the chart ids of a shared dashboard and of a tenant's copy after finalize",
  async (t) => {
    const w = await buildWorld(t);
    const ws = await createWorkspace(t, w);
    const charts = [
      (await createChart(t, w, ws.dashboardId, 'One')).chartId,
      (await createChart(t, w, ws.dashboardId, 'Two')).chartId,
    ];
    // The tenant's edit adds a chart of another workspace: it names none of the shared
    // dashboard's charts, whose ids in the copy are open (dashboards.copy.chart-ids).
    const other = await createWorkspace(t, w);
    const spare = (await createChart(t, w, other.dashboardId, 'Spare')).chartId;
    const token = await tenantToken(t, w, EDITOR);
    await v1AddCharts(t, token, ws.dashboardId, [spare]);
    const copy = (await v1DashboardsOf(t, w, ws.workspaceId, { token })).find(
      (d) => d.id !== ws.dashboardId,
    );
    await finalize(t, w);
    const app = (await applicationsOf(t, w)).find((a) => a.legacyWorkspaceId === ws.workspaceId);
    if (app === undefined || copy === undefined) return t.notRun('no application or no copy');
    const template = byLegacy(await v2DashboardsOf(t, w, app.applicationId), ws.dashboardId, 'v2');
    const own = (await v2DashboardsOf(t, w, app.applicationId, { token })).find(
      (d) => d.legacyDashboardId === copy.id,
    );
    t.observe(
      `template ${JSON.stringify(template.chartIds)} (v1 ${JSON.stringify(charts)}), copy ${JSON.stringify(own?.chartIds)} (v1 ${JSON.stringify(copy.chartIds)})`,
      JSON.stringify(template.chartIds) === JSON.stringify(charts) &&
        JSON.stringify(own?.chartIds) === JSON.stringify(copy.chartIds),
    );
  },
  {
    needs: [...CONTENT, 'migration'],
    parts: ['v1-dashboards', 'tenant-flow', 'v2'],
    relies: [...READ_BACK, ...TENANT_FIELDS, ...V2_KEY, 'migration.tenant-users'],
  },
);
