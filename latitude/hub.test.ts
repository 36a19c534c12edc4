import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { all, clean, hidden, parse, textOf, type El } from '../fixtures/pages/html-reader.ts';
import { renderMessage, renderPage } from '../reference/hub/html.ts';
import type { ChartView, DashboardView, PageView } from '../reference/hub/page.ts';
import { readQuery } from '../reference/hub/query.ts';
import { PERMISSION_FLAGS, type EffectivePermissions } from '../spec/schemas/permissions.ts';
import { TargetProfile } from '../spec/profile.ts';
import { HEIGHT_MESSAGE, PARAMS_MESSAGE, hubTransforms, isHubPage } from './hub.ts';
import { seeded } from '../suites/harness/random.ts';
import type { Answer, Transform } from './transform.ts';

// The hub transforms on pages the reference renders (reference/hub/html.ts) with every control
// shown: what a browser finds by ARIA role and accessible name must be the same before and
// after, every id reference must still resolve, and the page's own script, run against a
// small DOM of the page, must still do the same things (open the same dialogs, show the same
// dashboards, post the same messages, in the shape the profile then states).

const PROFILE = TargetProfile.parse(
  JSON.parse(
    readFileSync(new URL('../fixtures/profiles/reference.json', import.meta.url), 'utf8'),
  ) as unknown,
);
const transform = (id: string): Transform => hubTransforms.find((t) => t.id === id)!;

/* ---------- roles and accessible names (the elements: fixtures/pages/html-reader.ts) ---------- */

/** Implicit ARIA roles of the elements these pages use (HTML-AAM). */
function roleOf(el: El): string | undefined {
  const explicit = el.attrs.get('role');
  if (explicit !== undefined) return explicit;
  const named = el.attrs.has('aria-label') || el.attrs.has('aria-labelledby');
  switch (el.tag) {
    case 'header':
      return 'banner';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'aside':
      return 'complementary';
    case 'figure':
      return 'figure';
    case 'section':
      return named ? 'region' : undefined;
    case 'form':
      return named ? 'form' : undefined;
    case 'a':
      return el.attrs.has('href') ? 'link' : undefined;
    case 'input':
      return 'textbox';
    case 'ul':
      return 'list';
    case 'li':
      return 'listitem';
    case 'h1':
    case 'h2':
      return 'heading';
    case 'button':
    case 'table':
    case 'dialog':
      return el.tag;
    default:
      return undefined;
  }
}

const REFERENCES =
  /^(for|aria-controls|aria-labelledby|aria-describedby|data-[a-z0-9-]*(open|close)[a-z]*)$/;

class Page {
  readonly root: El;
  readonly ids: Map<string, El>;
  constructor(readonly html: string) {
    this.root = parse(html);
    this.ids = new Map();
    for (const e of all(this.root)) {
      const id = e.attrs.get('id');
      if (id === undefined) continue;
      expect(this.ids.has(id), `id ${id} once`).toBe(false);
      this.ids.set(id, e);
    }
  }
  /** Every attribute naming an element by id, with whether it resolves. */
  references(): { what: string; resolves: boolean }[] {
    const out: { what: string; resolves: boolean }[] = [];
    for (const e of all(this.root))
      for (const [name, value] of e.attrs) {
        if (REFERENCES.test(name))
          for (const id of value.split(' '))
            out.push({ what: `${e.tag} ${name}="${id}"`, resolves: this.ids.has(id) });
        if (name === 'href' && value.startsWith('#'))
          out.push({ what: `href=${value}`, resolves: this.ids.has(value.slice(1)) });
      }
    return out;
  }
  nameOf(el: El): string {
    const label = el.attrs.get('aria-label');
    if (label !== undefined) return label;
    const by = el.attrs.get('aria-labelledby');
    if (by !== undefined)
      return clean(
        by
          .split(' ')
          .map((id) => textOf(this.ids.get(id)!))
          .join(' '),
      );
    const id = el.attrs.get('id');
    if (el.tag === 'input' && id !== undefined) {
      const l = [...all(this.root)].find((e) => e.tag === 'label' && e.attrs.get('for') === id);
      return l === undefined ? '' : clean(textOf(l));
    }
    if (['button', 'a', 'h1', 'h2', 'li'].includes(el.tag)) return clean(textOf(el));
    const caption = el.children.find(
      (c): c is El => typeof c !== 'string' && (c.tag === 'figcaption' || c.tag === 'caption'),
    );
    return caption === undefined ? '' : clean(textOf(caption));
  }
  /** Every element with a role, as `role "name"` (hidden ones marked), sorted. */
  accessible(): string[] {
    return [...all(this.root)]
      .flatMap((e) => {
        const role = roleOf(e);
        return role === undefined
          ? []
          : [`${role} "${this.nameOf(e)}"${hidden(e) ? ' (hidden)' : ''}`];
      })
      .sort();
  }
  /** Where an element with a role sits: the roles of its ancestors. */
  landmarksOf(role: string, name: string): string[][] {
    return [...all(this.root)]
      .filter((e) => roleOf(e) === role && this.nameOf(e) === name)
      .map((e) => {
        const up: string[] = [];
        for (let p = e.parent; p !== undefined; p = p.parent) {
          const r = roleOf(p);
          if (r !== undefined) up.push(r);
        }
        return up;
      });
  }
  script(): string {
    const s = [...all(this.root)].find((e) => e.tag === 'script' && e.attrs.has('nonce'));
    return s === undefined ? '' : (s.children[0] as string);
  }
}

