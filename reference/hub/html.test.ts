import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { all, clean, hidden, parse, textOf, type El } from '../../fixtures/pages/html-reader.ts';
import { EDITING_TOOLS } from '../../spec/hub-profile.ts';
import {
  PERMISSION_FLAGS,
  type EffectivePermissions,
  type PermissionFlag,
} from '../../spec/schemas/permissions.ts';
import { renderMessage, renderPage, shown, text } from './html.ts';
import type { ChartView, DashboardView, PageView } from './page.ts';
import { readQuery, type PageQuery } from './query.ts';

// The hub pages' HTML (§4.17, §2.2) rendered from a view, without a browser: what a browser
// would find by ARIA role and accessible name, as the reference's hub profile
// (fixtures/profiles/reference.json) names each thing, and the decisions of
// spec/clauses/s4-hub.ts. Page routing and data are reference/hub/page.test.ts.

const PROFILE = JSON.parse(
  readFileSync(new URL('../../fixtures/profiles/reference.json', import.meta.url), 'utf8'),
) as { hub: { things: Record<string, { role: string; name?: string }> } };
const thing = (name: string) => {
  const t = PROFILE.hub.things[name];
  if (t === undefined) throw new Error(`the reference profile names no hub thing ${name}`);
  return t;
};
/** A profile name with its `{placeholder}` filled. */
const named = (name: string, values: Record<string, string> = {}): string =>
  (thing(name).name ?? '').replace(/\{(\w+)\}/g, (_w, k: string) => values[k] ?? '');

/* ---------- roles and accessible names (the elements: fixtures/pages/html-reader.ts) ---------- */

const IMPLICIT: Record<string, string> = {
  button: 'button',
  header: 'banner',
  nav: 'navigation',
  figure: 'figure',
  table: 'table',
  input: 'textbox',
  a: 'link',
  aside: 'complementary',
  dialog: 'dialog',
  form: 'form',
  main: 'main',
};
const roleOf = (el: El) => el.attrs.get('role') ?? IMPLICIT[el.tag];

/** The elements whose own text a page shows; any other element holds elements only. */
const HOLDS_TEXT = new Set([
  'title',
  'style',
  'script',
  'h1',
  'h2',
  'p',
  'span',
  'label',
  'button',
  'a',
  'figcaption',
  'caption',
  'th',
  'td',
  'text',
]);

/** Text lying loose in an element that holds elements only (a toolbar, a list, a table row). */
const strayText = (root: El): string[] =>
  [root, ...all(root)]
    .filter((e) => !HOLDS_TEXT.has(e.tag))
    .flatMap((e) => e.children.filter((c): c is string => typeof c === 'string'))
    .filter((c) => c.trim() !== '');

/** The attributes naming another element of the page by id. */
const REFERENCES = ['aria-controls', 'aria-labelledby', 'data-opens', 'data-closes', 'for'];

class Page {
  readonly root: El;
  constructor(readonly html: string) {
    this.root = parse(html);
    // Every page: no text outside the elements that hold it, and ids that name one element each.
    expect(strayText(this.root), 'text outside its elements').toEqual([]);
    const ids = [...all(this.root)].flatMap((e) => e.attrs.get('id') ?? []);
    for (const id of ids) expect(id, 'an id').toMatch(/^\S+$/);
    expect(new Set(ids).size, 'ids unique').toBe(ids.length);
    for (const e of all(this.root)) {
      for (const a of REFERENCES) {
        const id = e.attrs.get(a);
        if (id !== undefined) expect(ids, `${e.tag} ${a}="${id}"`).toContain(id);
      }
      const href = e.attrs.get('href');
      if (href?.startsWith('#') === true) expect(ids, `a href="${href}"`).toContain(href.slice(1));
    }
  }
  byId(id: string): El | undefined {
    return [...all(this.root)].find((e) => e.attrs.get('id') === id);
  }
  /** The accessible name (aria-label, aria-labelledby, a label's for, then the content). */
  nameOf(el: El): string {
    const label = el.attrs.get('aria-label');
    if (label !== undefined) return label;
    const by = el.attrs.get('aria-labelledby');
    if (by !== undefined) return clean(textOf(this.byId(by)!));
    const id = el.attrs.get('id');
    if (el.tag === 'input' && id !== undefined) {
      const l = [...all(this.root)].find((e) => e.tag === 'label' && e.attrs.get('for') === id);
      return l === undefined ? '' : clean(textOf(l));
    }
    return clean(textOf(el));
  }
  /** The shown elements of a role (and name, when given), under `within` (the page). */
  find(role: string, name?: string, within: El = this.root): El[] {
    return [...all(within)].filter(
      (e) => roleOf(e) === role && !hidden(e) && (name === undefined || this.nameOf(e) === name),
    );
  }
  /** The shown elements of a profile thing. */
  things(which: string, values: Record<string, string> = {}, within?: El): El[] {
    const t = thing(which);
    return this.find(t.role, t.name === undefined ? undefined : named(which, values), within);
  }
  one(which: string, values: Record<string, string> = {}, within?: El): El {
    const found = this.things(which, values, within);
    expect(found.length, `${which} ${JSON.stringify(values)}`).toBe(1);
    return found[0]!;
  }
  /** The rows of a table as cell texts; the header row first. */
  table(el: El): string[][] {
    return [...all(el)]
      .filter((e) => e.tag === 'tr')
      .map((tr) => tr.children.filter((c): c is El => typeof c !== 'string').map((c) => textOf(c)));
  }
  scripts(): El[] {
    return [...all(this.root)].filter((e) => e.tag === 'script');
  }
}

