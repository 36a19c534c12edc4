import { describe, expect, it } from 'vitest';
import {
  applyDashboards,
  copyIdFor,
  dashboardsFor,
  emptyDashboards,
  indexByWorkspace,
  writeRefusal,
  type Actor,
  type DashboardsCommand,
  type DashboardsState,
} from './dashboards.ts';
import { derivedUuid } from './derived-id.ts';
import type { Table } from './table.ts';

/**
 * The exact answers of the dashboards machine: the codes and details of its refusals, the
 * results it reports, the order of its lists and the workspace index it keeps. Each test names
 * the decision (spec/clauses) or § it checks. Written against the survivors of a mutation run
 * (bench/results/mutation.json, issue 11 part 1).
 */
const T0 = Date.parse('2026-03-01T10:00:00Z');
const W = '00000000-0000-4000-8000-0000000000a1';
const W2 = '00000000-0000-4000-8000-0000000000a2';
const D = '00000000-0000-4000-8000-0000000000d1';
const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const C3 = '00000000-0000-4000-8000-0000000000c3';
const MISSING = '00000000-0000-4000-8000-0000000000ff';

const key: Actor = { kind: 'api-key' };
const tenant = (tenantId: string, permissions: Record<string, boolean> | null = {}): Actor => ({
  kind: 'tenant',
  tenantId,
  permissions: permissions === null ? null : { addChart: true, removeChart: true, ...permissions },
});
const projectUser = (
  userId: string,
  projectOrganizationId: string | null = '00000000-0000-4000-8000-0000000000f1',
): Actor => ({
  kind: 'project-user',
  userId,
  permissions: { addChart: true, addDashboard: true },
  projectOrganizationId,
});

let now = T0;

function attempt(state: DashboardsState, command: DashboardsCommand, at = (now += 1000)) {
  return applyDashboards(state, command, at);
}

function run(state: DashboardsState, ...commands: DashboardsCommand[]): DashboardsState {
  for (const c of commands) {
    const r = attempt(state, c);
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    state = r.state;
  }
  return state;
}

function errorOf(state: DashboardsState, command: DashboardsCommand) {
  const r = attempt(state, command);
  if (r.ok) throw new Error(`${command.type} was accepted`);
  return r.error;
}

const dashboard = (
  dashboardId: string,
  extra: Partial<Extract<DashboardsCommand, { type: 'createDashboard' }>> = {},
): DashboardsCommand => ({
  type: 'createDashboard',
  dashboardId,
  workspaceId: W,
  name: dashboardId,
  actor: key,
  via: 'hook',
  ...extra,
});

/** Workspace W, charts C1..C3, shared dashboard D holding C1 and C2. */
const world = () =>
  run(
    emptyDashboards(),
    { type: 'createWorkspace', workspaceId: W, name: 'Sales' },
    { type: 'createChart', chartId: C1, name: 'Revenue', config: { type: 'bar' } },
    { type: 'createChart', chartId: C2, name: 'Orders', config: { type: 'line' } },
    { type: 'createChart', chartId: C3, name: 'Stock', config: { type: 'pie' } },
    dashboard(D, { name: 'Overview', chartIds: [C1, C2] }),
  );

const ids = (list: readonly { dashboardId: string }[]) => list.map((d) => d.dashboardId);

