/**
 * `eac latitude --open-points`: every point the document leaves open (spec/open-points.ts) with
 * the latitude entries that vary it (their `varies`, spec/latitude.ts) or the written reason
 * why no answer could show a variation. Exits 1 while a point has neither.
 */
import type { OpenPoint, OpenPointKind } from '../spec/open-points.ts';

/** What the join reads of a latitude entry (spec/latitude.ts). */
export interface LatitudeEntry {
  readonly id: string;
  readonly varies?: readonly string[];
}

export type OpenPointStatus = 'varied' | 'reason' | 'neither';

export interface OpenPointRow {
  readonly id: string;
  readonly section: string;
  readonly kind: OpenPointKind;
  readonly summary: string;
  readonly clauses: readonly string[];
  readonly status: OpenPointStatus;
  /** The latitude entries that vary this point, in catalogue order. */
  readonly variedBy: readonly string[];
  readonly reason?: string;
}

export interface OpenPointsReport {
  readonly points: readonly OpenPointRow[];
  readonly counts: {
    readonly total: number;
    readonly varied: number;
    readonly reason: number;
    readonly neither: number;
  };
}

/** Joins the open points with the entries that vary them and the reasons written for them. */
export function openPointsReport(
  points: readonly OpenPoint[],
  latitude: readonly LatitudeEntry[],
  reasons: Readonly<Record<string, string | undefined>>,
): OpenPointsReport {
  const rows = points.map((p): OpenPointRow => {
    const variedBy = latitude.filter((f) => f.varies?.includes(p.id) === true).map((f) => f.id);
    const reason = reasons[p.id];
    const status: OpenPointStatus =
      variedBy.length > 0 ? 'varied' : reason !== undefined ? 'reason' : 'neither';
    return {
      id: p.id,
      section: p.section,
      kind: p.kind,
      summary: p.summary,
      clauses: p.clauses,
      status,
      variedBy,
      ...(reason !== undefined ? { reason } : {}),
    };
  });
  const count = (s: OpenPointStatus) => rows.filter((r) => r.status === s).length;
  return {
    points: rows,
    counts: {
      total: rows.length,
      varied: count('varied'),
      reason: count('reason'),
      neither: count('neither'),
    },
  };
}

export function openPointsExitCode(report: OpenPointsReport): 0 | 1 {
  return report.counts.neither > 0 ? 1 : 0;
}

export function countLine(report: OpenPointsReport): string {
  const { total, varied, reason, neither } = report.counts;
  return `${total} open points: ${varied} varied, ${reason} answered by a reason, ${neither} neither`;
}

const KINDS: readonly { readonly kind: OpenPointKind; readonly title: string }[] = [
  { kind: 'not-shown', title: 'Statements the document calls not shown' },
  { kind: 'unspecified', title: 'Unspecified clauses of the catalogue' },
  { kind: 'partial', title: 'Shapes the document describes in part' },
];

function line(row: OpenPointRow, idWidth: number): string {
  return `  ${row.id.padEnd(idWidth)}  §${row.section.padEnd(5)} ${row.summary}`;
}

export function renderOpenPoints(report: OpenPointsReport): string {
  const idWidth = Math.max(0, ...report.points.map((p) => p.id.length));
  const out: string[] = [];
  const neither = report.points.filter((p) => p.status === 'neither');
  if (neither.length > 0) {
    out.push(
      `Neither varied by a latitude entry nor answered by a reason (${neither.length}):`,
      ...neither.map((row) => line(row, idWidth)),
      '',
    );
  }
  for (const { kind, title } of KINDS) {
    const rows = report.points.filter((p) => p.kind === kind);
    out.push(`${title} (${rows.length}):`);
    for (const row of rows) {
      out.push(line(row, idWidth));
      const pad = ' '.repeat(idWidth + 4);
      if (row.status === 'varied') out.push(`${pad}varied by ${row.variedBy.join(', ')}`);
      else if (row.status === 'reason') out.push(`${pad}reason: ${row.reason ?? ''}`);
      else out.push(`${pad}NEITHER: no entry varies it and no reason is written`);
    }
    out.push('');
  }
  out.push(countLine(report), '');
  return out.join('\n');
}

export async function openPointsCommand(
  options: { readonly json: boolean },
  io: { readonly stdout: { write(text: string): unknown } },
): Promise<number> {
  const [{ OPEN_POINTS, REASONS }, { LATITUDE }] = await Promise.all([
    import('../spec/open-points.ts'),
    import('../spec/latitude.ts'),
  ]);
  const report = openPointsReport(OPEN_POINTS, LATITUDE, REASONS);
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderOpenPoints(report));
  return openPointsExitCode(report);
}
