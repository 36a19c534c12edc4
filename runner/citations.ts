/**
 * What the tests of the suites cite, checked without running them: a conformance test must
 * check something the document requires (or a security clause forbids), a probe only what the
 * document leaves open, and `relies` names only open clauses. The harness refuses the first
 * at registration; this check covers every test the conformance project collects.
 */
import { Writable } from 'node:stream';
import { createVitest } from 'vitest/node';
import type { Clause } from '../spec/clauses/types.ts';
import { RELIANCE } from '../spec/reliance.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import { WRITES_NOTHING } from './vitest-options.ts';

export interface CollectedTest {
  /** `file > test name`, for messages. */
  readonly where: string;
  /** What the test declared at registration; undefined when it bypassed the harness. */
  readonly declared: DeclaredTest | undefined;
}

export interface Collection {
  readonly tests: readonly CollectedTest[];
  /** Files that could not be collected, with their errors. */
  readonly fileErrors: readonly string[];
}

/** Every problem with the citations of the collected tests, one line each. */
export function citationProblems(
  tests: readonly CollectedTest[],
  clauses: readonly Clause[],
  reliance: Readonly<Record<string, string>> = RELIANCE,
): string[] {
  const levels = new Map(clauses.map((c) => [c.id, c.level]));
  const problems: string[] = [];
  // An explicit id names one test of its area (results.json `<area>/<id>`).
  const explicit = new Map<string, string>();
  for (const { where, declared } of tests) {
    if (declared?.id === undefined) continue;
    const area = /(?:^|\/)suites\/([^/]+)\//.exec(where)?.[1] ?? where.split('/')[0] ?? '';
    const key = `${area}/${declared.id}`;
    const first = explicit.get(key);
    if (first !== undefined) problems.push(`${where}: id ${key} is already the id of ${first}`);
    else explicit.set(key, where);
  }
  for (const { where, declared } of tests) {
    if (declared === undefined) {
      problems.push(`${where}: not registered through conformance() or probe(); it cites nothing`);
      continue;
    }
    const unknown = [...declared.clauses, ...declared.relies].filter((id) => !levels.has(id));
    if (unknown.length > 0) problems.push(`${where}: unknown clause ids ${unknown.join(', ')}`);
    if (declared.clauses.length === 0) problems.push(`${where}: cites no clause`);
    const open = (id: string) => levels.get(id) === 'unspecified';
    if (
      declared.kind === 'conformance' &&
      declared.clauses.length > 0 &&
      declared.clauses.every(open)
    )
      problems.push(
        `${where}: a conformance test citing only unspecified clauses (make it a probe)`,
      );
    if (declared.kind === 'probe') {
      const firm = declared.clauses.filter((id) => levels.has(id) && !open(id));
      if (firm.length > 0)
        problems.push(
          `${where}: a probe citing ${firm.map((id) => `${id} (${levels.get(id)})`).join(', ')}: a probe never fails elsewhere, so check these in a conformance test`,
        );
    }
    // The harness runs a test only where the profile states what it relies on: a reliance
    // with no row in spec/reliance.ts could never be stated.
    const unmapped = declared.relies.filter((id) => open(id) && !(id in reliance));
    if (unmapped.length > 0)
      problems.push(
        `${where}: relies on ${unmapped.join(', ')}, which spec/reliance.ts maps to no profile entry`,
      );
    const badRelies = declared.relies.filter((id) => levels.has(id) && !open(id));
    if (badRelies.length > 0)
      problems.push(
        `${where}: relies on ${badRelies.join(', ')}, which ${badRelies.length > 1 ? 'are' : 'is'} not unspecified`,
      );
  }
  return problems;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Collects the tests of the conformance project (their files are loaded, no test body runs).
 * A placeholder target keeps the global setup from starting the reference.
 */
export async function collectConformance(root: string, configFile: string): Promise<Collection> {
  const saved = process.env['EAC_RUN'];
  process.env['EAC_RUN'] = JSON.stringify({
    target: { baseUrl: 'http://127.0.0.1:9', hubUrl: 'http://127.0.0.1:9' },
  });
  try {
    const vitest = await createVitest(
      'test',
      {
        root,
        config: configFile,
        project: ['conformance'],
        watch: false,
        reporters: [],
        ...WRITES_NOTHING,
        // Nothing runs, so nothing needs isolating: one module graph loads every file faster.
        isolate: false,
        pool: 'threads',
      },
      {},
      { stdout: discard, stderr: discard },
    );
    try {
      const specifications = await vitest.getRelevantTestSpecifications();
      const { testModules } = await vitest.collectTests(specifications);
      const tests: CollectedTest[] = [];
      const fileErrors: string[] = [];
      for (const module of testModules) {
        const file = module.relativeModuleId;
        for (const error of module.errors()) fileErrors.push(`${file}: ${error.message}`);
        for (const testCase of module.children.allTests())
          tests.push({
            where: `${file} > ${testCase.name}`,
            declared: testCase.meta().eacDeclared,
          });
      }
      return { tests, fileErrors };
    } finally {
      await vitest.close();
    }
  } finally {
    if (saved === undefined) delete process.env['EAC_RUN'];
    else process.env['EAC_RUN'] = saved;
  }
}
