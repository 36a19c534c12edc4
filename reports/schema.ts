/**
 * Shape of `results.json`, the one file of a run that every other report is rendered from.
 * `eac report <run-dir>` reads it back, so it must carry everything the renderers need
 * (including section titles) without the catalogue at hand.
 */
import { z } from 'zod';
import { NOT_RUN_KINDS } from '../suites/harness/causes.ts';

/**
 * Version of this shape. Bumped when a field is added or changes meaning, so that a reader
 * (`eac report`, `eac compare`) can tell an older run from a damaged one.
 */
export const SCHEMA_VERSION = 6;

/**
 * Older versions this eac still reads: their shape is a subset of this one (3 added `gate`;
 * 4 added `target.image`, `shard` and `mergedFrom`; 5 added the outcome `probe-error`, which
 * before was a probe holding an observation of kind probe-error: report-files.ts reads such a
 * probe as the probe-error it was; 5 also added `gates` and `interrupted`; 6 added a not-run's
 * `causes` and counts `notRunCauses` by entry: report-files.ts reads an older not-run's prose
 * reason as one cause of kind `other`).
 */
export const READABLE_VERSIONS: readonly number[] = [2, 3, 4, 5, SCHEMA_VERSION];

/**
 * `probe-error`: a probe that broke before or while it recorded on a foreign target (it threw,
 * or a request failed): neither a probe (it recorded no answer it stands by) nor a fail.
 */
export const OutcomeSchema = z.enum(['pass', 'fail', 'not-run', 'probe', 'probe-error']);
export type Outcome = z.infer<typeof OutcomeSchema>;

const HeadersSchema = z.record(z.string(), z.string());

/** One HTTP exchange a test made; kept only for failed and probed tests. */
export const ExchangeSchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: HeadersSchema,
    body: z.unknown().optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      headers: HeadersSchema,
      body: z.unknown().optional(),
    })
    .optional(),
  error: z.string().optional(),
  ms: z.number().nonnegative(),
});
export type ReportedExchange = z.infer<typeof ExchangeSchema>;

export const RunTargetSchema = z.object({
  baseUrl: z.string().min(1),
  /** Absent when the run was given a --target without --hub: the hub pages were not tested. */
  hubUrl: z.string().min(1).optional(),
  hooksUrl: z.string().min(1).optional(),
  implementation: z.string().optional(),
  hooks: z.array(z.string()),
  checkDecisions: z.boolean(),
  /** True when the runner started the reference itself (no `--target`). */
  embedded: z.boolean().optional(),
  /** `--credentials FILE` of the run, absolute, so replay lines keep it. */
  credentialsFile: z.string().min(1).optional(),
  /** `--profile FILE` of the run, absolute, so replay lines keep it. */
  profileFile: z.string().min(1).optional(),
  /** `--ca FILE` of the run, absolute, so replay lines keep it. */
  caFile: z.string().min(1).optional(),
  /** Whether `--check-decisions` was given (it is automatic against the reference). */
  checkDecisionsAsked: z.boolean().optional(),
  /** `--latitude VARY`: the embedded reference behind the latitude proxy (replay lines keep it). */
  latitude: z.string().min(1).optional(),
  /**
   * `--image NAME`: the container image the run started as its target, the engine's id of it,
   * and the `--image*` arguments that start it again (replay lines use them).
   */
  image: z
    .object({
      name: z.string().min(1),
      id: z.string().min(1),
      args: z.array(z.string()).optional(),
    })
    .optional(),
});
export type RunTarget = z.infer<typeof RunTargetSchema>;

/** One thing a probe saw the target do where the document is silent. */
export const ObservationSchema = z.object({
  /** What the target did, kept whole up to 16 KiB. */
  observation: z.string(),
  /** Whether it is what the reference decided (or what the target's profile states). */
  matchesDecision: z.boolean(),
  /** Method and path template of the last request before the observation. */
  endpoint: z.string().optional(),
  /**
   * `probe-error`: the probe itself broke while recording on a foreign target (an answer it
   * could not read, a set-up the target answered otherwise): reported and counted, never a fail.
   */
  kind: z.literal('probe-error').optional(),
});
export type ReportedObservation = z.infer<typeof ObservationSchema>;

/** What one not-run test waits on (suites/harness/causes.ts). */
export const CauseSchema = z.object({
  kind: z.enum(NOT_RUN_KINDS),
  /** The profile entry, hook, part or document point: `shapes.embedToken`, `hook:roles`. */
  entry: z.string().min(1),
});

