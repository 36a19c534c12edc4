import type { Variant } from './variant.ts';

/**
 * Wrong variants of the reference's data layer (reference/data: the rows a saved chart loads,
 * its drill-down, the guard on a chart's SQL), each standing for a mutant Stryker's sampled run
 * left alive (bench/results/mutation-equivalent.md, triage of reference/).
 */
export const dataVariants: readonly Variant[] = [
  {
    // chart-rows.ts ConditionalExpression -> false: the rows of a chart without sqlOverride are
    // asked of no connection with no SQL, which throws, so its page answers 500.
    name: 'data: a chart saved without sqlOverride is queried anyway (its page errors)',
    file: 'reference/data/chart-rows.ts',
    from: 'if (!source.ok) return source;',
    to: 'if (!source.ok && false) return source;',
    only: ['hub.dashboard.page'],
  },
  {
    // drill-down.ts ObjectLiteral -> {}: a drill-down of a chart without sqlOverride answers
    // nothing the page can render, so the drill address answers 500.
    name: 'data: the drill-down of a chart saved without sqlOverride answers an empty object',
    file: 'reference/data/drill-down.ts',
    from: "if (!source.ok) return { kind: 'error', error: source.error };",
    to: 'if (!source.ok) return {} as DrillRows;',
    only: ['permissions.drill-down.effect'],
  },
];
