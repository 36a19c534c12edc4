/** `summary.md`: the report a person reads first, e.g. as a CI job summary. */
import type { CoverageRow, Result, Results } from '../../reports/schema.ts';
import { clauseTotal, groupCoverage } from './coverage.ts';
import { escapeMdCell as cell, firstLine, mdCode } from './escape.ts';
import { runReplayLine, targetArgsOf } from './results.ts';

function code(text: string): string {
  // Inside a table a pipe ends the cell even within backticks.
  return mdCode(text.replace(/\|/g, '\\|'));
}

function sectionLabel(row: CoverageRow): string {
  return row.title !== undefined ? `§${row.section} ${row.title}` : `§${row.section}`;
}

function coverageLine(row: CoverageRow, label: string): string {
  const total = clauseTotal(row);
  return `| ${label} | ${row.must} | ${row.observed} | ${row.unspecified} | ${row.covered}/${total} | ${row.failing ?? 0} |`;
}

function coverageTables(run: Results): string[] {
  const lines: string[] = ['## Clause coverage by section', ''];
  lines.push(
    'A clause counts as covered when a passing test cites it (or a probe, for a clause the document leaves open) and no failing test does.',
    '',
  );
  for (const { top, subsections } of groupCoverage(run.coverage)) {
    lines.push(`### ${cell(sectionLabel(top))}`, '');
    lines.push('| Section | must | observed | unspecified | covered | failing |');
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: |');
    lines.push(coverageLine(top, `**§${top.section} all**`));
    for (const sub of subsections) lines.push(coverageLine(sub, cell(sectionLabel(sub))));
    lines.push('');
  }
  return lines;
}

function clauseList(result: Result): string {
  return result.clauses.length > 0 ? result.clauses.map((c) => code(c)).join(' ') : '(none)';
}

function testLabel(result: Result): string {
  return `${cell(result.name)} (${cell(result.area)})`;
}

function failures(results: readonly Result[]): string[] {
  const failed = results.filter((r) => r.outcome === 'fail');
  const lines = [`## Failures (${failed.length})`, ''];
  if (failed.length === 0) return [...lines, 'None.', ''];
  lines.push('| Test | Clauses | Reason | Replay |', '| --- | --- | --- | --- |');
  for (const r of failed) {
    lines.push(
      `| ${testLabel(r)} | ${clauseList(r)} | ${cell(firstLine(r.reason ?? 'failed'))} | ${code(r.replay)} |`,
    );
  }
  return [...lines, ''];
}

function probes(results: readonly Result[]): string[] {
  const probed = results.filter((r) => r.outcome === 'probe');
  const lines = [`## Probes: where the document is silent (${probed.length})`, ''];
  if (probed.length === 0) return [...lines, 'None.', ''];
  lines.push(
    'Probes record what the target did where the document is silent. Against the reference, or with --check-decisions, a departure from the recorded decision is a failure instead and is listed above.',
    '',
    '| Clause | Reference decision | What the target did | Test |',
    '| --- | --- | --- | --- |',
  );
  for (const r of probed) {
    const clauses = r.clauses.length > 0 ? r.clauses : ['(none)'];
    for (const clause of clauses) {
      lines.push(
        `| ${code(clause)} | ${cell(r.decision ?? '—')} | ${cell(firstLine(r.reason ?? '(nothing recorded)'))} | ${testLabel(r)} |`,
      );
    }
  }
  return [...lines, ''];
}

function notRun(results: readonly Result[]): string[] {
  const skipped = results.filter((r) => r.outcome === 'not-run');
  const lines = [`## Not run (${skipped.length})`, ''];
  if (skipped.length === 0) return [...lines, 'None.', ''];
  lines.push('| Test | Clauses | Reason |', '| --- | --- | --- |');
  for (const r of skipped) {
    lines.push(
      `| ${testLabel(r)} | ${clauseList(r)} | ${cell(firstLine(r.reason ?? 'not run'))} |`,
    );
  }
  return [...lines, ''];
}

export function renderSummary(run: Results): string {
  const { target, summary } = run;
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
    '| | |',
    '| --- | --- |',
    `| Target | ${cell(target.baseUrl)}${target.embedded === true ? ' (embedded reference)' : ''} |`,
    `| Implementation | ${cell(target.implementation ?? 'not announced')} |`,
    `| Hub | ${cell(target.hubUrl)} |`,
    `| Hooks | ${cell(hooks)} |`,
    `| Probes held to reference decisions | ${target.checkDecisions ? 'yes' : 'no'} |`,
    `| Seed | ${run.seed} |`,
    `| Started | ${cell(run.startedAt)} |`,
    `| Duration | ${(run.durationMs / 1000).toFixed(1)} s |`,
    '',
    `Replay the run with ${code(replay)}; each failure below has its own replay line.`,
    '',
    ...coverageTables(run),
    ...failures(run.results),
    ...probes(run.results),
    ...notRun(run.results),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
