import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../harness/given/accounts.ts';
import type { Locator } from 'playwright-core';
import { openHub, type HubView } from '../harness/browser.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { createChart, createWorkspace, v1AddCharts, v1Post } from '../harness/given/dashboards.ts';
import {
  API_KEY,
  V2_KEY,
  applicationsOf,
  byLegacy,
  dashboardsOf,
  finalize,
  v2Post,
} from '../harness/given/v2.ts';
import { applicationPath, dashboardPath, needsData as needs, tokenOf, HUB_TIMEOUT } from './kit.ts';
import { CLONE, SAVE_FROM_CHAT, dashboardsPath, clonePath } from '../harness/paths.ts';
import { successStatus } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §4.17 (issue 23 part 6): every string a user of the API or the host can set, on every page
// that can show it, is text. Each string carries hostile text of every kind (markup, quotes,
// inline script, event-handler attributes, values that break out of an attribute, a
// `javascript:` URL) around a marker of its own, so a finding names the string that broke.
// After the page has rendered, the live DOM is searched for anything the text could have made;
// the string must also be shown somewhere on the page as set (in a visible element's text or
// an aria-label, whatever the markup), or the test is not-run (escaped where it is not shown
// proves nothing); the user's and the organization's names, which §2.3 and §2.4 say the hub
// shows, fail instead.

/** Hostile text around `marker` (lower-case letters: it also becomes an attribute name). */
export function hostile(marker: string): string {
  return (
    `javascript:alert('${marker}')//" autofocus onfocus=alert('${marker}') data-${marker}="x' ` +
    `'><svg onload=alert('${marker}')><img src=x onerror=alert('${marker}')>` +
    `<script>alert('${marker}')</script><b onmouseover=alert('${marker}')>"${marker}"</b>`
  );
}

/** The worlds a string lives in: before any migration, or finalized (§9) with v2 content. */
type WorldKind = 'live' | 'migrated';

/** One user-settable string: where it is set and where the reference hub shows it. */
interface Settable {
  readonly marker: string;
  readonly what: string;
  /** How the test sets it (the document's section, or the host hook). */
  readonly setBy: string;
  /** The page regions of the reference hub that show it (reference/hub/html.ts), for readers. */
  readonly regions: string;
  /** Shown as text, or as the value of a filter input. */
  readonly shownAs: 'text' | 'input value';
  readonly worlds: readonly WorldKind[];
  /**
   * The clause saying the hub shows it: then a hub that shows it on none of the pages fails,
   * where another string's absence only leaves its escaping unjudged (not-run).
   */
  readonly mustShow?: ClauseId;
}

const BOTH: readonly WorldKind[] = ['live', 'migrated'];

