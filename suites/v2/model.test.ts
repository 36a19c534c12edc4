import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  isShared,
  type Actor,
  type DashboardRecord,
  type DashboardsCommand,
  type DashboardsState,
  type WriteKind,
} from '../../spec/machines/dashboards.ts';
import {
  BEFORE_FINALIZE,
  applyMigration,
  type MigrationState,
} from '../../spec/machines/migration.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import {
  CONTENT,
  READ_BACK,
  createChart,
  createDashboard,
  createWorkspace,
} from '../harness/given/dashboards.ts';
import {
  API_KEY,
  EDITOR,
  V2_KEY,
  applicationsOf,
  dashboardsOf,
  finalize,
  lookUpPath,
  projectUser,
  v2Delete,
  v2Get,
  v2Post,
  writtenDashboard,
  type As,
  type WriteSite,
} from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import {
  budgetLine,
  modelRuns,
  type Budget,
  type ModelCommand,
  type Verdict,
} from '../harness/model-run.ts';
import { dashboardPath, dashboardsPath } from '../harness/paths.ts';

// Model-based (STYLE 7, issue 34) on the shared runner: random v2 writes and look-ups in a
// world of two migrated accounts, each with an application of two templates (v1 dashboards
// the host made, then the migration hook) and three project users: an editor, one of a few
// lesser roles, and an editor with no project organization. The oracle is the pure dashboards
// and migration machines of spec/machines. After each command every caller's list (the API
// key and the two users with an organization, in both accounts) must be what the model holds;
// ids the target issues are bound to the model's as they first appear (by legacyDashboardId,
// by position in a layout, or as the one new entry of a list), as in the migration model.
// A call naming the other account's application or dashboard is drawn where the profile
// follows v2.refusals.not-found (a refusal); a look-up where the profile states its path.

const BUDGET: Budget = { runs: 3, commands: 14 };
const USERS = 3;
/** What the second user may hold: a single flag, view-only, read-only, or editing. */
const SECOND_ROLES: readonly RolePermissions[] = [
  { addChart: true },
  { removeChart: true, canDuplicateDashboard: true },
  {},
  { ...EDITOR, readOnly: true },
  EDITOR,
];
/** §7 codes whose status the document gives. */
const DOCUMENTED = new Set([
  'SHARED_DASHBOARD_READ_ONLY',
  'PROJECT_USER_WITHOUT_ORGANIZATION',
  'MIGRATED_TO_V2',
]);

interface User {
  readonly userId: string;
  readonly token: string;
  readonly permissions: RolePermissions | null;
  readonly organized: boolean;
}

interface Account {
  readonly w: World;
  state: DashboardsState;
  migration: MigrationState;
  /** The application: the model's id and the target's. */
  readonly applicationId: string;
  readonly realApplicationId: string;
  readonly users: readonly User[];
  /** Target id <-> model id, for dashboards and charts. */
  readonly toModel: Map<string, string>;
  readonly toReal: Map<string, string>;
  /** The v1 ids of the templates (§9: kept as legacyDashboardId), model v2 id -> v1 id. */
  readonly legacy: Map<string, string>;
}

interface Model {
  readonly accounts: readonly Account[];
  readonly decisions: boolean;
  /** The profile follows v2.refusals.not-found: calls at the other account are refused. */
  readonly foreignRefused: boolean;
  /** The profile states the look-up's path. */
  readonly lookUp: boolean;
}

interface Real {
  readonly t: Conformance;
}

type Who = 'api' | number;
type Cmd = ModelCommand<Model, Real>;
const accountAt = (m: Model, a: number) => m.accounts[a % m.accounts.length] as Account;
const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

function actorOf(acct: Account, who: Who): Actor {
  if (who === 'api') return { kind: 'api-key' };
  const user = acct.users[who % USERS] as User;
  return {
    kind: 'project-user',
    userId: user.userId,
    permissions: user.permissions,
    projectOrganizationId: user.organized ? `organization of ${user.userId}` : null,
  };
}

const asOf = (acct: Account, who: Who): As =>
  who === 'api' ? API_KEY : { token: (acct.users[who % USERS] as User).token };

