import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';
import type { SpecError } from '../../spec/errors.ts';
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
  applyMigration,
  BEFORE_FINALIZE,
  migratedWrite,
  type MigrationState,
} from '../../spec/machines/migration.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectClientError, expectError, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  createChart,
  createDashboard,
  createWorkspace,
  dashboardsOf as v1DashboardsOf,
  tenantToken,
  v1AddCharts,
  v1Create,
  v1Created,
  v1Post,
  type CreateSite,
} from '../harness/given/dashboards.ts';
import {
  API_KEY,
  V2_KEY,
  applicationsOf,
  dashboardsOf as v2DashboardsOf,
  finalize,
  v2Delete,
  v2Post,
  writtenDashboard,
  type WriteSite,
} from '../harness/given/v2.ts';
import { APPEND, CLONE, REMOVE, dashboardPath, dashboardsPath } from '../harness/paths.ts';

// Model-based (STYLE 7), like suites/identity/model.test.ts: random sequences of v1 writes by
// an API key and two tenants, the finalize, then v1 writes again (410) and v2 writes by the
// API key and the tenants' earlier JWTs (§5 rule 6), run against the target and, in step,
// against the pure machines of spec/machines (dashboards, migration), which are the oracle.
// After each step every caller's list must be what the model holds. Ids the target issues are
// bound to the model's as they first appear (by position in a layout, or as the one new entry
// of a list), so a target whose ids differ from the reference's can still be in step.

const TENANTS = 2;
const EDITOR: RolePermissions = {
  addDashboard: true,
  addChart: true,
  removeChart: true,
  canDuplicateDashboard: true,
};
/** What the second tenant may hold: editing, a single flag, view-only, read-only. */
const secondTenant = fc.constantFrom<RolePermissions>(
  EDITOR,
  { addChart: true },
  { removeChart: true, canDuplicateDashboard: true },
  {},
  { ...EDITOR, readOnly: true },
);

/** §7 codes the document gives a status; any other refusal is only a 4xx off the reference. */
const DOCUMENTED = new Set(['MIGRATED_TO_V2', 'SHARED_DASHBOARD_READ_ONLY']);

interface Model {
  state: DashboardsState;
  migration: MigrationState;
  /** The v1 workspace (model and target share its id) and, after finalize, its application. */
  readonly workspaceId: string;
  applicationId: string;
  readonly permissions: readonly RolePermissions[];
  /** Target id <-> model id, for dashboards and charts. */
  readonly toModel: Map<string, string>;
  readonly toReal: Map<string, string>;
  readonly decisions: boolean;
}

interface Real {
  readonly t: Conformance;
  readonly w: World;
  readonly tokens: readonly string[];
  applicationId: string;
}

/** Who calls: the API key, or tenant k (a project user after finalize). */
type Who = 'api' | number;

function actorOf(m: Model, who: Who): Actor {
  if (who === 'api') return { kind: 'api-key' };
  const permissions = m.permissions[who] ?? null;
  return m.migration.phase === 'before'
    ? { kind: 'tenant', tenantId: `tenant-${who}`, permissions }
    : {
        kind: 'project-user',
        userId: `user-${who}`,
        permissions,
        projectOrganizationId: `organization-${who}`,
      };
}

function bind(m: Model, real: string, model: string, what: string): void {
  const was = m.toModel.get(real);
  const had = m.toReal.get(model);
  expect(was ?? model, `${what}: target id ${real} stands for one model id`).toBe(model);
  expect(had ?? real, `${what}: model id ${model} stands for one target id`).toBe(real);
  m.toModel.set(real, model);
  m.toReal.set(model, real);
}

function apply(m: Model, command: DashboardsCommand) {
  return applyDashboards(m.state, command, Date.now());
}

function step(m: Model, command: DashboardsCommand): void {
  const applied = apply(m, command);
  if (!applied.ok) throw new Error(`the model refused ${command.type}: ${applied.error.message}`);
  m.state = applied.state;
}

/** The model's list for a caller: the v1 workspace before finalize, its application after. */
function modelList(m: Model, who: Who): DashboardRecord[] {
  const at = m.migration.phase === 'before' ? m.workspaceId : m.applicationId;
  return dashboardsFor(m.state, at, actorOf(m, who));
}

interface Shown {
  readonly id: string;
  readonly name: string | undefined;
  readonly own: boolean;
  readonly chartIds: readonly string[];
  readonly legacyDashboardId?: string | null;
}

