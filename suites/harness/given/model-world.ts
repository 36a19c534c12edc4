/**
 * What the model-based runs over dashboards share (suites/dashboards, suites/migration and
 * suites/v2, each model.test.ts): the host's content of one account made through the hooks and
 * mirrored in the pure dashboards machine, the binding of the target's ids to the model's, the
 * machine's command for each write, the v1 and v2 write calls, and a caller's list compared
 * with the model's. Each area keeps what it alone decides: its callers, what it aims at, which
 * writes rest on a decision its profile may not follow, and what else an entry of its list
 * shows. Only the model-based tests import this module (it runs the machines).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedStatus } from '../../../fixtures/oracles/index.ts';
import { CloneDashboardResponse } from '../../../spec/schemas/dashboard.ts';
import {
  applyDashboards,
  type Actor,
  type DashboardRecord,
  type DashboardsCommand,
  type DashboardsState,
  type WriteKind,
} from '../../../spec/machines/dashboards.ts';
import type { RolePermissions } from '../../../spec/schemas/permissions.ts';
import { states, type Conformance } from '../conformance.ts';
import type { Reply } from '../http.ts';
import type { Verdict } from '../model-run.ts';
import { APPEND, CLONE, REMOVE, dashboardPath, dashboardsPath } from '../paths.ts';
import type { World } from './accounts.ts';
import {
  createChart,
  createDashboard,
  createWorkspace,
  dashboardsOf as v1DashboardsOf,
  v1AddCharts,
  v1Create,
  v1Created,
  v1Post,
  type CreateSite,
  type Reader,
} from './dashboards.ts';
import {
  EDITOR,
  dashboardsOf as v2DashboardsOf,
  v2Delete,
  v2Post,
  writtenDashboard,
  type As,
  type WriteSite,
} from './v2.ts';

/** Who calls: the API key, or the account's k-th tenant or project user. */
export type Who = 'api' | number;

/** The i-th of the items, round and round; undefined when there are none. */
export const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

/** The a-th of the model's accounts, round and round. */
export const accountAt = <A>(m: { readonly accounts: readonly A[] }, a: number): A =>
  m.accounts[a % m.accounts.length] as A;

/** What the second tenant or user may hold: a single flag, view-only, read-only, or editing. */
export const SECOND_ROLES: readonly RolePermissions[] = [
  { addChart: true },
  { removeChart: true, canDuplicateDashboard: true },
  {},
  { ...EDITOR, readOnly: true },
  EDITOR,
];

/** The second roles of a run's two accounts: they differ from run to run and between the two. */
export const secondRolesOf = (run: number): readonly [RolePermissions, RolePermissions] => [
  SECOND_ROLES[run % SECOND_ROLES.length] ?? EDITOR,
  SECOND_ROLES[(run + 1) % SECOND_ROLES.length] ?? EDITOR,
];

/** One account's dashboards as the model holds them, and its ids bound to the target's. */
export interface Mirror {
  state: DashboardsState;
  /** Target id <-> model id, for dashboards and charts. */
  readonly toModel: Map<string, string>;
  readonly toReal: Map<string, string>;
}

/** What the model runs keep of the target: the test's handle, through which every call goes. */
export interface Real {
  readonly t: Conformance;
}

/** Which of our v1 decisions the profile follows: each gates the commands and reads on it. */
export interface V1Follows {
  /**
   * Tenants are registered and write and read through v1 (tenant-flow served,
   * tenants.register.field-names, dashboards.v1-writes.credentials).
   */
  readonly tenants: boolean;
  /** dashboards.v1-list.api-key-view: the API key's v1 list is compared. */
  readonly apiKeyView: boolean;
  /** dashboards.copy.chart-ids: a tenant's first edit of a shared dashboard. */
  readonly copyChartIds: boolean;
  /** dashboards.copy.clone-beside: a tenant's clone of a shared dashboard. */
  readonly cloneBeside: boolean;
  /** dashboards.append-charts-from.copies: any append. */
  readonly appendCopies: boolean;
}