describe('refusals: codes and details', () => {
  it('names the missing resource and the field that named it (NOT_FOUND)', () => {
    const s = world();
    const cases: [DashboardsCommand, Record<string, string>][] = [
      [dashboard('x', { workspaceId: W2 }), { resource: 'workspace', field: 'workspaceId' }],
      [dashboard('x', { chartIds: [C1, MISSING] }), { resource: 'chart', field: 'chartIds' }],
      [
        { type: 'clone', sourceDashboardId: MISSING, newDashboardId: 'x', actor: key, via: 'v1' },
        { resource: 'dashboard', field: 'sourceDashboardId' },
      ],
      [
        {
          type: 'clone',
          sourceDashboardId: D,
          newDashboardId: 'x',
          targetWorkspaceId: W2,
          actor: key,
          via: 'v1',
        },
        { resource: 'workspace', field: 'targetWorkspaceId' },
      ],
      [
        { type: 'removeCharts', dashboardId: MISSING, chartIds: [C1], actor: key, via: 'v1' },
        { resource: 'dashboard', field: 'dashboardId' },
      ],
      [
        { type: 'addCharts', dashboardId: D, chartIds: [MISSING], actor: key, via: 'v1' },
        { resource: 'chart', field: 'chartIds' },
      ],
      [
        {
          type: 'appendCharts',
          sourceDashboardId: MISSING,
          targetDashboardId: D,
          batchId: 'b',
          actor: key,
          via: 'v1',
        },
        { resource: 'dashboard', field: 'sourceDashboardId' },
      ],
    ];
    for (const [command, details] of cases) {
      const e = errorOf(s, command);
      expect({ code: e.code, details: e.details }, command.type).toStrictEqual({
        code: 'NOT_FOUND',
        details,
      });
    }
  });

  it('a v2 edit of a shared dashboard by a project user: 409 details name it and the remedy (§7)', () => {
    // errors.shared-dashboard-read-only: clone and edit the copy.
    const e = errorOf(world(), {
      type: 'addCharts',
      dashboardId: D,
      chartIds: [C3],
      actor: projectUser('u1'),
      via: 'v2',
    });
    expect(e.code).toBe('SHARED_DASHBOARD_READ_ONLY');
    expect(e.details).toStrictEqual({ dashboardId: D, remedy: 'clone' });
  });

  it('a refused write names the flag it lacked and the write (decision dashboards.write-refusal.status)', () => {
    const readOnly = writeRefusal(tenant('t', { readOnly: true }), 'addCharts', 'v1');
    expect(readOnly?.code).toBe('FORBIDDEN');
    expect(readOnly?.details).toStrictEqual({
      permission: 'readOnly',
      write: 'addCharts',
    });
    // §2.2: a role that grants no editing is view-only, whatever flag the write needs.
    for (const permissions of [null, { addChart: false, removeChart: false }]) {
      const refusal = writeRefusal(
        { kind: 'tenant', tenantId: 't', permissions },
        'removeCharts',
        'v1',
      );
      expect(refusal?.code).toBe('FORBIDDEN');
      expect(refusal?.details).toStrictEqual({
        permission: 'removeChart',
        write: 'removeCharts',
        reason: 'view-only',
      });
    }
  });

  it('refuses a project user without organization only through v2 (§2.4: no org, no v2 dashboards)', () => {
    const orphan = projectUser('u1', null);
    expect(writeRefusal(orphan, 'addCharts', 'v2')?.code).toBe('PROJECT_USER_WITHOUT_ORGANIZATION');
    expect(writeRefusal(orphan, 'addCharts', 'v1')).toBeUndefined();
    expect(writeRefusal(orphan, 'create', 'hook')).toBeUndefined();
  });
});

describe('creating dashboards (§4.16, §2.8)', () => {
  it('keeps the controls given, and none when none are given', () => {
    const control = { controlKey: 'region', field: 'region', label: 'Region' };
    const s = run(world(), dashboard('with', { controls: [control] }), dashboard('without'));
    expect(s.dashboards['with']?.controls).toEqual([control]);
    expect(s.dashboards['without']?.controls).toEqual([]);
  });

  it("keeps the workspace's first shared dashboard as its primary one (§2.8)", () => {
    const s = run(world(), dashboard('second'));
    expect(s.workspaces[W]?.primaryDashboardId).toBe(D);
    // A user's own dashboard never becomes primary, even in a workspace without one.
    const fresh = run(
      emptyDashboards(),
      { type: 'createWorkspace', workspaceId: W2, name: 'Empty' },
      dashboard('mine', {
        workspaceId: W2,
        actor: tenant('t1', { addDashboard: true }),
        via: 'v1',
      }),
    );
    expect(fresh.workspaces[W2]?.primaryDashboardId).toBeNull();
  });
});