/* ---------- views ---------- */

/** §2.2 flags: all off but the ones given. */
const flagsOf = (on: Partial<Record<PermissionFlag, boolean>> = {}): EffectivePermissions =>
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, on[f] === true])) as EffectivePermissions;

const SALES: ChartView = {
  chartId: 'c-sales',
  title: 'Sales by product',
  type: 'bar',
  dimension: 'product',
  measure: 'total',
  data: {
    columns: ['product', 'total'],
    rows: [
      { product: 'Anvil', total: 15 },
      { product: 'Bolt', total: 7 },
      { product: 'Crane', total: 0 },
    ],
  },
};

const OVERVIEW: DashboardView = {
  dashboardId: 'd-overview',
  name: 'Overview',
  controls: [],
  charts: [],
};
const BOARD: DashboardView = {
  dashboardId: 'd-board',
  name: 'Board',
  controls: [
    { controlKey: 'channel', field: 'channel', label: 'Channel', value: 'online' },
    { controlKey: 'year', field: 'year', label: 'Year', value: 2024 },
    { controlKey: 'region', field: 'region', label: 'Region' },
  ],
  charts: [SALES],
};

const VIEW: PageView = {
  applicationName: 'Analytics app',
  navigation: true,
  dashboards: [OVERVIEW, BOARD],
  activeDashboardId: BOARD.dashboardId,
  frozen: false,
  scheduledReports: true,
};

const NONCE = 'bm9uY2Utb2YtdGhlLXRlc3Q=';
const render = (
  options: { view?: PageView; flags?: EffectivePermissions; query?: string | PageQuery } = {},
) =>
  new Page(
    renderPage({
      view: options.view ?? VIEW,
      flags: options.flags ?? flagsOf(),
      query:
        typeof options.query === 'object'
          ? options.query
          : readQuery(new URLSearchParams(options.query ?? '')),
      nonce: NONCE,
    }),
  );

/** The (single) shown section of a dashboard. */
const panelOf = (p: Page, d: DashboardView): El => {
  const found = [...all(p.root)].filter(
    (e) => e.tag === 'section' && e.attrs.get('data-dashboard') === d.dashboardId,
  );
  expect(found.length).toBe(1);
  return found[0]!;
};

/* ---------- tests ---------- */

