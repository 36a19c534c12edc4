/** `summary.md`: the report a person reads first, e.g. as a CI job summary. */
import {
  isUnexpected,
  verdictOf,
  type CoverageRow,
  type RegisterAnswer,
  type RegisterEntry,
  type Result,
  type Results,
} from './schema.ts';
import { firmTotal, groupCoverage } from './coverage.ts';
import { escapeMdCell as cell, firstLine, mdCode } from './escape.ts';
import { causeLabel, coverageLine } from './outline.ts';
import { endpointsOf, testsOf } from './register.ts';
import { runReplayLine, targetArgsOf } from './results.ts';

function code(text: string): string {
  // Inside a table a pipe ends the cell even within backticks.
  return mdCode(text.replace(/\|/g, '\\|'));
}

function sectionLabel(row: Pick<CoverageRow, 'section' | 'title'>): string {
  return row.title !== undefined ? `§${row.section} ${row.title}` : `§${row.section}`;
}

function coverageLine_(row: CoverageRow, label: string): string {
  return `| ${label} | ${row.must} | ${row.observed} | ${row.portable}/${firmTotal(row)} | ${row.throughDecision} | ${row.unspecified} | ${row.probed}/${row.unspecified} | ${row.failing} |`;
}

export const COVERAGE_KINDS = [
  '- **portable**: a passing conformance test cites the clause and relies on no decision of ours, so the verdict holds on any server that follows the document;',
  '- **through a decision**: only passing tests that rely on an unspecified clause (one of our choices, or the profile’s answer to it) cite the clause;',
  '- **probed**: a probe recorded what the target does where the document is silent.',
  '',
  'A clause cited by a failing test counts as covered by nothing. Security clauses are not the document’s and are counted apart.',
];

function coverageTables(run: Results): string[] {
  const lines: string[] = ['## Clause coverage by section', '', ...COVERAGE_KINDS, ''];
  for (const { top, subsections } of groupCoverage(run.coverage)) {
    lines.push(`### ${cell(sectionLabel(top))}`, '');
    lines.push(
      '| Section | must | observed | portable | through a decision | unspecified | probed | failing |',
    );
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    lines.push(coverageLine_(top, `**§${top.section} all**`));
    for (const sub of subsections) lines.push(coverageLine_(sub, cell(sectionLabel(sub))));
    lines.push('');
  }
  return lines;
}

