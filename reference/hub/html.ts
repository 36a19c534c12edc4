import type { EffectivePermissions } from '../../spec/schemas/permissions.ts';
import { CLIENT_SCRIPT } from './client.ts';
import type { ChartView, ControlView, DashboardView, DrillView, PageView } from './page.ts';
import type { PageQuery } from './query.ts';

/**
 * The HTML of the hub pages (§4.17). Every name, property and value shown goes through
 * `text()`/`attr()`; the only script is the page's own, allowed by nonce, so markup that slips
 * into a name can neither run nor load anything (Content-Security-Policy in server.ts).
 *
 * What the page offers follows the token's §2.2 flags; how a suite finds each thing (ARIA role
 * and accessible name) is the reference's hub profile (spec/hub-profile.ts,
 * fixtures/profiles/reference.json).
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const text = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
const attr = text;

/** A value shown in a cell or a filter input: strings as they are, anything else as JSON. */
export const shown = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/** JSON inside a script element: `<` never appears raw, so no `</script>` can close it. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The accessible names the reference gives its controls (its hub profile repeats them). */
export const NAMES = {
  download: 'Download PDF',
  scheduleReport: 'Schedule report',
  setDefault: 'Set as default dashboard',
  duplicate: 'Duplicate dashboard',
  aiInsight: 'AI insights',
  aiCharts: 'Create chart with AI',
  editFromSession: 'Edit chart from session',
  actions: 'Dashboard actions',
  editingTools: 'Editing tools',
  navigation: 'Dashboards',
  tabs: 'Dashboard tabs',
  filters: 'Filters',
  drillDown: 'Drill down into',
  drillRows: 'Rows behind',
} as const;

/** Editing tools, one per §2.2 flag that grants editing (rule 1) and createChartSQL. */
export const EDITING_TOOLS = [
  ['addChart', 'Add chart'],
  ['addFilter', 'Add filter'],
  ['createChart', 'Create chart'],
  ['createChartSQL', 'Write chart SQL'],
  ['editCharts', 'Edit charts'],
  ['removeChart', 'Remove chart'],
  ['addDashboard', 'Add dashboard'],
] as const;

/** A control opening a small honest panel: §2.2 names these without saying what they do. */
interface Opener {
  readonly id: string;
  readonly name: string;
  readonly note: string;
}

/** A control opening the dialog or sidebar of id `opens` (every control of the page opens one). */
const button = (name: string, opens: string) =>
  `<button type="button" data-opens="${attr(opens)}" aria-haspopup="dialog">${text(name)}</button>`;

function dialog(o: Opener): string {
  return `<dialog id="${attr(o.id)}" aria-label="${attr(o.name)}"><p>${text(o.note)}</p><button type="button" data-closes="${attr(o.id)}">Close</button></dialog>`;
}

const NOTE = 'The reference hub shows this control; the feature behind it is not simulated.';

/** What separates controls that sit in a row. */
const BETWEEN = ' ';

function filterBar(d: DashboardView, index: number): string {
  if (d.controls.length === 0) return '';
  const inputs = d.controls
    .map((c: ControlView, i) => {
      const id = `f-${index}-${i}`;
      const value = 'value' in c ? shown(c.value) : '';
      return `<label for="${id}">${text(c.label)}</label> <input id="${id}" name="filter_${attr(c.controlKey)}" value="${attr(value)}"${'value' in c ? ' data-set="true"' : ''}>`;
    })
    .join(BETWEEN);
  return `<form role="search" aria-label="${NAMES.filters}" data-filters>${inputs} <button type="submit">Apply filters</button></form>`;
}