export const ResultSchema = z.object({
  /**
   * Stable across runs: `<area>/<explicit id>` for a test that declares one (its `id` option,
   * kept when the name is reworded), else `<area>/<slug of the behaviour name>`.
   */
  id: z.string().min(1),
  name: z.string().min(1),
  area: z.string().min(1),
  /** Test file, relative to the project root. */
  file: z.string(),
  clauses: z.array(z.string()),
  /** Registered with conformance() or probe(); absent for a file that did not load. */
  kind: z.enum(['conformance', 'probe']).optional(),
  /**
   * Unspecified clauses whose decision (or the profile's answer) the test leans on: a pass
   * then covers its clauses through a decision, not portably.
   */
  relies: z.array(z.string()),
  outcome: OutcomeSchema,
  /** fail: first error message; not-run: why; probe: what the target did; probe-error: what broke. */
  reason: z.string().optional(),
  /** not-run: what it waits on, as data; `notRunCauses` counts them by entry. */
  causes: z.array(CauseSchema).optional(),
  /** probe: what the reference decided where the document is silent. */
  decision: z.string().optional(),
  /** probe (and a probe that failed on a departure): every observation, in order. */
  observations: z.array(ObservationSchema).optional(),
  /** The test's own seed (derived from the run seed and its name). */
  seed: z.number().int(),
  /** Command line that re-runs this test against the same target with the same seed. */
  replay: z.string(),
  durationMs: z.number().nonnegative(),
  exchanges: z.array(ExchangeSchema).optional(),
  /**
   * The entry of the run's expectations file (`--expectations`) that applies to this test:
   * the expected outcome, why, the issue, and whether the entry named the test or a clause.
   */
  expected: z
    .object({
      outcome: OutcomeSchema,
      reason: z.string(),
      issue: z.string().optional(),
      /** `test`, or the clause id the entry named. */
      by: z.string().min(1),
    })
    .optional(),
});
export type Result = z.infer<typeof ResultSchema>;

/**
 * How a result stands against the expectations: `ok` (as expected, or no expectation and not a
 * failure), `expected-fail`, `unexpected-fail` (a failure no entry expected),
 * `unexpected-pass` (a pass or probe where a fail or not-run was expected) and
 * `unexpected-other` (any other outcome than the expected one, e.g. not-run where a pass was
 * expected). Everything but `ok` and `expected-fail` counts toward the exit code.
 */
export type Verdict =
  'ok' | 'expected-fail' | 'unexpected-fail' | 'unexpected-pass' | 'unexpected-other';

export function verdictOf(result: Pick<Result, 'outcome' | 'expected'>): Verdict {
  const expected = result.expected?.outcome;
  if (result.outcome === 'fail') return expected === 'fail' ? 'expected-fail' : 'unexpected-fail';
  if (expected === undefined || expected === result.outcome) return 'ok';
  if (
    (result.outcome === 'pass' || result.outcome === 'probe') &&
    (expected === 'fail' || expected === 'not-run')
  )
    return 'unexpected-pass';
  return 'unexpected-other';
}

export function isUnexpected(verdict: Verdict): boolean {
  return verdict !== 'ok' && verdict !== 'expected-fail';
}

/** The run's expectations file and how the results stood against it. */
export const GateSchema = z.object({
  /** Absolute path of `--expectations FILE`. */
  expectationsFile: z.string().min(1),
  /** Entries in the file. */
  entries: z.number().int().nonnegative(),
  expectedFailures: z.number().int().nonnegative(),
  unexpectedFailures: z.number().int().nonnegative(),
  unexpectedPasses: z.number().int().nonnegative(),
  /** Other outcomes than the expected one (e.g. not-run where pass was expected). */
  otherUnexpected: z.number().int().nonnegative(),
  /** unexpectedFailures + unexpectedPasses + otherUnexpected: what the exit code counts. */
  unexpected: z.number().int().nonnegative(),
  /** Entries (`test <id>` or `clause <id>`) that matched no test of the run. */
  unused: z.array(z.string()),
});
export type Gate = z.infer<typeof GateSchema>;

/**
 * One gate of the run and how the run stood against it: `--max-not-run`, each
 * `--min-coverage`, and `--expectations` (whose counts are in `gate`). A breached gate exits
 * 3 (thresholds) or 1 (expectations) and shows in every report.
 */
export const GateCheckSchema = z.object({
  /** The gate as it was given, e.g. `--max-not-run 10%`, `--min-coverage portable@4.6=3`. */
  name: z.string().min(1),
  kind: z.enum(['expectations', 'max-not-run', 'min-coverage']),
  breached: z.boolean(),
  /** The figures against the gate, e.g. `70 of 100 tests were not run`. */
  detail: z.string(),
});
export type GateCheck = z.infer<typeof GateCheckSchema>;

