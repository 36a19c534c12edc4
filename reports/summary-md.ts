/** `summary.md`: the report a person reads first, e.g. as a CI job summary. */
import { isUnexpected, verdictOf, type CoverageRow, type Result, type Results } from './schema.ts';
import { clauseById } from '../spec/clauses/index.ts';
import { firmTotal, groupCoverage } from './coverage.ts';
import { documentUrlOf, sectionUrl } from './document-link.ts';
import { escapeMdCell as cell, firstLine, mdCode } from './escape.ts';
import { causeLabel, coverageLine, NO_HUB_SHOWN } from './outline.ts';
import { failureGroups } from './failure-groups.ts';
import { runReplayLine, targetArgsOf } from './replay.ts';
import { plural } from './words.ts';
import { rowsCovered } from './machines.ts';

function code(text: string): string {
  // Inside a table a pipe ends the cell even within backticks.
  return mdCode(text.replace(/\|/g, '\\|'));
}

function sectionLabel(row: Pick<CoverageRow, 'section' | 'title'>): string {
  return row.title !== undefined ? `§${row.section} ${row.title}` : `§${row.section}`;
}

/** Where the long tables are: the same run folder's index.html. */
const FULL_REPORT = 'index.html';

/** At most this many characters: a pull-request comment holds 65,536. */
export const MAX_SUMMARY_CHARS = 60_000;

/** At most this many tests are listed under one failure cause. */
export const TESTS_PER_CAUSE = 10;

/** At most this many not-run causes are listed. */
const NOT_RUN_CAUSES = 30;

/** At most this many departing clauses of the register are named. */
const DEPARTING_CLAUSES = 30;

function coverageRow(row: CoverageRow): string {
  return `| ${cell(sectionLabel(row))} | ${row.must} | ${row.observed} | ${row.portable}/${firmTotal(row)} | ${row.throughDecision} | ${row.noPortableCheck} | ${row.unspecified} | ${row.probed}/${row.unspecified} | ${row.failing} | ${row.securityCovered}/${row.security} |`;
}

export const COVERAGE_KINDS = [
  '**portable**: a passing conformance test cites the clause and relies on no decision of ours; **through a decision**: only passing tests that rely on an unspecified clause (one of our choices, or the profile’s answer to it) cite it; **no portable check**: covered through a decision, and the catalogue says why no test can observe the clause without one; **probed**: a probe recorded what the target does where the document is silent. A clause cited by a failing test counts as covered by nothing; security clauses are not the document’s and are counted apart.',
];