describe('hub html: text', () => {
  it('escapes each of the five characters that could open markup or end an attribute', () => {
    expect(text('&')).toBe('&amp;');
    expect(text('<')).toBe('&lt;');
    expect(text('>')).toBe('&gt;');
    expect(text('"')).toBe('&quot;');
    expect(text("'")).toBe('&#39;');
    expect(text(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&#39;');
    expect(text('plain text, ünïcode ✓ 42')).toBe('plain text, ünïcode ✓ 42');
  });

  it('shows a string as it is, anything else as JSON, nothing as nothing (decision hub.filters.values)', () => {
    expect(shown('x "y"')).toBe('x "y"');
    expect(shown(3)).toBe('3');
    expect(shown(null)).toBe('null');
    expect(shown(true)).toBe('true');
    expect(shown(['a', 1])).toBe('["a",1]');
    expect(shown(undefined)).toBe('');
  });

  it('shows markup in every name and value as text: it builds no element (hub.security.names-are-text)', () => {
    const evil = (s: string) => `<img src=x onerror="alert('${s}')">&amp;`;
    const chart: ChartView = {
      ...SALES,
      chartId: `c"'<x>`,
      title: evil('title'),
      data: {
        columns: ['product', evil('column')],
        rows: [{ product: evil('cell'), [evil('column')]: 1 }],
      },
    };
    const board: DashboardView = {
      dashboardId: `d"'<x>`,
      name: evil('dashboard'),
      controls: [{ controlKey: 'k"<', field: 'f', label: evil('label'), value: evil('value') }],
      charts: [chart],
    };
    const p = render({
      view: {
        ...VIEW,
        applicationName: evil('app'),
        dashboards: [board],
        activeDashboardId: board.dashboardId,
      },
      flags: flagsOf({ drillDown: true }),
    });
    expect([...all(p.root)].filter((e) => e.tag === 'img')).toEqual([]);
    expect(p.html).not.toContain('<img');
    // The text comes back whole, as text.
    expect(clean(textOf(p.find('banner')[0]!))).toContain(evil('app'));
    p.one('chart', { title: evil('title') });
    p.one('navigationEntry', { name: evil('dashboard') });
    p.one('filterInput', { label: evil('label') });
    expect(p.one('filterInput', { label: evil('label') }).attrs.get('value')).toBe(evil('value'));
    p.one('drillDown', { value: evil('cell') });
    const table = p.find('table', undefined, p.one('chart', { title: evil('title') }))[0]!;
    expect(p.table(table)).toEqual([
      ['product', evil('column')],
      [evil('cell'), '1'],
    ]);
    expect(panelOf(p, board).attrs.get('data-dashboard')).toBe(board.dashboardId);
  });

  it("shows the viewer's and its organization's display names on every page, as text, whatever the header (§2.3, §2.4)", () => {
    const evil = (s: string) => `<b onmouseover="alert('${s}')">${s}</b>&amp;`;
    for (const query of ['', 'hideHeader=true']) {
      const p = render({
        view: { ...VIEW, viewer: { userName: evil('user'), organizationName: evil('org') } },
        query,
      });
      const footer = [...all(p.root)].filter((e) => e.tag === 'footer');
      expect(footer.length, query).toBe(1);
      expect(clean(textOf(footer[0]!))).toBe(`Signed in as ${evil('user')} of ${evil('org')}`);
      expect([...all(p.root)].filter((e) => e.tag === 'b')).toEqual([]);
    }
    const alone = render({ view: { ...VIEW, viewer: { userName: 'Ann' } } });
    expect(alone.html).toContain('<footer><p>Signed in as <span>Ann</span></p></footer>');
    expect(render({ view: { ...VIEW, viewer: { userName: '' } } }).html).not.toContain('<footer>');
  });
});

describe('hub html: the script and its configuration', () => {
  const configOf = (p: Page) => {
    const json = p.scripts().filter((s) => s.attrs.get('type') === 'application/json');
    expect(json.length).toBe(1);
    return textOf(json[0]!);
  };

  it('runs one script, its own, under the nonce; the style carries it too', () => {
    const p = render();
    const run = p.scripts().filter((s) => s.attrs.get('type') !== 'application/json');
    expect(run.length).toBe(1);
    expect(run[0]!.attrs.get('nonce')).toBe(NONCE);
    expect(textOf(run[0]!).length).toBeGreaterThan(0);
    const styles = [...all(p.root)].filter((e) => e.tag === 'style');
    expect(styles.map((s) => s.attrs.get('nonce'))).toEqual([NONCE]);
  });

  it('hands autoHeight and parentOrigin to the script (§4.17 autoHeight with parentOrigin)', () => {
    const p = render({ query: 'autoHeight=true&parentOrigin=https%3A%2F%2Fapp.example%3A8443' });
    expect(JSON.parse(configOf(p))).toEqual({
      autoHeight: true,
      parentOrigin: 'https://app.example:8443',
    });
    // Without them: no height, and nowhere to post (decision hub.events.target-origin).
    expect(JSON.parse(configOf(render()))).toEqual({ autoHeight: false, parentOrigin: null });
  });

  it('keeps a value that holds </script>, U+2028 or U+2029 inside its script element', () => {
    const origin = 'x</script><script>alert(1)</script>\u2028\u2029<!--';
    const query: PageQuery = { ...readQuery(new URLSearchParams('')), parentOrigin: origin };
    const p = render({ query });
    expect(p.scripts().length).toBe(2);
    const raw = configOf(p);
    expect(raw).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(raw)).toEqual({ autoHeight: false, parentOrigin: origin });
  });
});

describe('hub html: the texts of §4.17', () => {
  for (const message of ['Invalid or missing token.', 'Dashboard not found.'])
    it(`shows '${message}' alone, as an alert`, () => {
      const p = new Page(renderMessage(message, NONCE));
      const alerts = p.find('alert');
      expect(alerts.map((a) => clean(textOf(a)))).toEqual([message]);
      expect(p.scripts()).toEqual([]);
      expect(p.find('button')).toEqual([]);
    });

  it('shows a message with markup as text', () => {
    const p = new Page(renderMessage('<b>x</b> & "y"', NONCE));
    expect(clean(textOf(p.find('alert')[0]!))).toBe('<b>x</b> & "y"');
    expect([...all(p.root)].some((e) => e.tag === 'b')).toBe(false);
  });
});

describe('hub html: what the §2.2 flags and §4.17 parameters show', () => {
  const CONTROLS = [
    ['download', 'hideDownloadButton'],
    ['setDefault', 'canSetDefaultDashboard'],
    ['duplicate', 'canDuplicateDashboard'],
    ['aiInsight', 'aiInsight'],
    ['aiCharts', 'aiCharts'],
    ['editFromSession', 'canEditChartFromSession'],
  ] as const;
  const TOOLS = EDITING_TOOLS;
  const actions = (p: Page) => p.find('toolbar', 'Dashboard actions');

  it('shows the header with the application and the Download PDF control by default', () => {
    const p = render();
    const header = p.one('header');
    expect(clean(textOf(header))).toContain('Analytics app');
    expect(p.things('download').length).toBe(1);
    for (const [name] of CONTROLS.slice(1)) expect(p.things(name), name).toEqual([]);
    expect(p.things('scheduleReport')).toEqual([]);
    expect(p.things('editingTools')).toEqual([]);
  });

  it('names the shown dashboard in the header (§2.2: the dashboard header), whichever it is', () => {
    const header = (activeDashboardId: string) =>
      render({ view: { ...VIEW, activeDashboardId } })
        .one('header')
        .children.map((c) => (typeof c === 'string' ? c : textOf(c)));
    expect(header(BOARD.dashboardId)).toEqual(['Analytics app', 'Board']);
    expect(header(OVERVIEW.dashboardId)).toEqual(['Analytics app', 'Overview']);
  });

  it('renders a view that shows none of its dashboards: the header names the application alone', () => {
    for (const view of [
      { ...VIEW, activeDashboardId: 'd-none' },
      { ...VIEW, dashboards: [], activeDashboardId: 'd-none' },
    ]) {
      const p = render({ view });
      expect(clean(textOf(p.one('header')))).toBe('Analytics app');
      expect(p.find('tabpanel')).toEqual([]);
    }
  });

  it('hides the header for hideHeader=true and for the hideHeader flag, not for other values', () => {
    for (const p of [
      render({ query: 'hideHeader=true' }),
      render({ flags: flagsOf({ hideHeader: true }) }),
    ]) {
      expect(p.things('header')).toEqual([]);
      // Nothing stands in its place: no text of the page lies outside its parts.
      const body = [...all(p.root)].find((e) => e.tag === 'body')!;
      for (const part of [body, ...p.find('main')])
        expect(part.children.filter((c) => typeof c === 'string' && c.trim() !== '')).toEqual([]);
    }
    expect(render({ query: 'hideHeader=false' }).things('header').length).toBe(1);
    expect(render({ query: 'hideDownloadButton=true' }).things('header').length).toBe(1);
  });

  it('hides Download PDF for hideDownloadButton=true and for the flag; the actions bar goes when empty', () => {
    for (const p of [
      render({ query: 'hideDownloadButton=true' }),
      render({ flags: flagsOf({ hideDownloadButton: true }) }),
    ]) {
      expect(p.things('download')).toEqual([]);
      expect(actions(p)).toEqual([]);
      for (const main of p.find('main'))
        expect(main.children.filter((c) => typeof c === 'string' && c.trim() !== '')).toEqual([]);
    }
    expect(render({ query: 'hideHeader=true' }).things('download').length).toBe(1);
  });

  it('puts Schedule report in the header, only for enableScheduleReport (decisions hub.schedule-report.organization, hub.controls.placement)', () => {
    const p = render({ flags: flagsOf({ enableScheduleReport: true }) });
    p.one('scheduleReport', {}, p.one('header'));
    expect(
      render({ flags: flagsOf({ enableScheduleReport: true, hideHeader: true }) }).things(
        'scheduleReport',
      ),
    ).toEqual([]);
  });

  it("shows each action control for its flag alone, in the 'Dashboard actions' toolbar", () => {
    for (const [name, flag] of CONTROLS) {
      const on = flag === 'hideDownloadButton' ? {} : { [flag]: true };
      const p = render({ flags: flagsOf({ ...on, hideDownloadButton: name !== 'download' }) });
      const bar = actions(p);
      expect(bar.length, name).toBe(1);
      p.one(name, {}, bar[0]);
      for (const [other] of CONTROLS)
        if (other !== name) expect(p.things(other), other).toEqual([]);
    }
  });

  it('opens a dialog named as its control for each control whose feature is not described; AI insights opens a sidebar (decision hub.controls.placement)', () => {
    const every = Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, true]));
    const p = render({
      flags: flagsOf({ ...every, hideHeader: false, hideDownloadButton: false, readOnly: false }),
    });
    const openers = [
      'download',
      'scheduleReport',
      'setDefault',
      'duplicate',
      'aiCharts',
      'editFromSession',
      ...TOOLS,
    ];
    for (const which of openers) {
      const b = p.one(which);
      const target = p.byId(b.attrs.get('data-opens') ?? '');
      expect(target?.tag, which).toBe('dialog');
      expect(b.attrs.get('aria-haspopup'), which).toBe('dialog');
      expect(target!.attrs.get('aria-label'), which).toBe(named(which));
      expect(hidden(target!), `${which}: closed until asked`).toBe(true);
    }
    const dialogs = [...all(p.root)].filter((e) => e.tag === 'dialog');
    expect(dialogs.length).toBe(openers.length);
    const insight = p.byId(p.one('aiInsight').attrs.get('data-opens') ?? '');
    expect(insight?.tag).toBe('aside');
    expect(insight?.attrs.get('aria-label')).toBe(named('aiInsight'));
    expect(insight?.attrs.has('hidden')).toBe(true);
    expect(render().byId('ai-insights')).toBeUndefined();
  });

  it("shows each editing tool for its flag alone, in the 'Editing tools' toolbar; none without one (§2.2 readOnly)", () => {
    for (const tool of TOOLS) {
      const p = render({ flags: flagsOf({ [tool]: true }) });
      const bar = p.one('editingTools');
      p.one(tool, {}, bar);
      for (const other of TOOLS) if (other !== tool) expect(p.things(other), other).toEqual([]);
    }
    const none = render({ flags: flagsOf({ readOnly: true, drillDown: false }) });
    expect(none.things('editingTools')).toEqual([]);
    for (const tool of TOOLS) expect(none.things(tool), tool).toEqual([]);
  });

  it('shows navigation with a link per dashboard, the shown one current, and tabs unless disableTabs', () => {
    const p = render();
    const nav = p.one('navigation');
    const links = p.find('link', undefined, nav);
    expect(links.map((l) => p.nameOf(l))).toEqual(['Overview', 'Board']);
    expect(links.map((l) => l.attrs.get('aria-current'))).toEqual([undefined, 'page']);
    const tabs = p.one('tabs');
    const tab = p.find('tab', undefined, tabs);
    expect(tab.map((t) => [p.nameOf(t), t.attrs.get('aria-selected')])).toEqual([
      ['Overview', 'false'],
      ['Board', 'true'],
    ]);
    // Each tab controls its dashboard's panel, which its name labels; only the shown one is open.
    for (const [i, d] of VIEW.dashboards.entries()) {
      const panel = panelOf(p, d);
      expect(tab[i]!.attrs.get('aria-controls')).toBe(panel.attrs.get('id'));
      expect(roleOf(panel)).toBe('tabpanel');
      expect(p.nameOf(panel)).toBe(d.name);
      expect(panel.attrs.has('hidden'), d.name).toBe(d !== BOARD);
    }
    const untabbed = render({ flags: flagsOf({ disableTabs: true }) });
    expect(untabbed.things('tabs')).toEqual([]);
    expect(untabbed.things('navigation').length).toBe(1);
    for (const d of VIEW.dashboards) {
      const panel = panelOf(untabbed, d);
      expect(roleOf(panel)).toBe('region');
      expect(untabbed.nameOf(panel)).toBe(d.name);
    }
  });

  it('shows one dashboard without sidebar or tabs when the view has no navigation (§4.17 dashboardId)', () => {
    const p = render({
      view: { ...VIEW, navigation: false, dashboards: [BOARD] },
      query: `dashboardId=${BOARD.dashboardId}`,
    });
    expect(p.things('navigation')).toEqual([]);
    expect(p.things('tabs')).toEqual([]);
    expect(p.find('link')).toEqual([]);
    p.one('chart', { title: SALES.title });
    expect(clean(textOf(p.one('header')))).toContain('Board');
  });

  it("shows each dashboard's filter bar with its controls, the set ones holding their value (decision hub.filters.values), unless hideFilters", () => {
    const p = render();
    const bar = p.one('filterBar', {}, panelOf(p, BOARD));
    const input = (label: string) => p.one('filterInput', { label }, bar);
    expect(input('Channel').attrs.get('value')).toBe('online');
    expect(input('Year').attrs.get('value')).toBe('2024');
    expect(input('Region').attrs.get('value')).toBe('');
    expect(input('Channel').attrs.get('name')).toBe('filter_channel');
    expect(input('Year').attrs.get('name')).toBe('filter_year');
    expect(input('Region').attrs.get('name')).toBe('filter_region');
    expect(input('Channel').attrs.has('data-set')).toBe(true);
    expect(input('Region').attrs.has('data-set')).toBe(false);
    expect(p.find('button', undefined, bar).length).toBe(1);
    // A dashboard without controls has no filter bar, shown or not; hideFilters takes every one away.
    for (const view of [VIEW, { ...VIEW, activeDashboardId: OVERVIEW.dashboardId }]) {
      const shownOrNot = [...all(panelOf(render({ view }), OVERVIEW))];
      expect(shownOrNot.filter((e) => roleOf(e) === 'search')).toEqual([]);
    }
    expect(
      render({ view: { ...VIEW, activeDashboardId: OVERVIEW.dashboardId } }).things('filterBar'),
    ).toEqual([]);
    const hidden = render({ flags: flagsOf({ hideFilters: true }) });
    expect(hidden.things('filterBar')).toEqual([]);
    expect(hidden.things('filterInput', { label: 'Channel' })).toEqual([]);
  });
});

