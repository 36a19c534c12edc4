/**
 * `eac compare RUN...`: the ambiguity register of several runs side by side, the spec
 * author's view of where implementations diverge. One row per unspecified clause, one column
 * per run; a cell holds the distinct answers the run's target gave and whether each is the
 * reference's decision.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RegisterEntry, Results } from './schema.ts';
import { compareSections } from './coverage.ts';
import { escapeHtml as h, escapeMdCell as cell, firstLine, mdCode } from './escape.ts';
import { readResults, readResultsFile } from './report-files.ts';
import { plural } from './words.ts';

export interface ComparedRun {
  /** What the user named: a run folder or a results.json file. */
  readonly source: string;
  readonly run: Results;
}

export interface CompareRow {
  readonly clause: string;
  readonly section: string;
  readonly summary: string;
  readonly decision?: string;
  /** Per run, in column order: its register entry, or undefined when its catalogue lacks it. */
  readonly cells: readonly (RegisterEntry | undefined)[];
  /**
   * True when at least two runs answered and they differ on following the decision: one gave
   * only answers that match it, another one that departs (or a mix). Answer texts are not
   * compared: they carry each run's own times, names and ids.
   */
  readonly diverges: boolean;
}

/**
 * A column heading, short: the target implementation (or its address) and the seed. The
 * profile's description, often a paragraph, is in the legend of runs below the table.
 */
export function runLabel(compared: ComparedRun): string {
  const { run } = compared;
  return `${firstLine(run.target.implementation ?? run.target.baseUrl, 40)} · seed ${run.seed}`;
}

/** How a run stands to the decision on one clause: follows it, departs, or both. */
function verdict(entry: RegisterEntry | undefined): 'follows' | 'departs' | 'mixed' | undefined {
  if (entry === undefined || entry.answers.length === 0) return undefined;
  const matching = entry.answers.filter((a) => a.matchesDecision).length;
  if (matching === entry.answers.length) return 'follows';
  return matching === 0 ? 'departs' : 'mixed';
}

export function compareRows(runs: readonly ComparedRun[]): CompareRow[] {
  const known = new Map<string, RegisterEntry>();
  for (const { run } of runs) for (const entry of run.register) known.set(entry.clause, entry);
  const rows = [...known.values()].map((first): CompareRow => {
    const cells = runs.map(({ run }) => run.register.find((e) => e.clause === first.clause));
    const answered = cells.map(verdict).filter((v) => v !== undefined);
    return {
      clause: first.clause,
      section: first.section,
      summary: first.summary,
      ...(first.decision !== undefined ? { decision: first.decision } : {}),
      cells,
      diverges: answered.length >= 2 && new Set(answered).size > 1,
    };
  });
  return rows.sort(
    (a, b) => compareSections(a.section, b.section) || a.clause.localeCompare(b.clause),
  );
}

const NO_PROBE = 'no probe';
const NOT_KNOWN = 'not in this run’s catalogue';

function mdCell(entry: RegisterEntry | undefined): string {
  if (entry === undefined) return NOT_KNOWN;
  if (entry.answers.length === 0) return NO_PROBE;
  return entry.answers
    .map((a) => `${a.matchesDecision ? '✓' : '✗'} ${cell(firstLine(a.answer, 120))}`)
    .join('<br>');
}

