import { expect } from 'vitest';
import { nextHubLoad, openHub, type HubView } from '../harness/browser.ts';
import { conformance } from '../harness/conformance.ts';
import {
  CHANNEL,
  dashboardPath,
  expectCount,
  hubWorld,
  needsData,
  parts,
  type HubWorld,
  HUB_TIMEOUT,
} from './kit.ts';

// §4.17: filter_{controlKey}=<JSON value> sets a controlled filter. How a set filter applies to
// the rows, and how the filter bar shows it, are left open (hub.filters.values), so the
// parameter is judged against the page itself: the filter set through the URL leaves the page as
// the same filter set by hand in the filter bar does, whatever that is.

async function chartRowsOf(view: HubView, w: HubWorld): Promise<string[]> {
  const chart = view.thing('chart', { title: w.board.chartTitle });
  await expectCount(chart, 1, 'the chart is shown');
  return view.rows(chart, 'chart', 'the chart').read();
}

const channelInput = (view: HubView) =>
  view.thingIn(view.thing('filterBar'), 'filterInput', { label: CHANNEL.label });

conformance(
  ['hub.query.filter-control'],
  'filter_{controlKey} with a JSON value leaves the chart and the filter bar as setting that filter by hand does',
  async (t) => {
    const w = await hubWorld(t, { data: true });
    const plain = dashboardPath(w.board.dashboardId, { jwt: w.viewer.token });
    const unfiltered = await openHub(t, plain);
    const none = await chartRowsOf(unfiltered, w);
    await unfiltered.close();

    const byHand = await openHub(t, plain);
    const input = channelInput(byHand);
    await input.fill('online');
    await nextHubLoad(byHand, () => input.press('Enter'));
    const handRows = await chartRowsOf(byHand, w);
    const handShown = await channelInput(byHand).inputValue();
    await byHand.close();
    if (JSON.stringify(handRows) === JSON.stringify(none))
      return t.notRun(
        'setting the channel filter by hand changed no row of the chart, so the page shows nothing a set filter does to compare with',
      );

    const byUrl = await openHub(
      t,
      dashboardPath(w.board.dashboardId, {
        jwt: w.viewer.token,
        [`filter_${CHANNEL.controlKey}`]: JSON.stringify('online'),
      }),
    );
    expect(
      await chartRowsOf(byUrl, w),
      'filter_channel="online" shows the rows the filter set by hand shows',
    ).toEqual(handRows);
    await expect
      .poll(() => channelInput(byUrl).inputValue(), {
        message: 'the filter bar shows the filter as it does when set by hand',
      })
      .toBe(handShown);
    await byUrl.close();
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData },
);
