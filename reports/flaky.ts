/**
 * The flakiness gate (tools/flaky.ts): several runs of the suites with different seeds, and
 * every test whose outcome changes between them, or whose probe recorded another answer, once
 * what differs on every run anyway is written as a placeholder (service ids, keys, tokens,
 * times, durations, and quoted text a seed draws afresh). A test present in some runs only is
 * unstable too.
 */
import type { Outcome, Result } from './schema.ts';
import { stableKey } from './diff.ts';
import { plural } from './words.ts';

/** What one run says of its tests, as results.json holds it. */
export interface FlakyRun {
  /** Where it came from (a run folder), for the report. */
  readonly source: string;
  readonly seed: number;
  readonly results: readonly Pick<Result, 'id' | 'outcome' | 'observations' | 'reason'>[];
}

const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** Opaque keys and secrets: long runs of letters and digits holding both. */
const KEY = /\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{24,}\b/g;
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|seconds?)\b/g;
/**
 * Quoted text: what a probe echoes of the data it sent (names, titles), which a run's seed
 * draws afresh. Codes, statuses and flags are not quoted in observations and stay compared.
 */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** An observation with what differs on every run written as placeholders. */
export function normalise(observation: string): string {
  return stableKey(observation.replace(JWT, '{jwt}'))
    .replace(KEY, (match) => (match.includes('{') ? match : '{key}'))
    .replace(DURATION, '{duration}')
    .replace(QUOTED, '"{text}"');
}

export interface FlakyTest {
  readonly id: string;
  /** The outcome in each run, `absent` where the run did not have the test. */
  readonly outcomes: readonly (Outcome | 'absent')[];
  /** Why it is flagged. */
  readonly why: 'outcome' | 'answer' | 'presence';
  /** For `answer`: the distinct normalised answers, each with the runs (0-based) that gave it. */
  readonly answers?: readonly { readonly answer: string; readonly runs: readonly number[] }[];
}

export interface FlakyReport {
  readonly runs: readonly {
    readonly source: string;
    readonly seed: number;
    readonly tests: number;
  }[];
  /** Tests seen in at least one run. */
  readonly tests: number;
  readonly flaky: readonly FlakyTest[];
}

function answerOf(result: FlakyRun['results'][number]): string {
  // Only probes record answers; a failure's reason is judged through its outcome.
  if (result.outcome !== 'probe') return '';
  // Whether each observation matched the decision is compared too, whatever its wording.
  const observed =
    result.observations?.map(
      (o) => `${o.matchesDecision ? '=' : '≠'} ${normalise(o.observation)}`,
    ) ?? [];
  return observed.length > 0 ? observed.join('\n') : normalise(result.reason ?? '');
}

/** Every test whose outcome, recorded answer or presence differs between the runs. */
export function compareRuns(runs: readonly FlakyRun[]): FlakyReport {
  const maps = runs.map((run) => new Map(run.results.map((r) => [r.id, r])));
  const ids = [...new Set(runs.flatMap((run) => run.results.map((r) => r.id)))].sort();
  const flaky: FlakyTest[] = [];
  for (const id of ids) {
    const seen = maps.map((map) => map.get(id));
    const outcomes = seen.map((r) => r?.outcome ?? ('absent' as const));
    if (outcomes.includes('absent')) {
      flaky.push({ id, outcomes, why: 'presence' });
      continue;
    }
    if (new Set(outcomes).size > 1) {
      flaky.push({ id, outcomes, why: 'outcome' });
      continue;
    }
    if (outcomes[0] !== 'probe') continue;
    const answers = new Map<string, number[]>();
    seen.forEach((r, run) => {
      const answer = r !== undefined ? answerOf(r) : '';
      answers.set(answer, [...(answers.get(answer) ?? []), run]);
    });
    if (answers.size > 1)
      flaky.push({
        id,
        outcomes,
        why: 'answer',
        answers: [...answers].map(([answer, list]) => ({ answer, runs: list })),
      });
  }
  return {
    runs: runs.map((run) => ({ source: run.source, seed: run.seed, tests: run.results.length })),
    tests: ids.length,
    flaky,
  };
}

/** A few lines for the console: the runs, and each flaky test with how it changed. */
export function renderFlaky(report: FlakyReport): string {
  const lines = [
    `flaky: ${report.flaky.length} of ${plural(report.tests, 'test')} changed over ${plural(report.runs.length, 'run')} (seed${report.runs.length === 1 ? '' : 's'} ${report.runs.map((r) => r.seed).join(', ')})`,
  ];
  for (const test of report.flaky) {
    lines.push(`  ✗ ${test.id}: ${test.why}: ${test.outcomes.join(' / ')}`);
    for (const a of test.answers ?? [])
      lines.push(
        `      runs ${a.runs.map((r) => r + 1).join(',')}: ${a.answer.split('\n')[0]?.slice(0, 160) ?? ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
