/**
 * `index.html`: the summary as one self-contained page (inline CSS, no scripts), plus the
 * recorded HTTP exchanges of every failed or probed test in collapsible blocks.
 */
import type { CoverageRow, ReportedExchange, Result, Results } from '../../reports/schema.ts';
import { clauseTotal, groupCoverage } from './coverage.ts';
import { escapeHtml as h, firstLine } from './escape.ts';
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
`;

function pct(row: CoverageRow): string {
  const total = clauseTotal(row);
  return `${row.covered}/${total}`;
}

function coverageRow(row: CoverageRow, top: boolean): string {
  const label = `§${row.section}${row.title !== undefined ? ` ${row.title}` : ''}`;
  return `<tr${top ? ' class="top"' : ''}><td>${h(label)}</td><td class="n">${row.must}</td><td class="n">${row.observed}</td><td class="n">${row.unspecified}</td><td class="n">${pct(row)}</td><td class="n">${row.failing ?? 0}</td></tr>`;
}

function coverage(run: Results): string {
  const tables = groupCoverage(run.coverage).map(({ top, subsections }) => {
    const rows = [coverageRow(top, true), ...subsections.map((s) => coverageRow(s, false))];
    return `<table><thead><tr><th>Section</th><th>must</th><th>observed</th><th>unspecified</th><th>covered</th><th>failing</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  });
  return `<h2>Clause coverage by section</h2><p>A clause counts as covered when a passing test cites it (or a probe, for a clause the document leaves open) and no failing test does.</p>${tables.join('\n')}`;
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
  if (result.outcome === 'probe') {
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

function probes(results: readonly Result[]): string {
  const probed = results.filter((r) => r.outcome === 'probe');
  if (probed.length === 0) return '<h2 class="probe">Probes (0)</h2><p>None.</p>';
  const rows = probed.flatMap((r) =>
    (r.clauses.length > 0 ? r.clauses : ['(none)']).map(
      (clause) =>
        `<tr><td><code>${h(clause)}</code></td><td>${h(r.decision ?? '—')}</td><td>${h(firstLine(r.reason ?? '(nothing recorded)'))}</td><td><a href="#${h(r.id)}">${h(r.name)}</a></td></tr>`,
    ),
  );
  return [
    `<h2 class="probe">Probes: where the document is silent (${probed.length})</h2>`,
    '<p>Probes record what the target did where the document is silent. Against the reference, or with --check-decisions, a departure from the recorded decision is a failure instead and is listed above.</p>',
    `<table><thead><tr><th>Clause</th><th>Reference decision</th><th>What the target did</th><th>Test</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    '<details><summary>Probe details and exchanges</summary>',
    probed.map(testBlock).join('\n'),
    '</details>',
  ].join('\n');
}

function notRun(results: readonly Result[]): string {
  const skipped = results.filter((r) => r.outcome === 'not-run');
  if (skipped.length === 0) return '<h2 class="not-run">Not run (0)</h2><p>None.</p>';
  const rows = skipped.map(
    (r) =>
      `<tr><td>${h(r.name)} (${h(r.area)})</td><td>${clauses(r)}</td><td>${h(r.reason ?? 'not run')}</td></tr>`,
  );
  return `<h2 class="not-run">Not run (${skipped.length})</h2><table><thead><tr><th>Test</th><th>Clauses</th><th>Reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function renderHtml(run: Results): string {
  const { target, summary } = run;
  const replay = runReplayLine({ runSeed: run.seed, targetArgs: targetArgsOf(target) }, run.only);
  const facts: [string, string][] = [
    ['Target', `${target.baseUrl}${target.embedded === true ? ' (embedded reference)' : ''}`],
    ['Implementation', target.implementation ?? 'not announced'],
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
<table><tbody>${facts.map(([k, v]) => `<tr><th>${h(k)}</th><td>${h(v)}</td></tr>`).join('')}</tbody></table>
${coverage(run)}
${failures(run.results)}
${probes(run.results)}
${notRun(run.results)}
</body>
</html>
`;
}
