/**
 * A synthetic run for the renderers' unit tests: one result of each outcome, plus the
 * characters that break XML, HTML and Markdown when left unescaped.
 */
import { catalogue } from '../spec/clauses/index.ts';
import type { Result, Results } from './schema.ts';
import { assembleRun } from './assemble.ts';
import { sectionTitles } from './sections.ts';

export const HOSTILE = `<script>alert("x")</script> & 'quoted' | pipe \u0001`;

/** Picks real catalogue ids so coverage has something to count. */
export function clauseOf(level: 'must' | 'unspecified' | 'security', index = 0): string {
  const clause = catalogue.filter((c) => c.level === level)[index];
  if (clause === undefined) throw new Error(`the catalogue has no ${level} clause #${index}`);
  return clause.id;
}

export function sampleResults(): Results {
  const base = {
    seed: 7,
    durationMs: 12,
    file: 'suites/roles/update.test.ts',
    area: 'roles',
    relies: [] as string[],
  };
  const results: Result[] = [
    {
      ...base,
      id: 'roles/renames-a-role',
      name: 'renames a role',
      clauses: [clauseOf('must', 0), clauseOf('must', 1)],
      outcome: 'pass',
      replay: 'npx eac run --seed 1 --only x',
    },
    {
      ...base,
      id: 'roles/hostile',
      name: `hostile ${HOSTILE}`,
      clauses: [clauseOf('must', 2)],
      outcome: 'fail',
      reason: `expected 200, got 500\n${HOSTILE}`,
      replay: `npx eac run --seed 1 --only ${clauseOf('must', 2)}`,
      exchanges: [
        {
          request: {
            method: 'POST',
            url: 'http://t/<x>',
            headers: { 'x-h': HOSTILE },
            body: { a: HOSTILE },
          },
          response: { status: 500, headers: {}, body: `</pre>${HOSTILE}` },
          ms: 4,
        },
      ],
    },
    {
      ...base,
      id: 'errors/validation-status',
      area: 'errors',
      file: 'suites/errors/validation.test.ts',
      name: 'validation status',
      clauses: [clauseOf('unspecified', 0)],
      kind: 'probe',
      outcome: 'probe',
      reason: 'answered 422',
      decision: '400 VALIDATION_ERROR',
      observations: [
        { observation: 'answered 422', matchesDecision: false, endpoint: 'POST /v1/x/{id}' },
      ],
      replay: 'npx eac run --seed 1 --only errors',
      exchanges: [],
    },
    {
      ...base,
      id: 'tokens/claims',
      area: 'tokens',
      file: 'suites/tokens/claims.test.ts',
      name: 'reads the permissions from our claim names',
      clauses: [clauseOf('must', 4)],
      kind: 'conformance',
      relies: [clauseOf('unspecified', 1)],
      outcome: 'pass',
      replay: 'npx eac run --seed 1 --only tokens',
    },
    {
      ...base,
      id: 'security/alg-none',
      area: 'security',
      file: 'suites/security/tokens.test.ts',
      name: 'refuses an unsigned token',
      clauses: [clauseOf('security', 0)],
      kind: 'conformance',
      outcome: 'pass',
      replay: 'npx eac run --seed 1 --only security',
    },
    {
      ...base,
      id: 'tokens/needs-clock',
      area: 'tokens',
      file: 'suites/tokens/expiry.test.ts',
      name: 'needs the clock',
      clauses: [clauseOf('must', 3)],
      outcome: 'not-run',
      reason: 'the target lacks the host hook clock',
      causes: [{ kind: 'hook', entry: 'hook:clock' }],
      replay: 'npx eac run --seed 1 --only tokens',
    },
  ];
  return assembleRun(
    {
      target: {
        baseUrl: 'http://127.0.0.1:4000',
        hubUrl: 'http://127.0.0.1:4000/hub',
        hooksUrl: 'http://127.0.0.1:4000/__eac',
        implementation: 'eac-reference',
        hooks: ['accounts', 'clock'],
        checkDecisions: true,
        embedded: true,
      },
      profile: { source: 'reference default', serves: ['identity', 'tenant-flow'] },
      startedAt: new Date('2025-01-02T03:04:05.000Z'),
      finishedAt: new Date('2025-01-02T03:04:07.000Z'),
      seed: 1,
      only: [],
      results,
    },
    catalogue,
    sectionTitles,
  );
}

/** The same run as given a --target without --hub: no hub address, its hub tests not-run. */
export function hublessResults(run: Results): Results {
  const { hubUrl: _hub, ...target } = run.target;
  void _hub;
  return {
    ...run,
    target,
    summary: { ...run.summary, total: 1 },
    notRunCauses: [{ kind: 'part', entry: 'part:hub', tests: 1, alone: 1 }],
  };
}
