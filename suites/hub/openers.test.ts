import { expect } from 'vitest';
import { EDITING_TOOLS, type HubThing } from '../../spec/hub-profile.ts';
import {
  embedderOrigin,
  hubProfile,
  nextHubLoad,
  openEmbedded,
  openHub,
  type HubView,
} from '../harness/browser.ts';
import { conformance, probe } from '../harness/conformance.ts';
import {
  CHANNEL,
  dashboardPath,
  dashboardShown,
  expectCount,
  expectedTotals,
  hubWorld,
  needs,
  needsData,
  parts,
  HUB_TIMEOUT,
} from './kit.ts';
import { cause } from '../harness/causes.ts';

// §2.2 names controls; what clicking one opens is our decision (hub.controls.placement),
// except for AI insights, whose chat sidebar §2.2 names. What a filter change posts and
// applies while another filter stays unset is our decision too (hub.events.embed-params-shape,
// hub.filters.values). The flags tests check that the controls are there; these click them.

/**
 * The controls whose feature §2.2 does not describe: a dialog stands behind each (decision
 * hub.controls.placement). The PDF download is described, so it is left out.
 */
const DIALOG_CONTROLS: readonly HubThing[] = [
  'scheduleReport',
  'setDefault',
  'duplicate',
  'aiCharts',
  'editFromSession',
  ...EDITING_TOOLS,
];

/** Whether a dialog shows within a few seconds (a control that opens nothing shows none). */
async function dialogShown(view: HubView): Promise<boolean> {
  const dialogs = view.frame.getByRole('dialog');
  try {
    await expect.poll(() => dialogs.count(), { timeout: 3_000, interval: 100 }).toBeGreaterThan(0);
    return true;
  } catch {
    return false;
  }
}

probe(
  ['hub.controls.placement'],
  'clicking each control whose feature the document does not describe opens a dialog',
  async (t) => {
    const w = await hubWorld(t, {
      permissions: {
        enableScheduleReport: true,
        canDuplicateDashboard: true,
        aiCharts: true,
        addChart: true,
        addFilter: true,
        createChart: true,
        createChartSQL: true,
        editCharts: true,
        removeChart: true,
        addDashboard: true,
      },
    });
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await dashboardShown(view, w);
    const opened: string[] = [];
    const none: string[] = [];
    for (const thing of DIALOG_CONTROLS) {
      const control = view.thing(thing);
      if ((await control.count()) !== 1) {
        none.push(`${thing} (not offered)`);
        continue;
      }
      await control.click();
      if (await dialogShown(view)) {
        opened.push(thing);
        await view.page.keyboard.press('Escape');
        await expect
          .poll(() => view.frame.getByRole('dialog').count(), {
            message: `the dialog of ${thing} closes`,
          })
          .toBe(0);
      } else none.push(thing);
    }
    t.observe(
      none.length === 0
        ? 'every control opened a dialog'
        : `opened a dialog: ${opened.join(', ') || 'none'}; opened none: ${none.join(', ')}`,
      none.length === 0,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['permissions.ai-insight.effect'],
  'clicking AI insights opens the AI insights sidebar',
  async (t) => {
    const w = await hubWorld(t, { permissions: { aiInsight: true } });
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await dashboardShown(view, w);
    // §2.2 names the sidebar; the profile says how the page marks it.
    const sidebar = view.thing('aiInsightSidebar');
    const control = view.thing('aiInsight');
    await expectCount(control, 1, 'the page of a role with aiInsight offers AI insights');
    await control.click();
    await expectCount(sidebar, 1, 'clicking AI insights opens the AI insights sidebar');
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

/** A second control of the dashboard: the product column. */
const PRODUCT = { controlKey: 'product', field: 'product', label: 'Product' } as const;

probe(
  ['hub.events.embed-params-shape'],
  'setting one filter while another stays unset posts the one set',
  async (t) => {
    const field = hubProfile(t).paramsMessage?.field;
    if (field === undefined)
      return t.notRun(
        "the profile's hub section names no paramsMessage (its filters' member)",
        cause.shape('hub.paramsMessage'),
      );
    const w = await hubWorld(t, { moreControls: [PRODUCT] });
    const parentOrigin = embedderOrigin(t);
    const view = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, parentOrigin }),
    );
    const channel = view.thingIn(view.thing('filterBar'), 'filterInput', { label: CHANNEL.label });
    await channel.fill('store');
    await nextHubLoad(view, () => channel.press('Enter'));
    // §4.17 names the type; the member holding the filters is the profile's (the decision's
    // `params` on the reference).
    const posted = (await view.messages())
      .filter((m) => m.fromHub)
      .map((m) => m.data)
      .filter(
        (d): d is Record<string, unknown> =>
          typeof d === 'object' && d !== null && (d as { type?: unknown }).type === 'embed:params',
      );
    const expected = { filter_channel: '"store"' };
    t.observe(
      `posted ${JSON.stringify(posted)}`,
      posted.length === 1 &&
        JSON.stringify(Object.keys(posted[0] ?? {}).sort()) ===
          JSON.stringify([field, 'type'].sort()) &&
        JSON.stringify(posted[0]?.[field]) === JSON.stringify(expected),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

probe(
  ['hub.filters.values'],
  'a filter_ value that is not JSON: what the filter bar holds and which rows the chart shows',
  async (t) => {
    const w = await hubWorld(t, { data: true });
    // A bare word, as a hand-written address would carry it: not a JSON text.
    const view = await openHub(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, filter_channel: 'store' }),
    );
    await dashboardShown(view, w);
    const input = view.thingIn(view.thing('filterBar'), 'filterInput', { label: CHANNEL.label });
    const held = (await input.count()) === 1 ? await input.inputValue() : '(no input)';
    const chart = view.thing('chart', { title: w.board.chartTitle });
    const rows = JSON.stringify(await view.rows(chart, 'chart', 'the chart').read());
    const shown =
      rows === JSON.stringify(expectedTotals('north'))
        ? 'every channel'
        : rows === JSON.stringify(expectedTotals('north', 'store'))
          ? 'the store channel only'
          : `other rows ${rows}`;
    t.observe(
      `the filter input holds ${JSON.stringify(held)}; the chart shows ${shown}`,
      held === '' && shown === 'every channel',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);

probe(
  ['hub.filters.values'],
  'setting one filter while another stays unset applies only the one set',
  async (t) => {
    const w = await hubWorld(t, { data: true, moreControls: [PRODUCT] });
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await dashboardShown(view, w);
    const bar = view.thing('filterBar');
    const channel = view.thingIn(bar, 'filterInput', { label: CHANNEL.label });
    const product = view.thingIn(bar, 'filterInput', { label: PRODUCT.label });
    const unset = [await channel.inputValue(), await product.inputValue()];
    await channel.fill('store');
    await nextHubLoad(view, () => channel.press('Enter'));
    const chart = view.thing('chart', { title: w.board.chartTitle });
    const rows = await view.rows(chart, 'chart', 'the chart').read();
    t.observe(
      `unset inputs held ${JSON.stringify(unset)}; rows ${rows.join('; ')}`,
      unset.every((u) => u === '') &&
        JSON.stringify(rows) === JSON.stringify(expectedTotals('north', 'store')),
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
