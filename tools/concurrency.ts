/**
 * The concurrency oracle on demand (issue 11, part 5): N clients act at once on one account's
 * roles, users, tokens and dashboard layouts, and every entity's history is checked for
 * linearizability (suites/concurrency/workload.ts, suites/harness/linearizability.ts). The
 * conformance run holds a short version (4 x 100, suites/concurrency/linearizable.test.ts).
 *
 *   npx tsx tools/concurrency.ts [--full] [--seed N] [--target URL --hooks URL] [--profile FILE]
 *
 * Without --target it starts the reference (with its hooks) in this process. --full runs
 * 16 clients x 1,000 requests and writes the figures to bench/results/concurrency.json; the
 * default is the short size, printed only. Exits 1 when a history is not linearizable or an
 * answer could not be read, 2 when the run could not start.
 */
import { fillEndpoint } from '../suites/harness/stated-endpoint.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { start } from '../reference/server.ts';
import { fetchCapabilities, readProfile, REFERENCE_PROFILE_FILE } from '../runner/target.ts';
import { givenFor } from '../suites/harness/given/accounts.ts';
import {
  FULL,
  SHORT,
  findings,
  runConcurrency,
  type PartitionReport,
} from '../suites/concurrency/workload.ts';

const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    seed: { type: 'string', default: '20261122' },
    target: { type: 'string' },
    hooks: { type: 'string' },
    profile: { type: 'string' },
  },
});

if ((args.target === undefined) !== (args.hooks === undefined)) {
  console.error(
    'give --target and --hooks together (the oracle builds its world through the hooks)',
  );
  process.exit(2);
}
const reference =
  args.target === undefined ? await start({ hooks: true, seed: Number(args.seed) }) : undefined;
const api = args.target ?? reference?.url ?? '';
const hooks = args.hooks ?? reference?.hooksUrl ?? '';
const profile = await readProfile(args.profile ?? REFERENCE_PROFILE_FILE);

/** The path of an endpoint the profile states, its placeholders filled from `values`. */
const endpoint = (name: 'v1AddCharts' | 'v1ListWorkspaceDashboards') => {
  const stated = profile.shapes.endpoints?.[name];
  if (stated === undefined) {
    console.error(`the profile names no path for ${name} (shapes.endpoints)`);
    process.exit(2);
  }
  return (values: Readonly<Record<string, string>>) => fillEndpoint(name, stated, values).path;
};
const form = profile.shapes.authorizationHeader;
const size = args.full ? FULL : SHORT;
const settings = {
  ...size,
  entities: ['roles', 'users', 'layouts'] as const,
  seed: Number(args.seed),
};
const loadAtStart = loadavg().map((x) => Number(x.toFixed(2)));
const target = {
  baseUrl: api,
  hubUrl: '',
  hooksUrl: hooks,
  hooks: (await fetchCapabilities(hooks)).hooks,
  checkDecisions: false,
  seed: Number(args.seed),
  profile,
};
const report = await runConcurrency(
  givenFor(target),
  {
    addChartsPath: (targetDashboardId) => endpoint('v1AddCharts')({ targetDashboardId }),
    listDashboardsPath: (workspaceId) => endpoint('v1ListWorkspaceDashboards')({ workspaceId }),
    authorization: (apiKey) => ({ authorization: form === 'raw' ? apiKey : `Bearer ${apiKey}` }),
    layout:
      profile.shapes.v1Dashboard?.chartIds === undefined
        ? { hook: true }
        : { listMember: profile.shapes.v1Dashboard.chartIds },
  },
  settings,
);
await reference?.close();

const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const entities = (['role', 'user', 'layout'] as const).map((entity) => {
  const parts = report.partitions.filter((p) => p.entity === entity);
  const sizes = parts.map((p) => p.operations);
  const steps = parts.map((p) => p.verdict.steps);
  return {
    entity,
    partitions: parts.length,
    historyEvents: sizes.reduce((a, b) => a + b, 0),
    largestHistory: Math.max(0, ...sizes),
    checkerSteps: steps.reduce((a, b) => a + b, 0),
    checkerMs: round(parts.reduce((a, p: PartitionReport) => a + p.ms, 0)),
    slowestPartitionMs: round(Math.max(0, ...parts.map((p) => p.ms))),
    verdicts: Object.fromEntries(
      ['linearizable', 'not-linearizable', 'unknown'].map((v) => [
        v,
        parts.filter((p) => p.verdict.result === v).length,
      ]),
    ),
  };
});
const problems = [...report.anomalies, ...findings(report)];
const figures = {
  benchmark: 'concurrency oracle: linearizability of one account under parallel clients',
  measuredAt: new Date().toISOString(),
  target: args.target ?? 'the reference, in process',
  machine: {
    node: process.version,
    cpus: cpus().length,
    loadAverage1m5m15m: { atStart: loadAtStart, atEnd: loadavg().map((x) => round(x, 2)) },
  },
  settings,
  operations: report.operations,
  seconds: round(report.seconds, 2),
  operationsPerSecond: Math.round(report.operations / report.seconds),
  checkerMs: round(report.checkerMs),
  entities,
  linearizable: problems.length === 0,
  problems,
};
console.log(JSON.stringify(figures, null, 2));
if (args.full) {
  mkdirSync(new URL('../bench/results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('../bench/results/concurrency.json', import.meta.url),
    `${JSON.stringify(figures, null, 2)}\n`,
  );
}
// Not process.exit(): a long report on a pipe would be cut off before it is flushed.
process.exitCode = problems.length === 0 ? 0 : 1;
