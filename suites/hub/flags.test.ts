import { expect } from 'vitest';
import { unstatedReliances } from '../../spec/reliance.ts';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HubThing } from '../../spec/hub-profile.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { hubProfile, openHub, type HubView } from '../harness/browser.ts';
import { conformance, probe } from '../harness/conformance.ts';
import { v1AddCharts, v1Post } from '../harness/given/dashboards.ts';
import { productTotalsChart } from '../harness/given/content.ts';
import {
  CHART_SQL,
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  sharedHubWorld,
  needs,
  needsData,
  parts,
  viewer,
  HUB_TIMEOUT,
  TOOLS,
  type HubWorld,
  expectChart,
} from './kit.ts';
import { SAVE_FROM_CHAT, rolePath } from '../harness/paths.ts';
import { successStatus } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §2.2: the flags whose effect only a page shows, checked on /share/dashboard/{id} (§4.17),
// which opens the dashboard (inside its application, navigation and tabs included, where the
// profile follows hub.dashboard.navigation). What a page offers is found through the target
// profile's hub section (ARIA role and name).

type T = Parameters<Parameters<typeof conformance>[2]>[0];

/** Whether the profile follows the decision that the dashboard page shows tabs (see above). */
const tabsOnDashboardPage = (t: T) =>
  unstatedReliances(t.profile, ['hub.dashboard.navigation']).length === 0;

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
  /** Whether the target offers the thing at all to the `shown` role (default: yes). */
  readonly offered?: (t: T) => boolean;
  /**
   * Whether the `shown` role's page is held to offering the thing (default: yes); when not,
   * only the `hidden` role's page is checked, which must not offer it.
   */
  readonly judged?: (t: T) => boolean;
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

// Where the role that offers the thing leaves its flag unset (`shown: {}`), its page also
// shows that flag's §2.2 default, and the case cites the default too.
const CASES: readonly FlagCase[] = [
  {
    clauses: ['permissions.hide-header.effect', 'permissions.default.hide-header'],
    title: 'hideHeader on the role removes the page header',
    thing: 'header',
    shown: {},
    hidden: { hideHeader: true },
  },
  {
    clauses: [
      'permissions.hide-download-button.effect',
      'permissions.default.hide-download-button',
    ],
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
    // Tabs on the dashboard page come with the application's navigation, which the document
    // leaves open there (hub.dashboard.navigation): the page without them is judged only when
    // the profile follows that decision.
    judged: tabsOnDashboardPage,
  },
  {
    clauses: ['permissions.hide-filters.effect', 'permissions.default.hide-filters'],
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
    // §2.2: only where the organization has scheduled reports; the profile says which have.
    offered: (t) => hubProfile(t).scheduledReports !== 'none',
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
      const offered = c.offered?.(t) ?? true;
      const judged = c.judged?.(t) ?? true;
      await eachPage(t, [c.shown, c.hidden], async (view, i) => {
        if (i === 0 && !judged) return;
        const role = JSON.stringify(i === 0 ? c.shown : c.hidden);
        const shown = i === 0 && offered;
        await expectCount(
          view.thing(c.thing),
          shown ? 1 : 0,
          `the page of a role ${role} offers ${shown ? '' : 'no '}${c.thing}`,
        );
      });
    },
    { timeout: HUB_TIMEOUT, parts, needs, ...(c.relies !== undefined ? { relies: c.relies } : {}) },
  );
}

