/** Short phrases every renderer shares: coverage in one line, what a not-run entry would run. */
import type { NotRunCause, Results, RunTarget } from './schema.ts';
import { plural } from './words.ts';

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
    noPortableCheck: sum((r) => r.noPortableCheck),
    unspecified: sum((r) => r.unspecified),
    probed: sum((r) => r.probed),
    security: sum((r) => r.security),
    securityCovered: sum((r) => r.securityCovered),
    failing: sum((r) => r.failing),
  };
}

export function coverageLine(run: Pick<Results, 'coverage'>): string {
  const t = coverageTotals(run);
  return `coverage: must/observed ${t.portable} portable + ${t.throughDecision} through a decision + ${t.noPortableCheck} with no portable check of ${t.firm}; unspecified ${t.probed} probed of ${t.unspecified}; security ${t.securityCovered} of ${t.security}`;
}

/** What the report says of a hub that was not given: no address, so nothing tested there. */
export const NO_HUB_SHOWN = 'none (not tested)';

function after(prefix: string, entry: string): string {
  return entry.startsWith(prefix) ? entry.slice(prefix.length) : entry;
}

/**
 * What would let one entry's tests run, in a sentence: "stating shapes.embedToken would run
 * 13 tests". With the run's target, the hub part of a run given no hub reads as the missing
 * --hub it is. Tests that also wait on another entry are counted apart, since this one alone
 * would not run them. A document gap and another cause are named, not priced: no entry would
 * run their tests.
 */
export function causeLabel(cause: NotRunCause, target?: Pick<RunTarget, 'hubUrl'>): string {
  const name = (prefix: string) => after(prefix, cause.entry);
  const would = (what: string) => {
    const more = cause.tests - cause.alone;
    if (more === 0) return `${what} would run ${plural(cause.alone, 'test')}`;
    if (cause.alone === 0) return `${what} would run ${plural(more, 'test')} with another entry`;
    return `${what} would run ${plural(cause.alone, 'test')}, and ${more} more with another entry`;
  };
  switch (cause.kind) {
    case 'part':
      return name('part:') === 'hub' && target !== undefined && target.hubUrl === undefined
        ? would('--hub URL (the hub pages were not tested)')
        : would(`serving the part ${name('part:')}`);
    case 'hook':
      return would(`the hook ${name('hook:')}`);
    case 'shape':
      return would(`stating ${cause.entry}`);
    case 'follows':
      return would(`following ${name('follows:')}`);
    case 'browser':
      return would(`a browser for the hub pages (${name('browser:')} missing)`);
    case 'document-gap':
      return `the document gives no way to observe ${cause.entry}`;
    case 'other':
      return cause.entry;
  }
}
