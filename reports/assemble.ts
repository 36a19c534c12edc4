/**
 * Everything results.json holds beyond the results themselves, derived from them and the
 * catalogue in one place, so that `eac run` and the renderers' samples agree.
 */
import type { Clause } from '../spec/clauses/types.ts';
import {
  SCHEMA_VERSION,
  type MachineRowsTaken,
  type Result,
  type Results,
  type RunProfile,
  type RunTarget,
} from './schema.ts';
import { computeCoverage, coverageGaps, type SectionTitle } from './coverage.ts';
import { machineTables } from './machines.ts';
import { countNotRun } from './not-run.ts';
import { buildRegister } from './register.ts';
import { summarize } from './results.ts';

export interface RunFacts {
  readonly target: RunTarget;
  readonly profile: RunProfile;
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly seed: number;
  readonly only: readonly string[];
  readonly results: readonly Result[];
  /** What the target counted of the machines' tables (the embedded reference); else unknown. */
  readonly machineRows?: readonly MachineRowsTaken[];
}

/**
 * The exchanges a result keeps as evidence: a failure all of its own (its set-up may be what
 * failed), a probe those with the API only (what the target answered where the document is
 * silent; its set-up through the host hooks is the same for every target and weighs a third
 * of a full run's results.json). Passes and not-runs keep none (results.ts).
 */
export function keptExchanges(result: Result, hooksUrl: string | undefined): Result {
  if (result.outcome !== 'probe' && result.outcome !== 'probe-error') return result;
  if (result.exchanges === undefined) return result;
  if (hooksUrl === undefined || hooksUrl === '') return result;
  return {
    ...result,
    exchanges: result.exchanges.filter((ex) => !ex.request.url.startsWith(hooksUrl)),
  };
}

export function assembleRun(
  facts: RunFacts,
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
): Results {
  const results = facts.results.map((r) => keptExchanges(r, facts.target.hooksUrl));
  return {
    schemaVersion: SCHEMA_VERSION,
    target: facts.target,
    profile: facts.profile,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    durationMs: Math.max(0, facts.finishedAt.getTime() - facts.startedAt.getTime()),
    seed: facts.seed,
    ...(facts.only.length > 0 ? { only: [...facts.only] } : {}),
    summary: summarize(results),
    results: [...results],
    coverage: computeCoverage(clauses, sections, results),
    gaps: coverageGaps(clauses, results),
    register: buildRegister(clauses, results),
    notRunCauses: countNotRun(results),
    machines: machineTables(undefined, facts.machineRows),
  };
}
