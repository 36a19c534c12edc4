import type { RowStructure } from '../spec/hub-profile.ts';
import type { TargetProfile } from '../spec/profile.ts';
import { sample } from './sse.ts';
import type { Answer, Transform } from './transform.ts';

/**
 * The hub-page entries of the latitude catalogue (spec/latitude.ts): the embedded pages of
 * §4.17 served in another form. The suites find things on a page by ARIA role and accessible
 * name only (spec/hub-profile.ts), so `hub.restructured` changes everything else: elements with
 * an implicit role become elements with an explicit one, blocks get wrappers, independent
 * siblings change order, ids, data attributes and classes are renamed, and the page's own
 * script and style are rewritten to match. `hub.messages` posts the two messages §4.17 leaves
 * in another shape, and states it in the profile. `hub.rows-grid` shows a chart's rows as an
 * ARIA grid and `hub.rows-list` the rows behind a drilled point as a list (two places, so that
 * with every entry on each structure is still met), each stated in the profile's `hub.rows`.
 *
 * The page's script and style are edited in place: they keep their nonce, and nothing inline
 * is added (the Content-Security-Policy allows the nonce'd elements only). Each rewrite checks
 * that the script holds what it must change, and is left out when it does not, so a page the
 * rewrite does not know comes back changed less, never broken.
 */

/** Whether an answer is an HTML page of the hub, the only answers these transforms touch. */
export function isHubPage(answer: Answer): boolean {
  const type = (answer.headers['content-type'] ?? '').trim().toLowerCase();
  return answer.request.origin === 'hub' && type.startsWith('text/html');
}

/** A page with the contents of its script and style elements set aside. */
interface Page {
  /** The markup, each raw text replaced by `\uE000<n>\uE000`. */
  markup: string;
  /** The raw texts, by n. */
  raws: { readonly tag: string; readonly executable: boolean; text: string }[];
}

const RAW = /(<(script|style)\b([^>]*)>)([\s\S]*?)(<\/\2>)/gi;

/** The page split, or undefined when its text holds the marker itself (then left alone). */
function split(html: string): Page | undefined {
  if (html.includes('\uE000')) return undefined;
  const raws: Page['raws'] = [];
  const markup = html.replace(
    RAW,
    (_whole, open: string, tag: string, attrs: string, text: string, close: string) => {
      const executable =
        tag.toLowerCase() === 'script' && !/\btype="application\/json"/i.test(attrs);
      raws.push({ tag: tag.toLowerCase(), executable, text });
      return `${open}\uE000${raws.length - 1}\uE000${close}`;
    },
  );
  return { markup, raws };
}

function join(page: Page): string {
  return page.markup.replace(/\uE000(\d+)\uE000/g, (_w, n: string) => page.raws[Number(n)]!.text);
}

type Edits = readonly (readonly [from: string, to: string])[];

/** Applies edits to every executable script; false (nothing changed) when one is missing. */
function editScripts(page: Page, edits: Edits): boolean {
  const scripts = page.raws.filter((r) => r.executable);
  const text = scripts.map((s) => s.text).join('\n');
  if (edits.some(([from]) => !text.includes(from))) return false;
  for (const s of scripts) for (const [from, to] of edits) s.text = s.text.replaceAll(from, to);
  return true;
}

/** Style rules follow the markup where they can; a rule left behind only changes looks. */
function editStyles(page: Page, edits: Edits): void {
  for (const s of page.raws.filter((r) => r.tag === 'style'))
    for (const [from, to] of edits) s.text = s.text.replaceAll(from, to);
}

/** One rewrite of the markup, the script edits it needs and the style edits that follow it. */
interface Step {
  readonly markup: (markup: string) => string;
  readonly script?: Edits;
  readonly style?: Edits;
}

/** Runs a step when the markup changes and the script holds what the step must change. */
function run(page: Page, step: Step): void {
  const markup = step.markup(page.markup);
  if (markup === page.markup) return;
  if (step.script !== undefined && !editScripts(page, step.script)) return;
  page.markup = markup;
  editStyles(page, step.style ?? []);
}

