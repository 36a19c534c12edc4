/**
 * The ambiguity register of one run: every unspecified clause with the reference's decision
 * and the distinct answers the target gave, grouped by clause (not by test), each with the
 * tests and endpoints it was seen on.
 */
import type { Clause } from '../spec/clauses/types.ts';
import type { RegisterAnswer, RegisterEntry, Result } from './schema.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The observation as a grouping key: service ids differ on every run and say nothing. */
export function answerKey(observation: string): string {
  return observation.replace(UUID, '{uuid}');
}

type Probed = Pick<Result, 'id' | 'clauses' | 'outcome' | 'reason' | 'observations'>;

export function buildRegister(
  clauses: readonly Clause[],
  results: readonly Probed[],
): RegisterEntry[] {
  const entries = new Map<string, RegisterEntry>();
  for (const clause of clauses) {
    if (clause.level !== 'unspecified') continue;
    entries.set(clause.id, {
      clause: clause.id,
      section: clause.section,
      summary: clause.summary,
      ...(clause.decision !== undefined ? { decision: clause.decision } : {}),
      tests: 0,
      answers: [],
    });
  }
  for (const result of results) {
    if (result.outcome === 'not-run') continue;
    // A failed probe (a departure from the decision where decisions are held) still says
    // what the target did; a probe with no observation list falls back to its reason.
    // What broke a probe (an observation of kind probe-error) is no answer of the target.
    const observations = (
      result.observations ??
      (result.outcome === 'probe' && result.reason !== undefined
        ? [{ observation: result.reason, matchesDecision: false }]
        : [])
    ).filter((o: { kind?: string | undefined }) => o.kind !== 'probe-error');
    if (observations.length === 0) continue;
    for (const id of result.clauses) {
      const entry = entries.get(id);
      if (entry === undefined) continue;
      entry.tests += 1;
      for (const seen of observations) {
        const answer = answerKey(seen.observation);
        let found: RegisterAnswer | undefined = entry.answers.find(
          (a) => a.answer === answer && a.matchesDecision === seen.matchesDecision,
        );
        if (found === undefined) {
          found = { answer, matchesDecision: seen.matchesDecision, seenOn: [] };
          entry.answers.push(found);
        }
        const already = found.seenOn.some(
          (s) => s.test === result.id && s.endpoint === seen.endpoint,
        );
        if (!already)
          found.seenOn.push({
            test: result.id,
            ...(seen.endpoint !== undefined ? { endpoint: seen.endpoint } : {}),
          });
      }
    }
  }
  return [...entries.values()];
}

/** The endpoints an answer was seen on, each once, in order of first sight. */
export function endpointsOf(answer: RegisterAnswer): string[] {
  return [...new Set(answer.seenOn.flatMap((s) => (s.endpoint !== undefined ? [s.endpoint] : [])))];
}

/** The tests an answer was seen in, each once. */
export function testsOf(answer: RegisterAnswer): string[] {
  return [...new Set(answer.seenOn.map((s) => s.test))];
}
