import { tokenActor } from './auth.ts';
import { connectionForSql, runSql, tableOf, visibleRows } from './data.ts';
import type { DashboardFilter } from './data.ts';
import { isMigrated, listFor, liveDashboard, visibleTo } from './dashboards.ts';
import type { Viewer } from './dashboards.ts';
import { ApiError } from './errors.ts';
import { toApiError } from './http.ts';
import type { Req, Router } from './http.ts';
import type { Effective } from './permissions.ts';
import { parseSql } from './sql.ts';
import type { Row, Value } from './sql.ts';
import type { Account, Chart, Dashboard, ProjectUser, Store } from './store.ts';
import type { UserClaims } from './tokens.ts';

/** §4.17: the hub's embedded pages, rendered on the server with a little script for the embedder. */

export const TEXT_NOT_FOUND = 'Dashboard not found.';
export const TEXT_BAD_TOKEN = 'Invalid or missing token.';

export const HUB_NAMES = {
  header: 'Dashboard header',
  navigation: 'Dashboards',
  tabs: 'Dashboard tabs',
  filterBar: 'Dashboard filters',
  download: 'Download PDF',
  scheduleReport: 'Schedule report',
  setDefault: 'Make default dashboard',
  duplicate: 'Duplicate dashboard',
  aiInsight: 'AI insights',
  aiInsightSidebar: 'AI insights panel',
  aiCharts: 'Ask AI for a chart',
  editFromSession: 'Edit chart from chat',
  editingTools: 'Editing tools',
  addChart: 'Add chart',
  addFilter: 'Add filter',
  createChart: 'Create chart',
  createChartSQL: 'Write chart SQL',
  editCharts: 'Edit charts',
  removeChart: 'Remove chart',
  addDashboard: 'New dashboard',
  drillDown: 'Drill into {value}',
  drillDownRows: 'Rows behind {value}',
} as const;

export const HEIGHT_MESSAGE = { type: 'embed:resize', field: 'contentHeight' } as const;
export const PARAMS_MESSAGE = { type: 'embed:params', field: 'params' } as const;

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

interface Page {
  title: string;
  body: string;
  status: number;
  script: string;
  /** The signed-in line (already escaped markup), on every page a valid token opens. */
  viewer?: string;
}

