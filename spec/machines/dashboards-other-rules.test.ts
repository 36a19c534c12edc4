import { describe, expect, it } from 'vitest';
import {
  DECIDED,
  applyDashboards,
  connectionRefusal,
  copyIdFor,
  dashboardsFor,
  emptyDashboards,
  noOrganizationRefusal,
  tenantWritePermissions,
  type Actor,
  type DashboardRules,
  type DashboardsCommand,
  type DashboardsState,
} from './dashboards.ts';
import { BEFORE_FINALIZE, applicationsListRefusal } from './migration.ts';

/**
 * The dashboards machine under the other choices a server may make where the document leaves a
 * rule open (DashboardRules; the reference takes them through reference/settings.ts), each
 * beside the decision it departs from.
 */
const T0 = Date.parse('2026-03-01T10:00:00Z');
const W = '00000000-0000-4000-8000-0000000000a1';
const D = '00000000-0000-4000-8000-0000000000d1';
const C1 = '00000000-0000-4000-8000-0000000000c1';
const C2 = '00000000-0000-4000-8000-0000000000c2';
const C3 = '00000000-0000-4000-8000-0000000000c3';
const key: Actor = { kind: 'api-key' };

function run(state: DashboardsState, ...commands: DashboardsCommand[]): DashboardsState {
  let s = state;
  for (const c of commands) {
    const r = applyDashboards(s, c, T0);
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code}`);
    s = r.state;
  }
  return s;
}

const world = (rules: DashboardRules) =>
  run(
    emptyDashboards(undefined, rules),
    { type: 'createWorkspace', workspaceId: W, name: 'Sales' },
    { type: 'createChart', chartId: C1, name: 'Revenue', config: {} },
    { type: 'createChart', chartId: C2, name: 'Orders', config: {} },
    { type: 'createChart', chartId: C3, name: 'Stock', config: {} },
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

const STRICT: DashboardRules = {
  ...DECIDED,
  unknownChartRemoval: 'refuse',
  repeatedChart: 'refuse',
};

const remove = (chartIds: string[], via: 'v1' | 'v2' = 'v1'): DashboardsCommand => ({
  type: 'removeCharts',
  dashboardId: D,
  chartIds,
  actor: key,
  via,
});
const add = (chartIds: string[], via: 'v1' | 'v2' = 'v1'): DashboardsCommand => ({
  type: 'addCharts',
  dashboardId: D,
  chartIds,
  actor: key,
  via,
});
const layout = (s: DashboardsState) => s.dashboards[D]?.chartIds;

describe('dashboards.layout-strict', () => {
  it('skips what it cannot do by default (the decisions)', () => {
    const s = world(DECIDED);
    expect(layout(run(s, remove([C1, C3])))).toEqual([C2]);
    expect(layout(run(s, add([C1, C3])))).toEqual([C1, C2, C3]);
  });

  it('refuses a v1 removal naming a chart not on the layout, 404 chart', () => {
    const r = applyDashboards(world(STRICT), remove([C1, C3]), T0);
    expect(r.ok ? 'accepted' : [r.error.code, r.error.details]).toEqual([
      'NOT_FOUND',
      { resource: 'chart', field: 'chartIds' },
    ]);
    expect(layout(run(world(STRICT), remove([C1])))).toEqual([C2]);
  });

  it('refuses a v1 add naming a chart already on the layout, 409', () => {
    const r = applyDashboards(world(STRICT), add([C3, C2]), T0);
    expect(r.ok ? 'accepted' : [r.error.code, r.error.details]).toEqual([
      'CONFLICT',
      { field: 'charts', chartId: C2 },
    ]);
    expect(layout(run(world(STRICT), add([C3])))).toEqual([C1, C2, C3]);
  });

  it('leaves the v2 calls to their own decisions', () => {
    expect(layout(run(world(STRICT), add([C1, C3], 'v2')))).toEqual([C1, C2, C3]);
    expect(layout(run(world(STRICT), remove([C3], 'v2')))).toEqual([C1, C2]);
  });
});

describe('dashboards.connections-unchecked', () => {
  it('refuses any connectionId by default, takes it unchecked otherwise', () => {
    expect(connectionRefusal(world(DECIDED), 'c1')?.details).toEqual({
      resource: 'connection',
      field: 'connectionId',
    });
    expect(connectionRefusal(world(DECIDED), undefined)).toBe(undefined);
    expect(connectionRefusal(world({ ...DECIDED, guestConnection: 'unchecked' }), 'c1')).toBe(
      undefined,
    );
  });
});

const tenant: Actor = {
  kind: 'tenant',
  tenantId: 't1',
  permissions: { addChart: true, removeChart: true, canDuplicateDashboard: true },
};
const D2 = '00000000-0000-4000-8000-0000000000d2';
const NEW = '00000000-0000-4000-8000-0000000000e1';

describe('dashboards.append-same-charts', () => {
  const append = (via: 'v1' | 'v2'): DashboardsCommand => ({
    type: 'appendCharts',
    sourceDashboardId: D,
    targetDashboardId: D2,
    batchId: 'b1',
    actor: key,
    via,
  });
  const withTarget = (rules: DashboardRules) =>
    run(world(rules), {
      type: 'createDashboard',
      dashboardId: D2,
      workspaceId: W,
      name: 'Target',
      chartIds: [C2],
      actor: key,
      via: 'hook',
    });

  it('appends copies by default, the same charts (each once) under the other rule, v1 only', () => {
    const copies = run(withTarget(DECIDED), append('v1')).dashboards[D2]?.chartIds ?? [];
    expect(copies).toHaveLength(3);
    expect(copies.slice(1)).not.toContain(C1);
    const same = { ...DECIDED, appendedCharts: 'same' } as const;
    expect(run(withTarget(same), append('v1')).dashboards[D2]?.chartIds).toEqual([C2, C1]);
    expect(run(withTarget(same), append('v2')).dashboards[D2]?.chartIds).toHaveLength(3);
  });
});

describe('dashboards.charts-renumbered', () => {
  const edit: DashboardsCommand = {
    type: 'addCharts',
    dashboardId: D,
    chartIds: [C3],
    actor: tenant,
    via: 'v1',
  };

  it("keeps the shared dashboard's chart ids in a user's copy by default, copies them otherwise", () => {
    const copyId = copyIdFor(D, tenant);
    expect(run(world(DECIDED), edit).dashboards[copyId]?.chartIds).toEqual([C1, C2, C3]);
    const fresh = run(world({ ...DECIDED, standInCharts: 'fresh' }), edit);
    const ids = fresh.dashboards[copyId]?.chartIds ?? [];
    expect(ids).toHaveLength(3);
    expect(ids.slice(0, 2)).not.toContain(C1);
    expect(ids.slice(0, 2)).not.toContain(C2);
    expect(ids[2]).toBe(C3);
    expect(fresh.dashboards[D]?.chartIds, 'the shared dashboard is untouched').toEqual([C1, C2]);
  });
});

describe('dashboards.key-sees-all', () => {
  it("lists a user's copy to an API key in the v1 list only under the other rule", () => {
    const edit: DashboardsCommand = {
      type: 'removeCharts',
      dashboardId: D,
      chartIds: [C1],
      actor: tenant,
      via: 'v1',
    };
    const decided = run(world(DECIDED), edit);
    expect(dashboardsFor(decided, W, key, 'v1').map((d) => d.dashboardId)).toEqual([D]);
    const all = run(world({ ...DECIDED, apiKeyView: 'all' }), edit);
    expect(
      dashboardsFor(all, W, key, 'v1')
        .map((d) => d.dashboardId)
        .sort(),
    ).toEqual([D, copyIdFor(D, tenant)].sort());
    expect(dashboardsFor(all, W, key).map((d) => d.dashboardId)).toEqual([D]);
  });
});

describe('dashboards.clone-in-place', () => {
  const clone = (via: 'v1' | 'v2'): DashboardsCommand => ({
    type: 'clone',
    sourceDashboardId: D,
    newDashboardId: NEW,
    actor: tenant,
    via,
  });
  const listed = (s: DashboardsState) => dashboardsFor(s, W, tenant).map((d) => d.dashboardId);

  it("lists a user's clone beside its source by default, in its place under the other rule", () => {
    expect(listed(run(world(DECIDED), clone('v1')))).toEqual([D, NEW]);
    const inPlace = run(world({ ...DECIDED, userClone: 'in-place' }), clone('v1'));
    expect(listed(inPlace)).toEqual([copyIdFor(D, tenant)]);
    const v2 = run(world({ ...DECIDED, userClone: 'in-place' }), clone('v2'));
    expect(listed(v2)).toEqual([D, NEW]);
  });
});

describe('charts.save-checked', () => {
  const save = (actor: Actor | undefined): DashboardsCommand => ({
    type: 'createChart',
    chartId: '00000000-0000-4000-8000-0000000000c9',
    name: 'Saved',
    config: {},
    ...(actor === undefined ? {} : { actor }),
  });
  const viewer: Actor = { kind: 'tenant', tenantId: 't2', permissions: {} };

  it('saves for anyone by default; checks addChart under the other rule', () => {
    expect(applyDashboards(world(DECIDED), save(viewer), T0).ok).toBe(true);
    const checked = world({ ...DECIDED, chartSaving: 'checked' });
    const r = applyDashboards(checked, save(viewer), T0);
    expect(r.ok ? 'saved' : r.error.code).toBe('FORBIDDEN');
    expect(applyDashboards(checked, save(tenant), T0).ok).toBe(true);
    expect(applyDashboards(checked, save(key), T0).ok).toBe(true);
    expect(applyDashboards(checked, save(undefined), T0).ok).toBe(true);
  });
});

describe('v2.unmigrated-refused', () => {
  it('lists no application before finalize by default, refuses the list under the other rule', () => {
    expect(applicationsListRefusal(BEFORE_FINALIZE, world(DECIDED))).toBe(undefined);
    const refused = applicationsListRefusal(
      BEFORE_FINALIZE,
      world({ ...DECIDED, applicationsBeforeFinalize: 'refused' }),
    );
    expect(refused?.code).toBe('CONFLICT');
  });
});

describe('v2.no-organization-own-space', () => {
  const spaceless: Actor = {
    kind: 'project-user',
    userId: 'u-none',
    permissions: { addChart: true, removeChart: true, editCharts: true },
    projectOrganizationId: null,
  };
  const OWN_SPACE: DashboardRules = { ...DECIDED, noOrganizationCalls: 'own-space' };
  const code = (state: DashboardsState, command: DashboardsCommand) => {
    const r = applyDashboards(state, command, T0);
    return r.ok ? 'done' : r.error.code;
  };
  const addToTemplate: DashboardsCommand = {
    type: 'addCharts',
    dashboardId: D,
    chartIds: [C3],
    actor: spaceless,
    via: 'v2',
  };
  const create: DashboardsCommand = {
    type: 'createDashboard',
    dashboardId: '00000000-0000-4000-8000-0000000000d9',
    workspaceId: W,
    name: 'Nowhere',
    actor: spaceless,
    via: 'v2',
  };

  it('refuses every call first by default; under the other rule a template edit meets the 409', () => {
    expect(noOrganizationRefusal(DECIDED, spaceless)?.code).toBe(
      'PROJECT_USER_WITHOUT_ORGANIZATION',
    );
    expect(noOrganizationRefusal(OWN_SPACE, spaceless)).toBe(undefined);
    expect(noOrganizationRefusal(DECIDED, key)).toBe(undefined);
    expect(code(world(DECIDED), addToTemplate)).toBe('PROJECT_USER_WITHOUT_ORGANIZATION');
    expect(code(world(OWN_SPACE), addToTemplate)).toBe('SHARED_DASHBOARD_READ_ONLY');
    // Whatever the rule, a call that would put a dashboard in its space is refused 403.
    expect(code(world(OWN_SPACE), create)).toBe('PROJECT_USER_WITHOUT_ORGANIZATION');
    expect(code(world(DECIDED), create)).toBe('PROJECT_USER_WITHOUT_ORGANIZATION');
  });

  it('under the other rule refuses a v2 edit of a dashboard of its own (guard space-for-edit)', () => {
    // A dashboard the user made while it still had a project organization.
    const mine = '00000000-0000-4000-8000-0000000000d8';
    const made = (rules: DashboardRules) =>
      run(world(rules), {
        type: 'createDashboard',
        dashboardId: mine,
        workspaceId: W,
        name: 'Mine',
        actor: { ...spaceless, projectOrganizationId: 'o1' },
        via: 'v2',
      });
    const edit: DashboardsCommand = { ...addToTemplate, dashboardId: mine };
    const refused = (rules: DashboardRules) => {
      const r = applyDashboards(made(rules), edit, T0);
      return r.ok ? 'done' : `${r.error.code} (${r.guard ?? ''})`;
    };
    expect(refused(OWN_SPACE)).toBe('PROJECT_USER_WITHOUT_ORGANIZATION (space-for-edit)');
    expect(refused(DECIDED)).toBe('PROJECT_USER_WITHOUT_ORGANIZATION (may-write)');
  });
});

describe('tenants.permissions-at-issue', () => {
  it('reads the tenant as stored by default, as its token was issued under the other rule', () => {
    const stored = { readOnly: true };
    const issued = { addChart: true };
    expect(tenantWritePermissions(world(DECIDED), stored, issued)).toBe(stored);
    const atIssue = world({ ...DECIDED, tenantPermissions: 'issued' });
    expect(tenantWritePermissions(atIssue, stored, issued)).toBe(issued);
  });
});