/**
 * Clause coverage of one section of the document. Top-level rows (`"4"`) aggregate their
 * subsections (`"4.1"`, `"4.2"`, ...); subsection rows count only their own clauses.
 *
 * A `must` or `observed` clause is covered *portably* when a passing conformance test that
 * relies on no decision cites it, *through a decision* when only passing tests that rely on
 * one of our decisions do, and *with no portable check* when so covered and its catalogue
 * entry says why no portable observation exists. An `unspecified` clause is *probed* when a
 * probe recorded what the target did. `security` clauses are not the document's and are
 * counted apart. A clause cited by a failing test is covered by nothing.
 */
export const CoverageRowSchema = z.object({
  section: z.string().regex(/^\d+(\.\d+)*$/),
  title: z.string().optional(),
  must: z.number().int().nonnegative(),
  observed: z.number().int().nonnegative(),
  unspecified: z.number().int().nonnegative(),
  /** Security clauses filed under this section (not the document's own; reported apart). */
  security: z.number().int().nonnegative(),
  /** must + observed clauses covered by a passing test that relies on no decision. */
  portable: z.number().int().nonnegative(),
  /**
   * must + observed clauses covered only by passing tests that rely on a decision, and that
   * give no reason why no portable check exists.
   */
  throughDecision: z.number().int().nonnegative(),
  /**
   * must + observed clauses covered only through a decision whose catalogue entry says why no
   * portable check exists (`noPortableCheck`); absent in results written before it was counted.
   */
  noPortableCheck: z.number().int().nonnegative().default(0),
  /** unspecified clauses a probe recorded an answer for. */
  probed: z.number().int().nonnegative(),
  /** security clauses covered by a passing test (portably or through a decision). */
  securityCovered: z.number().int().nonnegative(),
  /** security clauses of `securityCovered` that only tests relying on a decision cover. */
  securityThroughDecision: z.number().int().nonnegative(),
  /** All clauses covered, every level and kind together. */
  covered: z.number().int().nonnegative(),
  /** The document's clauses (must, observed, unspecified) cited by at least one failing test. */
  failing: z.number().int().nonnegative(),
  /** Security clauses cited by at least one failing test. */
  securityFailing: z.number().int().nonnegative(),
});
export type CoverageRow = z.infer<typeof CoverageRowSchema>;

/**
 * Per section (the clause's own, e.g. `4.7`): the clauses a reader should look at. `decisionOnly`
 * are must/observed clauses covered only through a decision; `unprobed` are unspecified clauses
 * no probe recorded an answer for in this run.
 */
export const CoverageGapSchema = z.object({
  section: z.string().regex(/^\d+(\.\d+)*$/),
  decisionOnly: z.array(z.string()),
  unprobed: z.array(z.string()),
  /** must/observed clauses covered only through a decision, with a reason no portable check exists. */
  noPortableCheck: z.array(z.string()).default([]),
});
export type CoverageGap = z.infer<typeof CoverageGapSchema>;

/** One distinct answer a target gave to an unspecified clause, and where it was seen. */
export const RegisterAnswerSchema = z.object({
  /** The observation, with service ids (UUIDs) written `{uuid}` so equal answers group. */
  answer: z.string(),
  matchesDecision: z.boolean(),
  /** Where it was seen: result id, and the endpoint when one was recorded. */
  seenOn: z.array(z.object({ test: z.string(), endpoint: z.string().optional() })),
});
export type RegisterAnswer = z.infer<typeof RegisterAnswerSchema>;

/**
 * The ambiguity register of the run: every unspecified clause of the catalogue, with the
 * reference's decision and the distinct answers the target gave (none when no probe ran).
 */
export const RegisterEntrySchema = z.object({
  clause: z.string(),
  section: z.string(),
  summary: z.string(),
  decision: z.string().optional(),
  /** Tests that probed the clause (any outcome but not-run). */
  tests: z.number().int().nonnegative(),
  answers: z.array(RegisterAnswerSchema),
});
export type RegisterEntry = z.infer<typeof RegisterEntrySchema>;

/** What the run's target profile said: where it came from and the parts it serves. */
export const RunProfileSchema = z.object({
  /**
   * Absolute path of `--profile FILE`; without one, `reference default` (the reference),
   * `document-only (no --profile)` (any other target) or `printed by the latitude proxy`.
   */
  source: z.string().min(1),
  description: z.string().optional(),
  serves: z.array(z.string()),
});
export type RunProfile = z.infer<typeof RunProfileSchema>;

/** How many not-run tests wait on one entry (a test waiting on two counts under each). */
export const NotRunCauseSchema = CauseSchema.extend({
  tests: z.number().int().positive(),
  /** Of those, the tests that wait on this entry alone: what stating it would let run. */
  alone: z.number().int().nonnegative(),
});
export type NotRunCause = z.infer<typeof NotRunCauseSchema>;