function bind(acct: Account, real: string, model: string, what: string): void {
  const was = acct.toModel.get(real);
  const had = acct.toReal.get(model);
  expect(was ?? model, `${what}: target id ${real} stands for one model id`).toBe(model);
  expect(had ?? real, `${what}: model id ${model} stands for one target id`).toBe(real);
  acct.toModel.set(real, model);
  acct.toReal.set(model, real);
}

function step(acct: Account, command: DashboardsCommand): void {
  const applied = applyDashboards(acct.state, command, Date.now());
  if (!applied.ok) throw new Error(`the model refused ${command.type}: ${applied.error.message}`);
  acct.state = applied.state;
}

const modelList = (acct: Account, who: Who): DashboardRecord[] =>
  dashboardsFor(acct.state, acct.applicationId, actorOf(acct, who));

/** A caller's list as the model holds it, binding ids the target issued on their first showing. */
async function expectListInStep(t: Conformance, acct: Account, who: Who, after: string) {
  const what = `after ${after}, the list of ${who === 'api' ? 'the API key' : `user ${who}`} in ${acct.w.account.organizationId}`;
  const shown = await dashboardsOf(t, acct.w, acct.realApplicationId, asOf(acct, who));
  const held = modelList(acct, who);
  expect(
    shown.length,
    `${what}: ${JSON.stringify(shown.map((s) => s.id))} vs the model's ${held.length}`,
  ).toBe(held.length);
  const left = new Set(held.map((d) => d.dashboardId));
  const pending: typeof shown = [];
  for (const s of shown) {
    let id = acct.toModel.get(s.id);
    if (id === undefined && s.legacyDashboardId) {
      // §9: a migrated dashboard keeps its v1 id as legacyDashboardId.
      const v2 = [...acct.legacy.entries()].find(([, v1]) => v1 === s.legacyDashboardId)?.[0];
      if (v2 !== undefined && left.has(v2)) {
        bind(acct, s.id, v2, what);
        id = v2;
      }
    }
    if (id === undefined) pending.push(s);
    else {
      expect(left.has(id), `${what}: shows ${s.id}, which the model does not list`).toBe(true);
      left.delete(id);
    }
  }
  // At most one dashboard is new to a list per step: bind it to the model's one new entry.
  expect(pending.length, `${what}: more than one new entry at once`).toBeLessThanOrEqual(1);
  const [fresh] = pending;
  if (fresh !== undefined) bind(acct, fresh.id, [...left][0] ?? '', what);
  for (const s of shown) {
    const d = held.find((x) => x.dashboardId === acct.toModel.get(s.id));
    if (d === undefined) continue;
    const label = `${what}: ${d.name}`;
    if (s.name !== undefined) expect(s.name, `${label}: name`).toBe(d.name);
    // §2.8: 'template' for a shared dashboard, 'dashboard' for one in a user's space.
    expect(s.kind, `${label}: kind`).toBe(isShared(d) ? 'template' : 'dashboard');
    expect(s.legacyDashboardId ?? null, `${label}: legacyDashboardId`).toBe(
      acct.legacy.get(d.dashboardId) ?? null,
    );
    const charts = s.chartIds ?? [];
    expect(charts.length, `${label}: how many charts`).toBe(d.chartIds.length);
    d.chartIds.forEach((chart, i) => {
      bind(acct, charts[i] ?? '', chart, `${label}: chart ${i}`);
    });
  }
}

/** Judges a refusal's code by the document's table where it has the code (§7). */
function refusal(code: string, why: string): Verdict {
  return DOCUMENTED.has(code)
    ? { kind: 'refused', code, documented: documentedStatus(code), why }
    : { kind: 'refused', code, why };
}

interface Aim {
  readonly a: number;
  readonly who: Who;
  readonly kind: WriteKind;
  readonly entry: number;
  readonly chart: number;
  readonly source: number;
  /** The call names the other account's application (and its dashboard). */
  readonly foreign: boolean;
}

/** What a write aims at in the model; undefined when the model has nothing to aim at. */
function resolve(m: Model, aim: Aim) {
  const acct = accountAt(m, aim.a);
  const at = aim.foreign ? accountAt(m, aim.a + 1) : acct;
  const list = modelList(at, aim.foreign ? 'api' : aim.who);
  const target = pick(list, aim.entry);
  const source = pick(list, aim.source);
  if (target === undefined || source === undefined) return undefined;
  const bound = (c: string) => at.toReal.has(c);
  const chart =
    aim.kind === 'removeCharts'
      ? pick(target.chartIds.filter(bound), aim.chart)
      : pick(
          Object.keys(at.state.charts).filter((c) => bound(c) && !target.chartIds.includes(c)),
          aim.chart,
        );
  if ((aim.kind === 'addCharts' || aim.kind === 'removeCharts') && chart === undefined)
    return undefined;
  if (!at.toReal.has(target.dashboardId) || !at.toReal.has(source.dashboardId)) return undefined;
  return { acct, at, target, source, chart: chart ?? '' };
}

