/**
 * `eac diff BASE NEW`: what changed between two runs, test by test. Regressions (any outcome,
 * pass, probe, not-run or probe-error, that now fails), fixes (a failure that now passes), new and vanished tests, other
 * outcome changes, and probes whose recorded behaviour changed. Markdown for a pull-request
 * comment, JSON for machines; a regression makes the exit code 1.
 *
 * Tests are matched by results.json `id`, and observations compared, after the normalisation
 * of the ambiguity register (register.ts: service ids written `{uuid}`), with times written
 * `{time}` too, so two runs of the same implementation with fresh ids compare equal.
 */
import type { Outcome, Result, Results } from './schema.ts';
import { escapeMdCell as cell, firstLine, mdCode } from './escape.ts';
import { answerKey } from './register.ts';
import { plural } from './words.ts';

/**
 * ISO-8601 times, also as a slug writes them (`2025-01-02t03-04-05-678z`), and Unix times in
 * seconds or milliseconds (2017 to 2033, e.g. a JWT's `exp`).
 */
const TIME =
  /\b\d{4}-\d{2}-\d{2}[tT ]\d{2}[:-]\d{2}(?:[:-]\d{2}(?:[.-]\d{1,9})?)?(?:[zZ]|[+-]\d{2}:?\d{2})?|\b1[5-9]\d{8}(?:\d{3})?\b/g;

/** An id or an observation with what differs on every run written as placeholders. */
export function stableKey(text: string): string {
  return answerKey(text).replace(TIME, '{time}');
}

export interface DiffTest {
  readonly id: string;
  readonly name: string;
  readonly area: string;
  readonly clauses: readonly string[];
  /** Outcome in BASE; absent for a new test. */
  readonly from?: Outcome;
  /** Outcome in NEW; absent for a vanished test. */
  readonly to?: Outcome;
  /** NEW's reason (BASE's for a vanished test), first line. */
  readonly reason?: string;
  readonly replay?: string;
}

export interface ProbeChange extends DiffTest {
  /** Distinct answers (`✓`/`✗` matches the decision, then the normalised observation). */
  readonly before: readonly string[];
  readonly after: readonly string[];
}

export interface RunDiff {
  readonly base: RunRef;
  readonly next: RunRef;
  readonly regressions: readonly DiffTest[];
  readonly fixes: readonly DiffTest[];
  readonly newTests: readonly DiffTest[];
  readonly vanished: readonly DiffTest[];
  /** Any other change of outcome that is neither a regression nor a fix, e.g. pass -> not-run. */
  readonly otherChanges: readonly DiffTest[];
  readonly probeChanges: readonly ProbeChange[];
  /** Tests in both runs with the same outcome (and, for probes, the same answers). */
  readonly unchanged: number;
}

export interface RunRef {
  readonly source: string;
  readonly target: string;
  readonly seed: number;
  readonly startedAt: string;
  readonly summary: Results['summary'];
}

function ref(source: string, run: Results): RunRef {
  return {
    source,
    target: run.target.implementation ?? run.target.baseUrl,
    seed: run.seed,
    startedAt: run.startedAt,
    summary: run.summary,
  };
}

function byStableId(run: Results): Map<string, Result> {
  const map = new Map<string, Result>();
  for (const result of run.results) {
    const key = stableKey(result.id);
    let unique = key;
    for (let n = 2; map.has(unique); n += 1) unique = `${key}#${n}`;
    map.set(unique, result);
  }
  return map;
}

function answers(result: Result): string[] | undefined {
  const observations =
    result.observations ??
    (result.outcome === 'probe' && result.reason !== undefined
      ? [{ observation: result.reason, matchesDecision: false }]
      : undefined);
  if (observations === undefined) return undefined;
  return [
    ...new Set(
      observations.map((o) => `${o.matchesDecision ? '✓' : '✗'} ${stableKey(o.observation)}`),
    ),
  ].sort();
}

function entry(id: string, from: Result | undefined, to: Result | undefined): DiffTest {
  const shown = to ?? from;
  if (shown === undefined) throw new Error('a diff entry needs a result');
  const reason = shown.reason !== undefined ? firstLine(shown.reason, 300) : undefined;
  return {
    id,
    name: shown.name,
    area: shown.area,
    clauses: shown.clauses,
    ...(from !== undefined ? { from: from.outcome } : {}),
    ...(to !== undefined ? { to: to.outcome } : {}),
    ...(reason !== undefined ? { reason } : {}),
    replay: shown.replay,
  };
}

const PASSING: readonly Outcome[] = ['pass', 'probe'];