function tableOf(
  columns: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
  caption: string,
): string {
  const head = columns.map((c) => `<th scope="col">${text(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td>${text(shown(r[c]))}</td>`).join('')}</tr>`)
    .join('');
  return `<table><caption>${text(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A bar per row, drawn as inline SVG; the table below carries the same data for everyone. */
function bars(chart: ChartView): string {
  const { dimension, measure } = chart;
  if (dimension === undefined || measure === undefined || chart.data.rows.length === 0) return '';
  const values = chart.data.rows.map((r) => Number(r[measure]) || 0);
  const max = Math.max(1, ...values.map(Math.abs));
  const barsHeight = chart.data.rows.length * 22;
  const height = barsHeight + 4;
  const rects = chart.data.rows
    .map((r, i) => {
      const w = Math.round((Math.abs(values[i] ?? 0) / max) * 280);
      return `<g><text x="0" y="${i * 22 + 14}" font-size="12">${text(shown(r[dimension]))}</text><rect x="110" y="${i * 22 + 2}" width="${w}" height="16" fill="#4a78c2"></rect></g>`;
    })
    .join('');
  return `<svg role="img" aria-label="${attr(`${chart.title} (${chart.type} chart)`)}" width="400" height="${height}" aria-hidden="false">${rects}</svg>`;
}

/**
 * §2.2 drillDown: one button per point of the chart's dimension. A button reloads the page
 * drilling into its point (client.ts); the page then shows, under the buttons, the rows of the
 * chart's table behind that point (decision hub.drill-down.rows), or says why this chart
 * cannot be drilled (decision hub.drill-down.single-table).
 */
function drillDown(
  chart: ChartView,
  flags: EffectivePermissions,
  dashboardIndex: number,
  chartIndex: number,
): string {
  if (!flags.drillDown || chart.dimension === undefined) return '';
  const dim = chart.dimension;
  // One point per value (rows are JSON: values of one JSON text show the same).
  const points = new Map<string, unknown>();
  for (const r of chart.data.rows) points.set(JSON.stringify(r[dim] ?? null), r[dim] ?? null);
  const drilled = chart.drill === undefined ? undefined : JSON.stringify(chart.drill.value ?? null);
  const region = `drill-${String(dashboardIndex)}-${String(chartIndex)}`;
  const buttons = [...points.entries()]
    .map(([key, value]) => {
      const open = key === drilled;
      return `<button type="button" data-drill-chart="${attr(chart.chartId)}" data-drill-value="${attr(key)}" aria-expanded="${String(open)}"${open ? ` aria-controls="${region}"` : ''}>${text(`${NAMES.drillDown} ${shown(value)}`)}</button>`;
    })
    .join(BETWEEN);
  return `${buttons}${chart.drill === undefined ? '' : drillRegion(chart.drill, region)}`;
}

function drillRegion(drill: DrillView, id: string): string {
  const name = `${NAMES.drillRows} ${shown(drill.value ?? null)}`;
  const open = `<div id="${id}" role="region" aria-label="${attr(name)}" tabindex="-1" data-drilled>`;
  const { rows } = drill;
  if (rows.kind === 'unavailable')
    return `${open}<p>${text(`Drill-down is not available for this chart: ${rows.reason}.`)}</p></div>`;
  if (rows.kind === 'error') return `${open}<p>${text(rows.error.message)}</p></div>`;
  const count =
    rows.rows.length < rows.total
      ? `Showing the first ${String(rows.rows.length)} of ${String(rows.total)} rows (read-only).`
      : `${String(rows.total)} ${rows.total === 1 ? 'row' : 'rows'} (read-only).`;
  return `${open}<p>${text(count)}</p>${tableOf(rows.columns, rows.rows, name)}</div>`;
}

/** A chart of the page: `chartIndex` in its dashboard, the page's `dashboardIndex`th. */
function chartFigure(
  chart: ChartView,
  flags: EffectivePermissions,
  dashboardIndex: number,
  chartIndex: number,
): string {
  const problem =
    chart.data.problem !== undefined ? `<p role="status">${text(chart.data.problem)}</p>` : '';
  return `<figure role="figure" aria-label="${attr(chart.title)}" data-chart-id="${attr(chart.chartId)}"><figcaption>${text(chart.title)}</figcaption>${bars(chart)}${problem}${chart.data.columns.length === 0 ? '' : tableOf(chart.data.columns, chart.data.rows, chart.title)}${drillDown(chart, flags, dashboardIndex, chartIndex)}</figure>`;
}

function panel(
  view: PageView,
  d: DashboardView,
  index: number,
  flags: EffectivePermissions,
  tabs: boolean,
): string {
  const hidden = d.dashboardId === view.activeDashboardId ? '' : ' hidden';
  const role = tabs
    ? `role="tabpanel" aria-labelledby="tab-${index}"`
    : `role="region" aria-label="${attr(d.name)}"`;
  const filters = flags.hideFilters ? '' : filterBar(d, index);
  const charts = d.charts.map((c, i) => chartFigure(c, flags, index, i)).join('');
  return `<section id="panel-${index}" ${role} data-dashboard="${attr(d.dashboardId)}"${hidden}><h2>${text(d.name)}</h2>${filters}${charts}</section>`;
}

/**
 * §2.3, §2.4: the hub shows the user's and its organization's display names; the reference
 * shows them on every page, in a footer the hideHeader options leave in place.
 */
function signedIn(view: PageView): string {
  const names = view.viewer;
  if (names === undefined) return '';
  const user = names.userName === '' ? '' : ` as <span>${text(names.userName)}</span>`;
  const org =
    names.organizationName === undefined ? '' : ` of <span>${text(names.organizationName)}</span>`;
  return user === '' && org === '' ? '' : `<footer><p>Signed in${user}${org}</p></footer>`;
}

/** Marks the v1 component page frozen at finalize (decision hub.v1-component.page). */
const FROZEN = ' data-v1-component="frozen"';

export interface RenderInput {
  readonly view: PageView;
  readonly flags: EffectivePermissions;
  readonly query: PageQuery;
  readonly nonce: string;
}

export function renderPage({ view, flags, query, nonce }: RenderInput): string {
  const active = view.dashboards.find((d) => d.dashboardId === view.activeDashboardId);
  const openers: Opener[] = [];
  const opener = (id: string, name: string) => {
    openers.push({ id, name, note: NOTE });
    return button(name, id);
  };

  // §4.17 hideHeader=true and §2.2 hideHeader: no header at all.
  const showHeader = !query.hideHeader && !flags.hideHeader;
  // §2.2: Schedule Report sits in the header, where the organization has scheduled reports
  // (decision hub.schedule-report.organization: every one has).
  const header = showHeader
    ? `<header role="banner"><h1>${text(view.applicationName)}</h1><p>${text(active?.name ?? '')}</p>${flags.enableScheduleReport && view.scheduledReports ? opener('dlg-schedule', NAMES.scheduleReport) : ''}</header>`
    : '';

  const actions = [
    !query.hideDownloadButton && !flags.hideDownloadButton
      ? opener('dlg-download', NAMES.download)
      : '',
    flags.canSetDefaultDashboard ? opener('dlg-default', NAMES.setDefault) : '',
    flags.canDuplicateDashboard ? opener('dlg-duplicate', NAMES.duplicate) : '',
    flags.aiInsight ? button(NAMES.aiInsight, 'ai-insights') : '',
    flags.aiCharts ? opener('dlg-ai-charts', NAMES.aiCharts) : '',
    flags.canEditChartFromSession ? opener('dlg-session', NAMES.editFromSession) : '',
  ].filter((b) => b !== '');
  const actionBar =
    actions.length > 0
      ? `<div role="toolbar" aria-label="${NAMES.actions}">${actions.join(BETWEEN)}</div>`
      : '';

  // §2.2 readOnly: no editing tools (its effective flags are all off).
  const tools = EDITING_TOOLS.filter(([flag]) => flags[flag]).map(([flag, name]) =>
    opener(`dlg-tool-${flag}`, name),
  );
  const toolBar =
    tools.length > 0
      ? `<div role="toolbar" aria-label="${NAMES.editingTools}">${tools.join(BETWEEN)}</div>`
      : '';

  const tabs = view.navigation && !flags.disableTabs;
  const nav = view.navigation
    ? `<nav aria-label="${NAMES.navigation}"><ul>${view.dashboards
        .map(
          (d, i) =>
            `<li><a href="#panel-${i}" data-dashboard="${attr(d.dashboardId)}"${d.dashboardId === view.activeDashboardId ? ' aria-current="page"' : ''}>${text(d.name)}</a></li>`,
        )
        .join('')}</ul></nav>`
    : '';
  const tabList = tabs
    ? `<div role="tablist" aria-label="${NAMES.tabs}">${view.dashboards
        .map(
          (d, i) =>
            `<button type="button" role="tab" id="tab-${i}" aria-controls="panel-${i}" data-dashboard="${attr(d.dashboardId)}" aria-selected="${String(d.dashboardId === view.activeDashboardId)}">${text(d.name)}</button>`,
        )
        .join('')}</div>`
    : '';
  const panels = view.dashboards.map((d, i) => panel(view, d, i, flags, tabs)).join('');
  const insights = flags.aiInsight
    ? `<aside id="ai-insights" aria-label="${NAMES.aiInsight}" hidden><h2>${NAMES.aiInsight}</h2><p>${text(NOTE)}</p></aside>`
    : '';
  const config = {
    autoHeight: query.autoHeight,
    parentOrigin: query.parentOrigin ?? null,
  };
  const title = active?.name ?? view.applicationName;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text(title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;margin:0}header{padding:8px 16px;background:#1f3a66;color:#fff}.layout{display:flex}nav{min-width:180px;padding:8px}main{flex:1;padding:8px 16px}figure{margin:12px 0;border:1px solid #ccc;padding:8px}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px}</style>
</head><body${view.frozen ? FROZEN : ''}>
${header}<div class="layout">${nav}<main>${tabList}${actionBar}${toolBar}${panels}</main>${insights}</div>${signedIn(view)}${openers.map(dialog).join('')}
<script type="application/json" id="eac-page">${scriptJson(config)}</script>
<script nonce="${nonce}">${CLIENT_SCRIPT}</script>
</body></html>`;
}

/** §4.17: the two texts, alone on a page. */
export function renderMessage(message: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${text(message)}</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;margin:16px}</style></head>
<body><main><p role="alert">${text(message)}</p></main></body></html>`;
}