/** The inventory. A string the reference shows nowhere is still checked: not-run there. */
export const SETTABLE: readonly Settable[] = [
  {
    marker: 'eacapp',
    what: 'the application (workspace) name',
    setBy: 'host hook workspaces `name` (§2.8); after finalize the application it became',
    regions: 'header (banner heading)',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacprimary',
    what: "the name of the workspace's primary dashboard",
    setBy: 'host hook workspaces `dashboardName`',
    regions: 'navigation entry, tab, dashboard heading (of its panel), header when it is shown',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacboard',
    what: 'a dashboard name',
    setBy: 'host hook dashboards `name`',
    regions: 'header, navigation entry, tab, dashboard heading, region name, document title',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacclone',
    what: 'the name of a v1 clone',
    setBy: '§4.10 clone `name`',
    regions: 'navigation entry, tab, dashboard heading',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacv2new',
    what: 'the name of a dashboard created through v2',
    setBy: '§4.16 create `{name}`',
    regions: 'navigation entry, tab, dashboard heading',
    shownAs: 'text',
    worlds: ['migrated'],
  },
  {
    marker: 'eacv2clone',
    what: 'the name of a dashboard cloned through v2',
    setBy: '§4.16 clone `{name}`',
    regions: 'navigation entry, tab, dashboard heading',
    shownAs: 'text',
    worlds: ['migrated'],
  },
  {
    marker: 'eactitle',
    what: "a chart's chartConfig title",
    setBy: '§2.6 `title`, through the host hook charts',
    regions: 'chart card caption, chart name, image name, table caption',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacchatname',
    what: 'the name of a chart saved from chat (its chartConfig has no title)',
    setBy: '§4.14 save-from-chat `name`',
    regions: 'chart card caption, chart name, table caption',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacdimlabel',
    what: "a dimension's label",
    setBy: '§2.6 `dimensions[].label`',
    regions: 'none (the reference heads columns by field)',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacmeasurelabel',
    what: "a measure's label",
    setBy: '§2.6 `measures[].label`',
    regions: 'none (the reference heads columns by field)',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacformatlabel',
    what: "the chart's format label",
    setBy: '§2.6 `format.label`',
    regions: 'none',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacprefix',
    what: "the chart's label prefix",
    setBy: '§2.6 `format.labelPrefix`',
    regions: 'none',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacsuffix',
    what: "the chart's label suffix",
    setBy: '§2.6 `format.labelSuffix`',
    regions: 'none',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eaccontrol',
    what: "a filter control's label",
    setBy: 'host hook dashboards `controls[].label`',
    regions: 'filter bar (input label)',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eaccell',
    what: 'a value in a table cell',
    setBy: 'a row of the host hook connections, shown by a chart',
    regions: 'chart table cell, chart image label, drill-down control',
    shownAs: 'text',
    worlds: BOTH,
  },
  {
    marker: 'eacuser',
    what: "the viewer's project user name",
    setBy: '§4.5 register-user `name` (§2.4: shown in the hub)',
    regions: 'footer (signed-in line)',
    shownAs: 'text',
    worlds: BOTH,
    mustShow: 'resources.user.name',
  },
  {
    marker: 'eacorg',
    what: "the viewer's project organization name",
    setBy: '§4.4 register-organization `name` (§2.3: shown in the hub)',
    regions: 'footer (signed-in line)',
    shownAs: 'text',
    worlds: BOTH,
    mustShow: 'resources.organization.name',
  },
  {
    marker: 'eacfilter',
    what: 'a controlled filter value',
    setBy: '§4.17 `filter_{controlKey}` (the page address the host builds)',
    regions: 'filter bar (input value)',
    shownAs: 'input value',
    worlds: BOTH,
  },
];

/** The control whose value the `eacfilter` string sets (a text column of the table). */
const CONTROL_KEY = 'label';

/** The table the charts read: one row holds the hostile cell, one a plain value. */
const TABLE = 'eac_names';
const CHART_SQL = `SELECT label, SUM(amount) AS total FROM ${TABLE} GROUP BY label ORDER BY label`;

const parts = ['hub'] as const;
const migrating: readonly HookName[] = [...needs, 'migration'];

/** What a world holds: the strings it set, or why one could not be set, and its page ids. */
interface NamesWorld {
  readonly w: World;
  readonly token: string;
  /** Marker → why it is not on any page of this world (the target refused to set it). */
  readonly unset: ReadonlyMap<string, string>;
  readonly workspaceId: string;
  readonly boardId: string;
  /** After finalize: the application and the v2 id of the board. */
  readonly applicationId?: string;
  readonly v2BoardId?: string;
}

const text = (marker: string) => hostile(marker);

/** A write the world tries: the string's marker and why the target did not take it, if not. */
async function attempt(
  unset: Map<string, string>,
  marker: string,
  write: () => Promise<string | undefined>,
): Promise<void> {
  // A write the profile cannot place (a not-run thrown inside) leaves only this string unset.
  const problem = await write().catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
  if (problem !== undefined) unset.set(marker, problem);
}

const answered = (res: { status: number; text: string }) =>
  `${String(res.status)} ${res.text.slice(0, 200)}`;