const writeCmd = (aim: Aim): Cmd => {
  let made: WriteSite | undefined;
  let command: ((id: string) => DashboardsCommand) | undefined;
  /** Whether the model allows the write: only then is the caller's list read before it. */
  let allowed = false;
  const name = `Board ${aim.a}.${aim.entry}.${aim.source}`;
  const label = `v2 ${aim.kind} in account#${aim.a} by ${String(aim.who)}${aim.foreign ? " at the other account's application" : ''} on entry#${aim.entry} chart#${aim.chart} source#${aim.source}`;
  return {
    kind: 'call',
    label,
    pre: (m) => resolve(m, aim) !== undefined && (!aim.foreign || m.foreignRefused),
    verdict: (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, target, source, chart } = aimed;
      made = undefined;
      allowed = false;
      const why = "the other account's application (v2.refusals.not-found)";
      // A user with no organization may be refused for that first (v2.no-organization.calls).
      if (aim.foreign)
        return aim.who !== 'api' && !(acct.users[aim.who % USERS] as User).organized
          ? { kind: 'refused', why }
          : { kind: 'refused', code: 'NOT_FOUND', why };
      const actor = actorOf(acct, aim.who);
      const via = 'v2' as const;
      command = {
        create: (id: string): DashboardsCommand => ({
          type: 'createDashboard',
          dashboardId: id,
          workspaceId: acct.applicationId,
          name,
          actor,
          via,
        }),
        clone: (id: string): DashboardsCommand => ({
          type: 'clone',
          sourceDashboardId: target.dashboardId,
          newDashboardId: id,
          name,
          actor,
          via,
        }),
        addCharts: (): DashboardsCommand => ({
          type: 'addCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via,
        }),
        appendCharts: (id: string): DashboardsCommand => ({
          type: 'appendCharts',
          sourceDashboardId: source.dashboardId,
          targetDashboardId: target.dashboardId,
          batchId: id,
          actor,
          via,
        }),
        removeCharts: (): DashboardsCommand => ({
          type: 'removeCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via,
        }),
      }[aim.kind];
      const trial = applyDashboards(acct.state, command(crypto.randomUUID()), Date.now());
      if (!trial.ok) {
        const why = `${trial.error.code}: ${trial.error.message}`;
        // A user with no organization editing a template meets §7's 403 and its 409 at once:
        // which answers is open (v2.no-organization.calls), so then only a 4xx is expected.
        const both =
          actor.kind === 'project-user' &&
          actor.projectOrganizationId === null &&
          !['create', 'clone'].includes(aim.kind) &&
          isShared(target) &&
          !states(t, 'v2.no-organization.calls');
        return both ? { kind: 'refused', why } : refusal(trial.error.code, why);
      }
      allowed = true;
      return {
        kind: 'allowed',
        then: async (res: Reply) => {
          const id =
            made === undefined
              ? crypto.randomUUID()
              : (await writtenDashboard(t, acct.w, res, made, label)).id;
          if (command === undefined) throw new Error('unreachable: set by the verdict');
          step(acct, command(id));
          if (aim.kind === 'create' || aim.kind === 'clone') bind(acct, id, id, label);
        },
      };
    },
    call: async (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, at, target, source, chart } = aimed;
      const as = asOf(acct, aim.who);
      const app = at.realApplicationId;
      const path = dashboardPath(app, at.toReal.get(target.dashboardId) ?? '');
      const listed = () => dashboardsOf(t, acct.w, app, as);
      switch (aim.kind) {
        case 'create':
          if (allowed) made = { call: 'v2.create', applicationId: app, as, before: await listed() };
          return v2Post(t, acct.w, dashboardsPath(app), as, { name });
        case 'clone':
          if (allowed) made = { call: 'v2.clone', applicationId: app, as, before: await listed() };
          return v2Post(t, acct.w, `${path}/clone`, as, { name });
        case 'addCharts':
          return v2Post(t, acct.w, `${path}/charts`, as, { charts: [at.toReal.get(chart) ?? ''] });
        case 'appendCharts':
          return v2Post(t, acct.w, `${path}/append-charts`, as, {
            sourceDashboardId: at.toReal.get(source.dashboardId) ?? '',
          });
        case 'removeCharts':
          return v2Delete(t, acct.w, `${path}/charts/${at.toReal.get(chart) ?? ''}`, as);
      }
    },
  };
};