describe('hub html: charts', () => {
  const only = (chart: ChartView, flags = flagsOf()) =>
    render({
      view: { ...VIEW, dashboards: [{ ...BOARD, charts: [chart] }] },
      flags,
    });

  it('shows a chart as a figure named by its title, holding a table of its rows', () => {
    const p = only(SALES);
    const figure = p.one('chart', { title: SALES.title });
    const tables = p.find('table', undefined, figure);
    expect(tables.length).toBe(1);
    expect(p.table(tables[0]!)).toEqual([
      ['product', 'total'],
      ['Anvil', '15'],
      ['Bolt', '7'],
      ['Crane', '0'],
    ]);
    const heads = [...all(tables[0]!)].filter((e) => e.tag === 'th');
    expect(heads.map((h) => h.attrs.get('scope'))).toEqual(['col', 'col']);
    expect(p.find('status', undefined, figure)).toEqual([]);
  });

  it('shows each chart of a dashboard as its own figure, in order', () => {
    const second: ChartView = { ...SALES, chartId: 'c-second', title: 'Second chart' };
    const p = render({
      view: { ...VIEW, dashboards: [{ ...BOARD, charts: [SALES, second] }] },
      flags: flagsOf({ drillDown: true }),
    });
    const figures = p.find('figure');
    expect(figures.map((f) => p.nameOf(f))).toEqual([SALES.title, 'Second chart']);
    for (const f of figures) expect(p.find('table', undefined, f).length).toBe(1);
  });

  it('draws one bar per row, its length in proportion to the value, each inside the picture', () => {
    const p = only({
      ...SALES,
      data: {
        ...SALES.data,
        rows: [
          { product: 'A', total: 10 },
          { product: 'B', total: 40 },
          { product: 'C', total: 0 },
          { product: 'D', total: 'n/a' },
          { product: 'E', total: -20 },
        ],
      },
    });
    const svg = p
      .one('chart', { title: SALES.title })
      .children.find((c): c is El => typeof c !== 'string' && c.tag === 'svg')!;
    expect(roleOf(svg)).toBe('img');
    expect(p.nameOf(svg)).toContain(SALES.title);
    const rects = [...all(svg)].filter((e) => e.tag === 'rect');
    const num = (e: El, a: string) => Number(e.attrs.get(a));
    const widths = rects.map((r) => num(r, 'width'));
    expect(widths.length).toBe(5);
    expect(widths[1]).toBeGreaterThan(0);
    expect(widths[0]! / widths[1]!).toBeCloseTo(0.25, 1);
    expect(widths[4]! / widths[1]!).toBeCloseTo(0.5, 1);
    expect(widths[2]).toBe(0);
    expect(widths[3]).toBe(0);
    const height = num(svg, 'height');
    const labels = [...all(svg)].filter((e) => e.tag === 'text');
    expect(labels.map((l) => textOf(l))).toEqual(['A', 'B', 'C', 'D', 'E']);
    for (const [i, r] of rects.entries()) {
      const y = num(r, 'y');
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y + num(r, 'height')).toBeLessThanOrEqual(height);
      expect(num(r, 'x') + widths[i]!).toBeLessThanOrEqual(num(svg, 'width'));
      if (i > 0)
        expect(y, 'bars do not overlap').toBeGreaterThanOrEqual(num(rects[i - 1]!, 'y') + 16);
      const ly = num(labels[i]!, 'y');
      expect(ly).toBeGreaterThan(y);
      expect(ly).toBeLessThanOrEqual(y + num(r, 'height'));
    }
  });

  it('draws no bars for a chart without dimension or measure, or without rows', () => {
    const svgs = (c: ChartView) =>
      [...all(only(c).one('chart', { title: SALES.title }))].filter((e) => e.tag === 'svg');
    const { dimension: _d, ...noDimension } = SALES;
    const { measure: _m, ...noMeasure } = SALES;
    expect(svgs(noDimension)).toEqual([]);
    expect(svgs(noMeasure)).toEqual([]);
    expect(svgs({ ...SALES, data: { columns: ['product', 'total'], rows: [] } })).toEqual([]);
    expect(svgs(SALES).length).toBe(1);
  });

  it('shows an unloadable chart with its config columns, no rows and a line saying why (decision hub.chart.unloadable)', () => {
    const problem = "The property 'region' is missing.";
    const p = only({ ...SALES, data: { columns: ['product', 'total'], rows: [], problem } });
    const figure = p.one('chart', { title: SALES.title });
    expect(p.find('status', undefined, figure).map((s) => textOf(s))).toEqual([problem]);
    expect(p.table(p.find('table', undefined, figure)[0]!)).toEqual([['product', 'total']]);
  });
});

