/**
 * Expectations files (spec/expectations.ts): reading one, applying it to the results of a run
 * (each result gets the entry that applies to it; the run gets its `gate` counts), and writing
 * one from a run (`eac expectations --from RUN`).
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  ExpectationsFile,
  type ExpectationEntry,
  type ExpectedOutcome,
} from '../spec/expectations.ts';
import {
  isUnexpected,
  verdictOf,
  type Gate,
  type Result,
  type Results,
  type Verdict,
} from './schema.ts';
import { stableKey } from './diff.ts';

export class ExpectationsError extends Error {
  override readonly name = 'UsageError';
}

function isYaml(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** Parses and checks the text of an expectations file (JSON, or YAML when `yaml`). */
export function parseExpectations(text: string, file: string): ExpectationsFile {
  let data: unknown;
  try {
    data = isYaml(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ExpectationsError(
      `the expectations file ${file} is not ${isYaml(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
    );
  }
  const parsed = ExpectationsFile.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new ExpectationsError(
      `the expectations file ${file} does not follow spec/expectations.schema.json: ${issues}`,
    );
  }
  return parsed.data;
}

export async function readExpectations(file: string): Promise<ExpectationsFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExpectationsError(
      `cannot read the expectations file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseExpectations(text, file);
}

function entryKey(entry: ExpectationEntry): string {
  return 'test' in entry ? `test ${entry.test}` : `clause ${entry.clause}`;
}

/**
 * The results with the entry that applies to each (an entry naming the test wins over one
 * naming a clause it cites; among clause entries the first in the file wins), and the gate
 * counts. Test ids are matched after the normalisation of `eac diff` (service ids and times).
 */
export function applyExpectations(
  results: readonly Result[],
  file: ExpectationsFile,
  fileName: string,
): { results: Result[]; gate: Gate } {
  const byTest = new Map<string, Extract<ExpectationEntry, { test: string }>>();
  const byClause = new Map<string, Extract<ExpectationEntry, { clause: string }>>();
  for (const entry of file.expectations) {
    if ('test' in entry) {
      if (!byTest.has(stableKey(entry.test))) byTest.set(stableKey(entry.test), entry);
    } else if (!byClause.has(entry.clause)) byClause.set(entry.clause, entry);
  }
  const used = new Set<string>();
  const applied = results.map((result): Result => {
    const { expected: _previous, ...bare } = result;
    void _previous;
    const own = byTest.get(stableKey(result.id));
    const clause = own === undefined ? result.clauses.find((c) => byClause.has(c)) : undefined;
    const entry = own ?? (clause !== undefined ? byClause.get(clause) : undefined);
    if (entry === undefined) return bare;
    used.add(entryKey(entry));
    return {
      ...bare,
      expected: {
        outcome: entry.outcome,
        reason: entry.reason,
        ...(entry.issue !== undefined ? { issue: entry.issue } : {}),
        by: own !== undefined ? 'test' : (clause ?? 'test'),
      },
    };
  });
  return { results: applied, gate: gateOf(applied, file, fileName, used) };
}

function gateOf(
  results: readonly Result[],
  file: ExpectationsFile,
  fileName: string,
  used: ReadonlySet<string>,
): Gate {
  const verdicts = results.map(verdictOf);
  const count = (v: Verdict) => verdicts.filter((x) => x === v).length;
  const unexpectedFailures = count('unexpected-fail');
  const unexpectedPasses = count('unexpected-pass');
  const otherUnexpected = count('unexpected-other');
  return {
    expectationsFile: fileName,
    entries: file.expectations.length,
    expectedFailures: count('expected-fail'),
    unexpectedFailures,
    unexpectedPasses,
    otherUnexpected,
    unexpected: unexpectedFailures + unexpectedPasses + otherUnexpected,
    unused: file.expectations.map(entryKey).filter((key) => !used.has(key)),
  };
}

/** What the exit code of a run counts: unexpected results with a gate, failures without. */
export function unexpectedCount(run: Pick<Results, 'results' | 'gate'>): number {
  if (run.gate !== undefined) return run.gate.unexpected;
  return run.results.filter((r) => isUnexpected(verdictOf(r))).length;
}

/**
 * An expectations file that accepts a run as it is: every fail and not-run test expected so,
 * with the run's reason (first line). Passes and probes need no entry.
 */
export function expectationsFromRun(run: Results, source: string): ExpectationsFile {
  const entries: ExpectationEntry[] = [];
  for (const result of run.results) {
    if (result.outcome !== 'fail' && result.outcome !== 'not-run') continue;
    const outcome: ExpectedOutcome = result.outcome;
    const reason =
      (result.reason ?? '').split(/\r?\n/, 1)[0]?.trim().slice(0, 300) ||
      (outcome === 'fail' ? 'failed' : 'not run');
    entries.push({
      test: result.id,
      outcome,
      reason,
      ...(result.expected?.issue !== undefined ? { issue: result.expected.issue } : {}),
    });
  }
  const target = run.target.implementation ?? run.target.baseUrl;
  return {
    description: `Written by eac expectations from ${source} (${target}, seed ${run.seed}, ${run.startedAt}): ${entries.filter((e) => e.outcome === 'fail').length} fail, ${entries.filter((e) => e.outcome === 'not-run').length} not-run.`,
    expectations: entries,
  };
}

/** The file's text: YAML when the file name ends in .yaml or .yml, JSON otherwise. */
export function renderExpectations(file: ExpectationsFile, fileName: string | undefined): string {
  const checked = ExpectationsFile.parse(file);
  if (fileName !== undefined && isYaml(fileName)) return stringifyYaml(checked, { lineWidth: 0 });
  return `${JSON.stringify(checked, null, 2)}\n`;
}