/** The attribute text `name="…"` of a tag's attributes, or undefined. */
const attrOf = (attrs: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(attrs)?.[1];

/** Swaps one element for a div with the role it had, opening and closing tags alike. */
function toDiv(tag: string, role: string, extra = ''): Step['markup'] {
  return (markup) =>
    markup
      .replace(new RegExp(`<${tag}(\\s[^>]*)?>`, 'g'), (_w, attrs: string | undefined) => {
        const rest = attrs ?? '';
        const withRole = attrOf(rest, 'role') === undefined ? ` role="${role}"${rest}` : rest;
        return `<div${withRole}${extra}>`;
      })
      .replace(new RegExp(`</${tag}>`, 'g'), '</div>');
}

/**
 * The steps, in order: reorder first (on the reference's own tags), then swap elements, then
 * rename. Each names the roles it keeps: navigation, banner, main, figure, region or tabpanel,
 * complementary.
 */
function steps(prefix: string): Step[] {
  return [
    // Header controls before the title (they stay inside the banner: §2.2 places Schedule
    // Report in the header).
    {
      markup: (m) =>
        m.replace(
          /(<header\b[^>]*>)(<h1>[\s\S]*?<\/h1>)(<p>[\s\S]*?<\/p>)?([\s\S]*?)(<\/header>)/,
          (_w, open: string, h1: string, p: string | undefined, controls: string, close: string) =>
            `${open}${controls}<div class="${prefix}title">${h1}${p ?? ''}</div>${close}`,
        ),
    },
    // The buttons of every toolbar in reverse order, and the toolbars before the tab list.
    {
      markup: (m) => {
        const bars: string[] = [];
        const without = m.replace(
          /<div role="toolbar"([^>]*)>((?:<button\b[^>]*>[^<]*<\/button>\s*)+)<\/div>/g,
          (_w, attrs: string, buttons: string) => {
            const list = buttons.match(/<button\b[^>]*>[^<]*<\/button>/g) ?? [];
            bars.push(`<div role="toolbar"${attrs}>${list.reverse().join(' ')}</div>`);
            return '';
          },
        );
        if (bars.length === 0 || !/<main\b[^>]*>/.test(without)) return m;
        return without.replace(
          /<main\b[^>]*>/,
          (open) => `${open}<div class="${prefix}actions">${bars.join('')}</div>`,
        );
      },
    },
    // The dialogs in reverse order.
    {
      markup: (m) =>
        m.replace(/(?:<dialog\b[\s\S]*?<\/dialog>){2,}/g, (run) =>
          (run.match(/<dialog\b[\s\S]*?<\/dialog>/g) ?? []).reverse().join(''),
        ),
    },
    // Each filter input before its label, the two in a wrapper (the label's `for` names it).
    {
      markup: (m) =>
        m.replace(
          /(<label for="[^"]*">[^<]*<\/label>)\s*(<input\b[^>]*>)/g,
          (_w, label: string, input: string) =>
            `<span class="${prefix}field">${input} ${label}</span>`,
        ),
    },
    {
      markup: toDiv('nav', 'navigation'),
      script: [["'nav a[data-dashboard]'", "'[role=navigation] a[data-dashboard]'"]],
      style: [['nav{', '[role=navigation]{']],
    },
    {
      markup: (m) =>
        toDiv(
          'header',
          'banner',
        )(m).replace(
          /(<div role="banner"[^>]*>)([\s\S]*?)(<\/div>)(?=\s*<div class="layout">|$)/,
          (_w, open: string, inner: string, close: string) =>
            `${open}<div class="${prefix}bar">${inner}</div>${close}`,
        ),
      style: [['header{', '[role=banner]{']],
    },
    { markup: toDiv('main', 'main'), style: [['main{', '[role=main]{']] },
    // A figure named by aria-label keeps its name as a div; its caption becomes a div too.
    {
      markup: (m) =>
        m.replace(
          /<figure(\s[^>]*)?>([\s\S]*?)<\/figure>/g,
          (whole, attrs: string | undefined, inner: string) => {
            const rest = attrs ?? '';
            if (attrOf(rest, 'aria-label') === undefined) return whole;
            const role = attrOf(rest, 'role') === undefined ? ' role="figure"' : '';
            const body = inner
              .replace(/<figcaption>/g, `<div class="${prefix}caption">`)
              .replace(/<\/figcaption>/g, '</div>');
            return `<div class="${prefix}cell"><div${role}${rest}>${body}</div></div>`;
          },
        ),
      style: [['figure{', '[role=figure]{']],
    },
    // Dashboard panels: a section named by aria-label or aria-labelledby is a region (or holds
    // its explicit role); as a div it says so itself. The script finds panels by a data
    // attribute instead of the tag.
    {
      markup: (m) =>
        m
          .replace(/<section(\s[^>]*)?>/g, (_w, attrs: string | undefined) => {
            const rest = attrs ?? '';
            const named =
              attrOf(rest, 'aria-label') !== undefined ||
              attrOf(rest, 'aria-labelledby') !== undefined;
            const role = attrOf(rest, 'role') === undefined && named ? ' role="region"' : '';
            return `<div data-${prefix}panel${role}${rest}>`;
          })
          .replace(/<\/section>/g, '</div>'),
      script: [
        ["'section[data-dashboard]'", `'[data-${prefix}panel][data-dashboard]'`],
        ["el.tagName === 'SECTION'", `el.hasAttribute('data-${prefix}panel')`],
      ],
    },
    { markup: toDiv('aside', 'complementary') },
    // The openers' and closers' data attributes renamed.
    {
      markup: (m) => m.replace(/\sdata-opens="/g, ` data-${prefix}open="`),
      script: [
        ["'[data-opens]'", `'[data-${prefix}open]'`],
        ['b.dataset.opens', `b.dataset.${prefix}open`],
      ],
    },
    {
      markup: (m) => m.replace(/\sdata-closes="/g, ` data-${prefix}close="`),
      script: [
        ["'[data-closes]'", `'[data-${prefix}close]'`],
        ['b.dataset.closes', `b.dataset.${prefix}close`],
      ],
    },
  ];
}

/** Attributes that name elements by id (a space-separated list for the aria ones). */
const ID_REFS = [
  'for',
  'aria-controls',
  'aria-labelledby',
  'aria-describedby',
  'aria-owns',
  'aria-activedescendant',
];

/**
 * Every id renamed, with every reference to it: the attributes above, `data-…` attributes of
 * the openers and closers (whatever they are called by now), `href="#id"`, and
 * `getElementById('id')` in the script.
 */
function renameIds(page: Page, prefix: string): void {
  const ids = new Map<string, string>();
  for (const [, id] of page.markup.matchAll(/\sid="([^"]*)"/g))
    if (id !== undefined && !ids.has(id)) ids.set(id, `${prefix}${ids.size}`);
  if (ids.size === 0) return;
  const lookups = [...ids.keys()].map(
    (id) => [`getElementById('${id}')`, `getElementById('${ids.get(id)!}')`] as const,
  );
  const used = lookups.filter(([from]) =>
    page.raws.some((r) => r.executable && r.text.includes(from)),
  );
  editScripts(page, used);
  const refs = new RegExp(
    `\\s(id|${ID_REFS.join('|')}|data-[a-z0-9-]*(?:open|close)[a-z]*)="([^"]*)"`,
    'g',
  );
  page.markup = page.markup
    .replace(refs, (whole, name: string, value: string) => {
      const mapped = value
        .split(' ')
        .map((v) => ids.get(v) ?? v)
        .join(' ');
      return whole.replace(`="${value}"`, `="${mapped}"`).replace(/^\s\S+?=/, ` ${name}=`);
    })
    .replace(/\shref="#([^"]*)"/g, (whole, id: string) =>
      ids.has(id) ? ` href="#${ids.get(id)!}"` : whole,
    );
}

