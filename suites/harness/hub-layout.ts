/**
 * A dashboard's layout as its §4.17 dashboard page shows it: the charts' accessible names in
 * page order, each mapped back to the chart the world made under that name through the charts
 * hook (given/content.ts, chartsMadeOn). A read-back of the harness, for a target that serves
 * the hub and whose profile names a chart by its title (hub.things.chart). It takes the order
 * on the page for the layout's order, and decides nothing it did not see: a name the world
 * gave no chart of that dashboard, a name two of them share, or a page that shows no chart
 * end the test not-run.
 *
 * Imported on demand (given/dashboards.ts, layoutRead): loading the browser module starts the
 * run's browser, which a suite that reads no layout here does not want.
 */
import { cause } from './causes.ts';
import { hasHub, openHub } from './browser.ts';
import { HUB_PLACEHOLDERS, locatorName } from '../../spec/hub-profile.ts';
import type { Conformance } from './conformance.ts';
import type { MadeChart } from './given/content.ts';
import { HUB, fill } from './paths.ts';

/** How long the page must stay still before its charts are read, and the most it is waited for. */
const QUIET_MS = 300;
const CAP_MS = 15_000;

/** `{title}`: where a chart's name holds its title. */
const TITLE = `{${HUB_PLACEHOLDERS.chart ?? 'title'}}`;

/** Whether a layout can be read from the hub page: the hub served and given, charts named by title. */
export function hubLayoutReadable(t: Pick<Conformance, 'profile'>): boolean {
  const name = t.profile.hub?.things.chart?.name;
  return t.profile.serves.includes('hub') && name?.includes(TITLE) === true && hasHub();
}

/** A pattern for every name the template gives: what comes before and after the title, around it. */
export function titlePattern(template: string): RegExp {
  const at = template.indexOf(TITLE);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escape(template.slice(0, at))}.+${escape(template.slice(at + TITLE.length))}$`,
  );
}

/**
 * The chart ids of a dashboard's layout, in page order, read from its dashboard page opened
 * with `token` (a project-user token, §4.7) and mapped back through `made`, the charts the
 * world made on that dashboard; not-run where hubLayoutReadable refuses the target.
 */
export async function hubLayout(
  t: Conformance,
  dashboardId: string,
  made: readonly MadeChart[],
  token: string,
): Promise<string[]> {
  const chart = t.profile.hub?.things.chart;
  const template = chart?.name;
  if (!hubLayoutReadable(t) || chart === undefined || template === undefined)
    return t.notRun(
      "reading a layout from the hub page needs the hub (--hub) and the profile's hub.things.chart named by {title}",
      cause.shape('hub.things.chart'),
    );
  const byTitle = new Map<string, string[]>();
  for (const c of made)
    for (const title of c.titles) byTitle.set(title, [...(byTitle.get(title) ?? []), c.chartId]);
  const view = await openHub(
    t,
    `${fill(HUB.dashboard, { dashboardId })}?jwt=${encodeURIComponent(token)}`,
  );
  try {
    await view.frame.waitForLoadState('load');
    await view.settled(QUIET_MS, CAP_MS);
    const role = chart.role as Parameters<typeof view.frame.getByRole>[0];
    const every = view.frame.getByRole(role, { name: titlePattern(template) });
    const charts = await every.elementHandles();
    if (charts.length === 0)
      return t.notRun(
        `the hub page of ${dashboardId} shows no chart: an empty layout cannot be told from a page that did not show the dashboard`,
        cause.other('the hub page shows no chart'),
      );
    // Where each title the world gave is on the page: the place of each element it names.
    const titles = [...byTitle.keys()];
    const named = await Promise.all(
      titles.map((title) =>
        view.frame
          .getByRole(role, { name: locatorName(chart, { title }) ?? title, exact: true })
          .elementHandles(),
      ),
    );
    const places = await view.frame.evaluate(
      ({ all, each }) => each.map((hs) => hs.map((h) => all.indexOf(h))),
      { all: charts, each: named },
    );
    const ids: (string | undefined)[] = charts.map(() => undefined);
    for (const [i, title] of titles.entries()) {
      const owners = byTitle.get(title) ?? [];
      for (const at of places[i] ?? []) {
        if (at < 0) continue;
        if (owners.length > 1 || ids[at] !== undefined)
          return t.notRun(
            `more than one chart of ${dashboardId} answers to "${title}" on its hub page: the page cannot tell which is which`,
            cause.other('charts share a title on the hub page'),
          );
        ids[at] = owners[0];
      }
    }
    const unknown = ids.findIndex((id) => id === undefined);
    if (unknown >= 0) {
      const shown = await every
        .nth(unknown)
        .ariaSnapshot()
        .catch(() => '?');
      return t.notRun(
        `chart ${String(unknown + 1)} on the hub page of ${dashboardId} (${shown.split('\n')[0] ?? ''}) bears a title this test gave no chart it made on that dashboard`,
        cause.other('a chart on the hub page has an unknown title'),
      );
    }
    const seen = ids.filter((id): id is string => id !== undefined);
    if (new Set(seen).size !== seen.length)
      return t.notRun(
        `a chart of ${dashboardId} shows more than once on its hub page`,
        cause.other('charts share a title on the hub page'),
      );
    return seen;
  } finally {
    await view.close();
  }
}
