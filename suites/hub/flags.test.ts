import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HubThing } from '../../spec/hub-profile.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { openHub, tableRows, type HubView } from '../harness/browser.ts';
import { conformance } from '../harness/conformance.ts';
import {
  dashboardPath,
  dashboardShown,
  expectCount,
  sharedHubWorld,
  needs,
  needsData,
  parts,
  viewer,
  HUB_TIMEOUT,
  TOOLS,
} from './world.ts';

// §2.2: the flags whose effect only a page shows, checked on /share/dashboard/{id} (§4.17),
// which opens the dashboard inside its application, navigation and tabs included. What a
// page offers is found through the target profile's hub section (ARIA role and name).

type T = Parameters<Parameters<typeof conformance>[2]>[0];

/**
 * Pages of viewers of the file's world on roles of these flags, one at a time: `look` gets
 * each page once it has rendered, and the page closes before the next viewer's opens (each
 * viewer a visitor of its own). The viewers are made at once.
 */
async function eachPage(
  t: T,
  roles: readonly (RolePermissions | null)[],
  look: (view: HubView, index: number) => Promise<void>,
): Promise<void> {
  const w = await sharedHubWorld(t);
  const viewers = await Promise.all(roles.map((role) => viewer(t, w, role)));
  for (const [i, v] of viewers.entries()) {
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: v.token }));
    await dashboardShown(view, w);
    await look(view, i);
    await view.close();
  }
}

interface FlagCase {
  readonly clauses: readonly ClauseId[];
  readonly title: string;
  readonly thing: HubThing;
  /** A role whose page offers the thing, and one whose page does not. */
  readonly shown: RolePermissions | null;
  readonly hidden: RolePermissions | null;
  readonly relies?: readonly ClauseId[];
}

const EDITING: RolePermissions = {
  addChart: true,
  addFilter: true,
  createChart: true,
  editCharts: true,
  removeChart: true,
  addDashboard: true,
  canDuplicateDashboard: true,
};

const CASES: readonly FlagCase[] = [
  {
    clauses: ['permissions.hide-header.effect'],
    title: 'hideHeader on the role removes the page header',
    thing: 'header',
    shown: {},
    hidden: { hideHeader: true },
  },
  {
    clauses: ['permissions.hide-download-button.effect'],
    title: 'hideDownloadButton on the role removes the PDF download control',
    thing: 'download',
    shown: {},
    hidden: { hideDownloadButton: true },
  },
  {
    clauses: ['permissions.disable-tabs.effect'],
    title: 'disableTabs on the role turns the tabbed display off',
    thing: 'tabs',
    shown: {},
    hidden: { disableTabs: true },
  },
  {
    clauses: ['permissions.hide-filters.effect'],
    title: 'hideFilters on the role removes the filter bar',
    thing: 'filterBar',
    shown: {},
    hidden: { hideFilters: true },
  },
  {
    clauses: ['permissions.ai-charts.effect', 'permissions.default.ai-charts'],
    title: 'aiCharts offers creating charts by asking AI, and only when on',
    thing: 'aiCharts',
    shown: { aiCharts: true },
    hidden: {},
  },
  {
    clauses: ['permissions.ai-insight.effect', 'permissions.default.ai-insight'],
    title: 'aiInsight offers the AI insights sidebar, and only when on',
    thing: 'aiInsight',
    shown: { aiInsight: true },
    hidden: {},
  },
  {
    clauses: [
      'permissions.enable-schedule-report.needs-org-feature',
      'permissions.default.enable-schedule-report',
    ],
    title: 'enableScheduleReport shows the Schedule Report button, and only when on',
    thing: 'scheduleReport',
    shown: { enableScheduleReport: true },
    hidden: {},
    relies: ['hub.schedule-report.organization'],
  },
  {
    clauses: [
      'permissions.can-set-default-dashboard.effect',
      'permissions.default.can-set-default-dashboard',
    ],
    title: 'canSetDefaultDashboard, on when unset, offers setting the default dashboard',
    thing: 'setDefault',
    shown: {},
    hidden: { canSetDefaultDashboard: false },
  },
  {
    clauses: [
      'permissions.can-edit-chart-from-session.effect',
      'permissions.default.can-edit-chart-from-session',
    ],
    title: 'canEditChartFromSession, on when unset, offers editing a chart from the chat session',
    thing: 'editFromSession',
    shown: {},
    hidden: { canEditChartFromSession: false },
  },
  {
    clauses: [
      'permissions.can-duplicate-dashboard.effect',
      'permissions.editing.read-only-overrides',
    ],
    title: 'canDuplicateDashboard offers duplicating, and readOnly takes it away',
    thing: 'duplicate',
    shown: { canDuplicateDashboard: true },
    hidden: { canDuplicateDashboard: true, readOnly: true },
  },
  {
    clauses: ['permissions.editing.no-role-view-only', 'permissions.add-chart.allows-adding'],
    title: 'a user with no role gets no editing tools; addChart on a role offers adding charts',
    thing: 'addChart',
    shown: { addChart: true },
    hidden: null,
  },
];