const Found = z.object({ applicationId: z.string(), dashboardId: z.string() });

/** §4.16 last row: a look-up turns a v1 or v2 id into the application and the v2 id. */
const lookUpCmd = (a: number, entry: number, legacy: boolean, foreign: boolean): Cmd => {
  const aimed = (m: Model) => {
    const acct = accountAt(m, a);
    const at = foreign ? accountAt(m, a + 1) : acct;
    const d = pick(modelList(at, 'api'), entry);
    if (d === undefined || !at.toReal.has(d.dashboardId)) return undefined;
    const v1 = at.legacy.get(d.dashboardId);
    if (legacy && v1 === undefined) return undefined;
    return { acct, at, d, id: legacy ? (v1 ?? '') : (at.toReal.get(d.dashboardId) ?? '') };
  };
  return {
    kind: 'call',
    label: `look up ${foreign ? "the other account's " : ''}${legacy ? 'v1' : 'v2'} id of entry#${entry} with account#${a}'s key`,
    pre: (m) => m.lookUp && aimed(m) !== undefined && (!foreign || m.foreignRefused),
    verdict: (m) => {
      const { at, d } = aimed(m) ?? { at: undefined, d: undefined };
      if (foreign)
        return {
          kind: 'refused',
          code: 'NOT_FOUND',
          why: "the other account's dashboard (v2.refusals.not-found)",
        };
      return {
        kind: 'allowed',
        then: (res) => {
          const found = Found.safeParse((res.body as { data?: unknown } | undefined)?.data);
          if (!found.success)
            expect.fail(
              `the look-up answer has no {applicationId, dashboardId}: ${res.text.slice(0, 300)}`,
            );
          expect(found.data, 'the look-up names the application and the v2 id').toEqual({
            applicationId: at?.realApplicationId,
            dashboardId: at?.toReal.get(d?.dashboardId ?? ''),
          });
        },
      };
    },
    call: (m, { t }) => {
      const { acct, id } = aimed(m) ?? { acct: accountAt(m, a), id: '' };
      return v2Get(t, acct.w, lookUpPath(t, id) ?? '', API_KEY);
    },
  };
};

/** One migrated account, its content mirrored in the model, with three project users. */
async function accountWorld(t: Conformance, second: RolePermissions): Promise<Account> {
  const w = await buildWorld(t);
  let state = emptyDashboards();
  const hook: Actor = { kind: 'api-key' };
  const apply = (c: DashboardsCommand) => {
    const applied = applyDashboards(state, c, Date.now());
    if (!applied.ok) throw new Error(`the model refused ${c.type}: ${applied.error.message}`);
    state = applied.state;
  };
  const ws = await createWorkspace(t, w, { name: 'Sales', dashboardName: 'Sales overview' });
  apply({ type: 'createWorkspace', workspaceId: ws.workspaceId, name: 'Sales' });
  const stock = await createDashboard(t, w, ws.workspaceId, 'Stock');
  const charts = new Set<string>();
  for (const [dashboardId, name, count] of [
    [ws.dashboardId, 'Sales overview', 2],
    [stock.dashboardId, 'Stock', 1],
  ] as const) {
    apply({
      type: 'createDashboard',
      dashboardId,
      workspaceId: ws.workspaceId,
      name,
      actor: hook,
      via: 'hook',
    });
    for (let i = 0; i < count; i++) {
      const chartName = `${name} chart ${i}`;
      const { chartId } = await createChart(t, w, dashboardId, chartName);
      apply({ type: 'createChart', chartId, name: chartName, config: {} });
      apply({ type: 'addCharts', dashboardId, chartIds: [chartId], actor: hook, via: 'hook' });
      charts.add(chartId);
    }
  }
  await finalize(t, w);
  const done = applyMigration(
    BEFORE_FINALIZE,
    { type: 'finalize', dashboards: state, tenants: [] },
    Date.now(),
  );
  if (!done.ok || done.result.migration.phase !== 'after')
    throw new Error('the model did not finalize');
  const migration = done.result.migration;
  const app = (await applicationsOf(t, w)).find((x) => x.legacyWorkspaceId === ws.workspaceId);
  if (app === undefined) expect.fail('after finalize: no application for the v1 workspace');
  const users: User[] = [];
  for (const [k, permissions] of [EDITOR, second, EDITOR].entries()) {
    const organized = k < 2;
    const { userId, token } = await projectUser(t, w, permissions, organized);
    users.push({ userId, token, permissions, organized });
  }
  const acct: Account = {
    w,
    state: done.result.dashboards,
    migration,
    applicationId: migration.applicationOf[ws.workspaceId] ?? '',
    realApplicationId: app.applicationId,
    users,
    toModel: new Map(),
    toReal: new Map(),
    legacy: new Map(Object.entries(migration.legacyIdOf)),
  };
  // Chart ids are kept by the migration (migration.chart-ids-kept).
  for (const id of charts) bind(acct, id, id, 'the migrated charts');
  return acct;
}

