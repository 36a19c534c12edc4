/**
 * Shape of `results.json`, the one file of a run that every other report is rendered from.
 * `eac report <run-dir>` reads it back, so it must carry everything the renderers need
 * (including section titles) without the catalogue at hand.
 */
import { z } from 'zod';

export const OutcomeSchema = z.enum(['pass', 'fail', 'not-run', 'probe']);
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
  hubUrl: z.string().min(1),
  hooksUrl: z.string().min(1).optional(),
  implementation: z.string().optional(),
  hooks: z.array(z.string()),
  checkDecisions: z.boolean(),
  /** True when the runner started the reference itself (no `--target`). */
  embedded: z.boolean().optional(),
});
export type RunTarget = z.infer<typeof RunTargetSchema>;

export const ResultSchema = z.object({
  /** Stable across runs: `<area>/<slug of the behaviour name>`. */
  id: z.string().min(1),
  name: z.string().min(1),
  area: z.string().min(1),
  /** Test file, relative to the project root. */
  file: z.string(),
  clauses: z.array(z.string()),
  outcome: OutcomeSchema,
  /** fail: first error message; not-run: why; probe: what the target did. */
  reason: z.string().optional(),
  /** probe: what the reference decided where the document is silent. */
  decision: z.string().optional(),
  /** The test's own seed (derived from the run seed and its name). */
  seed: z.number().int(),
  /** Command line that re-runs this test against the same target with the same seed. */
  replay: z.string(),
  durationMs: z.number().nonnegative(),
  exchanges: z.array(ExchangeSchema).optional(),
});
export type Result = z.infer<typeof ResultSchema>;

/**
 * Clause coverage of one section of the document. Top-level rows (`"4"`) aggregate their
 * subsections (`"4.1"`, `"4.2"`, ...); subsection rows count only their own clauses.
 */
export const CoverageRowSchema = z.object({
  section: z.string().regex(/^\d+(\.\d+)*$/),
  title: z.string().optional(),
  must: z.number().int().nonnegative(),
  observed: z.number().int().nonnegative(),
  unspecified: z.number().int().nonnegative(),
  /** Security clauses (not the document's own; reported apart). */
  security: z.number().int().nonnegative().optional(),
  /** Clauses cited by at least one passing or probing test. */
  covered: z.number().int().nonnegative(),
  /** Clauses cited by at least one failing test. */
  failing: z.number().int().nonnegative().optional(),
});
export type CoverageRow = z.infer<typeof CoverageRowSchema>;

export const SummarySchema = z.object({
  pass: z.number().int().nonnegative(),
  fail: z.number().int().nonnegative(),
  notRun: z.number().int().nonnegative(),
  probe: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type Summary = z.infer<typeof SummarySchema>;

export const ResultsSchema = z
  .object({
    target: RunTargetSchema,
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime(),
    durationMs: z.number().nonnegative(),
    seed: z.number().int(),
    /** The `--only` values of the run, when it ran a selection. */
    only: z.array(z.string()).optional(),
    summary: SummarySchema,
    results: z.array(ResultSchema),
    coverage: z.array(CoverageRowSchema),
  })
  .superRefine((run, ctx) => {
    const counted = { pass: 0, fail: 0, 'not-run': 0, probe: 0 };
    for (const result of run.results) counted[result.outcome] += 1;
    const { summary } = run;
    const agrees =
      summary.pass === counted.pass &&
      summary.fail === counted.fail &&
      summary.notRun === counted['not-run'] &&
      summary.probe === counted.probe &&
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
  });
export type Results = z.infer<typeof ResultsSchema>;