describe('editing', () => {
  it("reports the shared dashboard a user's copy was made from, on that first v1 edit only", () => {
    const edit: DashboardsCommand = {
      type: 'removeCharts',
      dashboardId: D,
      chartIds: [C1],
      actor: tenant('t1'),
      via: 'v1',
    };
    const first = attempt(world(), edit);
    if (!first.ok) throw new Error(first.error.code);
    const copy = first.state.dashboards[copyIdFor(D, tenant('t1'))];
    expect(first.result).toStrictEqual({ kind: 'dashboard', dashboard: copy, copiedFrom: D });
    const second = attempt(first.state, { ...edit, chartIds: [C2] });
    expect(second.ok && second.result).toStrictEqual({
      kind: 'dashboard',
      dashboard: { ...copy, chartIds: [] },
    });
  });

  it('places a chart named twice in one call once (decision: never twice on a layout)', () => {
    const s = run(world(), {
      type: 'addCharts',
      dashboardId: D,
      chartIds: [C3, C3],
      actor: key,
      via: 'v1',
    });
    expect(s.dashboards[D]?.chartIds).toEqual([C1, C2, C3]);
  });

  it("a user's copy is found again by its id, derived from the shared dashboard and the owner", () => {
    // resolveFor recomputes the copy's id on every look-up, so the derivation is part of what
    // an account stores: changing it would orphan every copy made before.
    expect(copyIdFor(D, tenant('t1'))).toBe(derivedUuid('eac-user-copy', D, 'tenant:t1'));
    expect(copyIdFor(D, projectUser('t1'))).toBe(derivedUuid('eac-user-copy', D, 'user:t1'));
  });

  it('names copied charts in their own namespace of derived ids (derived-id.ts)', () => {
    const s = run(world(), {
      type: 'clone',
      sourceDashboardId: D,
      newDashboardId: 'n1',
      actor: key,
      via: 'v1',
    });
    expect(s.dashboards['n1']?.chartIds).toEqual([
      derivedUuid('eac-chart-copy', 'n1', 0, C1),
      derivedUuid('eac-chart-copy', 'n1', 1, C2),
    ]);
  });
});

describe('lists (§2.8)', () => {
  it('lists dashboards in creation order, whatever their ids', () => {
    const s = run(world(), dashboard('zz'), dashboard('aa'));
    expect(ids(dashboardsFor(s, W, key))).toEqual([D, 'zz', 'aa']);
  });

  it('lists dashboards created at the same instant by id', () => {
    let s = world();
    for (const id of ['m', 'c', 'x']) {
      const r = attempt(s, dashboard(id), T0 + 10_000_000);
      if (!r.ok) throw new Error(r.error.code);
      s = r.state;
    }
    expect(ids(dashboardsFor(s, W, key))).toEqual([D, 'c', 'm', 'x']);
  });
});

describe('the workspace index (DashboardsState.byWorkspace)', () => {
  const flat = (index: Table<Table<true>>) =>
    Object.fromEntries(Object.entries(index).map(([w, inner]) => [w, { ...inner }]));

  it('kept command by command, equals the one the migration builds in one go', () => {
    const s = run(
      world(),
      { type: 'createWorkspace', workspaceId: W2, name: 'Ops' },
      dashboard('d2', { workspaceId: W2 }),
      { type: 'removeCharts', dashboardId: D, chartIds: [C1], actor: tenant('t1'), via: 'v1' },
    );
    const expected = {
      [W]: { [D]: true, [copyIdFor(D, tenant('t1'))]: true },
      [W2]: { d2: true },
    };
    expect(flat(s.byWorkspace)).toStrictEqual(expected);
    expect(flat(indexByWorkspace(s.dashboards))).toStrictEqual(expected);
  });

  it('is left as it was (shared, not rebuilt) by an edit of an indexed dashboard', () => {
    const s = world();
    const after = run(s, {
      type: 'addCharts',
      dashboardId: D,
      chartIds: [C3],
      actor: key,
      via: 'v1',
    });
    expect(after.byWorkspace).toBe(s.byWorkspace);
  });
});
