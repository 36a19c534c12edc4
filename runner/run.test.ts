import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closingSummary, profileFacts } from './run.ts';
import { parseCommand } from './args.ts';
import { DOCUMENT_ONLY_PROFILE, type ResolvedTarget } from './target.ts';
import { sampleResults } from '../reports/sample-results.ts';
import type { Result } from '../reports/schema.ts';
import { NO_HUB_REASON } from '../suites/harness/target.ts';
import { cause, type NotRunCause } from '../suites/harness/causes.ts';
import { countNotRun } from '../reports/not-run.ts';
import { missingPart } from './parts.ts';
import { PROJECT_ROOT } from './cli.ts';

const PEERS = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  }
).peerDependencies;

describe('closingSummary', () => {
  const text = closingSummary(sampleResults(), 'reports/runs/x', 'reports/latest');

  it('prints the report paths absolute', () => {
    expect(text).toContain(`Report: ${path.resolve('reports/runs/x', 'index.html')} `);
    expect(text).toContain(`        ${path.resolve('reports/latest')} -> x`);
  });

  it('states the profile, the coverage kinds and what each missing hook cost', () => {
    expect(text).toContain('profile reference default: serves identity, tenant-flow');
    expect(text).toMatch(
      /coverage: must\/observed 2 portable \+ 1 through a decision \+ 0 with no portable check of \d+/,
    );
    expect(text).toMatch(/not-run by entry:\n\s+1 {2}the hook clock would run 1 test/);
  });
});

describe('closingSummary: not-runs by entry', () => {
  const run = sampleResults();
  const waiting = (n: number, reason: string, ...causes: NotRunCause[]): Result[] =>
    Array.from({ length: n }, (_, i) => ({
      ...(run.results[0] as Result),
      id: `x/${causes.map((c) => c.entry).join('+')}-${i}`,
      outcome: 'not-run',
      reason,
      causes,
    }));
  const results = [
    ...run.results.filter((r) => r.outcome !== 'not-run'),
    ...waiting(13, 'the profile names no embed-token members', cause.shape('shapes.embedToken')),
    ...waiting(
      13,
      "the target's profile does not state tokens.embed-token.upserts (follows)",
      cause.follows('tokens.embed-token.upserts'),
    ),
    ...waiting(23, 'the target lacks the host hook agent-grammar', cause.hook('agent-grammar')),
    ...waiting(4, "the target's profile does not serve v2", cause.part('v2')),
    ...waiting(
      1,
      'the target accepted the request',
      cause.other(
        'the target accepted, where the test meant to see a refusal, every one of the requests it sent, and so left this test nothing to check at all',
      ),
    ),
  ];
  const text = closingSummary(
    {
      ...run,
      results,
      summary: { ...run.summary, notRun: 54, total: run.summary.total + 53 },
      notRunCauses: countNotRun(results),
    },
    'reports/runs/x',
    undefined,
  );

  it('names what each entry would run', () => {
    expect(text).toContain('      13  stating shapes.embedToken would run 13 tests\n');
    expect(text).toContain('      13  following tokens.embed-token.upserts would run 13 tests\n');
    expect(text).toContain('      23  the hook agent-grammar would run 23 tests\n');
  });

  it('wraps a long entry instead of cutting it', () => {
    const lines = text.split('\n');
    const from = lines.findIndex((l) => l.includes('  the target accepted, where'));
    const block = lines.slice(from, from + 2);
    expect(block.join(' ').replace(/\s+/g, ' ')).toContain(
      'and so left this test nothing to check at all',
    );
    for (const line of block) expect(line.length).toBeLessThanOrEqual(100);
    expect(block[1]).toMatch(/^ {13}\S/);
  });

  it('counts as waiting on the profile only the shapes and follows it does not state', () => {
    expect(text).toContain('26 not-run tests wait on the profile');
  });
});

