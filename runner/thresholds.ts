/**
 * Gates on what a run really tested (`--max-not-run`, `--min-coverage`): a run whose tests all
 * ended not-run fails nothing, so without these a CI job can pass having checked nothing. A
 * breached threshold exits with a code of its own (EXIT_THRESHOLD), apart from a failure (1)
 * and a usage error (2).
 */
import type { Clause } from '../spec/clauses/types.ts';
import { computeCoverage } from '../reports/coverage.ts';
import { rowTotals } from '../reports/outline.ts';
import type { GateCheck, Results } from '../reports/schema.ts';
import { sectionTitles } from '../reports/sections.ts';
import { plural } from '../reports/words.ts';

/** The exit code of a run that failed no test but breached a threshold. */
export const EXIT_THRESHOLD = 3;

/** A count, or a share of a whole in percent. */
export type Limit = { readonly count: number } | { readonly percent: number };

/** What a coverage floor counts, over the must/observed, security or unspecified clauses. */
export const COVERAGE_KINDS = {
  portable: 'must/observed clauses covered portably',
  covered: 'must/observed clauses covered, portably or through a decision',
  security: 'security clauses covered',
  probed: 'unspecified clauses probed',
} as const;
export type CoverageKind = keyof typeof COVERAGE_KINDS;

export interface CoverageFloor {
  readonly kind: CoverageKind;
  /** A section of the document (`4`, `4.6`); the whole document when absent. */
  readonly section?: string;
  readonly floor: Limit;
}

export interface Thresholds {
  readonly maxNotRun?: Limit;
  readonly minCoverage: readonly CoverageFloor[];
}

function limit(text: string): Limit | undefined {
  const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  if (m === null) return undefined;
  const n = Number(m[1]);
  if (m[2] === '%') return n <= 100 ? { percent: n } : undefined;
  return Number.isInteger(n) ? { count: n } : undefined;
}

/** `--max-not-run N|P%`; a string is the reason it is not one. */
export function parseMaxNotRun(text: string): Limit | string {
  return limit(text) ?? `--max-not-run takes a count or a percentage (10, 5%), got "${text}"`;
}

/** `--min-coverage KIND[@SECTION]=N|P%`, e.g. `portable=60%`, `covered@4.6=3`. */
export function parseMinCoverage(text: string): CoverageFloor | string {
  const m = /^([a-z]+)(?:@§?(\d+(?:\.\d+)?))?=(.+)$/.exec(text.trim());
  const kinds = Object.keys(COVERAGE_KINDS).join(', ');
  if (m === null)
    return `--min-coverage takes KIND[@SECTION]=N or =P% (KIND: ${kinds}), got "${text}"`;
  const [, kind = '', section, value = ''] = m;
  if (!(kind in COVERAGE_KINDS)) return `--min-coverage: no kind "${kind}" (one of ${kinds})`;
  const floor = limit(value);
  if (floor === undefined)
    return `--min-coverage ${kind}: takes a count or a percentage (150, 60%), got "${value}"`;
  return { kind: kind as CoverageKind, ...(section !== undefined ? { section } : {}), floor };
}

/** Both options at once; undefined when neither is given, a string when one is malformed. */
export function parseThresholds(
  maxNotRun: string | undefined,
  minCoverage: readonly string[] | undefined,
): Thresholds | string | undefined {
  if (maxNotRun === undefined && (minCoverage ?? []).length === 0) return undefined;
  const max = maxNotRun !== undefined ? parseMaxNotRun(maxNotRun) : undefined;
  if (typeof max === 'string') return max;
  const floors: CoverageFloor[] = [];
  for (const text of minCoverage ?? []) {
    const floor = parseMinCoverage(text);
    if (typeof floor === 'string') return floor;
    floors.push(floor);
  }
  return { ...(max !== undefined ? { maxNotRun: max } : {}), minCoverage: floors };
}

function describeLimit(l: Limit): string {
  return 'count' in l ? String(l.count) : `${l.percent}%`;
}

