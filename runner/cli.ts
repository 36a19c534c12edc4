/** `eac` command dispatch. Every command returns its exit code; only `main` touches process. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, type Command } from './args.ts';
import { UsageError } from './usage.ts';
import { colourOn, paint } from './colour.ts';
import { plural } from '../reports/words.ts';

/** The project root: one folder up from runner/. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function execute(command: Command): Promise<number> {
  switch (command.kind) {
    case 'help':
      process.stdout.write(command.text);
      return 0;
    case 'init': {
      const { initCommand, terminalAsk } = await import('./init.ts');
      const terminal = terminalAsk();
      try {
        return await initCommand(command.options, {
          cwd: process.cwd(),
          stdout: process.stdout,
          schemaFile: path.join(PROJECT_ROOT, 'spec', 'config.schema.json'),
          ...(terminal !== undefined ? { ask: terminal.ask } : {}),
        });
      } finally {
        terminal?.close();
      }
    }
    case 'discover': {
      const [{ discoverSpec, renderDiscovery }, { randomSeed }] = await Promise.all([
        import('./discover/index.ts'),
        import('./target.ts'),
      ]);
      const { out, spec, seed } = command.options;
      const found = await discoverSpec(spec, seed ?? randomSeed());
      // The schema beside the draft, for an editor's completion and checks.
      const schema = path.relative(
        path.dirname(path.resolve(out)),
        path.join(PROJECT_ROOT, 'spec', 'profile.schema.json'),
      );
      const draft = { $schema: schema, ...found.profile };
      await writeFile(out, `${JSON.stringify(draft, null, 2)}\n`);
      process.stdout.write(renderDiscovery(found, out));
      return 0;
    }
    case 'run': {
      const { defaultPlace, runCommand } = await import('./run.ts');
      return runCommand(command.options, defaultPlace(PROJECT_ROOT), {
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
    case 'serve': {
      const { serveCommand } = await import('./serve.ts');
      return serveCommand(command.options, { stdout: process.stdout });
    }
    case 'latitude': {
      const { latitudeCommand } = await import('./latitude-command.ts');
      return latitudeCommand(command.options, { stdout: process.stdout });
    }
    case 'clauses': {
      const [{ catalogue }, { sectionTitles }, { renderClauses, selectClauses }] =
        await Promise.all([
          import('../spec/clauses/index.ts'),
          import('../reports/sections.ts'),
          import('./clauses-list.ts'),
        ]);
      if (selectClauses(catalogue, command.options).length === 0) {
        const { section, level } = command.options;
        const asked = [
          ...(section !== undefined ? [`--section ${section}`] : []),
          ...(level !== undefined ? [`--level ${level}`] : []),
        ];
        throw new UsageError(
          `eac clauses: no clause matches ${asked.join(' ')}; \`eac clauses\` lists them all`,
        );
      }
      process.stdout.write(renderClauses(catalogue, sectionTitles, command.options));
      return 0;
    }
    case 'report': {
      const { readResults, renderReports } = await import('../reports/report-files.ts');
      const run = await readResults(command.runDir);
      await renderReports(command.runDir, run);
      process.stdout.write(
        `eac: re-rendered ${['junit.xml', 'summary.md', 'index.html'].map((f) => path.resolve(command.runDir, f)).join(', ')}\n`,
      );
      return 0;
    }
    case 'doctor': {
      const { doctor, renderDoctor } = await import('./doctor.ts');
      const report = await doctor(
        command.options,
        PROJECT_ROOT,
        path.join(PROJECT_ROOT, 'vitest.config.ts'),
        path.join(PROJECT_ROOT, 'suites'),
      );
      process.stdout.write(
        command.options.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report),
      );
      return report.problems.length > 0 ? 1 : 0;
    }
    case 'merge': {
      const [{ mergeCommand }, { catalogue }, { sectionTitles }, { gateExit }] = await Promise.all([
        import('../reports/merge.ts'),
        import('../spec/clauses/index.ts'),
        import('../reports/sections.ts'),
        import('./run.ts'),
      ]);
      const run = await mergeCommand(command.shards, command.out, catalogue, sectionTitles);
      const s = run.summary;
      process.stdout.write(
        `eac: merged ${command.shards.length} shards into ${path.resolve(command.out)}: ${s.pass} pass, ${s.fail} fail, ${s.notRun} not-run, ${s.probe} probe (${plural(s.total, 'test')})\n`,
      );
      // The merged run gates like an unsharded one: 1 on a failure (or an unexpected result).
      return gateExit(run, false, false);
    }
    case 'compare': {
      const { compareRuns } = await import('../reports/compare.ts');
      // The table runs to tens of kilobytes: it goes to the files, the terminal gets their paths.
      const { summary } = await compareRuns(command.runs, command.out);
      process.stdout.write(summary);
      return 0;
    }
    case 'expectations': {
      const [{ readRun }, { expectationsFromRun, renderExpectations }] = await Promise.all([
        import('../reports/compare.ts'),
        import('../reports/expectations.ts'),
      ]);
      const { run } = await readRun(command.from);
      const file = expectationsFromRun(run, command.from);
      const text = renderExpectations(file, command.out);
      if (command.out === undefined) process.stdout.write(text);
      else {
        await writeFile(command.out, text);
        process.stderr.write(
          `eac: wrote ${path.resolve(command.out)} (${file.expectations.length} entries)\n`,
        );
      }
      return 0;
    }
    case 'diff': {
      const [{ readRun }, diff] = await Promise.all([
        import('../reports/compare.ts'),
        import('../reports/diff.ts'),
      ]);
      const [base, next] = await Promise.all([readRun(command.base), readRun(command.next)]);
      const result = diff.diffRuns(base.run, next.run, { base: command.base, next: command.next });
      const text = command.json ? diff.renderDiffJson(result) : diff.renderDiffMarkdown(result);
      if (command.out === undefined) process.stdout.write(text);
      else {
        await writeFile(command.out, text);
        process.stderr.write(`eac: wrote ${path.resolve(command.out)}\n`);
      }
      return diff.hasRegression(result) ? 1 : 0;
    }
  }
}

/** Edit distance (Levenshtein) of two words, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** The candidate nearest to `word`, when it is near enough to be a typo of it. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  return best !== undefined && best.d > 0 && best.d <= Math.max(2, Math.floor(word.length / 4))
    ? best.candidate
    : undefined;
}

/**
 * `--only` values that select nothing, as a usage error naming the nearest area or clause id;
 * checked before `run` or `doctor` starts anything, so both exit 2 at once on the same typo.
 */
