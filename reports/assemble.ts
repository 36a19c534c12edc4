/**
 * Everything results.json holds beyond the results themselves, derived from them and the
 * catalogue in one place, so that `eac run` and the renderers' samples agree.
 */
import type { Clause } from '../spec/clauses/types.ts';
import {
  SCHEMA_VERSION,
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
}

export function assembleRun(
  facts: RunFacts,
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
): Results {
  const { results } = facts;
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
    machines: machineTables(),
  };
}
