/**
 * `index.html`: one self-contained page (inline CSS and one small inline script, nothing
 * fetched but the run folder's screenshots). It opens on what a reader came for: the counts,
 * the failures grouped by cause with their replay lines, HTTP exchanges and screenshots, the
 * not-run causes; then the ambiguity register, coverage as a bar per section of the document,
 * and every test in a (collapsed) table that filters by outcome, area and clause. Each clause
 * links to its section's row (§4.10), which links on to the document when EAC_DOCUMENT_URL
 * gives a URL.
 *
 * Size: exchanges are recorded for failed and probed tests only; a failure's are shown as
 * they are, a probe's are gzipped (all together) into the page and unpacked by the script when
 * opened, so a full run stays well under 2 MB.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { clauseById } from '../spec/clauses/index.ts';
import {
  isUnexpected,
  verdictOf,
  type CoverageRow,
  type RegisterEntry,
  type ReportedExchange,
  type Result,
  type Results,
} from './schema.ts';
import { firmTotal, groupCoverage } from './coverage.ts';
import { escapeHtml as h, firstLine, screenshotFile } from './escape.ts';
import { failureGroups } from './failure-groups.ts';
import { causeLabel, coverageLine, NO_HUB_SHOWN } from './outline.ts';
import { documentUrlOf, sectionUrl } from './document-link.ts';
import { endpointsOf, testsOf } from './register.ts';
import { runReplayLine, targetArgsOf } from './replay.ts';
import { plural } from './words.ts';
import { rowsCovered } from './machines.ts';

/** What the page needs beyond results.json: the run folder's screenshots, the document's URL. */
export interface HtmlContext {
  /** Ids of the tests whose screenshot (screenshotFile(id)) is in the run folder. */
  readonly screenshots?: ReadonlySet<string>;
  /**
   * Where the document is (document-link.ts): with `{section}` standing for a section number
   * (`https://example.org/service-api.html#s-{section}`), or a plain URL that gets
   * `#section-<n>`. Without it, section links stay in the page.
   */
  readonly documentUrl?: string;
}

