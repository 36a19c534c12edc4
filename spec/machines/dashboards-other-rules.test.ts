import { describe, expect, it } from 'vitest';
import {
  DECIDED,
  applyDashboards,
  connectionRefusal,
  emptyDashboards,
  type Actor,
  type DashboardRules,
  type DashboardsCommand,
  type DashboardsState,
} from './dashboards.ts';

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