export const v1FollowsOf = (t: Conformance): V1Follows => ({
  tenants:
    t.profile.serves.includes('tenant-flow') &&
    states(t, 'dashboards.v1-writes.credentials') &&
    states(t, 'tenants.register.field-names'),
  apiKeyView: states(t, 'dashboards.v1-list.api-key-view'),
  copyChartIds: states(t, 'dashboards.copy.chart-ids'),
  cloneBeside: states(t, 'dashboards.copy.clone-beside'),
  appendCopies: states(t, 'dashboards.append-charts-from.copies'),
});

/**
 * Whether a tenant's v1 write on a shared dashboard rests on a decision the profile does not
 * follow: its first edit makes the tenant's copy (dashboards.copy.chart-ids), and a clone may
 * stand in for that copy (dashboards.copy.clone-beside); a create names no dashboard.
 */
export function copyUnfollowed(f: V1Follows, kind: WriteKind): boolean {
  if (kind === 'clone') return !f.cloneBeside;
  if (kind === 'create') return false;
  return !f.copyChartIds;
}

/** Binds a target id to a model id; each stands for one of the other, once bound. */
export function bind(mirror: Mirror, real: string, model: string, what: string): void {
  const was = mirror.toModel.get(real);
  const had = mirror.toReal.get(model);
  expect(was ?? model, `${what}: target id ${real} stands for one model id`).toBe(model);
  expect(had ?? real, `${what}: model id ${model} stands for one target id`).toBe(real);
  mirror.toModel.set(real, model);
  mirror.toReal.set(model, real);
}

/** Moves the model on by a command it must accept. */
export function step(mirror: Mirror, command: DashboardsCommand): void {
  const applied = applyDashboards(mirror.state, command, Date.now());
  if (!applied.ok) throw new Error(`the model refused ${command.type}: ${applied.error.message}`);
  mirror.state = applied.state;
}

/**
 * The host's content of one account, made through the hooks and stepped into the model: a
 * workspace `Sales` of two shared dashboards, `Sales overview` with two charts and `Stock` with
 * one. With `bindIds`, the dashboards' and charts' ids are bound to themselves as they are made
 * (else the caller binds what survives its own next step, a migration). The workspace's id and
 * the charts' are returned.
 */
export async function sharedContent(
  t: Conformance,
  w: World,
  mirror: Mirror,
  bindIds: boolean,
): Promise<{ workspaceId: string; chartIds: string[] }> {
  const hook: Actor = { kind: 'api-key' };
  const ws = await createWorkspace(t, w, { name: 'Sales', dashboardName: 'Sales overview' });
  step(mirror, { type: 'createWorkspace', workspaceId: ws.workspaceId, name: 'Sales' });
  const stock = await createDashboard(t, w, ws.workspaceId, 'Stock');
  const chartIds: string[] = [];
  for (const [dashboardId, name, count] of [
    [ws.dashboardId, 'Sales overview', 2],
    [stock.dashboardId, 'Stock', 1],
  ] as const) {
    step(mirror, {
      type: 'createDashboard',
      dashboardId,
      workspaceId: ws.workspaceId,
      name,
      actor: hook,
      via: 'hook',
    });
    if (bindIds) bind(mirror, dashboardId, dashboardId, 'the content');
    for (let i = 0; i < count; i++) {
      const chartName = `${name} chart ${i}`;
      const { chartId } = await createChart(t, w, dashboardId, chartName);
      step(mirror, { type: 'createChart', chartId, name: chartName, config: {} });
      step(mirror, {
        type: 'addCharts',
        dashboardId,
        chartIds: [chartId],
        actor: hook,
        via: 'hook',
      });
      if (bindIds) bind(mirror, chartId, chartId, 'the content');
      chartIds.push(chartId);
    }
  }
  return { workspaceId: ws.workspaceId, chartIds };
}