function within(value: number, whole: number, l: Limit, atMost: boolean): boolean {
  const bound = 'count' in l ? l.count : (l.percent / 100) * whole;
  return atMost ? value <= bound : value >= bound;
}

/** The counted value and its whole for one coverage floor, over some coverage rows. */
function counted(coverage: Results['coverage'], f: CoverageFloor) {
  const rows =
    f.section === undefined
      ? coverage.filter((r) => !r.section.includes('.'))
      : coverage.filter((r) => r.section === f.section);
  const t = rowTotals(rows);
  const counts: Record<CoverageKind, { value: number; whole: number }> = {
    portable: { value: t.portable, whole: t.firm },
    covered: { value: t.portable + t.throughDecision + t.noPortableCheck, whole: t.firm },
    security: { value: t.securityCovered, whole: t.security },
    probed: { value: t.probed, whole: t.unspecified },
  };
  return { rows, ...counts[f.kind] };
}

type GatedRun = Pick<Results, 'summary' | 'coverage'> &
  Partial<Pick<Results, 'only' | 'results' | 'gate'>>;

/**
 * Coverage as a floor counts it: with `--only`, over the clauses the selection's tests cite
 * (a run of one area is not measured against the whole document); else the run's own.
 */
function selectionCoverage(run: GatedRun, clauses: readonly Clause[]) {
  if (run.only === undefined || run.only.length === 0) return { coverage: run.coverage };
  const results = run.results ?? [];
  const cited = new Set(results.flatMap((r) => r.clauses));
  const chosen = clauses.filter((c) => cited.has(c.id));
  return {
    coverage: computeCoverage(chosen, sectionTitles, results),
    note: ` (over the ${plural(chosen.length, 'clause')} the --only selection cites)`,
  };
}

/** Every gate the run was given, breached or not, each naming the gate and the figures. */
export function checkGates(
  run: GatedRun,
  thresholds: Thresholds | undefined,
  clauses: readonly Clause[],
): GateCheck[] {
  const out: GateCheck[] = [];
  const g = run.gate;
  if (g !== undefined)
    out.push({
      name: `--expectations ${g.expectationsFile}`,
      kind: 'expectations',
      breached: g.unexpected > 0,
      detail: `${g.unexpected} unexpected (${plural(g.unexpectedFailures, 'unexpected failure')}, ${plural(g.unexpectedPasses, 'unexpected pass', 'unexpected passes')}, ${g.otherUnexpected} other)`,
    });
  if (thresholds === undefined) return out;
  const { notRun, total } = run.summary;
  if (thresholds.maxNotRun !== undefined)
    out.push({
      name: `--max-not-run ${describeLimit(thresholds.maxNotRun)}`,
      kind: 'max-not-run',
      breached: !within(notRun, total, thresholds.maxNotRun, true),
      detail: `${notRun} of ${plural(total, 'test')} ${notRun === 1 ? 'was' : 'were'} not run`,
    });
  const { coverage, note = '' } =
    thresholds.minCoverage.length > 0 ? selectionCoverage(run, clauses) : { coverage: [] };
  for (const f of thresholds.minCoverage) {
    const where = f.section !== undefined ? `@${f.section}` : '';
    const name = `--min-coverage ${f.kind}${where}=${describeLimit(f.floor)}`;
    const c = counted(coverage, f);
    if (f.section !== undefined && c.rows.length === 0) {
      const none = run.coverage.some((r) => r.section === f.section)
        ? `the --only selection cites no clause of section ${f.section}`
        : `the document has no section ${f.section}`;
      out.push({ name, kind: 'min-coverage', breached: true, detail: none });
      continue;
    }
    out.push({
      name,
      kind: 'min-coverage',
      breached: !within(c.value, c.whole, f.floor, false),
      detail: `${c.value} of ${c.whole} ${COVERAGE_KINDS[f.kind]}${note}`,
    });
  }
  return out;
}

/** Whether the run left more than half its tests not-run (warned of when no gate is set). */
export function mostlyNotRun(run: Pick<Results, 'summary'>): boolean {
  return run.summary.total > 0 && run.summary.notRun * 2 > run.summary.total;
}