/** The live world: every string of the inventory set once, through the API and the hooks. */
async function buildNames(t: Conformance): Promise<NamesWorld> {
  const w = await buildWorld(t);
  const org = w.account.organizationId;
  const key = w.creds().apiKey;
  const unset = new Map<string, string>();
  await t.hooks.createConnection(org, {
    name: 'hub names',
    table: {
      name: TABLE,
      columns: [
        { name: 'label', type: 'text' },
        { name: 'amount', type: 'integer' },
      ],
      rows: [
        { label: text('eaccell'), amount: 3 },
        { label: 'plain', amount: 1 },
      ],
    },
  });
  const ws = await createWorkspace(t, w, {
    name: text('eacapp'),
    dashboardName: text('eacprimary'),
  });
  const board = await t.http.post(
    `/accounts/${org}/workspaces/${ws.workspaceId}/dashboards`,
    {
      name: text('eacboard'),
      controls: [{ controlKey: CONTROL_KEY, field: 'label', label: text('eaccontrol') }],
    },
    { base: 'hooks' },
  );
  const boardId = (board.body as { data?: { dashboardId?: unknown } }).data?.dashboardId;
  if (board.status >= 300 || typeof boardId !== 'string')
    throw new Error(`host hook "dashboards" failed: ${answered(board)}`);
  const label = (marker: string) => ({ name: marker, field: marker, label: text(marker) });
  await createChart(t, w, boardId, `Chart ${t.faker.string.alphanumeric(6)}`, {
    title: text('eactitle'),
    type: 'bar',
    dimensions: [{ ...label('eacdimlabel'), field: 'label', format: '' }],
    measures: [{ ...label('eacmeasurelabel'), field: 'total', format: '' }],
    format: {
      label: text('eacformatlabel'),
      labelPrefix: text('eacprefix'),
      labelSuffix: text('eacsuffix'),
      formatOptions: '',
      formatLocale: '',
      dateFormat: '',
    },
    sqlOverride: CHART_SQL,
  });
  await attempt(unset, 'eacchatname', async () => {
    const save = await v1Post(t, SAVE_FROM_CHAT, key, {
      chartConfig: { type: 'bar', sqlOverride: CHART_SQL },
      connectionId: t.faker.string.uuid(),
      sql: CHART_SQL,
      agentId: t.faker.string.uuid(),
      name: text('eacchatname'),
      thumbnail: '',
    });
    const chartId = (save.body as { data?: { chartId?: unknown } } | null)?.data?.chartId;
    if (save.status !== 200 || typeof chartId !== 'string')
      return `the target did not save the chart from chat (${answered(save)})`;
    const added = await v1AddCharts(t, key, boardId, [chartId]);
    return successStatus(added.status)
      ? undefined
      : `the target did not add the saved chart (${answered(added)})`;
  });
  await attempt(unset, 'eacclone', async () => {
    const res = await v1Post(t, CLONE, key, { sourceDashboardId: boardId, name: text('eacclone') });
    return res.status === 200 ? undefined : `the target did not clone (${answered(res)})`;
  });
  // The viewer may drill down: one more place a cell value is shown.
  const role = await createRole(t, w, { drillDown: true });
  const organization = await registerOrganization(t, w, { name: text('eacorg') });
  const { userId } = await registerUser(t, w, {
    userRoleId: role.id,
    projectOrganizationId: organization.projectOrganizationId,
    name: text('eacuser'),
    properties: { region: 'north' },
  });
  return {
    w,
    token: await tokenOf(t, w, userId),
    unset,
    workspaceId: ws.workspaceId,
    boardId,
  };
}

/** The live world, finalized (§9), with a dashboard created and one cloned through v2. */
async function buildMigrated(t: Conformance): Promise<NamesWorld> {
  const live = await buildNames(t);
  const { w } = live;
  await finalize(t, w);
  const app = (await applicationsOf(t, w)).find((a) => a.legacyWorkspaceId === live.workspaceId);
  if (app === undefined) expect.fail('no application came from the workspace');
  const template = byLegacy(
    await dashboardsOf(t, w, app.applicationId),
    live.boardId,
    'the migrated board',
  );
  const unset = new Map(live.unset);
  await attempt(unset, 'eacv2new', async () => {
    const res = await v2Post(t, w, dashboardsPath(app.applicationId), API_KEY, {
      name: text('eacv2new'),
    });
    return successStatus(res.status) ? undefined : `the v2 create failed (${answered(res)})`;
  });
  await attempt(unset, 'eacv2clone', async () => {
    const res = await v2Post(t, w, clonePath(app.applicationId, template.id), API_KEY, {
      name: text('eacv2clone'),
    });
    return successStatus(res.status) ? undefined : `the v2 clone failed (${answered(res)})`;
  });
  return { ...live, unset, applicationId: app.applicationId, v2BoardId: template.id };
}