export function selectionMistake(
  command: string,
  only: readonly string[],
  areas: readonly string[],
  clauseIds: readonly string[],
  unmatched: (values: readonly string[]) => readonly string[],
): string | undefined {
  const unknown = unmatched(only);
  if (unknown.length === 0) return undefined;
  const prefixes = new Set(areas);
  for (const id of clauseIds) {
    const parts = id.split('.');
    for (let n = 1; n <= parts.length; n++) prefixes.add(parts.slice(0, n).join('.'));
  }
  const named = unknown.map((value) => {
    const near = closest(value, prefixes);
    return near !== undefined ? `${value} (did you mean ${near}?)` : value;
  });
  return `eac ${command}: --only ${named.join(', ')} matches no suite area (${areas.join(', ') || 'none'}) and no clause id; see \`eac clauses\``;
}

async function checkSelection(command: Command): Promise<void> {
  if (command.kind !== 'run' && command.kind !== 'doctor') return;
  if (command.options.only.length === 0) return;
  const [{ catalogue }, only] = await Promise.all([
    import('../spec/clauses/index.ts'),
    import('./only.ts'),
  ]);
  const areas = only.listAreas(path.join(PROJECT_ROOT, 'suites'));
  const ids = catalogue.map((c) => c.id);
  const mistake = selectionMistake(command.kind, command.options.only, areas, ids, (values) =>
    only.unmatchedValues(only.resolveOnly(values, areas), ids),
  );
  if (mistake !== undefined) throw new UsageError(mistake);
}

/** A port another process holds: one line naming the option that chose it, no stack. */
function busyPort(command: Command, error: unknown): string | undefined {
  if (command.kind !== 'serve' && command.kind !== 'latitude') return undefined;
  const { code, port } = error as { code?: unknown; port?: unknown };
  if (code !== 'EADDRINUSE') return undefined;
  const option =
    command.options.hubPort !== undefined &&
    port === command.options.hubPort &&
    port !== command.options.port
      ? '--hub-port'
      : '--port';
  const which = typeof port === 'number' ? `port ${port}` : 'the port';
  return `eac ${command.kind}: ${which} is in use; pick another with ${option} or 0 for any`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const { red } = paint(colourOn(process.stderr));
  let command: Command;
  try {
    command = parseCommand(argv, {
      cwd: process.cwd(),
      colour: colourOn(process.stdout),
      width: Math.min(process.stdout.columns ?? 100, 100),
    });
    await checkSelection(command);
  } catch (error) {
    if (error instanceof UsageError) {
      const named = argv[0] !== undefined && error.message.startsWith(`eac ${argv[0]}:`);
      process.stderr.write(
        `${red(error.message)}\nRun \`eac help${named ? ` ${argv[0]}` : ''}\` for usage.\n`,
      );
      return 2;
    }
    throw error;
  }
  try {
    return await execute(command);
  } catch (error) {
    const busy = busyPort(command, error);
    if (busy !== undefined) {
      process.stderr.write(`${red(busy)}\n`);
      return 2;
    }
    // Ours name the command already; run.ts's and target.ts's own errors do not.
    if (error instanceof UsageError) {
      process.stderr.write(`${red(error.message)}\n`);
      return 2;
    }
    const name = (error as Error).name;
    if (name === 'TargetError' || name === 'UsageError') {
      process.stderr.write(`eac: ${(error as Error).message}\n`);
      return 2;
    }
    if (
      command.kind === 'report' ||
      command.kind === 'merge' ||
      command.kind === 'compare' ||
      command.kind === 'expectations' ||
      command.kind === 'diff'
    ) {
      process.stderr.write(`eac ${command.kind}: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}