async function realList(m: Model, real: Real, who: Who): Promise<Shown[]> {
  const { t, w } = real;
  const token = who === 'api' ? undefined : (real.tokens[who] ?? '');
  if (m.migration.phase === 'before') {
    const items = await v1DashboardsOf(
      t,
      w,
      m.workspaceId,
      token === undefined ? undefined : { token },
    );
    return items.map((d) => ({
      id: d.id,
      name: d.name,
      own: d.tenantId !== null,
      chartIds: d.chartIds,
    }));
  }
  const items = await v2DashboardsOf(
    t,
    w,
    real.applicationId,
    token === undefined ? API_KEY : { token },
  );
  return items.map((d) => ({
    id: d.id,
    name: d.name,
    own: d.kind === 'dashboard',
    chartIds: d.chartIds ?? [],
    legacyDashboardId: d.legacyDashboardId,
  }));
}

/** Every caller's list is the model's, binding ids the target issued on their first showing. */
async function expectInStep(m: Model, real: Real, after: string): Promise<void> {
  for (const who of ['api', ...Array.from({ length: TENANTS }, (_, k) => k)] as Who[]) {
    const what = `after ${after}, the list of ${who === 'api' ? 'the API key' : `tenant ${who}`}`;
    const shown = await realList(m, real, who);
    const held = modelList(m, who);
    expect(
      shown.length,
      `${what}: ${JSON.stringify(shown.map((s) => s.id))} vs the model's ${held.length}`,
    ).toBe(held.length);
    const left = new Set(held.map((d) => d.dashboardId));
    const pending: Shown[] = [];
    for (const s of shown) {
      let id = m.toModel.get(s.id);
      if (id === undefined && m.migration.phase === 'after' && s.legacyDashboardId) {
        // §9: a migrated dashboard keeps its v1 id as legacyDashboardId.
        const v1 = m.toModel.get(s.legacyDashboardId);
        const v2 = v1 === undefined ? undefined : m.migration.v2IdOf[v1];
        if (v2 !== undefined) {
          bind(m, s.id, v2, what);
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
    if (fresh !== undefined) bind(m, fresh.id, [...left][0] ?? '', what);
    for (const s of shown) {
      const d = held.find((x) => x.dashboardId === m.toModel.get(s.id));
      if (d === undefined) continue;
      const label = `${what}: ${d.name}`;
      if (s.name !== undefined) expect(s.name, `${label}: name`).toBe(d.name);
      expect(s.own, `${label}: the caller's own dashboard or a shared one`).toBe(!isShared(d));
      if (m.migration.phase === 'after' && s.legacyDashboardId !== undefined) {
        const legacy = m.migration.legacyIdOf[d.dashboardId];
        expect(s.legacyDashboardId ?? null, `${label}: legacyDashboardId`).toBe(
          legacy === undefined ? null : (m.toReal.get(legacy) ?? legacy),
        );
      }
      expect(s.chartIds.length, `${label}: how many charts`).toBe(d.chartIds.length);
      d.chartIds.forEach((chart, i) => bind(m, s.chartIds[i] ?? '', chart, `${label}: chart ${i}`));
    }
  }
}

/** Checks an answer against the model's verdict. */
function expectVerdict(
  m: Model,
  res: Reply,
  refused: SpecError | undefined,
  what: string,
  statusShown: boolean,
): void {
  if (refused === undefined) {
    // §4.10–§4.12 show 200; where the document shows no status (§4.16), any 2xx success.
    const ok = statusShown ? res.status === 200 : successStatus(res.status);
    expect(ok, `${what}: the model allows it: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
  } else if (DOCUMENTED.has(refused.code)) {
    expectError(res, documentedStatus(refused.code), what, refused.code);
  } else {
    const envelope = expectClientError(res, `${what} (the model: ${refused.code})`);
    if (m.decisions) expect(envelope.error.code, `${what}: the decided code`).toBe(refused.code);
  }
}

const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

const realOf = (m: Model, id: string) => m.toReal.get(id);

/** A write as the model sees it: which entry of the caller's list, which chart, which source. */
interface Aim {
  readonly who: Who;
  readonly kind: WriteKind;
  readonly entry: number;
  readonly chart: number;
  readonly source: number;
}

/** Resolves an aim against the model; undefined when it has nothing to aim at yet. */
function resolve(m: Model, aim: Aim) {
  const list = modelList(m, aim.who);
  const target = pick(list, aim.entry);
  const source = pick(list, aim.source);
  if (target === undefined || source === undefined) return undefined;
  const everyChart = Object.keys(m.state.charts).filter((c) => m.toReal.has(c));
  const chart =
    aim.kind === 'removeCharts'
      ? pick(
          target.chartIds.filter((c) => m.toReal.has(c)),
          aim.chart,
        )
      : pick(
          everyChart.filter((c) => !target.chartIds.includes(c)),
          aim.chart,
        );
  if ((aim.kind === 'addCharts' || aim.kind === 'removeCharts') && chart === undefined)
    return undefined;
  return { target, source, chart: chart ?? '' };
}

const secretOf = (real: Real, who: Who) =>
  who === 'api' ? real.w.creds().apiKey : (real.tokens[who] ?? '');

class V1Write implements fc.AsyncCommand<Model, Real> {
  constructor(readonly aim: Aim) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const { t } = real;
    const { who, kind } = this.aim;
    const aimed = resolve(m, this.aim);
    if (aimed === undefined) return;
    const { target, source, chart } = aimed;
    const secret = secretOf(real, who);
    const actor = actorOf(m, who);
    const realTarget = realOf(m, target.dashboardId) ?? target.dashboardId;
    const realSource = realOf(m, source.dashboardId) ?? source.dashboardId;
    const realChart = realOf(m, chart) ?? chart;
    const name = `Board ${Object.keys(m.state.dashboards).length}`;
    const what = this.toString();
    let res: Reply;
    let command: (newId: string) => DashboardsCommand;
    let created: CreateSite | undefined;
    switch (kind) {
      case 'create': {
        // §4.16 shows no answer for the v1 create: the caller's list before it finds the new one.
        const as = who === 'api' ? { apiKey: secret } : { token: secret };
        const before = await v1DashboardsOf(t, real.w, m.workspaceId, as);
        created = { workspaceId: m.workspaceId, as, before };
        res = await v1Create(t, secret, m.workspaceId, name);
        command = (id) => ({
          type: 'createDashboard',
          dashboardId: id,
          workspaceId: m.workspaceId,
          name,
          actor,
          via: 'v1',
        });
        break;
      }
      case 'clone':
        res = await v1Post(t, CLONE, secret, { sourceDashboardId: realTarget });
        command = (id) => ({
          type: 'clone',
          sourceDashboardId: target.dashboardId,
          newDashboardId: id,
          actor,
          via: 'v1',
        });
        break;
      case 'addCharts':
        res = await v1AddCharts(t, secret, realTarget, [realChart]);
        command = () => ({
          type: 'addCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via: 'v1',
        });
        break;
      case 'appendCharts':
        res = await v1Post(t, APPEND, secret, {
          sourceDashboardId: realSource,
          targetDashboardId: realTarget,
        });
        command = (id) => ({
          type: 'appendCharts',
          sourceDashboardId: source.dashboardId,
          targetDashboardId: target.dashboardId,
          batchId: id,
          actor,
          via: 'v1',
        });
        break;
      case 'removeCharts':
        res = await v1Post(t, REMOVE, secret, { dashboardId: realTarget, chartIds: [realChart] });
        command = () => ({
          type: 'removeCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via: 'v1',
        });
        break;
    }
    // §9: after finalize every v1 write is gone, whatever the model would say of it.
    const gone = migratedWrite(m.migration, kind, {
      workspaceId: m.workspaceId,
      dashboardId: target.dashboardId,
    });
    if (gone !== undefined) {
      expectVerdict(m, res, gone, what, !['create', 'addCharts'].includes(kind));
    } else {
      const trial = apply(m, command(crypto.randomUUID()));
      expectVerdict(
        m,
        res,
        trial.ok ? undefined : trial.error,
        what,
        !['create', 'addCharts'].includes(kind),
      );
      if (trial.ok) {
        // A new dashboard takes the target's id; anything else keeps the model's own.
        const id =
          created !== undefined
            ? await v1Created(t, real.w, res, created, what)
            : kind === 'clone'
              ? CloneDashboardResponse.shape.data.parse((res.body as { data?: unknown }).data)
                  .dashboardId
              : crypto.randomUUID();
        step(m, command(id));
        if (kind === 'create' || kind === 'clone') bind(m, id, id, what);
      }
    }
    await expectInStep(m, real, what);
  }
  toString = () =>
    `v1 ${this.aim.kind} by ${String(this.aim.who)} on entry#${this.aim.entry} chart#${this.aim.chart} source#${this.aim.source}`;
}

class V2Write implements fc.AsyncCommand<Model, Real> {
  constructor(readonly aim: Aim) {}
  check = (m: Readonly<Model>) => m.migration.phase === 'after';
  async run(m: Model, real: Real) {
    const { t, w } = real;
    const { who, kind } = this.aim;
    const aimed = resolve(m, this.aim);
    if (aimed === undefined) return;
    const { target, source, chart } = aimed;
    const as = who === 'api' ? API_KEY : { token: real.tokens[who] ?? '' };
    const actor = actorOf(m, who);
    const at = dashboardPath(real.applicationId, realOf(m, target.dashboardId) ?? '');
    const name = `Board ${Object.keys(m.state.dashboards).length}`;
    const what = this.toString();
    let res: Reply;
    let command: (newId: string) => DashboardsCommand;
    // §4.16 shows no answer for the v2 create and clone: the caller's list before them finds
    // the new dashboard.
    let made: WriteSite | undefined;
    const listed = () => v2DashboardsOf(t, w, real.applicationId, as);
    switch (kind) {
      case 'create':
        made = { call: 'v2.create', applicationId: real.applicationId, as, before: await listed() };
        res = await v2Post(t, w, dashboardsPath(real.applicationId), as, { name });
        command = (id) => ({
          type: 'createDashboard',
          dashboardId: id,
          workspaceId: m.applicationId,
          name,
          actor,
          via: 'v2',
        });
        break;
      case 'clone':
        made = { call: 'v2.clone', applicationId: real.applicationId, as, before: await listed() };
        res = await v2Post(t, w, `${at}/clone`, as, { name });
        command = (id) => ({
          type: 'clone',
          sourceDashboardId: target.dashboardId,
          newDashboardId: id,
          name,
          actor,
          via: 'v2',
        });
        break;
      case 'addCharts':
        res = await v2Post(t, w, `${at}/charts`, as, { charts: [realOf(m, chart) ?? ''] });
        command = () => ({
          type: 'addCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via: 'v2',
        });
        break;
      case 'appendCharts':
        res = await v2Post(t, w, `${at}/append-charts`, as, {
          sourceDashboardId: realOf(m, source.dashboardId) ?? '',
        });
        command = (id) => ({
          type: 'appendCharts',
          sourceDashboardId: source.dashboardId,
          targetDashboardId: target.dashboardId,
          batchId: id,
          actor,
          via: 'v2',
        });
        break;
      case 'removeCharts':
        res = await v2Delete(t, w, `${at}/charts/${realOf(m, chart) ?? ''}`, as);
        command = () => ({
          type: 'removeCharts',
          dashboardId: target.dashboardId,
          chartIds: [chart],
          actor,
          via: 'v2',
        });
        break;
    }
    const trial = apply(m, command(crypto.randomUUID()));
    expectVerdict(m, res, trial.ok ? undefined : trial.error, what, false);
    if (trial.ok) {
      const id =
        made === undefined
          ? crypto.randomUUID()
          : (await writtenDashboard(t, w, res, made, what)).id;
      step(m, command(id));
      if (kind === 'create' || kind === 'clone') bind(m, id, id, what);
    }
    await expectInStep(m, real, what);
  }
  toString = () =>
    `v2 ${this.aim.kind} by ${String(this.aim.who)} on entry#${this.aim.entry} chart#${this.aim.chart} source#${this.aim.source}`;
}

class Finalize implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.migration.phase === 'before';
  async run(m: Model, real: Real) {
    await finalize(real.t, real.w);
    const tenants = m.permissions.map((_, k) => ({
      tenantId: `tenant-${k}`,
      projectUserId: `user-${k}`,
    }));
    const done = applyMigration(
      m.migration,
      { type: 'finalize', dashboards: m.state, tenants },
      Date.now(),
    );
    if (!done.ok) throw new Error(`the model refused finalize: ${done.error.message}`);
    m.migration = done.result.migration;
    m.state = done.result.dashboards;
    if (m.migration.phase !== 'after') throw new Error('the model did not finalize');
    m.applicationId = m.migration.applicationOf[m.workspaceId] ?? '';
    const app = (await applicationsOf(real.t, real.w)).find(
      (a) => a.legacyWorkspaceId === m.workspaceId,
    );
    if (app === undefined) expect.fail('after finalize: no application for the v1 workspace');
    real.applicationId = app.applicationId;
    await expectInStep(m, real, 'finalize');
  }
  toString = () => 'hook: finalize';
}

const who: fc.Arbitrary<Who> = fc.oneof(fc.constant('api' as const), fc.nat({ max: TENANTS - 1 }));
const aim: fc.Arbitrary<Aim> = fc.record({
  who,
  kind: fc.constantFrom<WriteKind>('create', 'clone', 'addCharts', 'appendCharts', 'removeCharts'),
  entry: fc.nat({ max: 7 }),
  chart: fc.nat({ max: 7 }),
  source: fc.nat({ max: 7 }),
});
// Writes outnumber the one finalize, so that both phases see several steps.
const commands = [
  aim.map((a) => new V1Write(a)),
  aim.map((a) => new V1Write(a)),
  aim.map((a) => new V1Write(a)),
  aim.map((a) => new V2Write(a)),
  aim.map((a) => new V2Write(a)),
  fc.constant(new Finalize()),
];

/** The host's content, made through the hooks and mirrored in the model with the target's ids. */
async function content(t: Conformance, w: World, m: Omit<Model, 'workspaceId'>) {
  const ws = await createWorkspace(t, w, { name: 'Sales', dashboardName: 'Sales overview' });
  const hook: Actor = { kind: 'api-key' };
  const model = { ...m, workspaceId: ws.workspaceId } as Model;
  step(model, { type: 'createWorkspace', workspaceId: ws.workspaceId, name: 'Sales' });
  const boards: [string, string, number][] = [[ws.dashboardId, 'Sales overview', 2]];
  const stock = await createDashboard(t, w, ws.workspaceId, 'Stock');
  boards.push([stock.dashboardId, 'Stock', 1]);
  for (const [dashboardId, name, charts] of boards) {
    step(model, {
      type: 'createDashboard',
      dashboardId,
      workspaceId: ws.workspaceId,
      name,
      actor: hook,
      via: 'hook',
    });
    bind(model, dashboardId, dashboardId, 'content');
    for (let i = 0; i < charts; i++) {
      const chartName = `${name} chart ${i}`;
      const { chartId } = await createChart(t, w, dashboardId, chartName);
      step(model, { type: 'createChart', chartId, name: chartName, config: {} });
      step(model, {
        type: 'addCharts',
        dashboardId,
        chartIds: [chartId],
        actor: hook,
        via: 'hook',
      });
      bind(model, chartId, chartId, 'content');
    }
  }
  return model;
}

conformance(
  [
    'dashboards.clone.deep-copy',
    'dashboards.append-charts-from.effect',
    'dashboards.remove-charts.removes-from-layout',
    'permissions.editing.edits-go-to-own-copy',
    'dashboards.copy.one-entry',
    'migration.v1-write.410',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
    'errors.shared-dashboard-read-only',
    'auth.tenant-jwt.translated',
  ],
  'random sequences of v1 writes, the finalize and v2 writes keep the target in step with the dashboards and migration machines',
  async (t) => {
    await fc.assert(
      fc.asyncProperty(
        secondTenant,
        fc.commands(commands, { maxCommands: 16, size: '+1' }),
        async (second, cmds) => {
          const w = await buildWorld(t);
          const permissions = [EDITOR, second];
          const model = await content(t, w, {
            state: emptyDashboards(),
            migration: BEFORE_FINALIZE,
            applicationId: '',
            permissions,
            toModel: new Map(),
            toReal: new Map(),
            decisions: t.target.checkDecisions,
          });
          const tokens: string[] = [];
          for (const p of permissions)
            tokens.push(await tenantToken(t, w, p as Record<string, boolean>));
          const real: Real = { t, w, tokens, applicationId: '' };
          await expectInStep(model, real, 'building the world');
          await fc.asyncModelRun(() => ({ model, real }), cmds);
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
      'dashboards.v1-list.api-key-view',
      'dashboards.v1-add-charts.repeat',
      'migration.tenant-users',
      'migration.chart-ids-kept',
    ],
    timeout: 300_000,
  },
);