for (const c of CASES) {
  conformance(
    c.clauses,
    c.title,
    async (t) => {
      await eachPage(t, [c.shown, c.hidden], async (view, i) => {
        const role = JSON.stringify(i === 0 ? c.shown : c.hidden);
        await expectCount(
          view.thing(c.thing),
          i === 0 ? 1 : 0,
          `the page of a role ${role} offers ${i === 0 ? '' : 'no '}${c.thing}`,
        );
      });
    },
    { timeout: HUB_TIMEOUT, parts, needs, ...(c.relies !== undefined ? { relies: c.relies } : {}) },
  );
}

conformance(
  [
    'permissions.read-only.no-editing-tools',
    'permissions.editing.read-only-overrides',
    'permissions.add-filter.existing-filters-free',
    'permissions.create-chart.allows-builder',
    'permissions.edit-charts.allows-editing',
    'permissions.remove-chart.allows-removing',
    'permissions.add-dashboard.effect',
  ],
  'readOnly leaves a role holding every editing flag with no editing tools on the page',
  async (t) => {
    await eachPage(t, [EDITING, { ...EDITING, readOnly: true }], async (view, i) => {
      if (i === 0) {
        for (const [thing] of TOOLS)
          await expectCount(view.thing(thing), 1, `an editing role's page offers ${thing}`);
        return;
      }
      for (const [thing] of TOOLS)
        await expectCount(view.thing(thing), 0, `a readOnly role's page offers no ${thing}`);
      await expectCount(
        view.thing('editingTools'),
        0,
        "a readOnly role's page has no editing tools at all",
      );
      // Existing filters need no permission (§2.2 addFilter): the read-only page keeps its bar.
      await expectCount(view.thing('filterBar'), 1, 'the filter bar is still there to use');
    });
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['permissions.drill-down.effect', 'permissions.default.drill-down'],
  "drillDown shows the rows behind a chart's point; a role without it offers no drill-down",
  async (t) => {
    const w = await sharedHubWorld(t, { data: true });
    const [drills, plain] = await Promise.all([
      viewer(t, w, { drillDown: true }),
      viewer(t, w, {}),
    ]);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: drills.token }));
    const drill = view.thing('drillDown', { value: 'Anvil' });
    await expectCount(drill, 1, 'a drill-down control for the point Anvil');
    await drill.click();
    const rows = view.thing('drillDownRows', { value: 'Anvil' });
    await expectCount(rows, 1, 'drilling into Anvil shows the rows behind it');
    const shown = await tableRows(rows.getByRole('table'));
    expect(shown.length, 'rows are shown behind the point').toBeGreaterThan(0);
    expect(
      shown.every((r) => r.includes('Anvil')),
      `only Anvil's rows: ${shown.join('; ')}`,
    ).toBe(true);
    expect(
      shown.some((r) => /south|100/.test(r)),
      'no row of another region (row-level security)',
    ).toBe(false);
    await view.close();
    const without = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: plain.token }));
    await dashboardShown(without, w);
    await expectCount(
      without.thing('drillDown', { value: 'Anvil' }),
      0,
      'no drill-down without the flag',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

conformance(
  ['permissions.drill-down.off-when-read-only'],
  'readOnly turns drill-down off although drillDown is on',
  async (t) => {
    const w = await sharedHubWorld(t, { data: true });
    const v = await viewer(t, w, { drillDown: true, readOnly: true });
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: v.token }));
    await expectCount(view.thing('chart', { title: w.board.chartTitle }), 1, 'the chart is shown');
    await expectCount(
      view.thing('drillDown', { value: 'Anvil' }),
      0,
      'no drill-down under readOnly',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