/**
 * The chart a write names in the model: one on the target's layout for a removal, one not on
 * it for any other write, bound to a target id either way; '' where the write names no chart
 * and none is there, undefined where an add or a removal has none to name.
 */
export function chartOf(
  at: Mirror,
  kind: WriteKind,
  target: DashboardRecord,
  i: number,
): string | undefined {
  const bound = (c: string) => at.toReal.has(c);
  const chart =
    kind === 'removeCharts'
      ? pick(target.chartIds.filter(bound), i)
      : pick(
          Object.keys(at.state.charts).filter((c) => bound(c) && !target.chartIds.includes(c)),
          i,
        );
  if ((kind === 'addCharts' || kind === 'removeCharts') && chart === undefined) return undefined;
  return chart ?? '';
}

/** A write in one of two accounts by a caller: its kind, and which entry, chart and source. */
export interface WriteAim {
  readonly a: number;
  readonly who: Who;
  readonly kind: WriteKind;
  readonly entry: number;
  readonly chart: number;
  readonly source: number;
}

/** The writes a model run draws. */
export const WRITE_KINDS = fc.constantFrom<WriteKind>(
  'create',
  'clone',
  'addCharts',
  'appendCharts',
  'removeCharts',
);

/** The arbitraries of a write's aim, in this order, with `people` tenants or users. */
export const aimFields = (people: number) => ({
  a: fc.nat({ max: 1 }),
  who: fc.oneof(fc.constant<Who>('api'), fc.nat({ max: people - 1 })),
  kind: WRITE_KINDS,
  entry: fc.nat({ max: 7 }),
  chart: fc.nat({ max: 7 }),
  source: fc.nat({ max: 7 }),
});

/** The ids a write names, the model's or the target's: the workspace, target, source and chart. */
export interface WriteIds {
  readonly workspaceId: string;
  readonly target: string;
  readonly source: string;
  readonly chart: string;
}

/**
 * The machine's command for a write, given the id it is to issue (the new dashboard's, or the
 * append's batch). Only a v2 clone carries a name: §4.10's v1 clone takes none.
 */
export function writeCommand(
  kind: WriteKind,
  ids: WriteIds,
  name: string,
  actor: Actor,
  via: 'v1' | 'v2',
): (id: string) => DashboardsCommand {
  const { workspaceId, target, source, chart } = ids;
  return {
    create: (id: string): DashboardsCommand => ({
      type: 'createDashboard',
      dashboardId: id,
      workspaceId,
      name,
      actor,
      via,
    }),
    clone: (id: string): DashboardsCommand => ({
      type: 'clone',
      sourceDashboardId: target,
      newDashboardId: id,
      ...(via === 'v2' ? { name } : {}),
      actor,
      via,
    }),
    addCharts: (): DashboardsCommand => ({
      type: 'addCharts',
      dashboardId: target,
      chartIds: [chart],
      actor,
      via,
    }),
    appendCharts: (id: string): DashboardsCommand => ({
      type: 'appendCharts',
      sourceDashboardId: source,
      targetDashboardId: target,
      batchId: id,
      actor,
      via,
    }),
    removeCharts: (): DashboardsCommand => ({
      type: 'removeCharts',
      dashboardId: target,
      chartIds: [chart],
      actor,
      via,
    }),
  }[kind];
}

/** Moves the model on by a write the target carried out; a new dashboard's id binds to itself. */
export function recordWrite(
  mirror: Mirror,
  kind: WriteKind,
  command: (id: string) => DashboardsCommand,
  id: string,
  label: string,
): void {
  step(mirror, command(id));
  if (kind === 'create' || kind === 'clone') bind(mirror, id, id, label);
}

/** §7 codes whose status the document gives; any other refusal is a 4xx (its code decided). */
const DOCUMENTED = new Set([
  'MIGRATED_TO_V2',
  'SHARED_DASHBOARD_READ_ONLY',
  'PROJECT_USER_WITHOUT_ORGANIZATION',
]);