describe('hub html: drill-down (§2.2 drillDown; decisions hub.drill-down.rows, hub.drill-down.single-table)', () => {
  const POINTS: ChartView = {
    ...SALES,
    data: {
      columns: ['product', 'total'],
      rows: [
        { product: 'Anvil', total: 15 },
        { product: 'Anvil', total: 2 },
        { product: null, total: 4 },
        { product: 7, total: 1 },
      ],
    },
  };
  const drilled = (chart: ChartView, flags = flagsOf({ drillDown: true })) =>
    render({ view: { ...VIEW, dashboards: [{ ...BOARD, charts: [chart] }] }, flags });

  it('shows one button per point of the dimension, which reloads with the chart and the value as JSON', () => {
    const p = drilled(POINTS);
    const buttons = p.find('button').filter((b) => b.attrs.has('data-drill-chart'));
    expect(buttons.map((b) => p.nameOf(b))).toEqual([
      named('drillDown', { value: 'Anvil' }),
      named('drillDown', { value: 'null' }),
      named('drillDown', { value: '7' }),
    ]);
    expect(buttons.map((b) => b.attrs.get('data-drill-value'))).toEqual(['"Anvil"', 'null', '7']);
    for (const b of buttons) {
      expect(b.attrs.get('data-drill-chart')).toBe(POINTS.chartId);
      expect(b.attrs.get('aria-expanded')).toBe('false');
    }
    expect(p.things('drillDownRows', { value: 'Anvil' })).toEqual([]);
  });

  it('shows no drill-down without the flag or without a dimension', () => {
    expect(drilled(POINTS, flagsOf()).things('drillDown', { value: 'Anvil' })).toEqual([]);
    const { dimension: _d, ...noDimension } = POINTS;
    const p = drilled(noDimension);
    expect(p.find('button').filter((b) => b.attrs.has('data-drill-chart'))).toEqual([]);
  });

  it("shows the rows behind the drilled point in a 'Rows behind' region, with their count", () => {
    const rows = [
      { id: 1, product: 'Anvil', amount: 10 },
      { id: 2, product: 'Anvil', amount: 5 },
    ];
    const p = drilled({
      ...POINTS,
      drill: {
        value: 'Anvil',
        rows: { kind: 'rows', columns: ['id', 'product', 'amount'], rows, total: 2 },
      },
    });
    const button = p.one('drillDown', { value: 'Anvil' });
    expect(button.attrs.get('aria-expanded')).toBe('true');
    const region = p.one('drillDownRows', { value: 'Anvil' });
    expect(button.attrs.get('aria-controls')).toBe(region.attrs.get('id'));
    expect(p.one('drillDown', { value: '7' }).attrs.get('aria-expanded')).toBe('false');
    expect(p.one('drillDown', { value: '7' }).attrs.has('aria-controls')).toBe(false);
    const table = p.find('table', undefined, region);
    expect(p.table(table[0]!)).toEqual([
      ['id', 'product', 'amount'],
      ['1', 'Anvil', '10'],
      ['2', 'Anvil', '5'],
    ]);
    expect(clean(textOf(region))).toMatch(/^2 rows \(read-only\)/);
  });

  it('says one row, and the first 100 of more', () => {
    const one = drilled({
      ...POINTS,
      drill: {
        value: 7,
        rows: { kind: 'rows', columns: ['id'], rows: [{ id: 1 }], total: 1 },
      },
    });
    expect(clean(textOf(one.one('drillDownRows', { value: '7' })))).toMatch(/^1 row \(read-only\)/);
    const many = Array.from({ length: 100 }, (_, i) => ({ id: i }));
    const more = drilled({
      ...POINTS,
      drill: { value: null, rows: { kind: 'rows', columns: ['id'], rows: many, total: 250 } },
    });
    const region = more.one('drillDownRows', { value: 'null' });
    expect(clean(textOf(region))).toMatch(/^Showing the first 100 of 250 rows/);
    expect(more.table(more.find('table', undefined, region)[0]!).length).toBe(101);
  });

  it('says why a chart cannot be drilled, or the error that stopped it', () => {
    const p = drilled({
      ...POINTS,
      drill: { value: 'Anvil', rows: { kind: 'unavailable', reason: 'its SQL holds a join' } },
    });
    const region = p.one('drillDownRows', { value: 'Anvil' });
    expect(clean(textOf(region))).toBe(
      'Drill-down is not available for this chart: its SQL holds a join.',
    );
    expect(p.find('table', undefined, region)).toEqual([]);
    const failed = drilled({
      ...POINTS,
      drill: {
        value: 'Anvil',
        rows: {
          kind: 'error',
          error: {
            code: 'VALIDATION_ERROR',
            message: "The property 'region' is missing.",
          },
        },
      },
    });
    expect(clean(textOf(failed.one('drillDownRows', { value: 'Anvil' })))).toBe(
      "The property 'region' is missing.",
    );
  });
});