/** A short tag for names, from the answer's seeded random. */
function prefixOf(random: () => number): string {
  let out = '';
  for (let i = 0; i < 3; i++) out += String.fromCharCode(97 + Math.floor(random() * 26));
  return `lat${out}`;
}

/** The answer with a new body; pieces a transform before cut are cut again as many. */
export function withBody(answer: Answer, html: string, random: () => number): Answer | undefined {
  const body = Buffer.from(html, 'utf-8');
  if (body.equals(answer.body)) return undefined;
  const { pieces, ...rest } = answer;
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
  if (pieces === undefined || pieces.length < 2) return { ...rest, headers, body };
  const positions = Array.from({ length: body.length - 1 }, (_v, i) => i + 1);
  const sorted = sample(positions, pieces.length - 1, random).sort((a, b) => a - b);
  const cut = [0, ...sorted, body.length];
  return {
    ...rest,
    headers,
    body,
    pieces: cut.slice(1).map((to, i) => body.subarray(cut[i], to)),
  };
}

const restructured: Transform = {
  id: 'hub.restructured',
  apply(answer, random) {
    if (!isHubPage(answer)) return undefined;
    const page = split(answer.body.toString('utf-8'));
    if (page === undefined) return undefined;
    const prefix = prefixOf(random);
    for (const step of steps(prefix)) run(page, step);
    renameIds(page, `${prefix}-`);
    return withBody(answer, join(page), random);
  },
};

/** §4.17 leaves the height message open, and the member of embed:params holding the filters. */
export const HEIGHT_MESSAGE = { type: 'eac:resize', field: 'value' } as const;
// §4.17 prescribes the type 'embed:params' itself: only the member changes.
export const PARAMS_MESSAGE = { type: 'embed:params', field: 'filters' } as const;