const worlds = new Map<WorldKind, Promise<NamesWorld>>();

/** One world of each kind per file: the tests only read it. A replay builds its own. */
function namesWorld(t: Conformance, kind: WorldKind): Promise<NamesWorld> {
  let world = worlds.get(kind);
  if (world === undefined) {
    world = kind === 'live' ? buildNames(t) : buildMigrated(t);
    worlds.set(kind, world);
    void world.catch(() => worlds.delete(kind));
  }
  return world;
}

/** A page of §4.17 as a world opens it, with the filter query of `eacfilter` when asked. */
interface PageCase {
  readonly world: WorldKind;
  readonly what: string;
  readonly path: (n: NamesWorld, query: Record<string, string>) => string;
  /** Choose the board in the page's navigation first (the profile's navigation entry). */
  readonly chooseBoard?: true;
}

const ids = (n: NamesWorld) => ({
  applicationId: n.applicationId ?? n.workspaceId,
  v2BoardId: n.v2BoardId ?? n.boardId,
});

const PAGES: readonly PageCase[] = [
  {
    world: 'live',
    what: 'the dashboard page',
    path: (n, q) => dashboardPath(n.boardId, { jwt: n.token, ...q }),
  },
  {
    world: 'live',
    what: 'the application page',
    path: (n, q) => applicationPath(n.workspaceId, { jwt: n.token, ...q }),
  },
  {
    world: 'live',
    what: 'the application page with the board chosen in its navigation',
    path: (n, q) => applicationPath(n.workspaceId, { jwt: n.token, ...q }),
    chooseBoard: true,
  },
  {
    world: 'live',
    what: 'the application page with dashboardId',
    path: (n, q) => applicationPath(n.workspaceId, { jwt: n.token, dashboardId: n.boardId, ...q }),
  },
  {
    world: 'migrated',
    what: 'the dashboard page by v2 id after finalize',
    path: (n, q) => dashboardPath(ids(n).v2BoardId, { jwt: n.token, ...q }),
  },
  {
    world: 'migrated',
    what: 'the application page by v2 id after finalize',
    path: (n, q) => applicationPath(ids(n).applicationId, { jwt: n.token, ...q }),
  },
  {
    world: 'migrated',
    what: 'the dashboard page by v1 id after finalize',
    path: (n, q) => dashboardPath(n.boardId, { jwt: n.token, ...q }),
  },
];

/**
 * What in the live DOM the hostile text could have made, per marker, as a script run in the
 * page: an attribute named after the marker (an attribute value broken out of), an
 * event-handler attribute or a `javascript:` URL holding the marker, a script element whose
 * text is the marker's script. Shadow roots are searched too. Runs in the browser, so it is
 * source text; one walk of the document answers for every marker.
 */
const MADE_OF = `(markers) => {
  const found = Object.fromEntries(markers.map((m) => [m, []]));
  const urls = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc']);
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      for (const a of Array.from(el.attributes)) {
        const name = a.name.toLowerCase();
        for (const marker of markers) {
          if (name.includes(marker)) found[marker].push('<' + el.localName + '> has an attribute named ' + name);
          else if (name.startsWith('on') && a.value.includes(marker))
            found[marker].push('<' + el.localName + ' ' + name + '="' + a.value + '">');
          else if (urls.has(name) && /^\\s*javascript:/i.test(a.value) && a.value.includes(marker))
            found[marker].push('<' + el.localName + ' ' + name + '="' + a.value + '">');
        }
      }
      if (el.localName === 'script')
        for (const marker of markers)
          if ((el.textContent || '').trim() === "alert('" + marker + "')")
            found[marker].push('<script>' + el.textContent + '</script>');
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return JSON.stringify(found);
}`;