/** Coverage in short form: one row per top section; the subsections are in index.html. */
function coverageTable(run: Results): string[] {
  const lines: string[] = ['## Clause coverage by section', '', ...COVERAGE_KINDS, ''];
  lines.push(
    '| Section | must | observed | portable | through a decision | no portable check | unspecified | probed | failing | security covered |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const { top } of groupCoverage(run.coverage)) lines.push(coverageRow(top));
  const decisionOnly = run.gaps.reduce((n, g) => n + g.decisionOnly.length, 0);
  const unprobed = run.gaps.reduce((n, g) => n + g.unprobed.length, 0);
  const explained = run.gaps.reduce((n, g) => n + g.noPortableCheck.length, 0);
  lines.push(
    '',
    `${decisionOnly} must/observed clause${decisionOnly === 1 ? ' is' : 's are'} covered only through a decision and ${unprobed} open clause${unprobed === 1 ? ' has' : 's have'} no probe; ${explained} more ${explained === 1 ? 'is' : 'are'} covered through a decision with a reason why no portable check exists; ${FULL_REPORT} lists them, the subsections and the security clauses.`,
    '',
    ...machineRowsTable(run),
  );
  return lines;
}

/**
 * The rows of each machine's table the run took: known when the target counted them (the
 * embedded reference counts the machines its store runs), "not known" otherwise.
 */
function machineRowsTable(run: Results): string[] {
  if (run.machines.length === 0) return [];
  const lines = [
    '## Rows covered per machine',
    '',
    '| Machine | rows | covered | guards that refused |',
    '| --- | ---: | ---: | --- |',
  ];
  for (const machine of run.machines) {
    const { rows, covered } = rowsCovered(machine);
    const refused = Object.entries(machine.refused ?? {})
      .map(([name, times]) => `${name} ×${String(times)}`)
      .join(', ');
    lines.push(
      covered === undefined
        ? `| ${machine.name} | ${String(rows)} | not known | not known |`
        : `| ${machine.name} | ${String(rows)} | ${String(covered)} | ${refused === '' ? 'none' : refused} |`,
    );
  }
  lines.push('');
  return lines;
}

/** `§4.6`, a link to the document when its URL (EAC_DOCUMENT_URL) is known. */
function sectionRef(section: string, documentUrl: string | undefined): string {
  const url = sectionUrl(documentUrl, section);
  return url !== undefined ? `[§${section}](${url})` : `§${section}`;
}

/**
 * Each cited clause with its section and the catalogue's wording of it, so that a failure can
 * be acted on without the document at hand.
 */
function clauseList(result: Result, documentUrl: string | undefined): string {
  if (result.clauses.length === 0) return '(none)';
  return result.clauses
    .map((id) => {
      const clause = clauseById.get(id);
      return clause !== undefined
        ? `${code(id)} ${sectionRef(clause.section, documentUrl)}: ${cell(clause.summary)}`
        : code(id);
    })
    .join('<br>');
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
function gatedFailures(run: Results, documentUrl: string | undefined): string[] {
  const unexpected = run.results.filter((r) => verdictOf(r) === 'unexpected-fail');
  const expected = run.results.filter((r) => verdictOf(r) === 'expected-fail');
  const others = run.results.filter((r) => r.outcome !== 'fail' && isUnexpected(verdictOf(r)));
  const lines = [
    ...failures(unexpected, 'Unexpected failures', documentUrl),
    `## Unexpected passes and other outcomes (${others.length})`,
    '',
  ];
  if (others.length === 0) lines.push('None.', '');
  else {
    lines.push('| Test | Clauses | Outcome | Expected |', '| --- | --- | --- | --- |');
    for (const r of others.slice(0, TESTS_PER_CAUSE * 3))
      lines.push(
        `| ${testLabel(r)} | ${clauseList(r, documentUrl)} | ${r.outcome} | ${expectationCell(r)} |`,
      );
    lines.push(...andMore(others.length - TESTS_PER_CAUSE * 3), '');
  }
  return [...lines, ...failures(expected, 'Expected failures', documentUrl, expectationCell)];
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

function andMore(left: number): string[] {
  return left > 0 ? [`and ${left} more (${FULL_REPORT} lists them all).`] : [];
}

/**
 * Failures grouped by cause (failure-groups.ts), the largest first, each with its first tests
 * and their replay lines; `extra` adds a column (what an expectations file said).
 */
function failures(
  failed: readonly Result[],
  title: string,
  documentUrl: string | undefined,
  extra?: (r: Result) => string,
): string[] {
  const groups = failureGroups(failed);
  const lines = [
    `## ${title} (${failed.length})`,
    '',
    ...(groups.length > 1 ? [`${groups.length} causes, the largest first.`, ''] : []),
  ];
  if (failed.length === 0) return [...lines, 'None.', ''];
  for (const group of groups) {
    const n = group.tests.length;
    lines.push(`### ${plural(n, 'test')}: ${cell(group.heading)}`, '');
    lines.push(
      `| Test | Clauses | Replay |${extra !== undefined ? ' Expected |' : ''}`,
      `| --- | --- | --- |${extra !== undefined ? ' --- |' : ''}`,
    );
    for (const r of group.tests.slice(0, TESTS_PER_CAUSE))
      lines.push(
        `| ${testLabel(r)} | ${clauseList(r, documentUrl)} | ${code(r.replay)} |${extra !== undefined ? ` ${extra(r)} |` : ''}`,
      );
    lines.push(...andMore(n - TESTS_PER_CAUSE), '');
  }
  return lines;
}

/** The register in short: how much was probed, and the clauses where the target departed. */
function register(run: Results): string[] {
  const probed = run.register.filter((e) => e.answers.length > 0);
  const departing = probed.filter((e) => e.answers.some((a) => !a.matchesDecision));
  const lines = [
    `## Ambiguity register: where the document is silent (${probed.length} of ${run.register.length} open clauses probed)`,
    '',
  ];
  if (probed.length === 0) return [...lines, 'No probe recorded an answer in this run.', ''];
  const named = departing.slice(0, DEPARTING_CLAUSES).map((e) => code(e.clause));
  if (departing.length > DEPARTING_CLAUSES) named.push('…');
  lines.push(
    `${plural(departing.length, 'clause')} had an answer that departs from the reference’s decision${named.length > 0 ? `: ${named.join(', ')}` : ''}. Against the reference, or with --check-decisions, a departure also fails its test (listed above). Each answer, with where it was seen, is in ${FULL_REPORT}; compare runs with \`eac compare\`.`,
    '',
  );
  return lines;
}

/** Under the counts: each breached gate, so "0 fail" is never the whole story. */
function breachLines(run: Results): string[] {
  const breached = (run.gates ?? []).filter((g) => g.breached);
  return breached.flatMap((g) => [`**Gate breached: ${g.name}** (${g.detail})`, '']);
}

/** Every gate the run was given, breached or not. */
function gatesSection(run: Results): string[] {
  const gates = run.gates ?? [];
  if (gates.length === 0) return [];
  const breached = gates.filter((g) => g.breached).length;
  return [
    `## Gates (${breached} of ${gates.length} breached)`,
    '',
    ...gates.map((g) => `- ${g.breached ? '✗' : '✓'} ${code(g.name)}: ${cell(g.detail)}`),
    '',
    breached > 0
      ? 'A breached threshold exits 3 (1 when a test failed or a result was unexpected).'
      : 'Every gate held.',
    '',
  ];
}

/** Probes that broke while recording: counted apart, never a fail, and named so they get fixed. */
function probeErrorLines(run: Results): string[] {
  const broken = run.results.filter((r) => r.outcome === 'probe-error');
  if (broken.length === 0) return [];
  const listed = broken
    .slice(0, TESTS_PER_CAUSE)
    .map((r) => `- ${testLabel(r)}: ${cell(firstLine(r.reason ?? '', 160))}`);
  return [
    `${plural(broken.length, 'probe')} broke before or while recording what the target did (probe-error: neither a probe nor a fail; the kit owes a fix):`,
    '',
    ...listed,
    ...andMore(broken.length - TESTS_PER_CAUSE),
    '',
  ];
}

function notRun(run: Results): string[] {
  const skipped = run.results.filter((r) => r.outcome === 'not-run');
  const lines = [`## Not run (${skipped.length})`, ''];
  if (skipped.length === 0) return [...lines, 'None.', ''];
  lines.push(
    `What each entry the tests wait on would let run (a test waiting on two counts under each); ${FULL_REPORT} lists the tests.`,
    '',
  );
  for (const cause of run.notRunCauses.slice(0, NOT_RUN_CAUSES))
    lines.push(
      `- ${cause.kind}, ${plural(cause.tests, 'test')}: ${cell(causeLabel(cause, run.target))}`,
    );
  const left = run.notRunCauses.length - NOT_RUN_CAUSES;
  if (left > 0) lines.push('', `and ${left} more entries (${FULL_REPORT} lists them all).`);
  return [...lines, ''];
}

/**
 * Keeps the text within `limit` characters: whole lines up to the limit, then one line that
 * says how much was left out and where the whole report is.
 */
export function capLength(text: string, limit = MAX_SUMMARY_CHARS): string {
  if (text.length <= limit) return text;
  const lines = text.split('\n');
  const note = (left: number, from: string) =>
    `\n\n**summary.md stops here**: ${left} more lines (from ${from}) did not fit in ${limit.toLocaleString('en')} characters; ${FULL_REPORT} in the same folder holds the whole report.\n`;
  const reserve = note(lines.length, `“${'x'.repeat(80)}”`).length;
  let kept = 0;
  let length = 0;
  while (kept < lines.length && length + (lines[kept]?.length ?? 0) + 1 + reserve <= limit) {
    length += (lines[kept]?.length ?? 0) + 1;
    kept += 1;
  }
  const from = firstLine(lines.slice(kept).find((l) => l.startsWith('#')) ?? lines[kept] ?? '', 80);
  return `${lines.slice(0, kept).join('\n').trimEnd()}${note(lines.length - kept, `“${from}”`)}`;
}

export function renderSummary(
  run: Results,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const documentUrl = documentUrlOf(env);
  const { target, summary, profile } = run;
  const hooks =
    target.hooksUrl !== undefined
      ? `${target.hooksUrl} (${target.hooks.length > 0 ? target.hooks.join(', ') : 'no hooks announced'})`
      : 'none';
  const replay = runReplayLine({ runSeed: run.seed, targetArgs: targetArgsOf(target) }, run.only);
  const lines = [
    '# EAC conformance run',
    '',
    `**${summary.pass} pass, ${summary.fail} fail, ${summary.notRun} not-run, ${summary.probe} probe${summary.probeErrors > 0 ? `, ${summary.probeErrors} probe-error` : ''}** (${plural(summary.total, 'test')})`,
    '',
    ...(run.interrupted === true
      ? [
          `**Interrupted (Ctrl-C)**: a partial report of the ${plural(summary.total, 'test')} that ended before the run was stopped; the others did not run and are counted nowhere.`,
          '',
        ]
      : []),
    ...probeErrorLines(run),
    ...breachLines(run),
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
    `| Hub | ${cell(target.hubUrl ?? NO_HUB_SHOWN)} |`,
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
    ...(run.gate !== undefined
      ? gatedFailures(run, documentUrl)
      : failures(
          run.results.filter((r) => r.outcome === 'fail'),
          'Failures',
          documentUrl,
        )),
    ...gatesSection(run),
    ...notRun(run),
    ...coverageTable(run),
    ...register(run),
  ];
  return capLength(`${lines.join('\n').trimEnd()}\n`);
}
