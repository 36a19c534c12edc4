/**
 * The project's live Stryker reporter (tools/mutation/stryker.config.json `reporters`: "eac-live"): one line of
 * JSON per judged mutant, appended to reports/mutation/live.ndjson as soon as Stryker has its
 * status, after a first line holding the plan (how many mutants the run will judge).
 *
 * Stryker writes its JSON and HTML reports, and its incremental file, only when a run ends; a
 * run of a large slice takes hours on the machines we have, so a run stopped before its end
 * left nothing. With this file, `npm run mutation:live` (tools/mutation/live.ts) shows the
 * undetected mutants of a run still under way, or of one stopped, for triage; the scores of
 * reports/mutation/scores.json still come only from finished runs.
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const FILE = join(process.cwd(), 'reports', 'mutation', 'live.ndjson');

class LiveReporter {
  static inject = [];

  onMutationTestingPlanReady(event) {
    mkdirSync(dirname(FILE), { recursive: true });
    const run = event.mutantPlans.filter((p) => p.plan === 'Run').length;
    const header = {
      startedAt: new Date().toISOString(),
      mutants: event.mutantPlans.length,
      toRun: run,
      // Mutants already judged (reused from the incremental file, or ignored) count as tested
      // at once: their lines follow straight away.
      early: event.mutantPlans.length - run,
    };
    writeFileSync(FILE, `${JSON.stringify(header)}\n`);
  }

  onMutantTested(result) {
    const line = {
      file: relative(process.cwd(), result.fileName),
      line: result.location.start.line,
      // Stryker's positions, as in its reports: line and column both count from 1.
      column: result.location.start.column,
      mutator: result.mutatorName,
      replacement: String(result.replacement ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 80),
      status: result.status,
      static: result.static === true,
      at: new Date().toISOString(),
    };
    appendFileSync(FILE, `${JSON.stringify(line)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'eac-live', LiveReporter)];
