/**
 * `index.html`: the summary as one self-contained page (inline CSS, no scripts), plus the
 * recorded HTTP exchanges of every failed or probed test in collapsible blocks.
 */
import {
  isUnexpected,
  verdictOf,
  type CoverageRow,
  type RegisterEntry,
  type ReportedExchange,
  type Result,
  type Results,
} from '../../reports/schema.ts';
import { firmTotal, groupCoverage } from './coverage.ts';
import { escapeHtml as h } from './escape.ts';
import { causeLabel, coverageLine } from './outline.ts';
import { endpointsOf, testsOf } from './register.ts';
import { runReplayLine, targetArgsOf } from './results.ts';

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
h1{margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6rem 0 1.2rem;width:100%}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f5}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.top td{font-weight:600;background:#fafafa}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
.counts span{display:inline-block;margin-right:1rem;font-weight:600}
.pass{color:#1a7f37}.fail{color:#cf222e}.not-run{color:#6e7781}.probe{color:#8250df}
details{margin:.4rem 0 .8rem}summary{cursor:pointer}
.test{border-left:4px solid #ddd;padding:.2rem .8rem;margin:1rem 0}
.test.fail{border-color:#cf222e;color:inherit}.test.probe{border-color:#8250df;color:inherit}
.yes{color:#1a7f37}.no{color:#cf222e}ul.kinds li{margin:.2rem 0}
`;

function coverageRow(row: CoverageRow, top: boolean): string {
  const label = `§${row.section}${row.title !== undefined ? ` ${row.title}` : ''}`;
  const n = (value: string | number) => `<td class="n">${value}</td>`;
  return `<tr${top ? ' class="top"' : ''}><td>${h(label)}</td>${n(row.must)}${n(row.observed)}${n(`${row.portable}/${firmTotal(row)}`)}${n(row.throughDecision)}${n(row.unspecified)}${n(`${row.probed}/${row.unspecified}`)}${n(row.failing)}</tr>`;
}

const KINDS = `<ul class="kinds">
<li><strong>portable</strong>: a passing conformance test cites the clause and relies on no decision of ours, so the verdict holds on any server that follows the document;</li>
<li><strong>through a decision</strong>: only passing tests that rely on an unspecified clause (one of our choices, or the profile’s answer to it) cite the clause;</li>
<li><strong>probed</strong>: a probe recorded what the target does where the document is silent.</li>
</ul><p>A clause cited by a failing test counts as covered by nothing. Security clauses are not the document’s and are counted apart.</p>`;

function coverage(run: Results): string {
  const tables = groupCoverage(run.coverage).map(({ top, subsections }) => {
    const rows = [coverageRow(top, true), ...subsections.map((s) => coverageRow(s, false))];
    return `<table><thead><tr><th>Section</th><th>must</th><th>observed</th><th>portable</th><th>through a decision</th><th>unspecified</th><th>probed</th><th>failing</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  });
  return `<h2>Clause coverage by section</h2>${KINDS}${tables.join('\n')}`;
}

function security(run: Results): string {
  const rows = run.coverage.filter((r) => r.security > 0 && !r.section.includes('.'));
  if (rows.length === 0) return '<h2>Security clauses</h2><p>The catalogue holds none.</p>';
  const body = rows
    .map(
      (r) =>
        `<tr><td>§${h(r.section)}${r.title !== undefined ? ` ${h(r.title)}` : ''}</td><td class="n">${r.security}</td><td class="n">${r.securityCovered}</td><td class="n">${r.securityThroughDecision}</td><td class="n">${r.securityFailing}</td></tr>`,
    )
    .join('');
  return `<h2>Security clauses</h2><p>What no trustworthy server may do although the document does not spell it out; a failing security test is a failure like any other.</p><table><thead><tr><th>Section</th><th>clauses</th><th>covered</th><th>of which through a decision</th><th>failing</th></tr></thead><tbody>${body}</tbody></table>`;
}

function gaps(run: Results): string {
  const shown = run.gaps.filter((g) => g.decisionOnly.length + g.unprobed.length > 0);
  const head = '<h2>Covered only through a decision, and open clauses with no probe</h2>';
  if (shown.length === 0) return `${head}<p>None.</p>`;
  const titles = new Map(run.coverage.map((r) => [r.section, r.title]));
  const list = (ids: readonly string[]) =>
    ids.length > 0 ? ids.map((id) => `<code>${h(id)}</code>`).join(' ') : '—';
  const rows = shown.map((g) => {
    const title = titles.get(g.section);
    return `<tr><td>§${h(g.section)}${title !== undefined ? ` ${h(title)}` : ''}</td><td>${list(g.decisionOnly)}</td><td>${list(g.unprobed)}</td></tr>`;
  });
  return `${head}<table><thead><tr><th>Section</th><th>must/observed covered only through a decision</th><th>unspecified, no probe</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function json(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? '';
}

function headers(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function exchange(ex: ReportedExchange, index: number): string {
  const outcome = ex.response ? String(ex.response.status) : `error: ${ex.error ?? 'no response'}`;
  const head = `#${index + 1} ${ex.request.method} ${ex.request.url} → ${outcome} (${Math.round(ex.ms)} ms)`;
  const request = [`${ex.request.method} ${ex.request.url}`, headers(ex.request.headers)];
  if (ex.request.body !== undefined) request.push('', json(ex.request.body));
  const parts = [`<pre>${h(request.join('\n'))}</pre>`];
  if (ex.response) {
    const response = [`HTTP ${ex.response.status}`, headers(ex.response.headers)];
    if (ex.response.body !== undefined) response.push('', json(ex.response.body));
    parts.push(`<pre>${h(response.join('\n'))}</pre>`);
  }
  if (ex.error !== undefined) parts.push(`<pre>${h(ex.error)}</pre>`);
  return `<details><summary><code>${h(head)}</code></summary>${parts.join('')}</details>`;
}

function clauses(result: Result): string {
  return result.clauses.length > 0
    ? result.clauses.map((c) => `<code>${h(c)}</code>`).join(' ')
    : '<em>none</em>';
}

function testBlock(result: Result): string {
  const lines = [
    `<div class="test ${result.outcome}" id="${h(result.id)}">`,
    `<h3>${h(result.name)} <small>(${h(result.area)}, <code>${h(result.file)}</code>)</small></h3>`,
    `<p>Clauses: ${clauses(result)}</p>`,
  ];
  if (result.relies.length > 0)
    lines.push(
      `<p>Relies on the decisions of: ${result.relies.map((c) => `<code>${h(c)}</code>`).join(' ')}</p>`,
    );
  if (result.observations !== undefined && result.observations.length > 0) {
    const items = result.observations.map(
      (o) =>
        `<li>${o.matchesDecision ? '<span class="yes">✓</span>' : '<span class="no">✗</span>'} ${o.endpoint !== undefined ? `<code>${h(o.endpoint)}</code> ` : ''}<pre>${h(o.observation)}</pre></li>`,
    );
    lines.push(`<p>Target did:</p><ul>${items.join('')}</ul>`);
    if (result.decision !== undefined)
      lines.push(`<p>Reference decision: ${h(result.decision)}</p>`);
    if (result.outcome === 'fail') lines.push(`<pre>${h(result.reason ?? 'failed')}</pre>`);
  } else if (result.outcome === 'probe') {
    lines.push(`<p>Target did: ${h(result.reason ?? '(nothing recorded)')}</p>`);
    if (result.decision !== undefined)
      lines.push(`<p>Reference decision: ${h(result.decision)}</p>`);
  } else {
    lines.push(`<pre>${h(result.reason ?? result.outcome)}</pre>`);
  }
  lines.push(`<p>Replay: <code>${h(result.replay)}</code> (test seed ${result.seed})</p>`);
  const exchanges = result.exchanges ?? [];
  if (exchanges.length > 0) {
    lines.push(
      `<details><summary>${exchanges.length} HTTP exchange${exchanges.length === 1 ? '' : 's'}</summary>${exchanges.map(exchange).join('')}</details>`,
    );
  }
  lines.push('</div>');
  return lines.join('\n');
}

function failures(results: readonly Result[]): string {
  const failed = results.filter((r) => r.outcome === 'fail');
  const body = failed.length === 0 ? '<p>None.</p>' : failed.map(testBlock).join('\n');
  return `<h2 class="fail">Failures (${failed.length})</h2>${body}`;
}

function expectedLine(result: Result): string {
  const e = result.expected;
  if (e === undefined) return '';
  return `<p>Expected: <strong>${h(e.outcome)}</strong>${e.by !== 'test' ? ` (by clause <code>${h(e.by)}</code>)` : ''}: ${h(e.reason)}${e.issue !== undefined ? ` (${h(e.issue)})` : ''}</p>`;
}

/** With an expectations file: unexpected failures, other surprises, then expected failures. */
function gatedFailures(run: Results): string {
  const gate = run.gate;
  if (gate === undefined) return failures(run.results);
  const pick = (keep: (r: Result) => boolean) => run.results.filter(keep);
  const section = (title: string, cls: string, list: readonly Result[]) =>
    `<h2 class="${cls}">${h(title)} (${list.length})</h2>${
      list.length === 0
        ? '<p>None.</p>'
        : list.map((r) => testBlock(r).replace(/(<p>Clauses: )/, `${expectedLine(r)}$1`)).join('\n')
    }`;
  return [
    `<p><strong>Against the expectations file: ${gate.unexpected} unexpected</strong> (${gate.unexpectedFailures} unexpected failures, ${gate.unexpectedPasses} unexpected passes, ${gate.otherUnexpected} other), ${gate.expectedFailures} expected failures; <code>${h(gate.expectationsFile)}</code>, ${gate.entries} entries${gate.unused.length > 0 ? `, ${gate.unused.length} matched no test of this run` : ''}. The exit code counts only the unexpected.</p>`,
    section(
      'Unexpected failures',
      'fail',
      pick((r) => verdictOf(r) === 'unexpected-fail'),
    ),
    section(
      'Unexpected passes and other outcomes',
      'fail',
      pick((r) => r.outcome !== 'fail' && isUnexpected(verdictOf(r))),
    ),
    section(
      'Expected failures',
      'not-run',
      pick((r) => verdictOf(r) === 'expected-fail'),
    ),
  ].join('\n');
}

/** The register's rows for one run: one row per distinct answer, grouped under its clause. */
export function registerTable(entries: readonly RegisterEntry[]): string {
  const rows = entries.flatMap((entry) =>
    entry.answers.map((answer, index) => {
      const clause =
        index === 0
          ? `<td rowspan="${entry.answers.length}"><code>${h(entry.clause)}</code> §${h(entry.section)}<br><small>${h(entry.summary)}</small></td><td rowspan="${entry.answers.length}">${h(entry.decision ?? '—')}</td>`
          : '';
      const endpoints = endpointsOf(answer)
        .map((e) => `<code>${h(e)}</code>`)
        .join(' ');
      const tests = testsOf(answer)
        .map((id) => `<a href="#${h(id)}">${h(id)}</a>`)
        .join(', ');
      const mark = answer.matchesDecision
        ? '<span class="yes">✓ matches</span>'
        : '<span class="no">✗ departs</span>';
      return `<tr>${clause}<td>${mark}<pre>${h(answer.answer)}</pre></td><td>${endpoints}${endpoints !== '' ? '<br>' : ''}${tests}</td></tr>`;
    }),
  );
  return `<table><thead><tr><th>Clause</th><th>Reference decision</th><th>Answer</th><th>Seen on</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function probes(run: Results): string {
  const probedEntries = run.register.filter((e) => e.answers.length > 0);
  const probed = run.results.filter((r) => r.outcome === 'probe');
  const head = `<h2 class="probe">Ambiguity register: where the document is silent (${probedEntries.length} of ${run.register.length} open clauses probed)</h2>`;
  if (probedEntries.length === 0) return `${head}<p>No probe recorded an answer in this run.</p>`;
  return [
    head,
    '<p>Probes grouped by clause: each distinct answer the target gave, whether it is the reference’s decision, and where it was seen. Against the reference, or with --check-decisions, a departure from the decision also fails its test (listed above). Compare runs with <code>eac compare</code>.</p>',
    registerTable(probedEntries),
    `<details><summary>The ${probed.length} probe${probed.length === 1 ? '' : 's'}, with their exchanges</summary>`,
    probed.map(testBlock).join('\n'),
    '</details>',
  ].join('\n');
}

function notRun(run: Results): string {
  const skipped = run.results.filter((r) => r.outcome === 'not-run');
  if (skipped.length === 0) return '<h2 class="not-run">Not run (0)</h2><p>None.</p>';
  const causes = run.notRunCauses
    .map((c) => `<tr><td>${h(causeLabel(c))}</td><td class="n">${c.tests}</td></tr>`)
    .join('');
  const rows = skipped.map(
    (r) =>
      `<tr><td>${h(r.name)} (${h(r.area)})</td><td>${clauses(r)}</td><td>${h(r.reason ?? 'not run')}</td></tr>`,
  );
  return `<h2 class="not-run">Not run (${skipped.length})</h2><p>What each missing capability cost (a test missing two hooks counts under each):</p><table><thead><tr><th>Cause</th><th>tests</th></tr></thead><tbody>${causes}</tbody></table><table><thead><tr><th>Test</th><th>Clauses</th><th>Reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function machines(run: Results): string {
  if (run.machines.length === 0) return '';
  const tables = run.machines.map((m) => {
    const rows = m.transitions
      .map(
        (t) =>
          `<tr><td><code>${h(t.command)}</code></td><td>${h(t.from)}</td><td>${h(t.to)}</td><td>${h(t.note ?? '')}</td><td>${h(/^\d/.test(t.section) ? `§${t.section}` : t.section)}</td></tr>`,
      )
      .join('');
    return `<h3>${h(m.name)}</h3><table><thead><tr><th>Command</th><th>From</th><th>To</th><th>Note</th><th>Section</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<h2>State machines</h2><p>The transition tables of spec/machines that the reference is written in and the model-based suite checks against (the run does not count which transitions it took).</p>${tables.join('')}`;
}

export function renderHtml(run: Results): string {
  const { target, summary } = run;
  const replay = runReplayLine({ runSeed: run.seed, targetArgs: targetArgsOf(target) }, run.only);
  const facts: [string, string][] = [
    ['Target', `${target.baseUrl}${target.embedded === true ? ' (embedded reference)' : ''}`],
    ['Implementation', target.implementation ?? 'not announced'],
    [
      'Profile',
      `${run.profile.source}${run.profile.description !== undefined ? ` — ${run.profile.description}` : ''}`,
    ],
    ['Parts served', run.profile.serves.join(', ') || 'none'],
    ...(target.credentialsFile !== undefined
      ? [['Credentials file', target.credentialsFile] as [string, string]]
      : []),
    ['Hub', target.hubUrl],
    [
      'Hooks',
      target.hooksUrl !== undefined
        ? `${target.hooksUrl} (${target.hooks.join(', ') || 'none announced'})`
        : 'none',
    ],
    ['Probes held to reference decisions', target.checkDecisions ? 'yes' : 'no'],
    ['Seed', String(run.seed)],
    ['Started', run.startedAt],
    ['Duration', `${(run.durationMs / 1000).toFixed(1)} s`],
    ['Replay the run', replay],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>EAC run ${h(run.startedAt)}: ${summary.fail} fail</title>
<style>${CSS}</style>
</head>
<body>
<h1>EAC conformance run</h1>
<p class="counts"><span class="pass">${summary.pass} pass</span><span class="fail">${summary.fail} fail</span><span class="not-run">${summary.notRun} not-run</span><span class="probe">${summary.probe} probe</span><span>${summary.total} tests</span></p>
<p>${h(coverageLine(run).replace(/^coverage/, 'Coverage'))}.</p>
<table><tbody>${facts.map(([k, v]) => `<tr><th>${h(k)}</th><td>${h(v)}</td></tr>`).join('')}</tbody></table>
${coverage(run)}
${security(run)}
${gaps(run)}
${gatedFailures(run)}
${probes(run)}
${notRun(run)}
${machines(run)}
</body>
</html>
`;
}