/** The context of a run folder: its screenshots, and EAC_DOCUMENT_URL from the environment. */
export async function htmlContext(
  runDir: string,
  run: Pick<Results, 'results'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<HtmlContext> {
  let files: string[] = [];
  try {
    files = await readdir(path.join(runDir, 'screenshots'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const present = new Set(files.map((f) => `screenshots/${f}`));
  const screenshots = new Set(
    run.results.filter((r) => present.has(screenshotFile(r.id))).map((r) => r.id),
  );
  const documentUrl = documentUrlOf(env);
  return { screenshots, ...(documentUrl !== undefined ? { documentUrl } : {}) };
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:76rem;padding:0 1rem;color:#1b1b1b}
h1{margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6rem 0 1.2rem;width:100%}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f5}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.top td{font-weight:600;background:#fafafa}tr.sub td:first-child{padding-left:1.4rem}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
.counts span{display:inline-block;margin-right:1rem;font-weight:600}
.pass{color:#1a7f37}.fail{color:#cf222e}.not-run{color:#6e7781}.probe{color:#8250df}.probe-error{color:#9a6700}
details{margin:.4rem 0 .8rem}summary{cursor:pointer}
.test{border-left:4px solid #ddd;padding:.2rem .8rem;margin:1rem 0}
.test.fail{border-color:#cf222e;color:inherit}.test.probe{border-color:#8250df;color:inherit}
.yes{color:#1a7f37}.no{color:#cf222e}ul.kinds li{margin:.2rem 0}
a.sec{text-decoration:none;font-size:12px;color:#0969da}
.bar{display:flex;height:.9rem;min-width:12rem;background:#eaeef2;border-radius:3px;overflow:hidden}
.bar i{display:block;height:100%}
.k-portable{background:#1a7f37}.k-decision{background:#8fd19e}.k-explained{background:#d4a72c}.k-probed{background:#a475f9}.k-failing{background:#cf222e}.k-uncovered{background:#eaeef2}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 .9rem;vertical-align:middle;border-radius:2px}
.filters{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd;z-index:1}
.filters button{font:inherit;margin-right:.2rem;padding:.1rem .5rem;border:1px solid #bbb;border-radius:3px;background:#fff;cursor:pointer}
.filters button[aria-pressed=true]{background:#1b1b1b;color:#fff}
.filters label{margin-left:1rem}
.o{font-weight:600}
table.register{table-layout:fixed}table.register td{overflow-wrap:anywhere}
table.register pre{white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere;margin:.3rem 0}
img.shot{display:block;max-width:100%;max-height:36rem;border:1px solid #ddd;margin:.4rem 0}
.cause{margin-top:1.4rem}
.breach{font-weight:600;color:#cf222e}
ul.cites{margin:0;padding-left:1rem}.ctext{color:#57606a}
`;

/**
 * The page's only script: the filters, and inflating a probe's gzipped exchanges when its
 * block is opened. Everything it inserts was escaped when the page was rendered.
 */
const SCRIPT = `
(() => {
  const form = document.getElementById('filters');
  const items = [...document.querySelectorAll('[data-outcome]')];
  const rows = items.filter((el) => el.tagName === 'TR');
  const buttons = [...form.querySelectorAll('button[data-filter-outcome]')];
  const area = document.getElementById('filter-area');
  const clause = document.getElementById('filter-clause');
  const count = document.getElementById('filter-count');
  let outcome = '';
  const matches = (el, query) => {
    if (query === '') return true;
    if (query.startsWith('§')) {
      const section = query.slice(1);
      return el.dataset.sections.split(' ').some((s) => s === section || s.startsWith(section + '.'));
    }
    return el.dataset.clauses.split(' ').some((id) => id !== '' && id.includes(query));
  };
  const apply = () => {
    const query = clause.value.trim().toLowerCase();
    for (const el of items) {
      el.hidden = !((outcome === '' || el.dataset.outcome === outcome) &&
        (area.value === '' || el.dataset.area === area.value) && matches(el, query));
    }
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.filterOutcome === outcome));
    count.textContent = rows.filter((r) => !r.hidden).length + ' of ' + rows.length + ' tests shown';
  };
  // The table starts closed; choosing a filter opens it.
  const table = document.getElementById('all-tests');
  const pick = () => { table.open = true; apply(); };
  for (const b of buttons) b.addEventListener('click', () => { outcome = b.dataset.filterOutcome; pick(); });
  area.addEventListener('change', pick);
  clause.addEventListener('input', pick);
  form.addEventListener('submit', (event) => event.preventDefault());
  form.hidden = false;
  apply();
  const blob = document.getElementById('packed');
  let unpacked;
  const unpack = () => {
    unpacked ??= (async () => {
      const bytes = Uint8Array.from(atob(blob.textContent.trim()), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      return JSON.parse(await new Response(stream).text());
    })();
    return unpacked;
  };
  for (const block of document.querySelectorAll('details[data-packed]')) {
    block.addEventListener('toggle', () => {
      if (!block.open || block.dataset.unpacked) return;
      block.dataset.unpacked = 'yes';
      unpack().then(
        (pieces) => block.insertAdjacentHTML('beforeend', pieces[Number(block.dataset.packed)]),
        (error) => {
          const pre = document.createElement('pre');
          pre.textContent = 'could not unpack the exchanges: ' + error;
          block.append(pre);
        },
      );
    });
  }
})();
`;

/** Renders the page with whatever the context holds. */
class Page {
  readonly #rows: ReadonlySet<string>;
  readonly #packed: string[] = [];

  constructor(
    readonly run: Results,
    readonly context: HtmlContext,
  ) {
    this.#rows = new Set(run.coverage.map((r) => r.section));
  }

  /** `§4.10`, linking to the document when its URL is known, else to the section's coverage row. */
  section(section: string): string {
    const label = `§${section}`;
    const url = this.documentLink(section);
    if (url !== undefined) return `<a class="sec" href="${h(url)}">${h(label)}</a>`;
    if (this.#rows.has(section)) return `<a class="sec" href="#sec-${h(section)}">${h(label)}</a>`;
    return h(label);
  }

  /** Keeps a piece of HTML for the packed blob; returns its index there. */
  pack(html: string): number {
    this.#packed.push(html);
    return this.#packed.length - 1;
  }

  /** The packed pieces as gzipped JSON in base64, or '' when there are none. */
  packed(): string {
    if (this.#packed.length === 0) return '';
    return gzipSync(JSON.stringify(this.#packed), { level: 9 }).toString('base64');
  }

  documentLink(section: string): string | undefined {
    return sectionUrl(this.context.documentUrl, section);
  }

  /**
   * A clause id with its section in front, linked, and the catalogue's wording of the clause
   * after it: a failure can be acted on without the document at hand.
   */
  clause(id: string): string {
    const clause = clauseById.get(id);
    if (clause === undefined) return `<code>${h(id)}</code>`;
    return `${this.section(clause.section)} <code>${h(id)}</code> <span class="ctext">${h(clause.summary)}</span>`;
  }

  clauses(ids: readonly string[]): string {
    return ids.length > 0
      ? `<ul class="cites">${ids.map((c) => `<li>${this.clause(c)}</li>`).join('')}</ul>`
      : '<em>none</em>';
  }
}

/** Attributes the filters read: outcome, area, cited clause ids and their sections. */
function filterData(result: Result): string {
  const sections = [
    ...new Set(
      result.clauses.map((c) => clauseById.get(c)?.section).filter((s) => s !== undefined),
    ),
  ];
  return `data-outcome="${h(result.outcome)}" data-area="${h(result.area)}" data-clauses="${h(result.clauses.join(' ').toLowerCase())}" data-sections="${h(sections.join(' '))}"`;
}

// ---------------------------------------------------------------- coverage

type Kind = 'portable' | 'decision' | 'explained' | 'probed' | 'failing' | 'uncovered';

/** The document's clauses of a row, split into the standings the bar shows. */
function standings(row: CoverageRow): Record<Kind, number> {
  const total = row.must + row.observed + row.unspecified;
  const known = row.portable + row.throughDecision + row.noPortableCheck + row.probed + row.failing;
  return {
    portable: row.portable,
    decision: row.throughDecision,
    explained: row.noPortableCheck,
    probed: row.probed,
    failing: row.failing,
    uncovered: Math.max(0, total - known),
  };
}

const KIND_LABELS: Record<Kind, string> = {
  portable: 'portable',
  decision: 'through a decision',
  explained: 'no portable check',
  probed: 'probed',
  failing: 'failing',
  uncovered: 'not covered',
};

function bar(row: CoverageRow): string {
  const parts = standings(row);
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  if (total === 0) return '<div class="bar" title="no clauses"></div>';
  const title = (Object.keys(parts) as Kind[])
    .map((k) => `${parts[k]} ${KIND_LABELS[k]}`)
    .join(', ');
  const segments = (Object.keys(parts) as Kind[])
    .filter((k) => parts[k] > 0 && k !== 'uncovered')
    .map((k) => `<i class="k-${k}" style="width:${((parts[k] / total) * 100).toFixed(2)}%"></i>`);
  return `<div class="bar" title="${h(title)}">${segments.join('')}</div>`;
}

function coverageRow(page: Page, row: CoverageRow, top: boolean): string {
  const n = (value: string | number) => `<td class="n">${value}</td>`;
  const link = page.documentLink(row.section);
  const label = `§${row.section}${row.title !== undefined ? ` ${row.title}` : ''}`;
  const name = link !== undefined ? `<a href="${h(link)}">${h(label)}</a>` : h(label);
  return `<tr id="sec-${h(row.section)}" class="${top ? 'top' : 'sub'}"><td>${name}</td><td>${bar(row)}</td>${n(`${row.portable}/${firmTotal(row)}`)}${n(row.throughDecision)}${n(row.noPortableCheck)}${n(`${row.probed}/${row.unspecified}`)}${n(row.failing)}${n(row.must)}${n(row.observed)}</tr>`;
}

const KINDS = `<ul class="kinds">
<li><strong>portable</strong>: a passing conformance test cites the clause and relies on no decision of ours, so the verdict holds on any server that follows the document;</li>
<li><strong>through a decision</strong>: only passing tests that rely on an unspecified clause (one of our choices, or the profile’s answer to it) cite the clause;</li>
<li><strong>no portable check</strong>: covered through a decision, and the catalogue says why no test can observe the clause without one (listed below with the gaps);</li>
<li><strong>probed</strong>: a probe recorded what the target does where the document is silent.</li>
</ul><p>A clause cited by a failing test counts as covered by nothing. Security clauses are not the document’s and are counted apart.</p>`;

function legend(): string {
  return `<p class="legend">${(Object.keys(KIND_LABELS) as Kind[])
    .map(
      (k) =>
        `<i class="k-${k}"${k === 'uncovered' ? ' style="outline:1px solid #bbb"' : ''}></i>${KIND_LABELS[k]}`,
    )
    .join('')}</p>`;
}

function coverage(page: Page): string {
  const rows = groupCoverage(page.run.coverage).flatMap(({ top, subsections }) => [
    coverageRow(page, top, true),
    ...subsections.map((s) => coverageRow(page, s, false)),
  ]);
  const note =
    page.context.documentUrl !== undefined
      ? 'Section names and section references link to the document.'
      : 'Section references elsewhere in the page lead to these rows; set EAC_DOCUMENT_URL (a URL, #section-N is appended; or one with {section}) when rendering to link them to the document.';
  return `<h2 id="coverage">Clause coverage by section</h2>${legend()}<table><thead><tr><th>Section</th><th>clauses of the document</th><th>portable</th><th>through a decision</th><th>no portable check</th><th>probed</th><th>failing</th><th>must</th><th>observed</th></tr></thead><tbody>${rows.join('')}</tbody></table><p><small>${h(note)}</small></p>${KINDS}`;
}

function security(page: Page): string {
  const rows = page.run.coverage.filter((r) => r.security > 0 && !r.section.includes('.'));
  if (rows.length === 0) return '<h2>Security clauses</h2><p>The catalogue holds none.</p>';
  const body = rows
    .map(
      (r) =>
        `<tr><td>${page.section(r.section)}${r.title !== undefined ? ` ${h(r.title)}` : ''}</td><td class="n">${r.security}</td><td class="n">${r.securityCovered}</td><td class="n">${r.securityThroughDecision}</td><td class="n">${r.securityFailing}</td></tr>`,
    )
    .join('');
  return `<h2>Security clauses</h2><p>What no trustworthy server may do although the document does not spell it out; a failing security test is a failure like any other.</p><table><thead><tr><th>Section</th><th>clauses</th><th>covered</th><th>of which through a decision</th><th>failing</th></tr></thead><tbody>${body}</tbody></table>`;
}

function gaps(page: Page): string {
  const shown = page.run.gaps.filter((g) => g.decisionOnly.length + g.unprobed.length > 0);
  const head = '<h2 id="gaps">Covered only through a decision, and open clauses with no probe</h2>';
  if (shown.length === 0) return `${head}<p>None.</p>`;
  const titles = new Map(page.run.coverage.map((r) => [r.section, r.title]));
  const list = (ids: readonly string[]) =>
    ids.length > 0 ? ids.map((id) => `<code>${h(id)}</code>`).join(' ') : '—';
  const rows = shown.map((g) => {
    const title = titles.get(g.section);
    return `<tr><td>${page.section(g.section)}${title !== undefined ? ` ${h(title)}` : ''}</td><td>${list(g.decisionOnly)}</td><td>${list(g.unprobed)}</td></tr>`;
  });
  const count = (pick: (g: (typeof shown)[number]) => readonly string[]) =>
    shown.reduce((n, g) => n + pick(g).length, 0);
  return `${head}<details><summary>${count((g) => g.decisionOnly)} must/observed clauses covered only through a decision, ${count((g) => g.unprobed)} open clauses with no probe, in ${shown.length} sections</summary><table><thead><tr><th>Section</th><th>must/observed covered only through a decision</th><th>unspecified, no probe</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/** The clauses covered through a decision that say why no portable check exists, with why. */
function noPortableCheck(page: Page): string {
  const ids = page.run.gaps.flatMap((g) => g.noPortableCheck.map((id) => [g.section, id] as const));
  const head = '<h2 id="no-portable-check">Covered through a decision, with no portable check</h2>';
  if (ids.length === 0) return `${head}<p>None.</p>`;
  const rows = ids.map(([section, id]) => {
    const reason = clauseById.get(id)?.noPortableCheck ?? '';
    return `<tr><td>${page.section(section)}</td><td><code>${h(id)}</code></td><td>${h(reason)}</td></tr>`;
  });
  return `${head}<details><summary>${plural(ids.length, 'must/observed clause')} no test can observe without leaning on an open point</summary><table><thead><tr><th>Section</th><th>clause</th><th>why no portable check exists</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

// ---------------------------------------------------------------- tests and exchanges

function json(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? '';
}

function headers(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function exchange(ex: ReportedExchange, index: number, open: boolean): string {
  const outcome = ex.response ? String(ex.response.status) : `error: ${ex.error ?? 'no response'}`;
  const head = `#${index + 1} ${ex.request.method} ${ex.request.url} → ${outcome} (${Math.round(ex.ms)} ms)`;
  const request = [`${ex.request.method} ${ex.request.url}`, headers(ex.request.headers)];
  if (ex.request.body !== undefined) request.push('', json(ex.request.body));
  const parts = [`<pre>${h(request.join('\n'))}</pre>`];
  if (ex.response) {
    const response = [`HTTP ${ex.response.status}`, headers(ex.response.headers)];
    if (ex.response.body !== undefined) response.push('', json(ex.response.body));
    parts.push(`<pre>${h(response.join('\n'))}</pre>`);
  }
  if (ex.error !== undefined) parts.push(`<pre>${h(ex.error)}</pre>`);
  return `<details${open ? ' open' : ''}><summary><code>${h(head)}</code></summary>${parts.join('')}</details>`;
}

/** Whether an exchange went to the host hooks (a test's set-up), not to the API under test. */
function isSetUp(page: Page, ex: ReportedExchange): boolean {
  const hooks = page.run.target.hooksUrl;
  return hooks !== undefined && hooks !== '' && ex.request.url.startsWith(hooks);
}

/**
 * A failure's exchanges in full: those with the API, the last one open (usually the answer
 * that failed), and apart and closed the set-up through the host hooks. A probe's go into the
 * page's one gzipped blob (compressed together, the repeated headers cost almost nothing),
 * inflated by the script when the block is first opened.
 */
function exchanges(page: Page, result: Result): string {
  const list = result.exchanges ?? [];
  if (list.length === 0) return '';
  const label = plural(list.length, 'HTTP exchange');
  if (result.outcome === 'fail') {
    const numbered = list.map((ex, i) => ({ ex, i }));
    const setUp = numbered.filter(({ ex }) => isSetUp(page, ex));
    const api = numbered.filter(({ ex }) => !isSetUp(page, ex));
    const body = api.map(({ ex, i }) => exchange(ex, i, i === api.at(-1)?.i)).join('');
    const hooks =
      setUp.length > 0
        ? `<details><summary>${plural(setUp.length, 'set-up exchange')} through the host hooks</summary>${setUp.map(({ ex, i }) => exchange(ex, i, false)).join('')}</details>`
        : '';
    return `<details open><summary>${plural(api.length, 'HTTP exchange')} with the API${setUp.length > 0 ? ` (and ${setUp.length} set-up)` : ''}</summary>${body}${hooks}</details>`;
  }
  const index = page.pack(list.map((ex, i) => exchange(ex, i, false)).join(''));
  return `<details data-packed="${index}"><summary>${label}</summary></details>`;
}

function observations(result: Result): string[] {
  const lines: string[] = [];
  if (result.observations !== undefined && result.observations.length > 0) {
    const items = result.observations.map(
      (o) =>
        `<li>${o.matchesDecision ? '<span class="yes">✓</span>' : '<span class="no">✗</span>'} ${o.endpoint !== undefined ? `<code>${h(o.endpoint)}</code> ` : ''}<pre>${h(o.observation)}</pre></li>`,
    );
    lines.push(`<p>Target did:</p><ul>${items.join('')}</ul>`);
    if (result.decision !== undefined)
      lines.push(`<p>Reference decision: ${h(result.decision)}</p>`);
    if (result.outcome === 'fail') lines.push(`<pre>${h(result.reason ?? 'failed')}</pre>`);
  } else if (result.outcome === 'probe') {
    lines.push(`<p>Target did: ${h(result.reason ?? '(nothing recorded)')}</p>`);
    if (result.decision !== undefined)
      lines.push(`<p>Reference decision: ${h(result.decision)}</p>`);
  } else {
    lines.push(`<pre>${h(result.reason ?? result.outcome)}</pre>`);
  }
  return lines;
}

function testBlock(page: Page, result: Result, extra = ''): string {
  const lines = [
    `<div class="test ${h(result.outcome)}" id="${h(result.id)}" ${filterData(result)}>`,
    `<h4>${h(result.name)} <small>(${h(result.area)}, <code>${h(result.file)}</code>)</small></h4>`,
    extra,
    `<p>Replay: <code>${h(result.replay)}</code> (test seed ${result.seed})</p>`,
    ...observations(result),
    `<p>Clauses: ${page.clauses(result.clauses)}</p>`,
  ];
  if (result.relies.length > 0)
    lines.push(`<p>Relies on the decisions of: ${page.clauses(result.relies)}</p>`);
  if (page.context.screenshots?.has(result.id) === true) {
    const file = screenshotFile(result.id);
    lines.push(
      `<p>Screenshot of the page it last had open: <a href="${h(file)}">${h(file)}</a><a href="${h(file)}"><img class="shot" loading="lazy" alt="the page the test last had open" src="${h(file)}"></a></p>`,
    );
  }
  lines.push(exchanges(page, result), '</div>');
  return lines.filter((l) => l !== '').join('\n');
}

/**
 * Failures grouped by cause (failure-groups.ts), the largest first: each cause with its first
 * test in full and the others closed below it.
 */
function grouped(page: Page, failed: readonly Result[], extra = (_: Result) => ''): string {
  if (failed.length === 0) return '<p>None.</p>';
  const groups = failureGroups(failed);
  const blocks = groups.map(({ heading, tests }) => {
    const [first, ...rest] = tests;
    const more =
      rest.length > 0
        ? `<details><summary>${plural(rest.length, 'more test')} of this cause</summary>${rest.map((r) => testBlock(page, r, extra(r))).join('\n')}</details>`
        : '';
    return `<h3 class="cause">${plural(tests.length, 'test')}: <code>${h(heading)}</code></h3>${first !== undefined ? testBlock(page, first, extra(first)) : ''}${more}`;
  });
  const note = groups.length > 1 ? `<p>${groups.length} causes, the largest first.</p>` : '';
  return `${note}${blocks.join('\n')}`;
}

function failures(page: Page): string {
  const failed = page.run.results.filter((r) => r.outcome === 'fail');
  return `<h2 class="fail" id="failures">Failures (${failed.length})</h2>${grouped(page, failed)}`;
}

function expectedLine(result: Result): string {
  const e = result.expected;
  if (e === undefined) return '';
  return `<p>Expected: <strong>${h(e.outcome)}</strong>${e.by !== 'test' ? ` (by clause <code>${h(e.by)}</code>)` : ''}: ${h(e.reason)}${e.issue !== undefined ? ` (${h(e.issue)})` : ''}</p>`;
}

/** With an expectations file: unexpected failures, other surprises, then expected failures. */
function gatedFailures(page: Page): string {
  const gate = page.run.gate;
  if (gate === undefined) return failures(page);
  const pick = (keep: (r: Result) => boolean) => page.run.results.filter(keep);
  const section = (title: string, cls: string, list: readonly Result[]) =>
    `<h2 class="${cls}">${h(title)} (${list.length})</h2>${grouped(page, list, expectedLine)}`;
  return [
    `<p id="failures"><strong>Against the expectations file: ${gate.unexpected} unexpected</strong> (${gate.unexpectedFailures} unexpected failures, ${gate.unexpectedPasses} unexpected passes, ${gate.otherUnexpected} other), ${gate.expectedFailures} expected failures; <code>${h(gate.expectationsFile)}</code>, ${gate.entries} entries${gate.unused.length > 0 ? `, ${gate.unused.length} matched no test of this run` : ''}. The exit code counts only the unexpected.</p>`,
    section(
      'Unexpected failures',
      'fail',
      pick((r) => verdictOf(r) === 'unexpected-fail'),
    ),
    section(
      'Unexpected passes and other outcomes',
      'fail',
      pick((r) => r.outcome !== 'fail' && isUnexpected(verdictOf(r))),
    ),
    section(
      'Expected failures',
      'not-run',
      pick((r) => verdictOf(r) === 'expected-fail'),
    ),
  ].join('\n');
}

const OUTCOME_ORDER = ['fail', 'probe-error', 'probe', 'not-run', 'pass'] as const;

/** Every test in one table, failures first, with the filters above it. */
function allTests(page: Page): string {
  const results = [...page.run.results].sort(
    (a, b) =>
      OUTCOME_ORDER.indexOf(a.outcome) - OUTCOME_ORDER.indexOf(b.outcome) ||
      a.area.localeCompare(b.area) ||
      a.name.localeCompare(b.name),
  );
  const withBlock = (r: Result) =>
    r.outcome === 'fail' || r.outcome === 'probe' || r.outcome === 'probe-error';
  const rows = results.map((r) => {
    const name = withBlock(r) ? `<a href="#${h(r.id)}">${h(r.name)}</a>` : h(r.name);
    const why =
      r.outcome === 'not-run' || r.outcome === 'fail' || r.outcome === 'probe-error'
        ? `<br><small>${h(firstLine(r.reason ?? '', 160))}</small>`
        : '';
    return `<tr ${filterData(r)}><td class="o ${h(r.outcome)}">${h(r.outcome)}</td><td>${h(r.area)}</td><td>${name}${why}</td><td>${page.clauses(r.clauses)}</td></tr>`;
  });
  const count = (outcome: string) => page.run.results.filter((r) => r.outcome === outcome).length;
  const buttons = [
    `<button type="button" data-filter-outcome="" aria-pressed="true">all (${page.run.results.length})</button>`,
    ...OUTCOME_ORDER.map(
      (o) =>
        `<button type="button" data-filter-outcome="${o}" aria-pressed="false">${o} (${count(o)})</button>`,
    ),
  ];
  const areas = [...new Set(page.run.results.map((r) => r.area))].sort();
  const options = [
    '<option value="">all</option>',
    ...areas.map((a) => `<option value="${h(a)}">${h(a)}</option>`),
  ];
  const form = `<form id="filters" class="filters" hidden><span>Outcome:</span> ${buttons.join('')}<label>Area <select id="filter-area">${options.join('')}</select></label><label>Clause <input id="filter-clause" type="search" placeholder="id, part of an id, or §4.10" size="26"></label> <output id="filter-count"></output></form>`;
  return `<h2 id="tests">All tests (${page.run.results.length})</h2>${form}<details id="all-tests"><summary>Every test with its outcome, failures first; the filters also apply to the failure and probe blocks of this page.</summary><table id="test-table"><thead><tr><th>Outcome</th><th>Area</th><th>Test</th><th>Clauses</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/**
 * An answer as a person reads it: JSON in it (the whole answer, or what follows its first
 * `{` or `[`, as in `rows [{...}]`) pretty-printed, anything else as it is.
 */
export function readable(answer: string): string {
  for (let at = 0; at < answer.length; at += 1) {
    const c = answer[at];
    if (c !== '{' && c !== '[') continue;
    try {
      const value: unknown = JSON.parse(answer.slice(at));
      if (typeof value !== 'object' || value === null) continue;
      const head = answer.slice(0, at).trimEnd();
      return `${head}${head !== '' ? '\n' : ''}${JSON.stringify(value, null, 2)}`;
    } catch {
      // not JSON from here on: try the next bracket
    }
  }
  return answer;
}

/** The register's rows for one run: one row per distinct answer, grouped under its clause. */
export function registerTable(
  entries: readonly RegisterEntry[],
  section: (section: string) => string = (s) => `§${h(s)}`,
): string {
  const rows = entries.flatMap((entry) =>
    entry.answers.map((answer, index) => {
      const clause =
        index === 0
          ? `<td rowspan="${entry.answers.length}"><code>${h(entry.clause)}</code> ${section(entry.section)}<br><small>${h(entry.summary)}</small></td><td rowspan="${entry.answers.length}">${h(entry.decision ?? '—')}</td>`
          : '';
      const endpoints = endpointsOf(answer)
        .map((e) => `<code>${h(e)}</code>`)
        .join(' ');
      const tests = testsOf(answer)
        .map((id) => `<a href="#${h(id)}">${h(id)}</a>`)
        .join(', ');
      const mark = answer.matchesDecision
        ? '<span class="yes">✓ matches</span>'
        : '<span class="no">✗ departs</span>';
      return `<tr>${clause}<td class="answer">${mark}<pre>${h(readable(answer.answer))}</pre></td><td>${endpoints}${endpoints !== '' ? '<br>' : ''}${tests}</td></tr>`;
    }),
  );
  return `<table class="register"><colgroup><col style="width:18%"><col style="width:24%"><col style="width:38%"><col style="width:20%"></colgroup><thead><tr><th>Clause</th><th>Reference decision</th><th>Answer</th><th>Seen on</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function probes(page: Page): string {
  const run = page.run;
  const probedEntries = run.register.filter((e) => e.answers.length > 0);
  const probed = run.results.filter((r) => r.outcome === 'probe');
  const head = `<h2 class="probe" id="register">Ambiguity register: where the document is silent (${probedEntries.length} of ${run.register.length} open clauses probed)</h2>`;
  if (probedEntries.length === 0) return `${head}<p>No probe recorded an answer in this run.</p>`;
  return [
    head,
    '<p>Probes grouped by clause: each distinct answer the target gave, whether it is the reference’s decision, and where it was seen. Against the reference, or with --check-decisions, a departure from the decision also fails its test (listed above). Compare runs with <code>eac compare</code>.</p>',
    registerTable(probedEntries, (s) => page.section(s)),
    `<details id="probe-list"><summary>The ${plural(probed.length, 'probe')}, with their exchanges</summary>`,
    probed.map((r) => testBlock(page, r)).join('\n'),
    '</details>',
  ].join('\n');
}

/** Probes that broke while recording: the kit's trouble on this target, not the target's. */
function probeErrors(page: Page): string {
  const broken = page.run.results.filter((r) => r.outcome === 'probe-error');
  if (broken.length === 0) return '';
  return `<h2 class="probe-error" id="probe-errors">Probe errors (${broken.length})</h2><p>Probes that broke before or while they recorded what the target did (they threw, or a request failed). Neither a probe nor a fail: the target is not judged by them, and the kit owes a fix (a form of answer it could not read).</p>${broken.map((r) => testBlock(page, r)).join('\n')}`;
}

/** Every gate the run was given (expectations, thresholds), breached or not. */
function gatesSection(page: Page): string {
  const gates = page.run.gates ?? [];
  if (gates.length === 0) return '';
  const breached = gates.filter((g) => g.breached).length;
  const items = gates.map(
    (g) =>
      `<li>${g.breached ? '<span class="no">✗ breached</span>' : '<span class="yes">✓ held</span>'} <code>${h(g.name)}</code>: ${h(g.detail)}</li>`,
  );
  return `<h2 class="${breached > 0 ? 'fail' : 'pass'}" id="gates">Gates (${breached} of ${gates.length} breached)</h2><ul>${items.join('')}</ul>`;
}

/** Under the counts: each breached gate. */
function breachLines(run: Results): string {
  return (run.gates ?? [])
    .filter((g) => g.breached)
    .map(
      (g) =>
        `<p class="breach">⚠ Gate breached: <code>${h(g.name)}</code>: ${h(g.detail)} (<a href="#gates">gates</a>)</p>`,
    )
    .join('\n');
}

function notRun(page: Page): string {
  const run = page.run;
  const skipped = run.results.filter((r) => r.outcome === 'not-run');
  if (skipped.length === 0) return '<h2 class="not-run" id="not-run">Not run (0)</h2><p>None.</p>';
  const causes = run.notRunCauses
    .map(
      (c) =>
        `<tr><td>${h(c.kind)}</td><td><code>${h(c.entry)}</code></td><td>${h(causeLabel(c, run.target))}</td><td class="n">${c.tests}</td></tr>`,
    )
    .join('');
  return `<h2 class="not-run" id="not-run">Not run (${skipped.length})</h2><p>What each entry the tests wait on would let run (a test waiting on two counts under each); the tests are in the table of all tests below, filtered by “not-run”.</p><table><thead><tr><th>Kind</th><th>Entry</th><th>What it would run</th><th>tests</th></tr></thead><tbody>${causes}</tbody></table>`;
}

function machines(run: Results): string {
  if (run.machines.length === 0) return '';
  const tables = run.machines.map((m) => {
    const rows = m.transitions
      .map(
        (t) =>
          `<tr><td><code>${h(t.command)}</code></td><td>${h(t.from)}</td><td>${h(t.to)}</td><td>${h(t.note ?? '')}</td><td>${h((t.guards ?? []).join(', '))}</td><td>${h(/^\d/.test(t.section) ? `§${t.section}` : t.section)}</td><td>${t.taken === undefined ? 'not known' : String(t.taken)}</td></tr>`,
      )
      .join('');
    const { rows: total, covered } = rowsCovered(m);
    const took =
      covered === undefined
        ? 'rows taken not known'
        : `${String(covered)} of ${String(total)} rows taken`;
    return `<h3>${h(m.name)} (${took})</h3><table><thead><tr><th>Command</th><th>From</th><th>To</th><th>Note</th><th>Guards</th><th>Section</th><th>Taken</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<h2>State machines</h2><details><summary>The transition tables of spec/machines that the reference is written in and the model-based suite checks against, with how often the run took each row where the target counted it (the embedded reference does; for any other target it is not known).</summary>${tables.join('')}</details>`;
}

function facts(run: Results, replay: string): string {
  const { target } = run;
  const rows: [string, string][] = [
    ['Target', `${target.baseUrl}${target.embedded === true ? ' (embedded reference)' : ''}`],
    ['Implementation', target.implementation ?? 'not announced'],
    ...(target.image !== undefined
      ? [['Image', `${target.image.name} (${target.image.id})`] as [string, string]]
      : []),
    [
      'Profile',
      `${run.profile.source}${run.profile.description !== undefined ? ` — ${run.profile.description}` : ''}`,
    ],
    ['Parts served', run.profile.serves.join(', ') || 'none'],
    ...(target.credentialsFile !== undefined
      ? [['Credentials file', target.credentialsFile] as [string, string]]
      : []),
    ['Hub', target.hubUrl ?? NO_HUB_SHOWN],
    [
      'Hooks',
      target.hooksUrl !== undefined
        ? `${target.hooksUrl} (${target.hooks.join(', ') || 'none announced'})`
        : 'none',
    ],
    ['Probes held to reference decisions', target.checkDecisions ? 'yes' : 'no'],
    ['Seed', String(run.seed)],
    ['Started', run.startedAt],
    ['Duration', `${(run.durationMs / 1000).toFixed(1)} s`],
    ['Replay the run', replay],
  ];
  return `<table><tbody>${rows.map(([k, v]) => `<tr><th>${h(k)}</th><td>${h(v)}</td></tr>`).join('')}</tbody></table>`;
}

export function renderHtml(run: Results, context: HtmlContext = {}): string {
  const page = new Page(run, context);
  const { summary, target } = run;
  const replay = runReplayLine({ runSeed: run.seed, targetArgs: targetArgsOf(target) }, run.only);
  // Rendered before the blob is read: the blocks above fill it.
  const body = [
    gatesSection(page),
    gatedFailures(page),
    probeErrors(page),
    notRun(page),
    probes(page),
    coverage(page),
    security(page),
    gaps(page),
    noPortableCheck(page),
    allTests(page),
  ].join('\n');
  const packed = page.packed();
  // Base64 holds no '<', so the blob cannot end the script element early.
  const packedBlob =
    packed !== '' ? `<script type="application/octet-stream" id="packed">${packed}</script>` : '';
  const nav = [
    ['#failures', 'failures'],
    ['#not-run', 'not run'],
    ['#register', 'ambiguity register'],
    ['#coverage', 'coverage'],
    ['#tests', 'all tests'],
    ['#run', 'run details'],
  ]
    .map(([href, label]) => `<a href="${href}">${label}</a>`)
    .join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>EAC run ${h(run.startedAt)}: ${summary.fail} fail${run.interrupted === true ? ' (interrupted)' : ''}</title>
<style>${CSS}</style>
</head>
<body>
<h1>EAC conformance run</h1>
<p class="counts"><span class="pass">${summary.pass} pass</span><span class="fail">${summary.fail} fail</span><span class="not-run">${summary.notRun} not-run</span><span class="probe">${summary.probe} probe</span>${summary.probeErrors > 0 ? `<span class="probe-error">${summary.probeErrors} probe-error</span>` : ''}<span>${plural(summary.total, 'test')}</span></p>
${run.interrupted === true ? `<p class="breach">Interrupted (Ctrl-C): a partial report of the ${plural(summary.total, 'test')} that ended before the run was stopped; the others did not run and are counted nowhere.</p>` : ''}
${breachLines(run)}
<p>${h(target.baseUrl)}${target.implementation !== undefined ? ` (${h(target.implementation)})` : ''}, seed ${run.seed}. ${h(coverageLine(run).replace(/^coverage/, 'Coverage'))}.</p>
<p>Replay the run: <code>${h(replay)}</code></p>
<p>${nav}</p>
${body}
<h2 id="run">Run details</h2>
${facts(run, replay)}
${machines(run)}
${packedBlob}
<script>${SCRIPT}</script>
</body>
</html>
`;
}
