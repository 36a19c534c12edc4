import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import { assembleRun } from './assemble.ts';
import { sampleResults } from './sample-results.ts';
import { sectionTitles } from './sections.ts';

describe('assembleRun', () => {
  it("keeps a probe's exchanges with the API only, and every exchange of a failure", () => {
    const sample = sampleResults();
    const hooks = sample.target.hooksUrl ?? '';
    const exchanges = [
      { request: { method: 'POST', url: `${hooks}/accounts`, headers: {} }, ms: 1 },
      { request: { method: 'GET', url: 'http://127.0.0.1:4000/v1/roles', headers: {} }, ms: 2 },
    ];
    const results = sample.results.map((r) =>
      r.outcome === 'probe' || r.outcome === 'fail' ? { ...r, exchanges } : r,
    );
    const run = assembleRun(
      {
        target: sample.target,
        profile: sample.profile,
        startedAt: new Date(sample.startedAt),
        finishedAt: new Date(sample.finishedAt),
        seed: sample.seed,
        only: [],
        results,
      },
      catalogue,
      sectionTitles,
    );
    const urls = (outcome: string) =>
      run.results.find((r) => r.outcome === outcome)?.exchanges?.map((e) => e.request.url);
    expect(urls('probe')).toEqual(['http://127.0.0.1:4000/v1/roles']);
    expect(urls('fail')).toEqual([`${hooks}/accounts`, 'http://127.0.0.1:4000/v1/roles']);
    expect(urls('pass')).toBeUndefined();
  });
});