async function madeOf(
  view: HubView,
  markers: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const out = await view.frame.evaluate(`(${MADE_OF})(${JSON.stringify(markers)})`);
  return new Map(Object.entries(JSON.parse(String(out)) as Record<string, string[]>));
}

/** A visible element whose text is the string exactly as set. */
const shownText = (view: HubView, s: Settable) =>
  view.frame.getByText(text(s.marker), { exact: true }).filter({ visible: true });

/**
 * The string shown as set, in whatever markup: within the text of a visible element, or within
 * an element's accessible name given by aria-label; for a filter value, an input's value.
 */
async function shownCount(view: HubView, s: Settable): Promise<number> {
  const value = text(s.marker);
  if (s.shownAs === 'text') {
    const inText = await view.frame.getByText(value).filter({ visible: true }).count();
    const labels = await view.frame
      .locator('[aria-label]')
      .evaluateAll((els) =>
        els.map((e) =>
          (e as unknown as { getAttribute(n: string): string }).getAttribute('aria-label'),
        ),
      );
    return inText + labels.filter((l) => l.includes(value)).length;
  }
  const values = await view.frame
    .getByRole('textbox')
    .evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
  return values.filter((v) => v === value).length;
}

/** How long a page has to show a first string of the world before it counts as rendered. */
const RENDER_MS = 15_000;
/**
 * Once it shows one, how long the page must then stay still (no request in flight, no change
 * to its document) before the strings are looked for, and the most it is waited for.
 */
const QUIET_MS = 400;
const SETTLE_MS = 1_500;

