/**
 * Discover: the hub section (§4.17, §2.2). It builds a small hub world, opens the pages the
 * document names in one browser for project users whose roles turn the §2.2 flags on and then
 * off one at a time (and with the §4.17 query parameters), reads each page's accessibility tree,
 * and takes as a thing the ARIA role and name of the node that goes when its flag does. Names
 * with a per-item part become templates by the names the world was built with. Rows are read
 * in each structure the profile allows until one gives the rows the world holds; messages are
 * read off the parent page. Every proposal is listed for review; what was not seen is said.
 */
import {
  EDITING_TOOLS,
  HUB_THINGS,
  type HubLocator,
  type HubProfile,
  type HubThing,
  type RowStructure,
} from '../../spec/hub-profile.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { rowsOf } from '../../suites/harness/hub-rows.ts';
import { fill, HUB } from '../../suites/harness/paths.ts';
import type { Frame, Locator } from 'playwright-core';
import { HubBrowser, type HubPage } from './hub-browser.ts';
import {
  CONTROL_ROLES,
  flatten,
  gone,
  holds,
  INPUT_ROLES,
  keyOf,
  templateOf,
  type AxNode,
  type Placed,
} from './hub-tree.ts';
import { buildHubWorld, DRILLED, SHOWING, tokenFor, type HubWorld } from './hub-world.ts';
import { HUB_WORLD_HOOKS } from '../../suites/harness/given/content.ts';
import { isObject, type Watch } from './watch.ts';

/** The controls one §2.2 flag offers, each taken away by turning that flag off alone. */
const ONE_FLAG: readonly (readonly [HubThing, keyof RolePermissions])[] = [
  ['scheduleReport', 'enableScheduleReport'],
  ['setDefault', 'canSetDefaultDashboard'],
  ['duplicate', 'canDuplicateDashboard'],
  ['aiInsight', 'aiInsight'],
  ['aiCharts', 'aiCharts'],
  ['editFromSession', 'canEditChartFromSession'],
  ['addChart', 'addChart'],
  ['addFilter', 'addFilter'],
  ['createChart', 'createChart'],
  ['createChartSQL', 'createChartSQL'],
  ['editCharts', 'editCharts'],
  ['removeChart', 'removeChart'],
  ['addDashboard', 'addDashboard'],
];

/** Roles that hold rows, by the structure the profile names. */
const ROW_CONTAINERS = new Set(['table', 'grid', 'list']);
/** Texts a list item may put between its cells, tried in turn. */
const SEPARATORS = [' | ', '|', ' · ', ', ', ': ', ' – ', ' - ', '; ', '\t', ' '];

type Things = Partial<Record<HubThing, HubLocator>>;

