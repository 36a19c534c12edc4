import { describe, expect, it } from 'vitest';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  resolveFor,
  writeRefusal,
  WRITE_FLAG,
  type Actor,
  type DashboardsCommand,
  type DashboardsState,
} from './dashboards.ts';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const W = '00000000-0000-4000-8000-0000000000a1';
const D = '00000000-0000-4000-8000-0000000000d1';
const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const CLONE = '00000000-0000-4000-8000-0000000000e1';

const key: Actor = { kind: 'api-key' };
const editor = (tenantId: string): Actor => ({
  kind: 'tenant',
  tenantId,
  permissions: { addChart: true, removeChart: true },
});
const user = (userId: string, permissions = { addChart: true }): Actor => ({
  kind: 'project-user',
  userId,
  permissions,
  projectOrganizationId: '00000000-0000-4000-8000-0000000000f1',
});

/** The clock moves a second per command, across calls, as a server's would. */
let tick = 0;

function run(state: DashboardsState, ...commands: DashboardsCommand[]): DashboardsState {
  let s = state;
  commands.forEach((c) => {
    const done = applyDashboards(s, c, NOW + (tick += 1000));
    if (!done.ok) throw new Error(`${c.type}: ${done.error.code} ${done.error.message}`);
    s = done.state;
  });
  return s;
}

/** One workspace, one shared dashboard holding charts C1 and C2. */
function world(): DashboardsState {
  return run(
    emptyDashboards(),
    { type: 'createWorkspace', workspaceId: W, name: 'Sales' },
    { type: 'createChart', chartId: C1, name: 'Revenue', config: { type: 'bar' } },
    { type: 'createChart', chartId: C2, name: 'Orders', config: { type: 'line' } },
    {
      type: 'createDashboard',
      dashboardId: D,
      workspaceId: W,
      name: 'Overview',
      chartIds: [C1, C2],
      actor: key,
      via: 'hook',
    },
  );
}