const aim: fc.Arbitrary<Aim> = fc.record({
  a: fc.nat({ max: 1 }),
  who: fc.oneof(fc.constant<Who>('api'), fc.nat({ max: USERS - 1 })),
  kind: fc.constantFrom<WriteKind>('create', 'clone', 'addCharts', 'appendCharts', 'removeCharts'),
  entry: fc.nat({ max: 7 }),
  chart: fc.nat({ max: 7 }),
  source: fc.nat({ max: 7 }),
  foreign: fc.nat({ max: 7 }).map((n) => n === 0),
});

conformance(
  [
    'v2.dashboards.create.path',
    'v2.dashboards.clone.path',
    'v2.dashboards.add-charts.path',
    'v2.dashboards.remove-chart.path',
    'v2.dashboards.append-charts.path',
    'v2.dashboards.lookup',
    'v2.dashboard.kind-template',
    'v2.dashboard.kind-dashboard',
    'dashboards.clone.deep-copy',
    'permissions.editing.edits-go-to-own-copy',
    'dashboards.copy.one-entry',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
    'errors.shared-dashboard-read-only',
    'errors.user-without-organization',
  ],
  `model runs over v2 dashboards, copies and look-ups in two migrated accounts (${budgetLine('v2', BUDGET)})`,
  async (t) => {
    let run = 0;
    await modelRuns<Model, Real>(t, {
      area: 'v2',
      budget: BUDGET,
      commands: [
        aim.map(writeCmd),
        aim.map(writeCmd),
        aim.map(writeCmd),
        fc
          .tuple(fc.nat({ max: 1 }), fc.nat({ max: 7 }), fc.boolean(), fc.nat({ max: 5 }))
          .map(([a, e, l, f]) => lookUpCmd(a, e, l, f === 0)),
      ],
      world: async () => {
        // The second user's role differs from run to run (and between the two accounts).
        run += 1;
        const accounts = [
          await accountWorld(t, SECOND_ROLES[run % SECOND_ROLES.length] ?? EDITOR),
          await accountWorld(t, SECOND_ROLES[(run + 1) % SECOND_ROLES.length] ?? EDITOR),
        ];
        return {
          model: {
            accounts,
            decisions: t.target.checkDecisions,
            foreignRefused: states(t, 'v2.refusals.not-found'),
            lookUp: states(t, 'v2.dashboards.lookup-path'),
          },
          real: { t },
        };
      },
      inStep: async (m, { t }, after) => {
        for (const acct of m.accounts)
          for (const who of ['api', 0, 1] as Who[]) await expectListInStep(t, acct, who, after);
      },
    });
  },
  {
    id: 'model-runs',
    needs: [...CONTENT, 'roles', 'migration'],
    parts: ['v2', 'v1-dashboards', 'identity'],
    relies: [
      ...READ_BACK,
      ...V2_KEY,
      'dashboards.copy.chart-ids',
      'dashboards.copy.clone-beside',
      'dashboards.append-charts-from.copies',
      'migration.chart-ids-kept',
    ],
    timeout: 180_000,
  },
);