/* ---------- pages the reference renders ---------- */

const flagsOf = (off: readonly string[]): EffectivePermissions =>
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, !off.includes(f)])) as EffectivePermissions;
/** Every control shown. */
const ALL_ON = flagsOf([
  'disableTabs',
  'hideHeader',
  'hideDownloadButton',
  'readOnly',
  'hideFilters',
]);

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
    ],
  },
  drill: {
    value: 'Anvil',
    rows: {
      kind: 'rows',
      columns: ['product', 'amount'],
      rows: [{ product: 'Anvil', amount: 15 }],
      total: 1,
    },
  },
};
const REGIONS: ChartView = {
  chartId: 'c-regions',
  title: 'Amount by région',
  type: 'pie',
  dimension: 'region',
  measure: 'amount',
  data: { columns: ['region', 'amount'], rows: [{ region: 'north', amount: 3 }] },
};
const OVERVIEW: DashboardView = {
  dashboardId: 'd-overview',
  name: 'Overview',
  controls: [],
  charts: [REGIONS],
};
const BOARD: DashboardView = {
  dashboardId: 'd-board',
  name: 'Board',
  controls: [
    { controlKey: 'channel', field: 'channel', label: 'Channel', value: 'online' },
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
const PARENT = 'https://parent.example';
const page = (view: PageView, flags: EffectivePermissions, query: string) =>
  renderPage({ view, flags, query: readQuery(new URLSearchParams(query)), nonce: NONCE });

const PAGES: { name: string; html: string }[] = [
  {
    name: 'application page, tabs, every control, a drill-down, autoHeight',
    html: page(VIEW, ALL_ON, `autoHeight=true&parentOrigin=${PARENT}`),
  },
  {
    name: 'application page without tabs (panels are regions)',
    html: page(VIEW, { ...ALL_ON, disableTabs: true }, `parentOrigin=${PARENT}`),
  },
  {
    name: 'one dashboard, no header, read-only',
    html: page(
      { ...VIEW, navigation: false, dashboards: [BOARD] },
      { ...flagsOf(PERMISSION_FLAGS.filter((f) => f !== 'hideHeader' && f !== 'drillDown')) },
      '',
    ),
  },
];

function hubAnswer(html: string): Answer {
  return {
    request: {
      method: 'GET',
      url: '/share/dashboard/d-board?jwt=x',
      headers: {},
      body: Buffer.alloc(0),
      origin: 'hub',
    },
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-length': '1' },
    body: Buffer.from(html, 'utf-8'),
  };
}

/* ---------- the page's script, run against a small DOM of the page ---------- */

interface Listener {
  readonly el: El;
  readonly type: string;
  readonly fn: (event: unknown) => void;
}

/** Compound selectors as the page's script writes them: tag, [a], [a=v], [a="v"], [a^="v"]. */
function matches(el: El, compound: string): boolean {
  const m = /^([a-zA-Z*]*)((?:\[[^\]]+\])*)$/.exec(compound);
  if (m === null) throw new Error(`a selector the test DOM does not read: ${compound}`);
  if (m[1] !== '' && m[1] !== '*' && m[1]!.toLowerCase() !== el.tag) return false;
  for (const [, attr] of (m[2] ?? '').matchAll(/\[([^\]]+)\]/g)) {
    const a = /^([a-zA-Z0-9-]+)(?:(\^?=)"?([^"]*)"?)?$/.exec(attr!);
    if (a === null) throw new Error(`an attribute selector the test DOM does not read: ${attr}`);
    const value = el.attrs.get(a[1]!);
    if (value === undefined) return false;
    if (a[2] === '=' && value !== a[3]) return false;
    if (a[2] === '^=' && !value.startsWith(a[3]!)) return false;
  }
  return true;
}