/** The hub section of the draft, or what kept it from being read. */
export async function hubSection(w: Watch): Promise<void> {
  const missing = HUB_WORLD_HOOKS.filter((h) => !w.t.target.hooks.includes(h));
  if (missing.length > 0) {
    w.cannot(
      'the hub section',
      `the target announces no ${missing.join(', ')} hooks, so no dashboard can be built to look at`,
    );
    return;
  }
  const started = Date.now();
  const browser = await HubBrowser.launch();
  if (typeof browser === 'string') {
    w.cannot('the hub section', browser);
    return;
  }
  const counter = { pages: 0 };
  try {
    const hub = await readHub(w, browser, counter);
    if (hub !== undefined) w.hub = hub;
  } catch (error) {
    w.cannot('the hub section', `reading the pages failed: ${String(error).split('\n')[0] ?? ''}`);
  } finally {
    await browser.close();
  }
  w.saw(
    `hub: ${String(counter.pages)} pages read in one browser in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function readHub(
  w: Watch,
  browser: HubBrowser,
  counter: { pages: number },
): Promise<HubProfile | undefined> {
  const hubUrl = w.t.target.hubUrl;
  const world = await buildHubWorld(w);
  const full = await tokenFor(w, world, SHOWING);
  const address = (path: string, query: Record<string, string>) =>
    `${hubUrl}${path}?${new URLSearchParams(query).toString()}`;
  const board = (query: Record<string, string>) =>
    address(fill(HUB.dashboard, { dashboardId: world.board.dashboardId }), query);
  const application = (query: Record<string, string>) =>
    address(fill(HUB.application, { applicationId: world.applicationId }), query);
  const open = async (url: string) => {
    counter.pages++;
    return browser.open(url);
  };
  const treeAt = async (url: string) => (await open(url)).tree();
  const asRole = async (flags: RolePermissions) => tokenFor(w, world, { ...SHOWING, ...flags });

  const base = await treeAt(board({ jwt: full }));
  if (!flatten(base).some(({ node }) => node.name.includes(world.chartTitle))) {
    w.cannot(
      'the hub section',
      `the dashboard page for a token of every showing flag named nothing after its chart "${world.chartTitle}"`,
    );
    return undefined;
  }
  const off = new Map<keyof RolePermissions, AxNode[]>();
  for (const [, flag] of ONE_FLAG)
    off.set(flag, await treeAt(board({ jwt: await asRole({ [flag]: false }) })));
  const noDrill = await treeAt(board({ jwt: await asRole({ drillDown: false }) }));
  const noDownload = await treeAt(board({ jwt: full, hideDownloadButton: 'true' }));
  const noHeader = await treeAt(board({ jwt: full, hideHeader: 'true' }));
  const noFilters = await treeAt(board({ jwt: await asRole({ hideFilters: true }) }));
  const readOnly = await treeAt(board({ jwt: await asRole({ readOnly: true }) }));
  const app = await treeAt(application({ jwt: full }));
  const noTabs = await treeAt(application({ jwt: await asRole({ disableTabs: true }) }));
  const alone = await treeAt(application({ jwt: full, dashboardId: world.primary.dashboardId }));

  const things: Things = {};
  const says: string[] = [];
  const found = (thing: HubThing, node: Pick<AxNode, 'role' | 'name'>, how: string) => {
    things[thing] = node.name === '' ? { role: node.role } : { role: node.role, name: node.name };
    says.push(`${thing} ${JSON.stringify(things[thing])} (${how})`);
  };

  // One control per flag: what turning that flag off alone takes away, and no other flag does.
  const controlsGone = (tree: AxNode[]) =>
    gone(base, tree).filter(({ node }) => CONTROL_ROLES.has(node.role) && node.name !== '');
  const byFlag = new Map<HubThing, Placed[]>([
    ...ONE_FLAG.map(([thing, flag]) => [thing, controlsGone(off.get(flag) ?? base)] as const),
    ['download', controlsGone(noDownload)] as const,
  ]);
  // A control goes with each flag it needs (createChartSQL's with createChart too): it is the
  // thing of the flag whose turning off took the fewest controls with it, when that flag is one.
  const size = (thing: HubThing) =>
    unique((byFlag.get(thing) ?? []).map(({ node }) => node)).length;
  const removers = new Map<string, HubThing[]>();
  for (const [thing, placed] of byFlag)
    for (const node of unique(placed.map(({ node: n }) => n)))
      removers.set(keyOf(node), [...(removers.get(keyOf(node)) ?? []), thing]);
  const ownedBy = (thing: HubThing, node: AxNode) => {
    const by = removers.get(keyOf(node)) ?? [];
    const least = Math.min(...by.map(size));
    const fewest = by.filter((r) => size(r) === least);
    return fewest.length === 1 && fewest[0] === thing;
  };
  for (const [thing, placed] of byFlag) {
    const own = unique(placed.map(({ node }) => node)).filter((n) => ownedBy(thing, n));
    const how =
      thing === 'download' ? 'gone with hideDownloadButton=true' : `gone with ${flagOf(thing)} off`;
    if (own.length === 1 && own[0] !== undefined) {
      const node = own[0];
      const title = templateOf(node.name, [world.chartTitle], 'title');
      found(
        thing,
        thing === 'editFromSession' && title !== undefined ? { ...node, name: title } : node,
        how,
      );
    } else
      w.cannot(
        `hub.things.${thing}`,
        own.length === 0
          ? `no control went from the page ${how.replace('gone ', '')}`
          : `${String(own.length)} controls went ${how.replace('gone ', '')}: ${own.map((n) => `${n.role} "${n.name}"`).join(', ')}`,
      );
  }

  // Drill-down: a control per point, its name holding the point's value.
  const drills = gone(base, noDrill).filter(({ node }) => CONTROL_ROLES.has(node.role));
  const drillNames = unique(
    drills.flatMap(({ node }) => {
      const name = templateOf(node.name, world.points, 'value');
      return name === undefined ? [] : [{ role: node.role, name }];
    }),
  );
  if (drillNames.length === 1 && drillNames[0] !== undefined)
    found('drillDown', drillNames[0], 'one per point, gone with drillDown off');
  else
    w.cannot(
      'hub.things.drillDown',
      `${String(drillNames.length)} forms of control named after a point went with drillDown off`,
    );

  // Containers: the node that goes, its parent staying, holding what belongs in it.
  const tops = (a: AxNode[], b: AxNode[]) =>
    gone(a, b)
      .filter((p) => p.top)
      .map((p) => p.node);
  const header = pick(tops(base, noHeader), () => true);
  if (header !== undefined) found('header', header, 'gone with hideHeader=true');
  else w.cannot('hub.things.header', 'not one part of the page went with hideHeader=true');

  const label = world.control.label;
  const input = unique(
    gone(base, noFilters)
      .map(({ node }) => node)
      .filter((n) => INPUT_ROLES.has(n.role) && n.name.includes(label)),
  );
  if (input.length === 1 && input[0] !== undefined)
    found(
      'filterInput',
      { role: input[0].role, name: templateOf(input[0].name, [label], 'label') ?? '' },
      'named after the control label, gone with hideFilters',
    );
  else
    w.cannot(
      'hub.things.filterInput',
      `${String(input.length)} inputs named after the control label went with hideFilters`,
    );
  const bar = pick(tops(base, noFilters), (n) => input.some((i) => holds(n, keyOf(i))));
  if (bar !== undefined) found('filterBar', bar, 'gone with hideFilters, holding the filter input');
  else
    w.cannot(
      'hub.things.filterBar',
      'no part of the page holding the filter input went with hideFilters',
    );

  const tools = EDITING_TOOLS.flatMap((t) => (things[t] === undefined ? [] : [things[t]]));
  const group = pick(
    tops(base, readOnly),
    (n) =>
      tools.length > 0 && tools.every((l) => holds(n, keyOf({ role: l.role, name: l.name ?? '' }))),
  );
  if (group !== undefined)
    found('editingTools', group, 'gone with readOnly, holding every editing tool');
  else
    w.cannot(
      'hub.things.editingTools',
      'no part of the page holding the editing tools went with readOnly',
    );

  const names = [world.primary.name, world.board.name];
  const listsBoth = (n: AxNode) =>
    names.every((name) => flatten(n.children).some(({ node }) => node.name === name));
  const tabs = pick(tops(app, noTabs), listsBoth);
  if (tabs !== undefined) found('tabs', tabs, 'gone with disableTabs, listing both dashboards');
  else
    w.cannot(
      'hub.things.tabs',
      'no part of the application page listing its dashboards went with disableTabs',
    );
  const nav = pick(
    tops(app, alone).filter((n) => tabs === undefined || keyOf(n) !== keyOf(tabs)),
    listsBoth,
  );
  if (nav !== undefined) {
    found('navigation', nav, 'gone with dashboardId, listing both dashboards');
    const entries = unique(
      flatten(nav.children)
        .map(({ node }) => node)
        .filter((n) => names.includes(n.name))
        .map((n) => ({ role: n.role, name: '{name}' })),
    );
    if (entries.length === 1 && entries[0] !== undefined)
      found('navigationEntry', entries[0], 'in the navigation, named after each dashboard');
    else
      w.cannot(
        'hub.things.navigationEntry',
        `${String(entries.length)} roles of entry named after the dashboards in the navigation`,
      );
  } else
    w.cannot(
      'hub.things.navigation',
      'no part of the application page listing its dashboards went with dashboardId',
    );

  // The chart: the outermost node named after its title that holds rows.
  const titled = flatten(base).filter(({ node }) => node.name.includes(world.chartTitle));
  const chart =
    titled.find(({ node }) =>
      flatten(node.children).some(({ node: n }) => ROW_CONTAINERS.has(n.role)),
    ) ?? titled.find(({ node }) => node.role !== 'img');
  if (chart !== undefined)
    found(
      'chart',
      {
        role: chart.node.role,
        name: templateOf(chart.node.name, [world.chartTitle], 'title') ?? '',
      },
      'named after the chart title',
    );

  // On the page again: each thing found once, then what a click opens, and the rows.
  const rows: { chart?: RowStructure; drillDown?: RowStructure } = {};
  const page = await open(board({ jwt: full }));
  await page.tree();
  const values = { title: world.chartTitle, label, value: DRILLED };
  for (const [thing, locator] of Object.entries(things) as [HubThing, HubLocator][]) {
    if (thing === 'navigation' || thing === 'navigationEntry' || thing === 'tabs') continue;
    await once(w, things, page.frame, thing, locator, values);
  }
  const appPage = await open(application({ jwt: full }));
  await appPage.tree();
  for (const thing of ['navigation', 'tabs'] as const) {
    const locator = things[thing];
    if (locator !== undefined) await once(w, things, appPage.frame, thing, locator, {});
  }
  const navLocator = things.navigation;
  const entry = things.navigationEntry;
  if (navLocator !== undefined && entry !== undefined)
    for (const name of names) {
      const n = await locate(locate(appPage.frame, navLocator, {}), entry, { name })
        .count()
        .catch(() => 0);
      if (n !== 1 && things.navigationEntry !== undefined) {
        delete things.navigationEntry;
        w.cannot(
          'hub.things.navigationEntry',
          `the navigation holds ${String(n)} entries for "${name}"`,
        );
      }
    }

  await afterClicks(w, open, board({ jwt: full }), world, things, rows, found);
  const messages = await messagesOf(
    w,
    open,
    board({ jwt: full, autoHeight: 'true', parentOrigin: browser.parentOrigin }),
    world,
    things,
  );

  if (things.scheduleReport !== undefined)
    says.push('scheduledReports "all" (the control showed for the one organization looked at)');
  w.cannot(
    'hub.v1Component',
    'which pages show a v1 dashboard as it was at finalize (§9) was not looked at: write it',
  );
  if (things.scheduleReport === undefined)
    w.cannot(
      'hub.scheduledReports',
      'enableScheduleReport showed no control: the organization may have no scheduled reports, or the control is not told apart',
    );
  for (const thing of HUB_THINGS)
    if (
      things[thing] === undefined &&
      !w.undecided.some((u) => u.startsWith(`hub.things.${thing}`))
    )
      w.cannot(`hub.things.${thing}`, 'not seen');
  w.saw(`hub: ${String(Object.keys(things).length)} things by role and name`);
  w.review.push(
    `hub.things: each is the role and accessible name of what the page showed and took away with its flag or parameter: ${says.join('; ')}`,
  );
  return {
    things,
    rows: {
      chart: rows.chart ?? { structure: 'table' },
      drillDown: rows.drillDown ?? { structure: 'table' },
    },
    ...messages,
    ...(things.scheduleReport !== undefined ? { scheduledReports: 'all' as const } : {}),
  };
}

/** Which flag takes a control away. */
function flagOf(thing: HubThing): string {
  return ONE_FLAG.find(([t]) => t === thing)?.[1] ?? thing;
}

/** Nodes of distinct role and name. */
function unique<T extends Pick<AxNode, 'role' | 'name'>>(nodes: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const n of nodes) if (!seen.has(keyOf(n))) seen.set(keyOf(n), n);
  return [...seen.values()];
}

/** The one node of distinct role and name among `nodes` for which `want` holds. */
function pick(nodes: readonly AxNode[], want: (n: AxNode) => boolean): AxNode | undefined {
  const fit = unique(nodes.filter(want));
  return fit.length === 1 ? fit[0] : undefined;
}

function locate(
  within: Frame | Locator,
  locator: HubLocator,
  values: Readonly<Record<string, string>>,
): Locator {
  const name = locator.name?.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
  return within.getByRole(locator.role as Parameters<Frame['getByRole']>[0], {
    ...(name !== undefined ? { name, exact: true } : {}),
  });
}

/** Keeps a thing only when the page holds it once. */
async function once(
  w: Watch,
  things: Things,
  frame: Frame,
  thing: HubThing,
  locator: HubLocator,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  const n = await locate(frame, locator, values)
    .count()
    .catch(() => 0);
  if (n === 1) return;
  delete things[thing];
  w.cannot(
    `hub.things.${thing}`,
    `${JSON.stringify(locator)} finds ${String(n)} elements on the page, not one`,
  );
}

/** The aiInsight sidebar, the rows behind a drilled point, and the structure of both rows. */
async function afterClicks(
  w: Watch,
  open: (url: string) => Promise<HubPage>,
  url: string,
  world: HubWorld,
  things: Things,
  rows: { chart?: RowStructure; drillDown?: RowStructure },
  found: (thing: HubThing, node: Pick<AxNode, 'role' | 'name'>, how: string) => void,
): Promise<void> {
  const page = await open(url);
  const before = await page.tree();
  const values = { title: world.chartTitle, value: DRILLED };
  if (!world.data)
    w.cannot(
      'hub.rows',
      'the target announces no connections hook, so no rows of known values were shown (tables, the schema default, stand)',
    );
  if (things.chart !== undefined && world.data) {
    const s = await structureOf(locate(page.frame, things.chart, values), before, world.chartRows);
    if (s !== undefined) rows.chart = s;
    else
      w.cannot(
        'hub.rows.chart',
        "no structure read the chart as the rows its data gives (a table, the schema's default, stands)",
      );
  }
  if (things.aiInsight !== undefined) {
    const opener = locate(page.frame, things.aiInsight, {});
    const after = await page.treeAfter(() => opener.click());
    const opened = pick(
      gone(after, before)
        .filter((p) => p.top)
        .map((p) => p.node),
      (n) => n.name !== '' && !CONTROL_ROLES.has(n.role),
    );
    if (opened !== undefined) {
      found('aiInsightSidebar', opened, 'appeared on clicking aiInsight');
      if ((await locate(page.frame, opened, {}).count()) !== 1) delete things.aiInsightSidebar;
    } else
      w.cannot('hub.things.aiInsightSidebar', 'no one named part appeared on clicking aiInsight');
  }
  if (things.drillDown === undefined) return;
  const drillPage = await open(url);
  const start = await drillPage.tree();
  const point = locate(drillPage.frame, things.drillDown, values);
  const drilled = await drillPage.treeAfter(() => point.click());
  const shown = gone(drilled, start)
    .filter((p) => p.top && p.node.name.includes(DRILLED) && !CONTROL_ROLES.has(p.node.role))
    .map((p) => ({ role: p.node.role, name: templateOf(p.node.name, [DRILLED], 'value') ?? '' }));
  const region = unique(shown);
  if (region.length !== 1 || region[0] === undefined) {
    w.cannot(
      'hub.things.drillDownRows',
      `${String(region.length)} parts named after the point appeared on drilling into it`,
    );
    return;
  }
  found('drillDownRows', region[0], 'appeared on drilling into a point, named after it');
  if (world.data) {
    const s = await structureOf(
      locate(drillPage.frame, region[0], values),
      drilled,
      world.drillRows,
    );
    if (s !== undefined) rows.drillDown = s;
    else
      w.cannot(
        'hub.rows.drillDown',
        "no structure read the rows behind the point as the data gives them (a table, the schema's default, stands)",
      );
  }
}

/** The structure in which `within` shows `expected` (each row's values among its cells). */
async function structureOf(
  within: Locator,
  tree: AxNode[],
  expected: readonly (readonly string[])[],
): Promise<RowStructure | undefined> {
  const inItems = new Set(
    flatten(tree)
      .filter(({ ancestors }) => ancestors.some((a) => a.role === 'listitem'))
      .map(({ node }) => node.role),
  );
  const tries: RowStructure[] = [
    { structure: 'table' },
    { structure: 'grid' },
    ...[...inItems].map((role) => ({ structure: 'list' as const, cell: { role } })),
    ...SEPARATORS.map((separator) => ({ structure: 'list' as const, separator })),
  ];
  for (const s of tries) {
    const read = await rowsOf(within, s, 'rows', 500)
      .read()
      .catch(() => undefined);
    if (read !== undefined && matches(read, expected)) return s;
  }
  return undefined;
}

function matches(read: readonly string[], expected: readonly (readonly string[])[]): boolean {
  if (read.length !== expected.length) return false;
  const cells = read.map((r) => r.split('|').map((c) => c.trim()));
  return expected.every((e) =>
    cells.some((c) => c.length === e.length && e.every((v) => c.includes(v))),
  );
}

/** §4.17's two messages: the height (autoHeight) and embed:params (a filter changed). */
async function messagesOf(
  w: Watch,
  open: (url: string) => Promise<HubPage>,
  url: string,
  world: HubWorld,
  things: Things,
): Promise<Pick<HubProfile, 'heightMessage' | 'paramsMessage'>> {
  const out: Pick<HubProfile, 'heightMessage' | 'paramsMessage'> = {};
  const page = await open(url);
  await page.tree();
  const height = Number(
    await page.frame.evaluate('document.documentElement.scrollHeight').catch(() => 0),
  );
  const first = (await page.messages()).filter(isObject);
  const heights = first.flatMap((m) => {
    const type = m['type'];
    if (typeof type !== 'string') return [];
    return Object.entries(m)
      .filter(([, v]) => typeof v === 'number' && v > 0)
      .map(([field, v]) => ({ type, field, off: Math.abs((v as number) - height) }));
  });
  heights.sort((a, b) => a.off - b.off);
  const h = heights[0];
  if (h !== undefined) {
    out.heightMessage = { type: h.type, field: h.field };
    w.review.push(
      `hub.heightMessage: a message of type "${h.type}" with autoHeight=true carried ${h.field}, the nearest number to the page's height`,
    );
  } else
    w.cannot(
      'hub.heightMessage',
      'with autoHeight=true and parentOrigin the parent received no message with a type and a number',
    );
  const input = things.filterInput;
  if (input === undefined) {
    w.cannot('hub.paramsMessage', 'no filter input found to change');
    return out;
  }
  const before = first.length;
  const field = locate(page.frame, input, { label: world.control.label });
  await field.fill('"online"');
  await field.press('Enter');
  const key = `filter_${world.control.controlKey}`;
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const now = (await page.messages()).filter(isObject).slice(before);
    const params = now.find((m) => m['type'] === 'embed:params');
    const member =
      params === undefined
        ? undefined
        : Object.entries(params).find(([, v]) => isObject(v) && key in v);
    if (member !== undefined) {
      out.paramsMessage = { type: 'embed:params', field: member[0] };
      w.review.push(
        `hub.paramsMessage: on a filter change the embed:params message held ${key} under ${member[0]}`,
      );
      return out;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  w.cannot(
    'hub.paramsMessage',
    `no embed:params message holding ${key} came on changing the filter`,
  );
  return out;
}