/** The model's refusal, judged by §7's table where it has the code. */
export function refusal(code: string, why: string): Verdict {
  return DOCUMENTED.has(code)
    ? { kind: 'refused', code, documented: documentedStatus(code), why }
    : { kind: 'refused', code, why };
}

/**
 * The status of an allowed v1 write: §4.10–§4.12 show 200; §4.16 shows no answer for the
 * create and the add-charts (any 2xx).
 */
export const v1Status = (kind: WriteKind): { status?: number } =>
  kind === 'create' || kind === 'addCharts' ? {} : { status: 200 };

/**
 * Sends a v1 write (§4.10–§4.12, §4.16) with the account's API key or a tenant's JWT. §4.16
 * shows no answer for the v1 create, so before an allowed one the caller's list is read: the
 * site then finds the new dashboard (`v1NewId`).
 */
export async function v1Write(
  t: Conformance,
  w: World,
  kind: WriteKind,
  secret: string,
  real: WriteIds,
  name: string,
  allowed: boolean,
): Promise<{ res: Reply; created?: CreateSite }> {
  switch (kind) {
    case 'create': {
      let created: CreateSite | undefined;
      if (allowed) {
        const as: Reader = secret === w.creds().apiKey ? { apiKey: secret } : { token: secret };
        const before = await v1DashboardsOf(t, w, real.workspaceId, as);
        created = { workspaceId: real.workspaceId, as, before };
      }
      const res = await v1Create(t, secret, real.workspaceId, name);
      return created === undefined ? { res } : { res, created };
    }
    case 'clone':
      return { res: await v1Post(t, CLONE, secret, { sourceDashboardId: real.target }) };
    case 'addCharts':
      return { res: await v1AddCharts(t, secret, real.target, [real.chart]) };
    case 'appendCharts':
      return {
        res: await v1Post(t, APPEND, secret, {
          sourceDashboardId: real.source,
          targetDashboardId: real.target,
        }),
      };
    case 'removeCharts':
      return {
        res: await v1Post(t, REMOVE, secret, { dashboardId: real.target, chartIds: [real.chart] }),
      };
  }
}

/**
 * The id of what an allowed v1 write made: the created dashboard (found through its site), the
 * clone (§4.10's answer), else a fresh id (an append's batch; unused by the other writes).
 */
export async function v1NewId(
  t: Conformance,
  w: World,
  res: Reply,
  kind: WriteKind,
  created: CreateSite | undefined,
  label: string,
): Promise<string> {
  let id: string = crypto.randomUUID();
  if (created !== undefined) id = await v1Created(t, w, res, created, label);
  if (kind === 'clone') {
    const parsed = CloneDashboardResponse.safeParse(res.body);
    if (!parsed.success) expect.fail(`${label}: no {dashboardId, name}: ${res.text}`);
    id = parsed.data.data.dashboardId;
  }
  return id;
}

/**
 * Sends a v2 write (§4.16) in an application. §4.16 shows no answer for the v2 create and
 * clone, so before an allowed one the caller's list is read: the site then finds the new
 * dashboard (`v2NewId`).
 */