function securityTable(run: Results): string[] {
  const rows = run.coverage.filter((r) => r.security > 0 && !r.section.includes('.'));
  const lines = ['## Security clauses', ''];
  if (rows.length === 0) return [...lines, 'The catalogue holds no security clause.', ''];
  lines.push(
    'What no trustworthy server may do although the document does not spell it out; a failing security test is a failure like any other.',
    '',
    '| Section | clauses | covered | of which through a decision | failing |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const row of rows)
    lines.push(
      `| ${cell(sectionLabel(row))} | ${row.security} | ${row.securityCovered} | ${row.securityThroughDecision} | ${row.securityFailing} |`,
    );
  return [...lines, ''];
}

function gaps(run: Results): string[] {
  const lines = ['## Covered only through a decision, and open clauses with no probe', ''];
  const shown = run.gaps.filter((g) => g.decisionOnly.length + g.unprobed.length > 0);
  if (shown.length === 0) return [...lines, 'None.', ''];
  const titles = new Map(run.coverage.map((r) => [r.section, r.title]));
  lines.push('| Section | must/observed covered only through a decision | unspecified, no probe |');
  lines.push('| --- | --- | --- |');
  for (const gap of shown) {
    const title = titles.get(gap.section);
    const label = sectionLabel({ section: gap.section, ...(title !== undefined ? { title } : {}) });
    const list = (ids: readonly string[]) => (ids.length > 0 ? ids.map(code).join(' ') : '—');
    lines.push(`| ${cell(label)} | ${list(gap.decisionOnly)} | ${list(gap.unprobed)} |`);
  }
  return [...lines, ''];
}

function clauseList(result: Result): string {
  return result.clauses.length > 0 ? result.clauses.map((c) => code(c)).join(' ') : '(none)';
}

function testLabel(result: Result): string {
  return `${cell(result.name)} (${cell(result.area)})`;
}

function expectationCell(r: Result): string {
  const e = r.expected;
  if (e === undefined) return '—';
  const by = e.by !== 'test' ? ` (clause ${code(e.by)})` : '';
  return `${e.outcome}${by}: ${cell(firstLine(e.reason, 160))}${e.issue !== undefined ? ` ${cell(e.issue)}` : ''}`;
}

/** With an expectations file: unexpected failures, expected failures and the other surprises. */
function gatedFailures(run: Results): string[] {
  const unexpected = run.results.filter((r) => verdictOf(r) === 'unexpected-fail');
  const expected = run.results.filter((r) => verdictOf(r) === 'expected-fail');
  const others = run.results.filter((r) => r.outcome !== 'fail' && isUnexpected(verdictOf(r)));
  const lines = [
    ...failures(unexpected, `Unexpected failures (${unexpected.length})`),
    `## Unexpected passes and other outcomes (${others.length})`,
    '',
  ];
  if (others.length === 0) lines.push('None.', '');
  else {
    lines.push('| Test | Clauses | Outcome | Expected |', '| --- | --- | --- | --- |');
    for (const r of others)
      lines.push(`| ${testLabel(r)} | ${clauseList(r)} | ${r.outcome} | ${expectationCell(r)} |`);
    lines.push('');
  }
  lines.push(`## Expected failures (${expected.length})`, '');
  if (expected.length === 0) return [...lines, 'None.', ''];
  lines.push('| Test | Clauses | Reason | Expected |', '| --- | --- | --- | --- |');
  for (const r of expected)
    lines.push(
      `| ${testLabel(r)} | ${clauseList(r)} | ${cell(firstLine(r.reason ?? 'failed'))} | ${expectationCell(r)} |`,
    );
  return [...lines, ''];
}

function gateLines(run: Results): string[] {
  const g = run.gate;
  if (g === undefined) return [];
  return [
    `**Against the expectations file: ${g.unexpected} unexpected** (${g.unexpectedFailures} unexpected failures, ${g.unexpectedPasses} unexpected passes, ${g.otherUnexpected} other), ${g.expectedFailures} expected failures. The exit code counts only the unexpected.`,
    '',
    `Expectations: ${code(g.expectationsFile)}, ${g.entries} entries${g.unused.length > 0 ? `; ${g.unused.length} matched no test of this run: ${g.unused.slice(0, 20).map(code).join(', ')}${g.unused.length > 20 ? ', …' : ''}` : ''}.`,
    '',
  ];
}

function failures(failed: readonly Result[], title = `Failures (${failed.length})`): string[] {
  const lines = [`## ${title}`, ''];
  if (failed.length === 0) return [...lines, 'None.', ''];
  lines.push('| Test | Clauses | Reason | Replay |', '| --- | --- | --- | --- |');
  for (const r of failed) {
    lines.push(
      `| ${testLabel(r)} | ${clauseList(r)} | ${cell(firstLine(r.reason ?? 'failed'))} | ${code(r.replay)} |`,
    );
  }
  return [...lines, ''];
}

function answerCell(answer: RegisterAnswer): string {
  return `${answer.matchesDecision ? '✓' : '✗'} ${cell(firstLine(answer.answer, 160))}`;
}

function seenCell(answer: RegisterAnswer): string {
  const endpoints = endpointsOf(answer);
  const tests = testsOf(answer);
  const where = endpoints.length > 0 ? endpoints.map(code).join(' ') : '';
  return `${where}${where !== '' ? ' ' : ''}(${tests.length} test${tests.length === 1 ? '' : 's'}: ${tests.map(cell).join(', ')})`;
}

/** The register: probes grouped by clause, one row per distinct answer. */
export function registerRows(entries: readonly RegisterEntry[]): string[] {
  const lines = [
    '| Clause | Reference decision | Answer (✓ matches the decision, ✗ departs) | Seen on |',
    '| --- | --- | --- | --- |',
  ];
  for (const entry of entries) {
    entry.answers.forEach((answer, index) => {
      const head =
        index === 0
          ? `${code(entry.clause)} §${entry.section} | ${cell(entry.decision ?? '—')}`
          : '〃 | 〃';
      lines.push(`| ${head} | ${answerCell(answer)} | ${seenCell(answer)} |`);
    });
  }
  return lines;
}

function register(run: Results): string[] {
  const probed = run.register.filter((e) => e.answers.length > 0);
  const departing = probed.filter((e) => e.answers.some((a) => !a.matchesDecision)).length;
  const lines = [
    `## Ambiguity register: where the document is silent (${probed.length} of ${run.register.length} open clauses probed)`,
    '',
  ];
  if (probed.length === 0) return [...lines, 'No probe recorded an answer in this run.', ''];
  lines.push(
    `Probes grouped by clause: each distinct answer the target gave, whether it is the reference’s decision, and where it was seen. ${departing} clause${departing === 1 ? '' : 's'} had an answer that departs from the decision. Against the reference, or with --check-decisions, such a departure also fails its test (listed above). Compare runs with \`eac compare\`.`,
    '',
    ...registerRows(probed),
    '',
  );
  return lines;
}

function notRun(run: Results): string[] {
  const skipped = run.results.filter((r) => r.outcome === 'not-run');
  const lines = [`## Not run (${skipped.length})`, ''];
  if (skipped.length === 0) return [...lines, 'None.', ''];
  lines.push('What each missing capability cost (a test missing two hooks counts under each):', '');
  lines.push('| Cause | tests |', '| --- | ---: |');
  for (const cause of run.notRunCauses)
    lines.push(`| ${cell(causeLabel(cause))} | ${cause.tests} |`);
  lines.push('', '| Test | Clauses | Reason |', '| --- | --- | --- |');
  for (const r of skipped) {
    lines.push(
      `| ${testLabel(r)} | ${clauseList(r)} | ${cell(firstLine(r.reason ?? 'not run'))} |`,
    );
  }
  return [...lines, ''];
}

function machines(run: Results): string[] {
  if (run.machines.length === 0) return [];
  const lines = [
    '## State machines',
    '',
    'The transition tables of spec/machines that the reference is written in and the model-based suite checks against (the run does not count which transitions it took).',
    '',
  ];
  for (const machine of run.machines) {
    lines.push(`### ${cell(machine.name)}`, '', '| Command | From | To | Note | Section |');
    lines.push('| --- | --- | --- | --- | --- |');
    for (const t of machine.transitions)
      lines.push(
        `| ${code(t.command)} | ${cell(t.from)} | ${cell(t.to)} | ${cell(t.note ?? '')} | ${cell(/^\d/.test(t.section) ? `§${t.section}` : t.section)} |`,
      );
    lines.push('');
  }
  return lines;
}

export function renderSummary(run: Results): string {
  const { target, summary, profile } = run;
  const hooks =
    target.hooksUrl !== undefined
      ? `${target.hooksUrl} (${target.hooks.length > 0 ? target.hooks.join(', ') : 'no hooks announced'})`
      : 'none';
  const replay = runReplayLine({ runSeed: run.seed, targetArgs: targetArgsOf(target) }, run.only);
  const lines = [
    '# EAC conformance run',
    '',
    `**${summary.pass} pass, ${summary.fail} fail, ${summary.notRun} not-run, ${summary.probe} probe** (${summary.total} tests)`,
    '',
    ...gateLines(run),
    `${coverageLine(run).replace(/^coverage/, 'Coverage')}.`,
    '',
    '| | |',
    '| --- | --- |',
    `| Target | ${cell(target.baseUrl)}${target.embedded === true ? ' (embedded reference)' : ''} |`,
    `| Implementation | ${cell(target.implementation ?? 'not announced')} |`,
    ...(target.image !== undefined
      ? [`| Image | ${cell(target.image.name)} (${cell(target.image.id)}) |`]
      : []),
    ...(run.shard !== undefined ? [`| Shard | ${run.shard.index} of ${run.shard.count} |`] : []),
    ...(run.mergedFrom !== undefined
      ? [`| Merged from | ${cell(run.mergedFrom.join(', '))} |`]
      : []),
    `| Profile | ${cell(profile.source)}${profile.description !== undefined ? ` — ${cell(profile.description)}` : ''} |`,
    `| Parts served | ${cell(profile.serves.join(', ') || 'none')} |`,
    `| Hub | ${cell(target.hubUrl)} |`,
    `| Hooks | ${cell(hooks)} |`,
    ...(target.credentialsFile !== undefined
      ? [`| Credentials file | ${cell(target.credentialsFile)} |`]
      : []),
    `| Probes held to reference decisions | ${target.checkDecisions ? 'yes' : 'no'} |`,
    `| Seed | ${run.seed} |`,
    `| Started | ${cell(run.startedAt)} |`,
    `| Duration | ${(run.durationMs / 1000).toFixed(1)} s |`,
    '',
    `Replay the run with ${code(replay)}; each failure below has its own replay line.`,
    '',
    ...coverageTables(run),
    ...securityTable(run),
    ...gaps(run),
    ...(run.gate !== undefined
      ? gatedFailures(run)
      : failures(run.results.filter((r) => r.outcome === 'fail'))),
    ...register(run),
    ...notRun(run),
    ...machines(run),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