function select(root: El, selector: string): El[] {
  const lists = selector.split(',').map((s) => s.trim().split(/\s+/));
  return [...all(root)].filter((el) =>
    lists.some((parts) => {
      if (!matches(el, parts.at(-1)!)) return false;
      let need = parts.length - 2;
      for (let p = el.parent; p !== undefined && need >= 0; p = p.parent)
        if (p !== root || root.tag !== '#root') if (matches(p, parts[need]!)) need -= 1;
      return need < 0;
    }),
  );
}

const camelToData = (key: string) => `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

interface Run {
  readonly page: Page;
  readonly listeners: Listener[];
  readonly posted: unknown[];
  readonly replaced: string[];
  readonly selectors: string[];
  focused?: El;
}

const HUB_URL = 'https://hub.example/share/dashboard/d-board?jwt=x';

/** Parses the page and runs its script, as a browser would on load. */
function load(html: string): Run {
  const p = new Page(html);
  const run: Run = { page: p, listeners: [], posted: [], replaced: [], selectors: [] };
  const wrap = (el: El): unknown => {
    const dataset = new Proxy(
      {},
      { get: (_t, key) => (typeof key === 'string' ? el.attrs.get(camelToData(key)) : undefined) },
    );
    return {
      tagName: el.tag.toUpperCase(),
      dataset,
      get hidden() {
        return el.attrs.has('hidden');
      },
      set hidden(v: boolean) {
        if (v) el.attrs.set('hidden', '');
        else el.attrs.delete('hidden');
      },
      get textContent() {
        return textOf(el);
      },
      get value() {
        return el.attrs.get('value') ?? '';
      },
      get name() {
        return el.attrs.get('name') ?? '';
      },
      getAttribute: (n: string) => el.attrs.get(n) ?? null,
      setAttribute: (n: string, v: unknown) => el.attrs.set(n, String(v)),
      removeAttribute: (n: string) => el.attrs.delete(n),
      hasAttribute: (n: string) => el.attrs.has(n),
      addEventListener: (type: string, fn: (event: unknown) => void) =>
        run.listeners.push({ el, type, fn }),
      querySelectorAll: (s: string) => {
        run.selectors.push(s);
        return select(el, s).map(wrap);
      },
      showModal: () => el.attrs.set('open', ''),
      close: () => el.attrs.delete('open'),
      focus: () => {
        run.focused = el;
      },
    };
  };
  const window: Record<string, unknown> = {
    parent: {
      postMessage: (message: unknown, origin: string) => run.posted.push({ message, origin }),
    },
    location: { href: HUB_URL, replace: (url: string) => run.replaced.push(url) },
  };
  const document = {
    getElementById: (id: string) => {
      run.selectors.push(`#${id}`);
      const el = p.ids.get(id);
      return el === undefined ? null : wrap(el);
    },
    querySelectorAll: (s: string) => {
      run.selectors.push(s);
      return select(p.root, s).map(wrap);
    },
    querySelector: (s: string) => {
      run.selectors.push(s);
      const el = select(p.root, s)[0];
      return el === undefined ? null : wrap(el);
    },
    documentElement: { scrollHeight: 812.4 },
    body: {},
  };
  runInNewContext(p.script(), { window, document, URL, JSON, Math, String });
  return run;
}

/** What the page shows and says, in terms a browser's user (or a suite) sees. */
function state(run: Run): unknown {
  const p = run.page;
  const shown = [...all(p.root)].flatMap((e) => {
    const role = roleOf(e);
    if (role === undefined) return [];
    const flags = ['aria-selected', 'aria-current', 'aria-expanded', 'open']
      .filter((a) => e.attrs.has(a))
      .map((a) => `${a}=${e.attrs.get(a)}`);
    return [`${role} "${p.nameOf(e)}"${hidden(e) ? ' hidden' : ''} ${flags.join(' ')}`];
  });
  const focused =
    run.focused === undefined ? undefined : `${roleOf(run.focused)} "${p.nameOf(run.focused)}"`;
  return { shown: shown.sort(), posted: run.posted, replaced: run.replaced, focused };
}