export function renderCompareMarkdown(runs: readonly ComparedRun[]): string {
  const rows = compareRows(runs);
  const diverging = rows.filter((r) => r.diverges).length;
  const probedAnywhere = rows.filter((r) => r.cells.some((c) => (c?.answers.length ?? 0) > 0));
  const lines = [
    '# EAC ambiguity register: runs compared',
    '',
    `${rows.length} unspecified clauses; ${probedAnywhere.length} probed in at least one run; ${diverging} where the runs differ on following the decision (⚠). ✓ an answer that is the reference’s decision, ✗ one that departs from it. Column n is run n of the list below the table.`,
    '',
    `| Clause | Reference decision | ${runs.map((r, i) => `${i + 1}: ${cell(runLabel(r))}`).join(' | ')} |`,
    `| --- | --- | ${runs.map(() => '---').join(' | ')} |`,
  ];
  for (const row of rows) {
    const mark = row.diverges ? '⚠ ' : '';
    lines.push(
      `| ${mark}${mdCode(row.clause)} §${row.section} | ${cell(row.decision ?? '—')} | ${row.cells.map(mdCell).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    '## The runs',
    '',
    '| Run | Target | Profile | Parts served | Seed | Started |',
    '| --- | --- | --- | --- | ---: | --- |',
    ...runs.map(
      (r, i) =>
        `| ${i + 1} | ${cell(r.run.target.implementation ?? 'not announced')} ${mdCode(r.run.target.baseUrl)} | ${cell(r.run.profile.description ?? r.run.profile.source)} | ${cell(r.run.profile.serves.join(', ') || 'none')} | ${r.run.seed} | ${cell(r.run.startedAt)} |`,
    ),
  );
  return `${lines.join('\n')}\n`;
}

function htmlCell(entry: RegisterEntry | undefined): string {
  if (entry === undefined) return `<td class="none">${h(NOT_KNOWN)}</td>`;
  if (entry.answers.length === 0) return `<td class="none">${h(NO_PROBE)}</td>`;
  const items = entry.answers.map((a) => {
    const where = [...new Set(a.seenOn.flatMap((s) => (s.endpoint ? [s.endpoint] : [])))];
    return `<li class="${a.matchesDecision ? 'yes' : 'no'}">${a.matchesDecision ? '✓' : '✗'} <span>${h(a.answer)}</span>${where.length > 0 ? `<br><small>${where.map((e) => `<code>${h(e)}</code>`).join(' ')}</small>` : ''}</li>`;
  });
  return `<td><ul>${items.join('')}</ul></td>`;
}

export function renderCompareHtml(runs: readonly ComparedRun[]): string {
  const rows = compareRows(runs);
  const diverging = rows.filter((r) => r.diverges).length;
  const body = rows
    .map(
      (row) =>
        `<tr${row.diverges ? ' class="diverges"' : ''}><td>${row.diverges ? '⚠ ' : ''}<code>${h(row.clause)}</code> §${h(row.section)}<br><small>${h(row.summary)}</small></td><td>${h(row.decision ?? '—')}</td>${row.cells.map(htmlCell).join('')}</tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>EAC ambiguity register: ${runs.length} runs compared</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.6rem 0 1.2rem;width:100%}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f5}ul{margin:0;padding-left:1rem}li span{white-space:pre-wrap;word-break:break-word}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.yes{color:#1a7f37}.no{color:#cf222e}.none{color:#6e7781}tr.diverges td:first-child{background:#fff8c5}
body.differs-only tbody tr:not(.diverges){display:none}
</style>
</head>
<body>
<h1>EAC ambiguity register: runs compared</h1>
<p>${rows.length} unspecified clauses; ${diverging} where the runs differ on following the decision (⚠). ✓ an answer that is the reference’s decision, ✗ one that departs from it. Column n is run n of the list below the table.</p>
<p><label><input type="checkbox" id="differs-only"> differs only (${plural(diverging, 'row')})</label></p>
<table id="register"><thead><tr><th>Clause</th><th>Reference decision</th>${runs.map((r, i) => `<th>${i + 1}: ${h(runLabel(r))}</th>`).join('')}</tr></thead><tbody>
${body}
</tbody></table>
<h2>The runs</h2>
<table><thead><tr><th>Run</th><th>Target</th><th>Profile</th><th>Parts served</th><th>Seed</th><th>Started</th></tr></thead><tbody>
${runs
  .map(
    (r, i) =>
      `<tr><td>${i + 1}</td><td>${h(r.run.target.implementation ?? 'not announced')} <code>${h(r.run.target.baseUrl)}</code></td><td>${h(r.run.profile.description ?? r.run.profile.source)}</td><td>${h(r.run.profile.serves.join(', ') || 'none')}</td><td>${r.run.seed}</td><td>${h(r.run.startedAt)}<br><small>${h(r.source)}</small></td></tr>`,
  )
  .join('\n')}
</tbody></table>
<script>
// "differs only": the register's rows where the runs differ on following the decision.
document.getElementById('differs-only').addEventListener('change', (event) => {
  document.body.classList.toggle('differs-only', event.target.checked);
});
</script>
</body>
</html>
`;
}

/** Reads a run folder (its results.json) or a results.json file. */
export async function readRun(source: string): Promise<ComparedRun> {
  const info = await stat(source).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${source}: ${error.code ?? error.message}`);
  });
  const run = info.isDirectory() ? await readResults(source) : await readResultsFile(source);
  return { source, run };
}

export interface CompareOutput {
  readonly markdown: string;
  readonly files: readonly string[];
  /** What `eac compare` prints: the counts and the files, not the table. */
  readonly summary: string;
}

/** A few lines for the terminal: how many clauses, how many differ, and where the tables are. */
export function compareSummary(runs: readonly ComparedRun[], files: readonly string[]): string {
  const rows = compareRows(runs);
  const diverging = rows.filter((r) => r.diverges).length;
  const probed = rows.filter((r) => r.cells.some((c) => (c?.answers.length ?? 0) > 0)).length;
  const [md, html] = files;
  return [
    `eac compare: ${plural(runs.length, 'run')}, ${rows.length} unspecified clauses, ${probed} probed in at least one run, ${diverging} where the runs differ on following the decision`,
    ...runs.map((r, i) => `  ${i + 1}: ${runLabel(r)} (${r.source})`),
    ...(md !== undefined ? [`  ${md}`] : []),
    ...(html !== undefined
      ? [`  ${html} (open it; "differs only" shows the ${plural(diverging, 'row')})`]
      : []),
    '',
  ].join('\n');
}

/** Renders the comparison and writes `compare.md` and `compare.html` into `outDir`. */
export async function compareRuns(
  sources: readonly string[],
  outDir: string,
): Promise<CompareOutput> {
  const runs: ComparedRun[] = [];
  for (const source of sources) runs.push(await readRun(source));
  const markdown = renderCompareMarkdown(runs);
  const files = [path.resolve(outDir, 'compare.md'), path.resolve(outDir, 'compare.html')];
  await mkdir(path.resolve(outDir), { recursive: true });
  await writeFile(files[0] as string, markdown);
  await writeFile(files[1] as string, renderCompareHtml(runs));
  return { markdown, files, summary: compareSummary(runs, files) };
}
