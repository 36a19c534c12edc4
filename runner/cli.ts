/** `eac` command dispatch. Every command returns its exit code; only `main` touches process. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, USAGE, UsageError, type Command } from './args.ts';

/** The project root: one folder up from runner/. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function execute(command: Command): Promise<number> {
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
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
      const [{ catalogue }, { sectionTitles }, { renderClauses }] = await Promise.all([
        import('../spec/clauses/index.ts'),
        import('../reports/sections.ts'),
        import('./clauses-list.ts'),
      ]);
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
        `eac: merged ${command.shards.length} shards into ${path.resolve(command.out)}: ${s.pass} pass, ${s.fail} fail, ${s.notRun} not-run, ${s.probe} probe (${s.total} tests)\n`,
      );
      // The merged run gates like an unsharded one: 1 on a failure (or an unexpected result).
      return gateExit(run, false, false);
    }
    case 'compare': {
      const { compareRuns } = await import('../reports/compare.ts');
      const { markdown, files } = await compareRuns(command.runs, command.out);
      process.stdout.write(markdown);
      process.stderr.write(`eac: wrote ${files.join(' and ')}\n`);
      return 0;
    }
    case 'expectations': {
      const [{ readRun }, { expectationsFromRun, renderExpectations }, { writeFile }] =
        await Promise.all([
          import('../reports/compare.ts'),
          import('../reports/expectations.ts'),
          import('node:fs/promises'),
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
      const [{ readRun }, diff, { writeFile }] = await Promise.all([
        import('../reports/compare.ts'),
        import('../reports/diff.ts'),
        import('node:fs/promises'),
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

export async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nRun \`eac help\` for usage.\n`);
      return 2;
    }
    throw error;
  }
  try {
    return await execute(command);
  } catch (error) {
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