/** Every element the script listens on, as `role "name" type #n` (stable across structures). */
function handlers(run: Run): string[] {
  const seen = new Map<string, number>();
  return run.listeners.map((l) => {
    const base = `${roleOf(l.el) ?? l.el.tag} "${run.page.nameOf(l.el)}" ${l.type}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base} #${n}`;
  });
}

/** For each handler: the state after firing it on a freshly loaded page. */
function behaviour(
  html: string,
  read: (posted: unknown) => unknown = (m) => m,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const first = load(html);
  out.set('load', { ...(state(first) as object), posted: first.posted.map(read) });
  handlers(first).forEach((key, i) => {
    const run = load(html);
    const l = run.listeners[i]!;
    l.fn({ preventDefault: () => undefined });
    const s = state(run) as { posted: unknown[] };
    out.set(key, { ...s, posted: s.posted.map(read) });
  });
  return out;
}

/* ---------- tests ---------- */

describe('the hub transforms touch hub pages only', () => {
  it('an API answer and a hub answer that is no HTML are left alone', () => {
    const api: Answer = {
      ...hubAnswer(PAGES[0]!.html),
      request: { ...hubAnswer('').request, origin: 'api' },
    };
    const json: Answer = { ...hubAnswer('{}'), headers: { 'content-type': 'application/json' } };
    for (const a of [api, json]) {
      expect(isHubPage(a)).toBe(false);
      for (const t of hubTransforms) expect(t.apply(a, seeded(1)), t.id).toBeUndefined();
    }
  });
});