/** One transition of a machine of spec/machines, as its table states it. */
export const MachineTransitionSchema = z.object({
  command: z.string(),
  from: z.string(),
  to: z.string(),
  note: z.string().optional(),
  section: z.string(),
  /** The guards that may refuse the move, in the order they are asked. */
  guards: z.array(z.string()).optional(),
  /** How often the run's target took this row; absent when that is not known. */
  taken: z.number().int().nonnegative().optional(),
});

export const MachineSchema = z.object({
  name: z.string(),
  transitions: z.array(MachineTransitionSchema),
  /**
   * Guard name -> how often it refused during the run; present (maybe empty) exactly when the
   * run's target counted this machine's rows (the embedded reference does).
   */
  refused: z.record(z.string(), z.number().int().nonnegative()).optional(),
});

/**
 * What a target counted of one machine's table during a run (the embedded reference counts
 * the machines its store runs): rows by `command: from -> to`, refusing guards by name.
 */
export interface MachineRowsTaken {
  readonly machine: string;
  readonly rows: Readonly<Record<string, number>>;
  readonly guards: Readonly<Record<string, number>>;
}
export type ReportedMachine = z.infer<typeof MachineSchema>;

export const SummarySchema = z.object({
  pass: z.number().int().nonnegative(),
  fail: z.number().int().nonnegative(),
  notRun: z.number().int().nonnegative(),
  probe: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Results of outcome probe-error: probes that broke while recording on a foreign target. */
  probeErrors: z.number().int().nonnegative().default(0),
});
export type Summary = z.infer<typeof SummarySchema>;

export const ResultsSchema = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    target: RunTargetSchema,
    profile: RunProfileSchema,
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime(),
    durationMs: z.number().nonnegative(),
    seed: z.number().int(),
    /** The `--only` values of the run, when it ran a selection. */
    only: z.array(z.string()).optional(),
    summary: SummarySchema,
    results: z.array(ResultSchema),
    coverage: z.array(CoverageRowSchema),
    gaps: z.array(CoverageGapSchema),
    register: z.array(RegisterEntrySchema),
    /** Not-run tests counted by entry (reports/not-run.ts); a test lacking two hooks counts under each. */
    notRunCauses: z.array(NotRunCauseSchema),
    /** The transition tables of spec/machines the reference is written in. */
    machines: z.array(MachineSchema),
    /**
     * Present when the run was given `--expectations FILE`: its counts. Kept as it was for
     * readers of schema 4; whether it was breached is also in `gates`.
     */
    gate: GateSchema.optional(),
    /** Every gate the run was given (expectations, thresholds), breached or not; absent: none. */
    gates: z.array(GateCheckSchema).optional(),
    /** `--shard index/count`: this run holds only the test files of that shard. */
    shard: z
      .object({ index: z.number().int().positive(), count: z.number().int().positive() })
      .refine((s) => s.index <= s.count, { message: 'shard index above the count' })
      .optional(),
    /** Ctrl-C stopped the run: the results are the tests that ended before it (a partial report). */
    interrupted: z.boolean().optional(),
    /** `eac report --merge`: the shard runs this run was merged from, as given. */
    mergedFrom: z.array(z.string().min(1)).optional(),
  })
  .superRefine((run, ctx) => {
    const counted = { pass: 0, fail: 0, 'not-run': 0, probe: 0, 'probe-error': 0 };
    for (const result of run.results) counted[result.outcome] += 1;
    const { summary } = run;
    const agrees =
      summary.pass === counted.pass &&
      summary.fail === counted.fail &&
      summary.notRun === counted['not-run'] &&
      summary.probe === counted.probe &&
      summary.probeErrors === counted['probe-error'] &&
      summary.total === run.results.length;
    if (!agrees) {
      ctx.addIssue({
        code: 'custom',
        path: ['summary'],
        message: 'summary counts disagree with the results',
      });
    }
    const ids = new Set<string>();
    run.results.forEach((result, index) => {
      if (ids.has(result.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['results', index, 'id'],
          message: `duplicate result id ${result.id}`,
        });
      }
      ids.add(result.id);
    });
    if (run.gate !== undefined) {
      const verdicts = run.results.map(verdictOf);
      const count = (v: Verdict) => verdicts.filter((x) => x === v).length;
      const { gate } = run;
      const gateAgrees =
        gate.expectedFailures === count('expected-fail') &&
        gate.unexpectedFailures === count('unexpected-fail') &&
        gate.unexpectedPasses === count('unexpected-pass') &&
        gate.otherUnexpected === count('unexpected-other') &&
        gate.unexpected === gate.unexpectedFailures + gate.unexpectedPasses + gate.otherUnexpected;
      if (!gateAgrees) {
        ctx.addIssue({
          code: 'custom',
          path: ['gate'],
          message: 'gate counts disagree with the results and their expectations',
        });
      }
    }
  });
export type Results = z.infer<typeof ResultsSchema>;