function shell(page: Page): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#1d2733;background:#f6f7f9}
.frame{display:flex;min-height:100%}
nav{width:14rem;padding:1rem;background:#fff;border-right:1px solid #dde}
nav ul{list-style:none;padding:0;margin:0}nav a{display:block;padding:.3rem .4rem;color:inherit}
nav a[aria-current]{font-weight:700}
.content{flex:1;padding:1rem}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-bottom:1rem}
header h1{font-size:1.3rem;margin:0}
[role=tablist]{display:flex;gap:.5rem;margin-bottom:1rem}
[role=tab][aria-selected=true]{font-weight:700;text-decoration:underline}
.bar{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}
.row{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem;margin-bottom:1rem}
figure{margin:0;background:#fff;border:1px solid #dde;border-radius:6px;padding:.75rem;overflow:auto}
figcaption{font-weight:600;margin-bottom:.5rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.2rem .4rem;border-bottom:1px solid #eef}
aside{background:#fff;border:1px solid #dde;padding:.75rem;margin:.5rem 0}
.notice{padding:3rem;text-align:center;font-size:1.1rem}
.viewer{margin:0;padding:.35rem 1rem;font-size:.85rem;background:#eef1f5;border-bottom:1px solid #dde}
</style></head>
<body>${page.viewer ?? ''}${page.body}
<script>${page.script}</script>
</body></html>`;
}

function notice(text: string, status: number, script = ''): Page {
  return {
    title: text,
    body: `<main class="notice"><p role="alert">${esc(text)}</p></main>`,
    status,
    script,
  };
}

function cell(v: Value): string {
  return v === null ? '' : esc(String(v));
}

function tableHtml(label: string, columns: string[], rows: Row[]): string {
  const head = columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td>${cell(r[c] ?? null)}</td>`).join('')}</tr>`)
    .join('');
  return `<table aria-label="${esc(label)}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function chartSql(chart: Chart): string | null {
  const o = chart.chartConfig.sqlOverride;
  if (typeof o === 'string' && o.trim() !== '') return o;
  return chart.sql && chart.sql.trim() !== '' ? chart.sql : null;
}

function titleOf(chart: Chart): string {
  const t = chart.chartConfig.title;
  return typeof t === 'string' && t !== '' ? t : chart.name;
}

interface Ctx {
  account: Account;
  user: ProjectUser;
  claims: UserClaims;
  perms: Effective;
  query: Record<string, string>;
  path: string;
}

/**
 * §2.3, §2.4: the viewer's display name and their project organization's display name, as
 * text in a line of its own above everything else (so `hideHeader` leaves it in place).
 * Names are read from the store at render time, so a rename shows on the next page load.
 */
function viewerLine(ctx: Ctx): string {
  const orgId = ctx.user.projectOrganizationId;
  const org = orgId === null ? undefined : ctx.account.organizations.get(orgId);
  const who = `<span class="viewer-user">${esc(ctx.user.name)}</span>`;
  const where = org ? ` · <span class="viewer-org">${esc(org.name)}</span>` : '';
  return `<p class="viewer">Signed in as ${who}${where}</p>`;
}

function withViewer(ctx: Ctx, page: Page): Page {
  return { ...page, viewer: viewerLine(ctx) };
}

function filtersOf(
  ctx: Ctx,
  d: Dashboard,
): { values: Map<string, unknown>; filters: DashboardFilter[] } {
  const values = new Map<string, unknown>();
  const filters: DashboardFilter[] = [];
  for (const control of d.controls) {
    const raw = ctx.query[`filter_${control.controlKey}`];
    if (raw === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      value = raw;
    }
    values.set(control.controlKey, value);
    filters.push({ field: control.field, value });
  }
  return { values, filters };
}

function urlWith(ctx: Ctx, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(ctx.query);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  return `${ctx.path}?${params.toString()}`;
}

function renderChart(ctx: Ctx, chart: Chart, filters: DashboardFilter[]): string {
  const title = titleOf(chart);
  const sql = chartSql(chart);
  let inner: string;
  if (sql === null)
    inner = `<p>No data for this chart.</p>${tableHtml(`Data of ${title}`, [], [])}`;
  else {
    try {
      const connection = connectionForSql(ctx.account, chart.connectionId, sql);
      const result = runSql(connection, sql, ctx.claims.ctx.props, filters);
      inner = tableHtml(`Data of ${title}`, result.columns, result.rows);
      if (ctx.perms.drillDown && result.columns.length > 1) {
        const dim = result.columns[0] as string;
        const buttons = result.rows
          .map((r) => r[dim] ?? null)
          .filter((v): v is Exclude<Value, null> => v !== null)
          .slice(0, 50)
          .map(
            (v) =>
              `<button type="button" data-href="${esc(urlWith(ctx, { drillChart: chart.id, drillValue: String(v) }))}">${esc(
                HUB_NAMES.drillDown.replace('{value}', String(v)),
              )}</button>`,
          )
          .join('');
        inner += `<div class="bar drill">${buttons}</div>`;
      }
    } catch (error) {
      inner = `<p>This chart could not load: ${esc(toApiError(error).message)}</p>${tableHtml(`Data of ${title}`, [], [])}`;
    }
  }
  return `<figure role="figure" aria-label="${esc(title)}"><figcaption>${esc(title)}</figcaption>${inner}</figure>`;
}

function renderDrill(ctx: Ctx, d: Dashboard, filters: DashboardFilter[]): string {
  const chartId = ctx.query.drillChart;
  const value = ctx.query.drillValue;
  if (
    !ctx.perms.drillDown ||
    chartId === undefined ||
    value === undefined ||
    !d.chartIds.includes(chartId)
  )
    return '';
  const chart = ctx.account.charts.get(chartId);
  const sql = chart ? chartSql(chart) : null;
  const name = HUB_NAMES.drillDownRows.replace('{value}', value);
  let inner = '<p>Only a chart grouped by one column of one table can be drilled into.</p>';
  if (chart && sql) {
    try {
      const query = parseSql(sql);
      const group = query.groupBy[0];
      if (group && group.k === 'col') {
        const connection = connectionForSql(ctx.account, chart.connectionId, sql);
        const table = tableOf(connection);
        const column = table.columns.find((c) => c.name.toLowerCase() === group.name.toLowerCase());
        if (column && table.name.toLowerCase() === query.table.toLowerCase()) {
          const rows = visibleRows(connection, ctx.claims.ctx.props, [
            ...filters,
            { field: column.name, value },
          ]);
          inner = `<p>${rows.length} row${rows.length === 1 ? '' : 's'}${rows.length > 100 ? ', the first 100 shown' : ''}.</p>${tableHtml(
            name,
            table.columns.map((c) => c.name),
            rows.slice(0, 100),
          )}`;
        }
      }
    } catch (error) {
      inner = `<p>${esc(toApiError(error).message)}</p>`;
    }
  }
  return `<section role="region" aria-label="${esc(name)}">${inner}</section>`;
}

function renderDashboard(
  ctx: Ctx,
  d: Dashboard,
  nav: { list: Dashboard[]; href: (d: Dashboard) => string } | null,
): Page {
  const p = ctx.perms;
  const hideHeader = ctx.query.hideHeader === 'true' || p.hideHeader;
  const hideDownload = ctx.query.hideDownloadButton === 'true' || p.hideDownloadButton;
  const { values, filters } = filtersOf(ctx, d);
  const parts: string[] = [];
  if (!hideHeader) {
    const actions = [
      hideDownload ? '' : `<button type="button">${HUB_NAMES.download}</button>`,
      p.enableScheduleReport ? `<button type="button">${HUB_NAMES.scheduleReport}</button>` : '',
    ].join('');
    parts.push(
      `<header role="banner" aria-label="${HUB_NAMES.header}"><h1>${esc(d.name)}</h1><div class="bar">${actions}</div></header>`,
    );
  }
  if (nav && !p.disableTabs && nav.list.length > 0) {
    parts.push(
      `<div role="tablist" aria-label="${HUB_NAMES.tabs}">${nav.list
        .map(
          (x) =>
            `<a role="tab" href="${esc(nav.href(x))}" aria-selected="${x.id === d.id ? 'true' : 'false'}">${esc(x.name)}</a>`,
        )
        .join('')}</div>`,
    );
  }
  if (!p.hideFilters && d.controls.length > 0) {
    const inputs = d.controls
      .map((c) => {
        const v = values.get(c.controlKey);
        const shown = v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
        return `<label>${esc(c.label)} <input type="text" data-key="${esc(c.controlKey)}" value="${esc(shown)}"></label>`;
      })
      .join(' ');
    parts.push(
      `<form role="search" aria-label="${HUB_NAMES.filterBar}" class="bar">${inputs}</form>`,
    );
  }
  const tools: string[] = [];
  const editing = [
    'addChart',
    'addFilter',
    'createChart',
    'createChartSQL',
    'editCharts',
    'removeChart',
    'addDashboard',
  ] as const;
  if (!p.readOnly)
    for (const flag of editing)
      if (p[flag]) tools.push(`<button type="button">${HUB_NAMES[flag]}</button>`);
  if (tools.length > 0)
    parts.push(
      `<div role="toolbar" aria-label="${HUB_NAMES.editingTools}" class="bar">${tools.join('')}</div>`,
    );
  const other: string[] = [];
  if (p.canSetDefaultDashboard)
    other.push(`<button type="button">${HUB_NAMES.setDefault}</button>`);
  if (p.canDuplicateDashboard && !p.readOnly)
    other.push(`<button type="button">${HUB_NAMES.duplicate}</button>`);
  if (p.aiCharts) other.push(`<button type="button">${HUB_NAMES.aiCharts}</button>`);
  if (p.canEditChartFromSession)
    other.push(`<button type="button">${HUB_NAMES.editFromSession}</button>`);
  if (p.aiInsight)
    other.push(
      `<button type="button" id="ai-open" aria-expanded="false" aria-controls="ai-panel">${HUB_NAMES.aiInsight}</button>`,
    );
  if (other.length > 0)
    parts.push(
      `<div role="group" aria-label="Dashboard tools" class="bar">${other.join('')}</div>`,
    );
  if (p.aiInsight)
    parts.push(
      `<aside id="ai-panel" aria-label="${HUB_NAMES.aiInsightSidebar}" hidden><h2>AI insights</h2><p>Ask a question about this dashboard.</p></aside>`,
    );
  parts.push(renderDrill(ctx, d, filters));
  const charts = d.chartIds
    .map((id) => ctx.account.charts.get(id))
    .filter((c): c is Chart => c !== undefined);
  const rows: string[] = [];
  for (let i = 0; i < charts.length; i += 2)
    rows.push(
      `<div class="row">${charts
        .slice(i, i + 2)
        .map((c) => renderChart(ctx, c, filters))
        .join('')}</div>`,
    );
  parts.push(charts.length === 0 ? '<p>This dashboard has no charts yet.</p>' : rows.join(''));
  const main = `<main aria-label="${esc(d.name)}" class="content">${parts.join('')}</main>`;
  const navHtml = nav
    ? `<nav aria-label="${HUB_NAMES.navigation}"><ul>${nav.list
        .map(
          (x) =>
            `<li><a href="${esc(nav.href(x))}"${x.id === d.id ? ' aria-current="page"' : ''}>${esc(x.name)}</a></li>`,
        )
        .join('')}</ul></nav>`
    : '';
  return {
    title: d.name,
    body: `<div class="frame">${navHtml}${main}</div>`,
    status: 200,
    script: script(ctx),
  };
}

/** JSON safe inside a script element. */
const js = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

function script(ctx: Ctx): string {
  const auto = ctx.query.autoHeight === 'true';
  const origin = ctx.query.parentOrigin ?? null;
  return `(function(){
var parentOrigin=${js(origin)};var auto=${js(auto)};
function post(msg){if(window.parent===window)return;try{window.parent.postMessage(msg,parentOrigin||'*');}catch(e){}}
if(auto&&parentOrigin){var last=-1;var report=function(){var h=Math.ceil(document.documentElement.scrollHeight);if(h!==last){last=h;post({type:${JSON.stringify(HEIGHT_MESSAGE.type)},${JSON.stringify(HEIGHT_MESSAGE.field)}:h});}};
report();window.addEventListener('load',report);if(window.ResizeObserver){new ResizeObserver(report).observe(document.body);}}
var inputs=document.querySelectorAll('input[data-key]');
function params(){var out={};inputs.forEach(function(i){var t=i.value.trim();if(t==='')return;var v;try{v=JSON.parse(t);if(typeof v==='string')v=t;}catch(e){v=t;}out['filter_'+i.getAttribute('data-key')]=JSON.stringify(v);});return out;}
inputs.forEach(function(i){i.addEventListener('change',function(){var p=params();post({type:${JSON.stringify(PARAMS_MESSAGE.type)},${JSON.stringify(PARAMS_MESSAGE.field)}:p});
var u=new URL(window.location.href);Array.from(u.searchParams.keys()).forEach(function(k){if(k.indexOf('filter_')===0)u.searchParams.delete(k);});
Object.keys(p).forEach(function(k){u.searchParams.set(k,p[k]);});u.searchParams.delete('drillChart');u.searchParams.delete('drillValue');
setTimeout(function(){window.location.replace(u.toString());},150);});});
document.querySelectorAll('form[role=search]').forEach(function(f){f.addEventListener('submit',function(e){e.preventDefault();});});
document.querySelectorAll('button[data-href]').forEach(function(b){b.addEventListener('click',function(){window.location.assign(b.getAttribute('data-href'));});});
var ai=document.getElementById('ai-open');if(ai){ai.addEventListener('click',function(){var p=document.getElementById('ai-panel');var open=p.hasAttribute('hidden');if(open)p.removeAttribute('hidden');else p.setAttribute('hidden','');ai.setAttribute('aria-expanded',String(open));});}
})();`;
}

/** The user's view of one dashboard: its own copy stands in for the shared one. */
function forUser(account: Account, d: Dashboard, viewer: Viewer): Dashboard {
  for (const x of account.dashboards.values())
    if (
      x.replacesId === d.id &&
      x.generation === d.generation &&
      visibleTo(x, viewer) &&
      x.ownerProjectUserId !== null
    )
      return x;
  return d;
}

interface Container {
  id: string;
  generation: 1 | 2;
  defaultId: string;
  projectId: string | null;
}

function containerOf(account: Account, id: string): Container | null {
  if (isMigrated(account)) {
    const app =
      account.applications.get(id) ??
      [...account.applications.values()].find((a) => a.legacyWorkspaceId === id);
    return app
      ? { id: app.id, generation: 2, defaultId: app.defaultDashboardId, projectId: app.projectId }
      : null;
  }
  const ws = account.workspaces.get(id);
  return ws
    ? { id: ws.id, generation: 1, defaultId: ws.primaryDashboardId, projectId: ws.projectId }
    : null;
}

async function context(store: Store, req: Req): Promise<Ctx | Page> {
  const jwt = req.query.jwt;
  if (!jwt) return notice(TEXT_BAD_TOKEN, 401);
  try {
    const actor = await tokenActor(store, jwt);
    if (actor.kind !== 'user') return notice(TEXT_BAD_TOKEN, 401);
    return {
      account: actor.account,
      user: actor.user,
      claims: actor.claims,
      perms: actor.claims.ctx.perms,
      query: req.query,
      path: req.path,
    };
  } catch (error) {
    if (error instanceof ApiError) return notice(TEXT_BAD_TOKEN, 401);
    throw error;
  }
}

export function registerHub(router: Router, store: Store): void {
  const render = (page: Page) => Promise.resolve({ html: shell(page), status: page.status });
  const renderFor = (ctx: Ctx, page: Page) => render(withViewer(ctx, page));

  router.add('GET', '/share/dashboard/:dashboardId', async (req) => {
    const ctx = await context(store, req);
    if (!('account' in ctx)) return render(ctx);
    const viewer: Viewer = { kind: 'user', userId: ctx.user.id };
    const d = liveDashboard(ctx.account, req.params.dashboardId ?? '');
    const container = d ? containerOf(ctx.account, d.containerId) : null;
    if (
      !d ||
      !container ||
      !visibleTo(d, viewer) ||
      (container.projectId !== null && container.projectId !== ctx.user.projectId)
    )
      return renderFor(ctx, notice(TEXT_NOT_FOUND, 404, script(ctx)));
    return renderFor(ctx, renderDashboard(ctx, forUser(ctx.account, d, viewer), null));
  });

  router.add('GET', '/share/application/:applicationId', async (req) => {
    const ctx = await context(store, req);
    if (!('account' in ctx)) return render(ctx);
    const viewer: Viewer = { kind: 'user', userId: ctx.user.id };
    const container = containerOf(ctx.account, req.params.applicationId ?? '');
    if (!container || (container.projectId !== null && container.projectId !== ctx.user.projectId))
      return renderFor(ctx, notice(TEXT_NOT_FOUND, 404, script(ctx)));
    const list = listFor(ctx.account, container.id, container.generation, viewer);
    const wanted = req.query.dashboardId;
    if (wanted !== undefined) {
      const d = liveDashboard(ctx.account, wanted);
      if (!d || d.containerId !== container.id || !visibleTo(d, viewer))
        return renderFor(ctx, notice(TEXT_NOT_FOUND, 404, script(ctx)));
      return renderFor(ctx, renderDashboard(ctx, forUser(ctx.account, d, viewer), null));
    }
    const selected = req.query.view;
    const pick =
      list.find((x) => x.id === selected) ??
      list.find((x) => x.id === container.defaultId || x.replacesId === container.defaultId) ??
      list[0];
    if (!pick) return renderFor(ctx, notice(TEXT_NOT_FOUND, 404, script(ctx)));
    const base = new URLSearchParams(req.query);
    const href = (x: Dashboard) => {
      const q = new URLSearchParams(base);
      q.set('view', x.id);
      q.delete('drillChart');
      q.delete('drillValue');
      return `${req.path}?${q.toString()}`;
    };
    return renderFor(ctx, renderDashboard(ctx, pick, { list, href }));
  });
}