describe('dashboards machine', () => {
  it('makes the first shared dashboard the primary one of its workspace', () => {
    expect(world().workspaces[W]?.primaryDashboardId).toBe(D);
  });

  it('clones deeply: new chart ids, same configs, " (Copy)" name, source workspace', () => {
    const s = run(world(), {
      type: 'clone',
      sourceDashboardId: D,
      newDashboardId: CLONE,
      actor: key,
      via: 'v1',
    });
    const clone = s.dashboards[CLONE];
    expect(clone?.name).toBe('Overview (Copy)');
    expect(clone?.workspaceId).toBe(W);
    expect(clone?.chartIds).toHaveLength(2);
    expect(clone?.chartIds.filter((id) => id === C1 || id === C2)).toEqual([]);
    expect(clone?.chartIds.map((id) => s.charts[id]?.config)).toEqual([
      { type: 'bar' },
      { type: 'line' },
    ]);
    expect(s.dashboards[D]?.chartIds).toEqual([C1, C2]);
  });

  it("puts a tenant's v1 edit of a shared dashboard on the tenant's own copy", () => {
    const s = run(world(), {
      type: 'removeCharts',
      dashboardId: D,
      chartIds: [C1],
      actor: editor('t1'),
      via: 'v1',
    });
    expect(s.dashboards[D]?.chartIds, 'the shared dashboard never changes').toEqual([C1, C2]);
    const mine = resolveFor(s, D, editor('t1'));
    expect(mine?.dashboardId).not.toBe(D);
    expect(mine?.tenantId).toBe('t1');
    expect(mine?.chartIds).toEqual([C2]);
    expect(resolveFor(s, D, editor('t2'))?.chartIds, 'others see the shared one').toEqual([C1, C2]);
    expect(dashboardsFor(s, W, editor('t1')).map((d) => d.dashboardId)).toEqual([
      mine?.dashboardId,
    ]);
    expect(dashboardsFor(s, W, editor('t2')).map((d) => d.dashboardId)).toEqual([D]);
  });

  it('keeps editing the same copy: a second edit through the shared id lands on it', () => {
    const s = run(
      world(),
      { type: 'removeCharts', dashboardId: D, chartIds: [C1], actor: editor('t1'), via: 'v1' },
      { type: 'removeCharts', dashboardId: D, chartIds: [C2], actor: editor('t1'), via: 'v1' },
    );
    expect(resolveFor(s, D, editor('t1'))?.chartIds).toEqual([]);
    expect(Object.keys(s.dashboards)).toHaveLength(2);
  });

  it('refuses a project user editing a shared dashboard through v2, changing nothing', () => {
    const s = world();
    const done = applyDashboards(
      s,
      { type: 'addCharts', dashboardId: D, chartIds: [C1], actor: user('u1'), via: 'v2' },
      NOW,
    );
    expect(done.ok ? 'ok' : done.error.code).toBe('SHARED_DASHBOARD_READ_ONLY');
  });

  it('lists a user clone beside its source', () => {
    const s = run(world(), {
      type: 'clone',
      sourceDashboardId: D,
      newDashboardId: CLONE,
      actor: user('u1', { canDuplicateDashboard: true } as never),
      via: 'v2',
    });
    expect(dashboardsFor(s, W, user('u1')).map((d) => d.dashboardId)).toEqual([D, CLONE]);
    expect(dashboardsFor(s, W, user('u2')).map((d) => d.dashboardId)).toEqual([D]);
  });

  it('asks for the flag of each kind of write (§2.2)', () => {
    const only = (permissions: Record<string, boolean>): Actor => ({
      kind: 'tenant',
      tenantId: 't',
      permissions,
    });
    expect(writeRefusal(only({ addChart: true }), 'addCharts', 'v1')).toBeUndefined();
    expect(writeRefusal(only({ addChart: true }), 'appendCharts', 'v1')).toBeUndefined();
    expect(
      writeRefusal(only({ addChart: true, removeChart: false }), 'removeCharts', 'v1')?.details,
    ).toMatchObject({ permission: 'removeChart' });
    expect(writeRefusal(only({ editCharts: true }), 'create', 'v1')).toBeUndefined();
    expect(
      writeRefusal(only({ editCharts: true, addDashboard: false }), 'create', 'v1')?.code,
    ).toBe('FORBIDDEN');
    expect(writeRefusal(only({ addChart: true, readOnly: true }), 'addCharts', 'v1')?.code).toBe(
      'FORBIDDEN',
    );
    expect(writeRefusal(only({}), 'clone', 'v1')?.code).toBe('FORBIDDEN');
    expect(writeRefusal(key, 'clone', 'v1')).toBeUndefined();
    expect(
      writeRefusal(
        { ...(user('u') as Extract<Actor, { kind: 'project-user' }>), projectOrganizationId: null },
        'create',
        'v2',
      )?.code,
    ).toBe('PROJECT_USER_WITHOUT_ORGANIZATION');
  });

  it('refuses each write whose flag the role lacks (§2.2)', () => {
    const s = world();
    // A role that allows every write but the one under test.
    const without = (write: keyof typeof WRITE_FLAG): Actor => ({
      kind: 'tenant',
      tenantId: 't',
      permissions: {
        editCharts: true,
        addChart: true,
        removeChart: true,
        [WRITE_FLAG[write]]: false,
      },
    });
    const writes: DashboardsCommand[] = [
      {
        type: 'createDashboard',
        dashboardId: CLONE,
        workspaceId: W,
        name: 'x',
        actor: without('create'),
        via: 'v1',
      },
      {
        type: 'clone',
        sourceDashboardId: D,
        newDashboardId: CLONE,
        actor: without('clone'),
        via: 'v1',
      },
      { type: 'addCharts', dashboardId: D, chartIds: [C1], actor: without('addCharts'), via: 'v1' },
      {
        type: 'appendCharts',
        sourceDashboardId: D,
        targetDashboardId: D,
        batchId: CLONE,
        actor: without('appendCharts'),
        via: 'v1',
      },
      {
        type: 'removeCharts',
        dashboardId: D,
        chartIds: [C1],
        actor: without('removeCharts'),
        via: 'v1',
      },
    ];
    for (const command of writes) {
      const done = applyDashboards(s, command, NOW);
      expect(done.ok ? 'accepted' : done.error.code, command.type).toBe('FORBIDDEN');
    }
  });

  it('appends copies of the source charts to the end of the target', () => {
    const s = run(
      world(),
      {
        type: 'createDashboard',
        dashboardId: CLONE,
        workspaceId: W,
        name: 'Empty',
        actor: key,
        via: 'v1',
      },
      {
        type: 'appendCharts',
        sourceDashboardId: D,
        targetDashboardId: CLONE,
        batchId: 'b1',
        actor: key,
        via: 'v1',
      },
    );
    const appended = s.dashboards[CLONE]?.chartIds ?? [];
    expect(appended).toHaveLength(2);
    expect(appended).not.toContain(C1);
    expect(appended.map((id) => s.charts[id]?.name)).toEqual(['Revenue', 'Orders']);
  });

  it("hides another user's own dashboard", () => {
    const s = run(world(), {
      type: 'removeCharts',
      dashboardId: D,
      chartIds: [C1],
      actor: editor('t1'),
      via: 'v1',
    });
    const copyId = resolveFor(s, D, editor('t1'))?.dashboardId ?? '';
    expect(resolveFor(s, copyId, editor('t2'))).toBeUndefined();
    expect(resolveFor(s, copyId, key)).toBeUndefined();
  });

  it("puts a tenant's v1 create in the tenant's own space, listed for that tenant only", () => {
    const s = run(world(), {
      type: 'createDashboard',
      dashboardId: CLONE,
      workspaceId: W,
      name: 'Mine',
      actor: { kind: 'tenant', tenantId: 't1', permissions: { addDashboard: true } },
      via: 'v1',
    });
    expect(s.dashboards[CLONE]?.tenantId).toBe('t1');
    expect(s.workspaces[W]?.primaryDashboardId, 'the primary dashboard stays the shared one').toBe(
      D,
    );
    expect(dashboardsFor(s, W, editor('t1')).map((d) => d.dashboardId)).toEqual([D, CLONE]);
    expect(dashboardsFor(s, W, editor('t2')).map((d) => d.dashboardId)).toEqual([D]);
    expect(dashboardsFor(s, W, key).map((d) => d.dashboardId)).toEqual([D]);
  });

  it('places a chart already on the layout only once', () => {
    const s = run(world(), {
      type: 'addCharts',
      dashboardId: D,
      chartIds: [C2, C1, C2],
      actor: key,
      via: 'v1',
    });
    expect(s.dashboards[D]?.chartIds).toEqual([C1, C2]);
  });

  it('refuses an edit naming an unknown chart and keeps no copy behind', () => {
    const done = applyDashboards(
      world(),
      {
        type: 'addCharts',
        dashboardId: D,
        chartIds: ['00000000-0000-4000-8000-0000000000ff'],
        actor: editor('t1'),
        via: 'v1',
      },
      NOW,
    );
    expect(done.ok ? 'ok' : done.error.code).toBe('NOT_FOUND');
  });
});