const messages: Transform = {
  id: 'hub.messages',
  apply(answer, random) {
    if (!isHubPage(answer)) return undefined;
    const page = split(answer.body.toString('utf-8'));
    if (page === undefined) return undefined;
    const height = editScripts(page, [
      [
        "post({ type: 'embed:height', height });",
        `post({ type: '${HEIGHT_MESSAGE.type}', ${HEIGHT_MESSAGE.field}: height });`,
      ],
    ]);
    const params = editScripts(page, [
      [
        "post({ type: 'embed:params', params });",
        `post({ type: '${PARAMS_MESSAGE.type}', ${PARAMS_MESSAGE.field}: params });`,
      ],
    ]);
    return height || params ? withBody(answer, join(page), random) : undefined;
  },
  restate(profile: TargetProfile): TargetProfile {
    if (profile.hub === undefined) return profile;
    return {
      ...profile,
      hub: {
        ...profile.hub,
        heightMessage: { ...HEIGHT_MESSAGE },
        paramsMessage: { ...PARAMS_MESSAGE },
      },
    };
  },
};

/** A table as the reference writes one: caption, a head row of column heads, body rows. */
const TABLE =
  /<table><caption>([\s\S]*?)<\/caption><thead><tr>([\s\S]*?)<\/tr><\/thead><tbody>([\s\S]*?)<\/tbody><\/table>/g;

/** The texts (markup as it is, escaped) of the cells `tag` holds, in order. */
const cellsOf = (row: string, tag: 'th' | 'td'): string[] =>
  [...row.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (m) => m[1] ?? '',
  );

/** A table's caption, column heads, and body rows' cells. */
interface RowsTable {
  readonly caption: string;
  readonly heads: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

function readTable(caption: string, head: string, body: string): RowsTable {
  return {
    caption,
    heads: cellsOf(head, 'th'),
    rows: [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => cellsOf(m[1] ?? '', 'td')),
  };
}

/**
 * Whether the table at `index` shows the rows behind a drilled point: it sits in the region
 * the reference marks `data-drilled`, after the line that counts them.
 */
const isDrillTable = (markup: string, index: number): boolean =>
  /<div\b[^>]*\sdata-drilled\b[^>]*>(?:<p>[^<]*<\/p>)?$/.test(
    markup.slice(Math.max(0, index - 2000), index),
  );

/** Rewrites the tables of one place (charts or drill-downs) with `write`. */
function rewriteTables(
  place: 'chart' | 'drillDown',
  write: (table: RowsTable) => string,
): (markup: string) => string {
  return (markup) =>
    markup.replace(TABLE, (whole, caption: string, head: string, body: string, index: number) =>
      isDrillTable(markup, index) === (place === 'drillDown')
        ? write(readTable(caption, head, body))
        : whole,
    );
}

/** A chart's rows as an ARIA grid: a row of column heads, then a row of grid cells per row. */
const asGrid = ({ caption, heads, rows }: RowsTable): string =>
  `<div role="grid" aria-label="${caption}" aria-readonly="true"><div role="row">${heads
    .map((h) => `<span role="columnheader">${h}</span>`)
    .join(' ')}</div>${rows
    .map(
      (r) => `<div role="row">${r.map((c) => `<span role="gridcell">${c}</span>`).join(' ')}</div>`,
    )
    .join('')}</div>`;

/** What names the cells of a list item: a definition list of column and value per row. */
export const LIST_CELL = { role: 'definition' } as const;

/** Rows as a list: one item per row, each a definition list of column heads and values. */
const asList = ({ caption, heads, rows }: RowsTable): string =>
  `<ul aria-label="${caption}">${rows
    .map(
      (r) =>
        `<li><dl>${r.map((c, i) => `<dt>${heads[i] ?? ''}</dt><dd>${c}</dd>`).join('')}</dl></li>`,
    )
    .join('')}</ul>`;

/** A transform rewriting one place's row tables, and stating the structure in the profile. */
function rowsTransform(
  id: 'hub.rows-grid' | 'hub.rows-list',
  place: 'chart' | 'drillDown',
  write: (table: RowsTable) => string,
  structure: RowStructure,
): Transform {
  return {
    id,
    apply(answer, random) {
      if (!isHubPage(answer)) return undefined;
      const page = split(answer.body.toString('utf-8'));
      if (page === undefined) return undefined;
      page.markup = rewriteTables(place, write)(page.markup);
      return withBody(answer, join(page), random);
    },
    restate(profile: TargetProfile): TargetProfile {
      if (profile.hub === undefined) return profile;
      return {
        ...profile,
        hub: { ...profile.hub, rows: { ...profile.hub.rows, [place]: structure } },
      };
    },
  };
}

/** §4.17 fixes no markup for rows: a chart's rows as an ARIA grid. */
const rowsGrid = rowsTransform('hub.rows-grid', 'chart', asGrid, { structure: 'grid' });
/** The rows behind a drilled point as a list, each item's cells found by role. */
const rowsList = rowsTransform('hub.rows-list', 'drillDown', asList, {
  structure: 'list',
  cell: { ...LIST_CELL },
});

export const hubTransforms: Transform[] = [restructured, messages, rowsGrid, rowsList];