export async function v2Write(
  t: Conformance,
  w: World,
  kind: WriteKind,
  applicationId: string,
  as: As,
  real: Omit<WriteIds, 'workspaceId'>,
  name: string,
  allowed: boolean,
): Promise<{ res: Reply; made?: WriteSite }> {
  const app = applicationId;
  const at = dashboardPath(app, real.target);
  const listed = () => v2DashboardsOf(t, w, app, as);
  switch (kind) {
    case 'create': {
      const made: WriteSite | undefined = allowed
        ? { call: 'v2.create', applicationId: app, as, before: await listed() }
        : undefined;
      const res = await v2Post(t, w, dashboardsPath(app), as, { name });
      return made === undefined ? { res } : { res, made };
    }
    case 'clone': {
      const made: WriteSite | undefined = allowed
        ? { call: 'v2.clone', applicationId: app, as, before: await listed() }
        : undefined;
      const res = await v2Post(t, w, `${at}/clone`, as, { name });
      return made === undefined ? { res } : { res, made };
    }
    case 'addCharts':
      return { res: await v2Post(t, w, `${at}/charts`, as, { charts: [real.chart] }) };
    case 'appendCharts':
      return {
        res: await v2Post(t, w, `${at}/append-charts`, as, { sourceDashboardId: real.source }),
      };
    case 'removeCharts':
      return { res: await v2Delete(t, w, `${at}/charts/${real.chart}`, as) };
  }
}

/** The id of what an allowed v2 write made: the new dashboard (through its site), else fresh. */
export async function v2NewId(
  t: Conformance,
  w: World,
  res: Reply,
  made: WriteSite | undefined,
  label: string,
): Promise<string> {
  return made === undefined
    ? crypto.randomUUID()
    : (await writtenDashboard(t, w, res, made, label)).id;
}

/** A list entry as the comparison reads it, whatever list it came from. */
export interface ShownEntry {
  readonly id: string;
  readonly name?: string | undefined;
  readonly chartIds?: readonly string[] | undefined;
}

/** How one area's list is compared beyond the ids, names and layouts. */
export interface ListReading<S extends ShownEntry> {
  /** The model id of an entry not bound yet that the entry itself names (§9 legacyDashboardId). */
  readonly known?: (s: S, left: ReadonlySet<string>) => string | undefined;
  /** What else the document fixes of one entry, checked after its name. */
  readonly entry: (s: S, d: DashboardRecord, label: string) => void;
  /** False: the layouts' chart ids are not compared, only how many charts each holds. */
  readonly chartIds: boolean;
}

/**
 * A caller's list is the model's: as many entries, each one the model lists, with its name
 * where shown and its layout; ids the target issued are bound on their first showing (at most
 * one dashboard is new to a list per step: it binds to the model's one new entry).
 */
export function expectListAsModel<S extends ShownEntry>(
  mirror: Mirror,
  shown: readonly S[],
  held: readonly DashboardRecord[],
  what: string,
  reading: ListReading<S>,
): void {
  expect(
    shown.length,
    `${what}: ${JSON.stringify(shown.map((s) => s.id))} vs the model's ${held.length}`,
  ).toBe(held.length);
  const left = new Set(held.map((d) => d.dashboardId));
  const pending: S[] = [];
  for (const s of shown) {
    let id = mirror.toModel.get(s.id);
    if (id === undefined) {
      const known = reading.known?.(s, left);
      if (known !== undefined) {
        bind(mirror, s.id, known, what);
        id = known;
      }
    }
    if (id === undefined) pending.push(s);
    else {
      expect(left.has(id), `${what}: shows ${s.id}, which the model does not list`).toBe(true);
      left.delete(id);
    }
  }
  expect(pending.length, `${what}: more than one new entry at once`).toBeLessThanOrEqual(1);
  const [fresh] = pending;
  if (fresh !== undefined) bind(mirror, fresh.id, [...left][0] ?? '', what);
  for (const s of shown) {
    const d = held.find((x) => x.dashboardId === mirror.toModel.get(s.id));
    if (d === undefined) continue;
    const label = `${what}: ${d.name}`;
    if (s.name !== undefined) expect(s.name, `${label}: name`).toBe(d.name);
    reading.entry(s, d, label);
    const charts = s.chartIds ?? [];
    expect(charts.length, `${label}: how many charts`).toBe(d.chartIds.length);
    if (!reading.chartIds) continue;
    d.chartIds.forEach((chart, i) => {
      bind(mirror, charts[i] ?? '', chart, `${label}: chart ${i}`);
    });
  }
}