describe('closingSummary when the hub pages were not tested', () => {
  const run = sampleResults();
  const notRun = (reason: string, n: number, waitsOn: NotRunCause): Result[] =>
    Array.from({ length: n }, (_, i) => ({
      ...(run.results[0] as Result),
      id: `hub/t-${reason.length}-${i}`,
      area: 'hub',
      outcome: 'not-run',
      reason,
      causes: [waitsOn],
    }));

  it('says so above the counts: no --hub', () => {
    const hubless = notRun(NO_HUB_REASON, 3, cause.part('hub'));
    const { hubUrl: _hub, ...target } = run.target;
    void _hub;
    const text = closingSummary(
      {
        ...run,
        target,
        results: [...run.results, ...hubless],
        notRunCauses: [{ kind: 'part', entry: 'part:hub', tests: 3, alone: 3 }],
      },
      'reports/runs/x',
      undefined,
    );
    const lines = text.split('\n');
    expect(lines[1]).toBe('eac: hub pages not tested: no --hub (3 tests not-run)');
    expect(lines[2]).toMatch(/^eac: \d+ pass, /);
    // A missing --hub is no shape a profile would state.
    expect(text).not.toMatch(/wait on the profile/);
    expect(text).toContain('       3  --hub URL (the hub pages were not tested) would run 3 tests');
  });

  it('says so above the counts: no browser, with one test counted as one', () => {
    const text = closingSummary(
      {
        ...run,
        results: [
          ...run.results,
          ...notRun(
            'no browser for the hub pages: no browser at /usr/bin/chromium',
            1,
            cause.browser('chromium'),
          ),
        ],
      },
      'reports/runs/x',
      undefined,
    );
    expect(text.split('\n')[1]).toBe(
      "eac: hub pages not tested: no browser (install Debian's chromium-headless-shell or chromium, or set EAC_CHROMIUM; 1 test not-run)",
    );
  });

  it('says so above the counts: no browser driver, with the line that installs it', () => {
    const driver = missingPart('browser', () => false) ?? '';
    const text = closingSummary(
      {
        ...run,
        results: [
          ...run.results,
          ...notRun(`no browser for the hub pages: ${driver}`, 2, cause.browser('driver')),
        ],
      },
      'reports/runs/x',
      undefined,
    );
    expect(text.split('\n')[1]).toBe(
      `eac: hub pages not tested: no browser driver (npm install --save-dev playwright-core@${PEERS['playwright-core'] ?? '?'}; 2 tests not-run)`,
    );
    expect(text).not.toContain('hub pages not tested: no browser (');
  });

  it('says nothing of the hub when its tests ran', () => {
    const text = closingSummary(run, 'reports/runs/x', undefined);
    expect(text).not.toContain('hub pages not tested');
    expect(text.split('\n')[1]).toMatch(/^eac: \d+ pass, /);
  });
});

describe('the profile a run reports', () => {
  const foreign = (hub: boolean): ResolvedTarget => ({
    target: {
      baseUrl: 'http://elsewhere',
      ...(hub ? { hubUrl: 'http://elsewhere/hub' } : {}),
      hooks: [],
      checkDecisions: false,
      seed: 1,
      // A target given without --hub has the hub part taken out: a copy of the profile.
      profile: hub
        ? DOCUMENT_ONLY_PROFILE
        : {
            ...DOCUMENT_ONLY_PROFILE,
            serves: DOCUMENT_ONLY_PROFILE.serves.filter((p) => p !== 'hub'),
          },
    },
    embedded: false,
    close: () => Promise.resolve(),
  });

  it('calls a foreign target without --profile document-only, never the reference default', () => {
    for (const hub of [true, false]) {
      const facts = profileFacts(foreign(hub), undefined);
      expect(facts.source).toBe('document-only (no --profile)');
      expect(closingSummary({ ...sampleResults(), profile: facts }, '/r/x', undefined)).toContain(
        'profile document-only (no --profile): ',
      );
    }
    expect(profileFacts(foreign(false), '/p/profile.yaml').source).toBe('/p/profile.yaml');
  });

  it('calls the reference (embedded, or announcing itself) the reference default', () => {
    const reference = foreign(true);
    expect(profileFacts({ ...reference, embedded: true }, undefined).source).toBe(
      'reference default',
    );
    expect(
      profileFacts(
        { ...reference, target: { ...reference.target, implementation: 'eac-reference' } },
        undefined,
      ).source,
    ).toBe('reference default');
  });

  it('says in --help what a run without --profile is read with', () => {
    const command = parseCommand(['run', '--help'], { width: 400 });
    if (command.kind !== 'help') throw new Error('no help');
    expect(command.text).toMatch(
      /--profile <file>.*any other target is read with the document-only profile/,
    );
    expect(command.text).not.toMatch(/default: the reference's\)/);
  });
});
