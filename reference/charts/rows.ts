import { specError, type SpecError } from '../../spec/errors.ts';
import type { ReferenceContext } from '../context.ts';
import type { DataConnection } from '../data/database.ts';
import type { AccountRecord } from '../store/store.ts';

export type ChartRows =
  | { ok: true; columns: string[]; rows: Record<string, unknown>[] }
  | { ok: false; error: SpecError };

/**
 * The rows a saved chart shows a user (hooks `chart-data`, the hub pages): the chart's
 * `sqlOverride` (§2.6: kept so that a saved chart can load its data) run under row-level
 * security with the user's properties. The connection is the one save-from-chat named, else
 * the newest connection of the account holding a table the SQL names, else the seeded orders.
 */
export async function chartRows(
  ctx: Pick<ReferenceContext, 'store'>,
  input: {
    organizationId: string;
    chartId: string;
    properties: Record<string, unknown>;
    filters?: { field: string; value: unknown }[];
  },
): Promise<ChartRows> {
  const source = chartSource(ctx, input.organizationId, input.chartId);
  if (!source.ok) return source;
  const done = await ctx.store.data.query(
    source.connection,
    source.sql,
    input.properties,
    (input.filters ?? []).map((f) => ({ column: f.field, value: f.value })),
  );
  return done.ok ? { ok: true, ...done.value } : done;
}

export type ChartSource =
  { ok: true; sql: string; connection: DataConnection } | { ok: false; error: SpecError };

/** A saved chart's `sqlOverride` and the connection it reads (chartRows, drill-down). */
export function chartSource(
  ctx: Pick<ReferenceContext, 'store'>,
  organizationId: string,
  chartId: string,
): ChartSource {
  const account = ctx.store.account(organizationId);
  const chart = account?.dashboards.charts[chartId];
  if (account === undefined || chart === undefined) {
    return {
      ok: false,
      error: specError('NOT_FOUND', 'no chart with that id here', {
        resource: 'chart',
        field: 'chartId',
      }),
    };
  }
  const sql = chart.config['sqlOverride'];
  if (typeof sql !== 'string' || sql.trim() === '') {
    return {
      ok: false,
      error: specError('CONFLICT', 'the chart holds no sqlOverride, so it has no data to load', {
        reason: 'chart-without-sql',
      }),
    };
  }
  return { ok: true, sql, connection: chartConnection(ctx, account, chartId, sql) };
}

/** The connection a chart reads: save-from-chat's, else the newest naming its table, else the seed. */
export function chartConnection(
  ctx: Pick<ReferenceContext, 'store'>,
  account: AccountRecord,
  chartId: string,
  sql: string,
): DataConnection {
  const { data } = ctx.store;
  const { organizationId } = account;
  const saved = account.chat.chartConnections.get(chartId);
  const named = saved === undefined ? undefined : data.connection(organizationId, saved);
  if (named !== undefined) return named;
  const mentioned = data
    .connectionsOf(organizationId)
    .reverse()
    .find((c) =>
      c.tables.some((t) =>
        new RegExp(`(^|[^A-Za-z0-9_])"?${t.name}"?($|[^A-Za-z0-9_])`, 'i').test(sql),
      ),
    );
  return mentioned ?? data.seedConnection(organizationId);
}