export function diffRuns(
  base: Results,
  next: Results,
  sources: { base: string; next: string } = { base: 'BASE', next: 'NEW' },
): RunDiff {
  const before = byStableId(base);
  const after = byStableId(next);
  const regressions: DiffTest[] = [];
  const fixes: DiffTest[] = [];
  const newTests: DiffTest[] = [];
  const vanished: DiffTest[] = [];
  const otherChanges: DiffTest[] = [];
  const probeChanges: ProbeChange[] = [];
  let unchanged = 0;
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was === undefined) {
      newTests.push(entry(id, undefined, now));
      continue;
    }
    if (was.outcome !== now.outcome) {
      const change = entry(id, was, now);
      // Whatever it was before, a test that now fails is a regression: a not-run that runs and
      // fails is as much news as a pass that breaks.
      if (now.outcome === 'fail') regressions.push(change);
      else if (was.outcome === 'fail' && PASSING.includes(now.outcome)) fixes.push(change);
      else otherChanges.push(change);
      continue;
    }
    const a = answers(was);
    const b = answers(now);
    if (
      now.outcome !== 'not-run' &&
      a !== undefined &&
      b !== undefined &&
      a.join('\n') !== b.join('\n')
    ) {
      probeChanges.push({ ...entry(id, was, now), before: a, after: b });
      continue;
    }
    unchanged += 1;
  }
  for (const [id, was] of before) if (!after.has(id)) vanished.push(entry(id, was, undefined));
  return {
    base: ref(sources.base, base),
    next: ref(sources.next, next),
    regressions,
    fixes,
    newTests,
    vanished,
    otherChanges,
    probeChanges,
    unchanged,
  };
}

export function hasRegression(diff: RunDiff): boolean {
  return diff.regressions.length > 0;
}

function code(text: string): string {
  return mdCode(text.replace(/\|/g, '\\|'));
}

function testCell(t: DiffTest): string {
  const clauses = t.clauses.length > 0 ? ` ${t.clauses.map(code).join(' ')}` : '';
  return `${code(t.id)}${clauses}`;
}

function table(title: string, tests: readonly DiffTest[], withReplay: boolean): string[] {
  if (tests.length === 0) return [];
  const lines = [`### ${title} (${tests.length})`, ''];
  lines.push(
    withReplay
      ? '| Test | Was | Now | Reason | Replay |\n| --- | --- | --- | --- | --- |'
      : '| Test | Was | Now | Reason |\n| --- | --- | --- | --- |',
  );
  for (const t of tests) {
    const row = `| ${testCell(t)} | ${t.from ?? '—'} | ${t.to ?? '—'} | ${cell(firstLine(t.reason ?? '', 160))}`;
    lines.push(withReplay ? `${row} | ${code(t.replay ?? '')} |` : `${row} |`);
  }
  return [...lines, ''];
}

function runLine(label: string, r: RunRef): string {
  const s = r.summary;
  return `| ${label} | ${cell(r.source)} | ${cell(r.target)} | ${r.seed} | ${cell(r.startedAt)} | ${s.pass} pass, ${s.fail} fail, ${s.notRun} not-run, ${s.probe} probe |`;
}

export function renderDiffMarkdown(diff: RunDiff): string {
  const head = hasRegression(diff)
    ? `**${plural(diff.regressions.length, 'regression')}**`
    : 'No regression';
  const lines = [
    `## eac diff: ${head}`,
    '',
    `${plural(diff.fixes.length, 'fix', 'fixes')}, ${plural(diff.newTests.length, 'new test')}, ${plural(diff.vanished.length, 'vanished test')}, ${plural(diff.otherChanges.length, 'other outcome change')}, ${plural(diff.probeChanges.length, 'probe')} whose recorded behaviour changed; ${diff.unchanged} unchanged.`,
    '',
    '| | Run | Target | Seed | Started | Counts |',
    '| --- | --- | --- | ---: | --- | --- |',
    runLine('Base', diff.base),
    runLine('New', diff.next),
    '',
    ...table('Regressions: now fail', diff.regressions, true),
    ...table('Fixes: failed, now pass', diff.fixes, false),
    ...table('New tests', diff.newTests, false),
    ...table('Vanished tests', diff.vanished, false),
    ...table('Other outcome changes', diff.otherChanges, false),
  ];
  if (diff.probeChanges.length > 0) {
    lines.push(
      `### Probes whose recorded behaviour changed (${diff.probeChanges.length})`,
      '',
      '| Test | Before | After |',
      '| --- | --- | --- |',
    );
    const list = (xs: readonly string[]) =>
      xs.map((x) => cell(firstLine(x, 160))).join('<br>') || '—';
    for (const p of diff.probeChanges)
      lines.push(`| ${testCell(p)} | ${list(p.before)} | ${list(p.after)} |`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function renderDiffJson(diff: RunDiff): string {
  return `${JSON.stringify({ regression: hasRegression(diff), ...diff }, null, 2)}\n`;
}
