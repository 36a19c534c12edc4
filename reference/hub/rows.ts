import type { ChartRecord } from '../../spec/machines/dashboards.ts';
import { chartRows } from '../charts/rows.ts';
import { drillDownRows, type DrillRows } from '../charts/drill-down.ts';
import type { ReferenceContext } from '../context.ts';
import type { Viewer } from './viewer.ts';

/** What a chart on a page shows: its rows for this viewer, or why it has none. */
export interface ChartData {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  /** Set when the rows could not be loaded (a property row-level security needs is missing). */
  readonly problem?: string;
}

export interface RowFilter {
  readonly field: string;
  readonly value: unknown;
}

/** The fields a chart configuration names (§2.6 dimensions and measures), in order. */
function configColumns(config: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const key of ['dimensions', 'measures']) {
    const list = config[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const field = (item as { readonly field?: unknown } | null)?.field;
      if (typeof field === 'string' && !out.includes(field)) out.push(field);
    }
  }
  return out;
}

/**
 * The rows a chart shows to the viewer (hooks contract item 3: the chart's sqlOverride under
 * row-level security from the token's properties), with the page's controlled filters
 * applied. A chart that cannot load (no SQL, a property row-level security needs is missing)
 * shows its columns, no rows, and says why.
 */
export async function loadChartData(
  ctx: ReferenceContext,
  viewer: Viewer,
  chart: ChartRecord,
  filters: readonly RowFilter[],
): Promise<ChartData> {
  const done = await chartRows(ctx, {
    organizationId: viewer.account.organizationId,
    chartId: chart.chartId,
    properties: { ...viewer.properties },
    filters: filters.map((f) => ({ field: f.field, value: f.value })),
  });
  if (done.ok) return { columns: done.columns, rows: done.rows };
  // Decision hub.chart.unloadable: a chart saved without its SQL heads a table of the fields its
  // chartConfig names; a server may show the line saying why alone (no columns, no table).
  const sql = chart.config['sqlOverride'];
  const unloadable = typeof sql !== 'string' || sql.trim() === '';
  const columns =
    unloadable && ctx.settings.unloadableChart === 'line' ? [] : configColumns(chart.config);
  return { columns, rows: [], problem: done.error.message };
}

export type { DrillRows };

/**
 * §2.2 drillDown: the rows of the chart's table behind one point, for this viewer, under the
 * same row-level security and controlled filters as the chart itself.
 */
export function loadDrillRows(
  ctx: ReferenceContext,
  viewer: Viewer,
  chart: ChartRecord,
  dimension: string,
  value: unknown,
  filters: readonly RowFilter[],
): Promise<DrillRows> {
  return drillDownRows(ctx, {
    organizationId: viewer.account.organizationId,
    chartId: chart.chartId,
    dimension,
    value,
    properties: { ...viewer.properties },
    filters: filters.map((f) => ({ field: f.field, value: f.value })),
  });
}
