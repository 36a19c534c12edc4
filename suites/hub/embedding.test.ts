import { expect } from 'vitest';
import { expectedStrings } from '../../fixtures/oracles/index.ts';
import {
  embedderOrigin,
  nextHubLoad,
  openEmbedded,
  openHub,
  type HubView,
  type ParentMessage,
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
  type HubWorld,
  HUB_TIMEOUT,
} from './kit.ts';
import { cause } from '../harness/causes.ts';

// §4.17: controlled filters on the charts' data, and what the page tells its parent: the
// embed:params message on a filter change and, with autoHeight, its content height, both
// addressed to parentOrigin only. The page sits in an iframe of a parent on a third origin.
// The message tests read no rows and need no data: what a page posts hangs on neither.
const { filterMessage } = expectedStrings.hub;

const isParams = (m: ParentMessage) =>
  m.data === filterMessage ||
  (typeof m.data === 'object' &&
    m.data !== null &&
    (m.data as { type?: unknown }).type === filterMessage);

async function chartRowsOf(view: HubView, w: HubWorld): Promise<string[]> {
  const chart = view.thing('chart', { title: w.board.chartTitle });
  await expectCount(chart, 1, 'the chart is shown');
  return view.rows(chart, 'chart', 'the chart').read();
}

/** Changes the channel filter on the page and waits for what follows. */
async function setChannel(view: HubView, value: string): Promise<void> {
  const input = view.thingIn(view.thing('filterBar'), 'filterInput', { label: CHANNEL.label });
  await input.fill(value);
  await nextHubLoad(view, () => input.press('Enter'));
}

conformance(
  ['hub.query.filter-control'],
  "filter_{controlKey} with a JSON value filters the charts' rows and shows the filter as set",
  async (t) => {
    const w = await hubWorld(t, { data: true });
    const all = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    expect(await chartRowsOf(all, w), "without a filter: the user's region, every channel").toEqual(
      expectedTotals('north'),
    );
    const filtered = await openHub(
      t,
      dashboardPath(w.board.dashboardId, {
        jwt: w.viewer.token,
        filter_channel: JSON.stringify('online'),
      }),
    );
    expect(await chartRowsOf(filtered, w), 'filter_channel="online": online rows only').toEqual(
      expectedTotals('north', 'online'),
    );
    const input = filtered.thingIn(filtered.thing('filterBar'), 'filterInput', {
      label: CHANNEL.label,
    });
    await expect
      .poll(() => input.inputValue(), { message: 'the filter is shown as set' })
      .toBe('online');
  },
  { timeout: HUB_TIMEOUT, parts, needs: needsData, relies: ['hub.filters.values'] },
);

conformance(
  ['hub.events.embed-params'],
  "a filter change reaches the parent as an 'embed:params' message from the hub's origin",
  async (t) => {
    const w = await hubWorld(t);
    const parentOrigin = embedderOrigin(t);
    const page = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, parentOrigin }),
    );
    await setChannel(page, 'store');
    const hubOrigin = new URL(t.target.hubUrl).origin;
    await expect
      .poll(async () => (await page.messages()).filter(isParams).length, {
        message: `the parent receives '${filterMessage}'`,
      })
      .toBeGreaterThan(0);
    const params = (await page.messages()).filter(isParams);
    expect(
      params.every((m) => m.fromHub && m.origin === hubOrigin),
      JSON.stringify(params),
    ).toBe(true);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.events.origin-only', 'hub.events.embed-params', 'hub.query.auto-height'],
  'with parentOrigin naming another origin, the real parent receives nothing: no height, no embed:params',
  async (t) => {
    const w = await hubWorld(t);
    const view = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, {
        jwt: w.viewer.token,
        autoHeight: 'true',
        parentOrigin: 'https://elsewhere.example',
      }),
    );
    // The change has been made and the page has gone still (setChannel): whatever it posts
    // for the change and for its height has been posted by now.
    await setChannel(view, 'store');
    const fromHub = (await view.messages()).filter((m) => m.fromHub);
    expect(fromHub, 'no message reaches a parent on another origin than parentOrigin').toEqual([]);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

probe(
  ['hub.events.target-origin'],
  'without parentOrigin the page posts nothing to its parent',
  async (t) => {
    const w = await hubWorld(t);
    const view = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, autoHeight: 'true' }),
    );
    await setChannel(view, 'store');
    const fromHub = (await view.messages()).filter((m) => m.fromHub);
    t.observe(
      fromHub.length === 0 ? 'nothing posted' : `posted: ${JSON.stringify(fromHub).slice(0, 300)}`,
      fromHub.length === 0,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.query.auto-height'],
  'autoHeight=true with parentOrigin reports the content height to the parent',
  async (t) => {
    const shape = t.profile.hub?.heightMessage;
    if (shape === undefined)
      return t.notRun(
        "the profile's hub section names no heightMessage",
        cause.shape('hub.heightMessage'),
      );
    const w = await hubWorld(t);
    const { type, field } = shape;
    const parentOrigin = embedderOrigin(t);
    const view = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, autoHeight: 'true', parentOrigin }),
    );
    const heights = async () =>
      (await view.messages())
        .filter((m) => m.fromHub && typeof m.data === 'object' && m.data !== null)
        .map((m) => m.data as Record<string, unknown>)
        .filter((d) => d['type'] === type)
        .map((d) => d[field]);
    await expect
      .poll(async () => (await heights()).length, { message: 'a height message arrives' })
      .toBeGreaterThan(0);
    const last = (await heights()).at(-1);
    // §4.17 says "content height" without saying how it is measured: the document's or the
    // body's scroll height, or the body's box, each within 2 px.
    const measures = JSON.parse(
      String(
        await view.frame.evaluate(
          'JSON.stringify([document.documentElement.scrollHeight, document.body.scrollHeight, document.body.getBoundingClientRect().height])',
        ),
      ),
    ) as number[];
    expect(typeof last, 'the height is a number').toBe('number');
    expect(
      measures.some((m) => Math.abs((last as number) - m) <= 2),
      `reported ${String(last)}, content ${JSON.stringify(measures)}`,
    ).toBe(true);
    const withoutAuto = await openEmbedded(
      t,
      dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, parentOrigin }),
    );
    await dashboardShown(withoutAuto, w);
    // Other messages the document does not forbid; a height message needs autoHeight.
    const stray = (await withoutAuto.messages()).filter(
      (m) =>
        m.fromHub &&
        typeof m.data === 'object' &&
        m.data !== null &&
        (m.data as Record<string, unknown>)['type'] === type,
    );
    expect(stray, 'no height without autoHeight').toEqual([]);
  },
  {
    timeout: HUB_TIMEOUT,
    parts,
    needs,
    relies: ['hub.events.height-message'],
  },
);