describe.each(PAGES)('hub.restructured: $name', ({ html }) => {
  const SEEDS = [1, 2, 99];
  it.each(SEEDS)('another structure (seed %i), the same roles and names', (seed) => {
    const out = transform('hub.restructured').apply(hubAnswer(html), seeded(seed))!;
    expect(out, 'the page changes').toBeDefined();
    expect(out.headers['content-length']).toBe(String(out.body.length));
    const before = new Page(html);
    const after = new Page(out.body.toString('utf-8'));
    expect(after.accessible(), 'every role and name, as many times').toEqual(before.accessible());
    // No element with an implicit role is left as it was, no id, no data-opens.
    expect(after.html).not.toMatch(/<(nav|header|main|figure|section|aside|figcaption)\b/);
    for (const id of before.ids.keys()) expect(after.ids.has(id), `id ${id} renamed`).toBe(false);
    expect(after.html).not.toMatch(/data-(opens|closes)=/);
    const broken = after.references().filter((r) => !r.resolves);
    expect(broken, 'every id reference resolves').toEqual([]);
    expect(after.references().length).toBe(before.references().length);
    // The nonce'd script and style are still the only ones, with their nonce.
    for (const tag of before.html.match(/<(script|style) nonce="[^"]*">/g) ?? [])
      expect(after.html, 'the nonce stays').toContain(tag);
    expect((after.html.match(/<(script|style)\b/g) ?? []).length).toBe(
      (before.html.match(/<(script|style)\b/g) ?? []).length,
    );
    expect(after.html).not.toMatch(/\sstyle="/);
    expect(after.html).not.toMatch(/\son[a-z]+="/);
  });

  it('the banner keeps its controls, the toolbars theirs', () => {
    const out = transform('hub.restructured').apply(hubAnswer(html), seeded(5))!;
    const before = new Page(html);
    const after = new Page(out.body.toString('utf-8'));
    for (const [thing, locator] of Object.entries(PROFILE.hub!.things)) {
      if (locator?.name === undefined || locator.name.includes('{')) continue;
      expect(after.landmarksOf(locator.role, locator.name), thing).toEqual(
        before.landmarksOf(locator.role, locator.name),
      );
    }
  });

  it("the page's script does the same things", () => {
    const out = transform('hub.restructured').apply(hubAnswer(html), seeded(3))!;
    const before = behaviour(html);
    const after = behaviour(out.body.toString('utf-8'));
    expect(before.size, 'the script listens on the page').toBeGreaterThan(1);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [key, value] of before) expect(after.get(key), key).toEqual(value);
  });
});

describe('hub.restructured: the roles and names of the profile', () => {
  it('every thing the reference profile names on the fullest page is still there', () => {
    const { html } = PAGES[0]!;
    const after = new Page(
      transform('hub.restructured').apply(hubAnswer(html), seeded(8))!.body.toString('utf-8'),
    );
    const values: Record<string, string> = {
      name: 'Board',
      label: 'Channel',
      title: SALES.title,
      value: 'Anvil',
    };
    const found: string[] = [];
    for (const [thing, locator] of Object.entries(PROFILE.hub!.things)) {
      if (locator === undefined) continue;
      const name = locator.name?.replace(/\{(\w+)\}/g, (_w, k: string) => values[k] ?? '');
      const hits = [...all(after.root)].filter(
        (e) => roleOf(e) === locator.role && (name === undefined || after.nameOf(e) === name),
      );
      if (hits.length > 0) found.push(thing);
    }
    expect(found.sort()).toEqual(Object.keys(PROFILE.hub!.things).sort());
  });

  it('a message page (§4.17 texts) keeps its alert', () => {
    const html = renderMessage('Dashboard not found.', NONCE);
    const out = transform('hub.restructured').apply(hubAnswer(html), seeded(1))!;
    const after = new Page(out.body.toString('utf-8'));
    expect(after.accessible()).toEqual(new Page(html).accessible());
    expect(after.html).toContain('Dashboard not found.');
  });
});

describe('hub.messages', () => {
  const restated = transform('hub.messages').restate!(PROFILE);
  const { heightMessage, paramsMessage } = restated.hub!;

  it('states the new shapes in the profile; embed:params keeps its type (§4.17)', () => {
    expect(heightMessage).toEqual(HEIGHT_MESSAGE);
    expect(paramsMessage).toEqual(PARAMS_MESSAGE);
    expect(paramsMessage!.type).toBe('embed:params');
    expect(heightMessage).not.toEqual(PROFILE.hub!.heightMessage);
    expect(paramsMessage).not.toEqual(PROFILE.hub!.paramsMessage);
    expect(TargetProfile.parse(restated)).toEqual(restated);
    const { hub: _hub, ...noHub } = PROFILE;
    expect(transform('hub.messages').restate!(noHub), 'no hub section, nothing to state').toEqual(
      noHub,
    );
  });

  it.each([
    ['hub.messages alone', ['hub.messages']],
    ['after hub.restructured', ['hub.restructured', 'hub.messages']],
    ['before hub.restructured', ['hub.messages', 'hub.restructured']],
  ])('the page posts the same values in the stated shape (%s)', (_what, ids) => {
    const { html } = PAGES[0]!;
    let answer = hubAnswer(html);
    for (const id of ids) answer = transform(id).apply(answer, seeded(4)) ?? answer;
    /** A message read through a profile: [kind, value] by its type and field. */
    const through =
      (p: typeof PROFILE) =>
      (posted: unknown): unknown => {
        const { message, origin } = posted as { message: Record<string, unknown>; origin: string };
        for (const [kind, shape] of [
          ['height', p.hub!.heightMessage!],
          ['params', p.hub!.paramsMessage!],
        ] as const)
          if (message['type'] === shape.type)
            return {
              kind,
              value: message[shape.field],
              origin,
              members: Object.keys(message).length,
            };
        return { unknown: message };
      };
    const before = behaviour(html, through(PROFILE));
    const after = behaviour(answer.body.toString('utf-8'), through(restated));
    const posted = (m: Map<string, unknown>): [string, unknown][] =>
      [...m.entries()].flatMap(([k, v]): [string, unknown][] =>
        (v as { posted: unknown[] }).posted.length > 0
          ? [[k, (v as { posted: unknown[] }).posted]]
          : [],
      );
    expect(posted(before).length, 'the page posts on load and on a filter change').toBeGreaterThan(
      1,
    );
    expect(new Map(posted(after))).toEqual(new Map(posted(before)));
    // And the old shapes are gone.
    const raw = load(answer.body.toString('utf-8'));
    for (const p of raw.posted) {
      const m = (p as { message: Record<string, unknown> }).message;
      expect(Object.keys(m).sort()).not.toEqual(['height', 'type']);
      expect(Object.keys(m).sort()).not.toEqual(['params', 'type']);
    }
  });
});

/* ---------- hub.rows-grid and hub.rows-list ---------- */

/**
 * The rows of every container of a page, read as the suites read them in each structure (cells
 * joined by `|`, head rows left out), with the container's kind: `table`, `grid` or `list`.
 */
function rowsOnPage(html: string): { kind: string; name: string; rows: string[] }[] {
  const root = parse(html);
  const cellText = (e: El) => clean(textOf(e));
  return [...all(root)].flatMap((e) => {
    const role = roleOf(e);
    const inside = (pick: (x: El) => boolean) => [...all(e)].filter(pick);
    if (e.tag === 'table') {
      const caption = inside((x) => x.tag === 'caption')[0];
      const rows = inside(
        (x) => x.tag === 'tr' && !x.children.some((c) => typeof c !== 'string' && c.tag === 'th'),
      );
      return [
        {
          kind: 'table',
          name: caption === undefined ? '' : cellText(caption),
          rows: rows.map((r) =>
            [...all(r)]
              .filter((c) => c.tag === 'td')
              .map(cellText)
              .join('|'),
          ),
        },
      ];
    }
    if (role === 'grid') {
      const rows = inside((x) => roleOf(x) === 'row').filter(
        (r) => ![...all(r)].some((c) => roleOf(c) === 'columnheader'),
      );
      return [
        {
          kind: 'grid',
          name: e.attrs.get('aria-label') ?? '',
          rows: rows.map((r) =>
            [...all(r)]
              .filter((c) => roleOf(c) === 'gridcell')
              .map(cellText)
              .join('|'),
          ),
        },
      ];
    }
    if (role === 'list' && e.attrs.has('aria-label')) {
      return [
        {
          kind: 'list',
          name: e.attrs.get('aria-label') ?? '',
          rows: inside((x) => x.tag === 'li').map((li) =>
            [...all(li)]
              .filter((c) => c.tag === 'dd')
              .map(cellText)
              .join('|'),
          ),
        },
      ];
    }
    return [];
  });
}

const CHART_ROWS = { name: 'Sales by product', rows: ['Anvil|15', 'Bolt|7'] };
const DRILL_ROWS = { name: 'Rows behind Anvil', rows: ['Anvil|15'] };

describe.each([
  ['hub.rows-grid', 'chart', 'grid', CHART_ROWS, DRILL_ROWS],
  ['hub.rows-list', 'drillDown', 'list', DRILL_ROWS, CHART_ROWS],
] as const)('%s', (id, place, kind, changed, kept) => {
  const restated = transform(id).restate!(PROFILE);

  it(`shows the ${place} rows as a ${kind}, the same rows, and leaves the other place a table`, () => {
    const { html } = PAGES[0]!;
    const before = rowsOnPage(html);
    expect(
      before.filter((c) => c.kind === 'table').map(({ name, rows }) => ({ name, rows })),
    ).toEqual(expect.arrayContaining([changed, kept]));
    const after = rowsOnPage(
      transform(id).apply(hubAnswer(html), seeded(5))!.body.toString('utf-8'),
    );
    expect(after).toContainEqual({ kind, ...changed });
    expect(after).toContainEqual({ kind: 'table', ...kept });
    expect(after.filter((c) => c.name === changed.name && c.kind === 'table')).toEqual([]);
    expect(after.length).toBe(before.length);
  });

  it(`states the ${place} structure in the profile, the other place's kept`, () => {
    const other = place === 'chart' ? 'drillDown' : 'chart';
    expect(restated.hub!.rows[place].structure).toBe(kind);
    expect(restated.hub!.rows[other]).toEqual(PROFILE.hub!.rows[other]);
    expect(PROFILE.hub!.rows[place].structure).toBe('table');
    expect(TargetProfile.parse(restated)).toEqual(restated);
  });

  it('leaves a page without rows alone', () => {
    const plain = PAGES[2]!.html.replace(/<table>[\s\S]*?<\/table>/g, '');
    expect(transform(id).apply(hubAnswer(plain), seeded(5))).toBeUndefined();
  });
});

describe('every hub transform together', () => {
  it('keeps every row of the page, charts in a grid and drill-downs in a list', () => {
    const { html } = PAGES[0]!;
    let answer = hubAnswer(html);
    for (const t of hubTransforms) answer = t.apply(answer, seeded(6)) ?? answer;
    const after = rowsOnPage(answer.body.toString('utf-8'));
    expect(after).toContainEqual({ kind: 'grid', ...CHART_ROWS });
    expect(after).toContainEqual({ kind: 'list', ...DRILL_ROWS });
    expect(after.filter((c) => c.kind === 'table')).toEqual([]);
  });
});