// §3: a role update reaches its users on their next token; what a page opened with a token
// issued before it shows is left open (states.role.issued-token-unchanged).
probe(
  ['states.role.issued-token-unchanged'],
  'what a page opened with a token issued before a role update offers',
  async (t) => {
    const w = await sharedHubWorld(t);
    const v = await viewer(t, w, { canDuplicateDashboard: true });
    // readOnly takes duplicating away (§2.2) once the update has reached the user.
    const res = await t.http.put(rolePath(w, v.roleId ?? ''), {
      ...w.creds(),
      permissions: { canDuplicateDashboard: true, readOnly: true },
    });
    expect(
      successStatus(res.status),
      `the role update: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBe(true);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: v.token }));
    await dashboardShown(view, w);
    const offered = (await view.thing('duplicate').count()) > 0;
    await view.close();
    t.observe(
      offered
        ? 'the permissions it was issued with: duplicating still offered'
        : 'the role as updated: no duplicating',
      offered,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

/**
 * The file's world with a chart saved from chat (§4.14, every documented body field sent,
 * chartConfig as §2.6 shapes it) and added to the board (§4.16's v1 add-charts): §2.2 ties
 * canEditChartFromSession to the charts the agent chat generated, so only a dashboard holding
 * one can show what the flag offers. Not-run when the target refuses the save.
 */
async function boardWithChatChart(t: T): Promise<{ w: HubWorld; title: string }> {
  const w = await hubWorld(t);
  const key = w.creds().apiKey;
  const title = `Chat chart ${t.faker.string.alphanumeric(6)}`;
  const chartConfig = productTotalsChart(title);
  const save = await v1Post(t, SAVE_FROM_CHAT, key, {
    chartConfig,
    connectionId: t.faker.string.uuid(),
    sql: CHART_SQL,
    agentId: t.faker.string.uuid(),
    name: title,
    thumbnail: '',
  });
  expect(save.status, `save-from-chat: ${save.text.slice(0, 300)}`).toBeLessThan(500);
  const chartId = (save.body as { data?: { chartId?: unknown } } | null)?.data?.chartId;
  if (save.status !== 200 || typeof chartId !== 'string')
    return t.notRun(
      `the target did not save the chat chart (${String(save.status)})`,
      cause.other('save-from-chat refused the chart'),
    );
  const added = await v1AddCharts(t, key, w.board.dashboardId, [chartId]);
  expect(
    successStatus(added.status),
    `add-charts of the saved chart: ${added.status} ${added.text.slice(0, 300)}`,
  ).toBe(true);
  return { w, title };
}

conformance(
  [
    'permissions.can-edit-chart-from-session.effect',
    'permissions.default.can-edit-chart-from-session',
  ],
  'on a dashboard holding a chart saved from chat, canEditChartFromSession (on when unset) offers editing it from the session',
  async (t) => {
    const { w, title } = await boardWithChatChart(t);
    const roles = [{}, { canEditChartFromSession: false }] as const;
    const viewers = await Promise.all(roles.map((role) => viewer(t, w, role)));
    for (const [i, v] of viewers.entries()) {
      const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: v.token }));
      if (view.names('chart'))
        await expectCount(view.thing('chart', { title }), 1, 'the chart saved from chat is shown');
      else await dashboardShown(view, w);
      // One control per such chart, or one for the dashboard: either way some, or none.
      const controls = view.thing('editFromSession', { title });
      if (i === 0)
        await expect
          .poll(() => controls.count(), {
            message:
              'the page of a role leaving canEditChartFromSession unset offers editing the chat chart',
            timeout: 10_000,
            interval: 100,
          })
          .toBeGreaterThan(0);
      else
        await expectCount(
          controls,
          0,
          'the page of a role with canEditChartFromSession off offers no editing from the session',
        );
      await view.close();
    }
  },
  { timeout: HUB_TIMEOUT, parts: [...parts, 'v1-dashboards'], needs },
);

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

/** The editing tools whose §2.2 default is on for a role that grants editing. */
const ON_WHEN_EDITING = [
  'addChart',
  'addFilter',
  'createChart',
  'removeChart',
  'addDashboard',
  'duplicate',
] as const satisfies readonly HubThing[];

conformance(
  [
    'permissions.default.add-chart',
    'permissions.default.add-filter',
    'permissions.default.create-chart',
    'permissions.default.remove-chart',
    'permissions.default.add-dashboard',
    'permissions.default.can-duplicate-dashboard',
    'permissions.default.create-chart-sql',
    'permissions.default.read-only',
    'permissions.default.enable-schedule-report',
  ],
  'a role granting editing through editCharts alone offers every tool on by default for an editing role, and neither hand-written SQL nor Schedule Report',
  async (t) => {
    await eachPage(t, [{ editCharts: true }], async (view) => {
      for (const thing of ON_WHEN_EDITING)
        await expectCount(
          view.thing(thing),
          1,
          `the page of a role {"editCharts":true} offers ${thing}, its flag left unset`,
        );
      // createChart is on by default here, so only createChartSQL's own default keeps it away.
      await expectCount(
        view.thing('createChartSQL'),
        0,
        'the page of a role {"editCharts":true} offers no hand-written chart SQL',
      );
      // Off when unset, wherever the organization has scheduled reports or not.
      await expectCount(
        view.thing('scheduleReport'),
        0,
        'the page of a role {"editCharts":true} offers no Schedule Report button',
      );
    });
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['permissions.default.edit-charts'],
  'editCharts left unset is off even on a role that grants editing',
  async (t) => {
    await eachPage(t, [{ addChart: true }], async (view) => {
      await expectCount(
        view.thing('addChart'),
        1,
        'the page of a role {"addChart":true} offers addChart',
      );
      await expectCount(
        view.thing('editCharts'),
        0,
        'the page of a role {"addChart":true} offers no editing of charts',
      );
    });
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['permissions.create-chart-sql.needs-create-chart'],
  'createChartSQL offers hand-written SQL only while createChart is on, by default or set',
  async (t) => {
    const roles = [
      { addChart: true, createChartSQL: true },
      { addChart: true, createChartSQL: true, createChart: false },
    ];
    await eachPage(t, roles, async (view, i) => {
      const role = JSON.stringify(roles[i]);
      await expectCount(
        view.thing('createChartSQL'),
        i === 0 ? 1 : 0,
        `the page of a role ${role} offers ${i === 0 ? '' : 'no '}hand-written chart SQL`,
      );
    });
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['permissions.editing.empty-is-view-only'],
  'an empty role, and one holding only flags that grant no editing, offer no editing tools',
  async (t) => {
    const roles: RolePermissions[] = [
      {},
      {
        createChartSQL: true,
        aiCharts: true,
        aiInsight: true,
        drillDown: true,
        editMarketplace: true,
        enableScheduleReport: true,
      },
    ];
    await eachPage(t, roles, async (view, i) => {
      const role = JSON.stringify(roles[i]);
      for (const [thing] of TOOLS)
        await expectCount(view.thing(thing), 0, `the page of a role ${role} offers no ${thing}`);
      await expectCount(
        view.thing('duplicate'),
        0,
        `the page of a role ${role} offers no duplicate`,
      );
      await expectCount(
        view.thing('createChartSQL'),
        0,
        `the page of a role ${role} offers no hand-written chart SQL`,
      );
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
    const shown = await view.rows(rows, 'drillDown', 'the rows behind Anvil').read();
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
    await expectChart(view, w, 1, 'the chart is shown');
    await expectCount(
      view.thing('drillDown', { value: 'Anvil' }),
      0,
      'no drill-down under readOnly',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
