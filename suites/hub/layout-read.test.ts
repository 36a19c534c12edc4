import { expect } from 'vitest';
import type { Conformance } from '../harness/conformance.ts';
import { conformance } from '../harness/conformance.ts';
import {
  dashboardsWorld,
  hookLayout,
  layoutRead,
  WITH_LAYOUT,
} from '../harness/given/dashboards.ts';
import { HUB_TIMEOUT, parts } from './kit.ts';

/**
 * The test as layoutRead sees a target that offers neither the dashboard-charts hook nor a
 * route of its own (shapes.endpoints.dashboardCharts): it reads the layout from the hub page.
 */
function withoutLayoutChannels(t: Conformance): Conformance {
  const hooks = Object.create(t.hooks) as Conformance['hooks'];
  hooks.has = (hook) => hook !== 'dashboard-charts' && t.hooks.has(hook);
  const { dashboardCharts: _route, ...endpoints } = t.profile.shapes.endpoints ?? {};
  return {
    ...t,
    hooks,
    profile: { ...t.profile, shapes: { ...t.profile.shapes, endpoints } },
  };
}

// Both channels open: what the dashboard page shows of a shared dashboard the host laid out
// is what the hook shows, the same charts (§4.17: the page opens that dashboard, a v1 id as well
// as a v2 one). The document fixes no order of charts on the page, so the charts are compared
// as a set; the hub read gives them in page order, which a layout comparison takes for the
// layout's only where the target offers no other channel.
conformance(
  ['hub.dashboard.page', 'hub.ids.v1-and-v2'],
  "a v1 dashboard's page shows the charts its layout holds",
  async (t) => {
    const w = await dashboardsWorld(t, 3);
    const { dashboardId } = w.board;
    const hook = await hookLayout(t, w, dashboardId);
    expect(hook, 'the host laid out the charts it made').toEqual(
      w.board.charts.map((c) => c.chartId),
    );
    const shown = await layoutRead(withoutLayoutChannels(t), w, dashboardId);
    expect([...shown].sort(), "the dashboard page's charts, read back to their ids").toEqual(
      [...hook].sort(),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: WITH_LAYOUT, id: 'layout-read' },
);
