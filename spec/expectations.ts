import { z } from 'zod';

/**
 * An expectations file: the results a team expects of its implementation today, so that a CI
 * gate fails only on what changed (`eac run --expectations FILE`). Each entry names one test
 * (its results.json `id`) or one clause id (every test citing that clause), the outcome it
 * expects and why, with an optional link to the issue that tracks it. An entry for a test wins
 * over an entry for a clause the test cites.
 *
 * `eac expectations --from RUN` writes one from a run (every fail and not-run as expected), so
 * a team can adopt the kit on the first day and then burn the list down.
 *
 * Published as JSON Schema in spec/expectations.schema.json (generated; a unit test keeps it
 * fresh). JSON or YAML.
 */

export const ExpectedOutcome = z.enum(['pass', 'fail', 'not-run', 'probe']);
export type ExpectedOutcome = z.infer<typeof ExpectedOutcome>;

const Base = {
  /** The outcome this test (or every test citing this clause) is expected to have. */
  outcome: ExpectedOutcome,
  /** Why: what is wrong or missing in the implementation, in a sentence. */
  reason: z.string().min(1),
  /** Where the work is tracked, e.g. an issue URL. */
  issue: z.string().min(1).optional(),
};

export const ExpectationEntry = z.union([
  z.strictObject({
    /** A results.json result `id`, e.g. `identity/a-1h-token-s-expiresat-lies-3600-s-after-its-issue`. */
    test: z.string().min(1),
    ...Base,
  }),
  z.strictObject({
    /** A clause id of the catalogue (`eac clauses`): every test citing it. */
    clause: z.string().min(1),
    ...Base,
  }),
]);
export type ExpectationEntry = z.infer<typeof ExpectationEntry>;

export const ExpectationsFile = z
  .strictObject({
    /** Optional pointer to spec/expectations.schema.json, for editors. */
    $schema: z.string().optional(),
    description: z.string().optional(),
    expectations: z.array(ExpectationEntry),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.expectations.forEach((entry, index) => {
      const key = 'test' in entry ? `test ${entry.test}` : `clause ${entry.clause}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['expectations', index],
          message: `a second entry for ${key}`,
        });
      }
      seen.add(key);
    });
  });
export type ExpectationsFile = z.infer<typeof ExpectationsFile>;