async function poll(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What one page showed: per marker, what the text made and whether it was shown as set. */
interface PageScan {
  /** Whether the page showed any string set (else it could not be judged: nothing is shown). */
  readonly rendered: boolean;
  readonly made: ReadonlyMap<string, readonly string[]>;
  readonly shown: ReadonlySet<string>;
  readonly dialogs: readonly string[];
  /** Why the page could not be looked at (no navigation entry to choose the board by). */
  readonly skipped?: string;
}

/**
 * Opens a page once and looks for every string of its world at once: each page costs one
 * load per kind, whichever string's test asks first; the other tests read what it found.
 * Two kinds: `filtered` sets the filter to the filter-value string (which then shows in the
 * input), the plain load sets no filter, so that the chart's rows, which that filter value
 * matches none of, show their cells.
 */
async function scanPage(
  t: Conformance,
  page: PageCase,
  n: NamesWorld,
  filtered: boolean,
): Promise<PageScan> {
  const strings = SETTABLE.filter((x) => x.worlds.includes(page.world) && !n.unset.has(x.marker));
  const markers = strings.map((x) => x.marker);
  const filterValue = filtered ? strings.find((x) => x.shownAs === 'input value') : undefined;
  const query: Record<string, string> =
    filterValue === undefined
      ? {}
      : { [`filter_${CONTROL_KEY}`]: JSON.stringify(text(filterValue.marker)) };
  const view = await openHub(t, page.path(n, query));
  try {
    if (page.chooseBoard === true) {
      const entry = view.thing('navigationEntry', { name: text('eacboard') });
      if (!(await poll(async () => (await entry.count()) > 0, RENDER_MS)))
        return {
          rendered: false,
          made: new Map(),
          shown: new Set(),
          dialogs: [...view.dialogs],
          skipped: `no navigation entry of ${page.what} is named by the dashboard name`,
        };
      await entry.first().click();
    }
    // The page has rendered once it shows one of the strings, or one rendered as markup: one
    // locator for them all, one walk of the document for the markup.
    const anyText = strings
      .filter((x) => x.shownAs === 'text')
      .map((x) => shownText(view, x))
      .reduce<Locator | undefined>((a, b) => (a === undefined ? b : a.or(b)), undefined);
    const rendered = await poll(
      async () =>
        (anyText !== undefined && (await anyText.count()) > 0) ||
        [...(await madeOf(view, markers)).values()].some((found) => found.length > 0),
      RENDER_MS,
    );
    if (rendered) await view.settled(QUIET_MS, SETTLE_MS);
    const shown = new Set<string>();
    if (rendered) for (const x of strings) if ((await shownCount(view, x)) > 0) shown.add(x.marker);
    return { rendered, made: await madeOf(view, markers), shown, dialogs: [...view.dialogs] };
  } finally {
    await view.close();
  }
}

const scans = new Map<string, Promise<PageScan>>();

function pageScan(
  t: Conformance,
  page: PageCase,
  n: NamesWorld,
  filtered: boolean,
): Promise<PageScan> {
  const key = `${page.world} ${page.what} ${String(filtered)}`;
  let scan = scans.get(key);
  if (scan === undefined) {
    scan = scanPage(t, page, n, filtered);
    scans.set(key, scan);
    void scan.catch(() => scans.delete(key));
  }
  return scan;
}

for (const world of ['live', 'migrated'] as const) {
  const pages = PAGES.filter((p) => p.world === world);
  const migrated = world === 'migrated';
  for (const s of SETTABLE.filter((x) => x.worlds.includes(world))) {
    conformance(
      ['hub.security.names-are-text', ...(s.mustShow === undefined ? [] : [s.mustShow])],
      `${s.what} (${s.marker}) holding markup, quotes, script, event handlers and a javascript: URL stays text on every page${s.mustShow === undefined ? '' : ', and is shown on one'}${migrated ? ' after finalize' : ''}`,
      async (t) => {
        const n = await namesWorld(t, world);
        const reason = n.unset.get(s.marker);
        if (reason !== undefined)
          t.notRun(`${s.what} is not set: ${reason}`, cause.other('the target took no such value'));
        const shownOn: string[] = [];
        // Each page with the filter set to the filter-value string and without a filter.
        const filterSet = SETTABLE.some(
          (x) => x.shownAs === 'input value' && x.worlds.includes(world) && !n.unset.has(x.marker),
        );
        const loads = pages.flatMap((page) =>
          (filterSet ? [true, false] : [false]).map((filtered) => ({ page, filtered })),
        );
        // The pages load side by side: most of a page's time is waiting for it to render.
        const scanned = await Promise.all(
          loads.map(async (load) => ({
            ...load,
            scan: await pageScan(t, load.page, n, load.filtered),
          })),
        );
        for (const { page, filtered, scan } of scanned) {
          const where = `${page.what}${filtered ? ' (filter set)' : ''}`;
          expect(
            scan.made.get(s.marker) ?? [],
            `no element or attribute is made of ${s.what} on ${where}`,
          ).toEqual([]);
          expect(
            scan.dialogs.filter((d) => d.includes(s.marker)),
            `no script of ${s.what} ran on ${where}`,
          ).toEqual([]);
          if (scan.shown.has(s.marker) && !shownOn.includes(page.what)) shownOn.push(page.what);
        }
        const none = `${s.what} (${s.marker}) is shown as ${s.shownAs} on none of the pages (${pages.map((p) => p.what).join('; ')})`;
        // §2.3, §2.4: a name the document says the hub shows must be on some page.
        if (s.mustShow !== undefined)
          expect(shownOn, `${none}, which ${s.mustShow} requires`).not.toEqual([]);
        // Any other string: the document does not say a page shows it, so a hub that shows it
        // nowhere leaves its escaping with nothing to observe.
        if (shownOn.length === 0) t.notRun(none, cause.documentGap('hub.security.names-are-text'));
      },
      {
        // The first test of a world builds it (and finalizes it) and loads its pages.
        timeout: (migrated ? 3 : 2) * HUB_TIMEOUT,
        parts: migrated ? [...parts, 'v2'] : parts,
        needs: migrated ? migrating : needs,
        ...(migrated ? { relies: V2_KEY } : {}),
      },
    );
  }
}
