/** Short phrases every renderer shares: coverage in one line, a not-run cause by name. */
import type { NotRunCause, Results, RunTarget } from './schema.ts';

/** Totals over the top-level rows (each clause counts once there). */
export function coverageTotals(run: Pick<Results, 'coverage'>) {
  return rowTotals(run.coverage.filter((r) => !r.section.includes('.')));
}

/** Totals over some coverage rows (rows that do not overlap: one section, or the top level). */
export function rowTotals(rows: Results['coverage']) {
  const sum = (pick: (r: Results['coverage'][number]) => number) =>
    rows.reduce((n, r) => n + pick(r), 0);
  return {
    firm: sum((r) => r.must + r.observed),
    portable: sum((r) => r.portable),
    throughDecision: sum((r) => r.throughDecision),
    unspecified: sum((r) => r.unspecified),
    probed: sum((r) => r.probed),
    security: sum((r) => r.security),
    securityCovered: sum((r) => r.securityCovered),
    failing: sum((r) => r.failing),
  };
}

export function coverageLine(run: Pick<Results, 'coverage'>): string {
  const t = coverageTotals(run);
  return `coverage: must/observed ${t.portable} portable + ${t.throughDecision} through a decision of ${t.firm}; unspecified ${t.probed} probed of ${t.unspecified}; security ${t.securityCovered} of ${t.security}`;
}

/** What the report says of a hub that was not given: no address, so nothing tested there. */
export const NO_HUB_SHOWN = 'none (not tested)';

/**
 * A not-run cause in a few words. With the run's target: the hub part of a run given no hub
 * reads as the missing --hub it is, not as a part the target does not serve.
 */
export function causeLabel(cause: NotRunCause, target?: Pick<RunTarget, 'hubUrl'>): string {
  switch (cause.kind) {
    case 'hook':
      return `missing hook ${cause.name}`;
    case 'part':
      return cause.name === 'hub' && target !== undefined && target.hubUrl === undefined
        ? 'no --hub (the hub pages were not tested)'
        : `unserved part ${cause.name}`;
    case 'other':
      return cause.name;
  }
}
