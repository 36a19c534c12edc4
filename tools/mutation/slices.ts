import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';

/**
 * The slices of mutation testing (tools/mutation/run.ts, tools/mutation/sample.ts), a whole run
 * being all of them: each names the code it mutates and the tests that can
 * kill its mutants (the unit tests of that code and the suites of its area). A slice is one
 * Stryker run, small enough to finish (Stryker writes no report of an interrupted run); the
 * incremental file carries every slice's results into the next run.
 */

/** Stryker's statuses that count for a score: detected (a timed-out mutant counts as caught), and not. */
export const DETECTED: ReadonlySet<string> = new Set(['Killed', 'Timeout']);
export const UNDETECTED: ReadonlySet<string> = new Set(['Survived', 'NoCoverage']);

/** `dir/{a,b}.ts` spelled out: Stryker and the vitest config both split their lists on commas. */
const each = (dir: string, names: readonly string[], suffix = '.ts') =>
  names.map((n) => `${dir}${n}${suffix}`);
const suites = (...areas: string[]) => each('suites/', areas, '/*.test.ts');
const UNITS = ['spec/machines/**/*.test.ts'];
const REFERENCE_UNITS = ['reference/**/*.test.ts'];
export const SLICES: Record<string, { mutate: string[]; tests: string[] }> = {
  'machines-identity': {
    mutate: each('spec/machines/', [
      'identity',
      'permissions',
      'token',
      'clock',
      'derived-id',
      'machine',
      'table',
      'tables',
    ]),
    tests: [...UNITS, ...suites('identity', 'security')],
  },
  'machines-dashboards': {
    mutate: each('spec/machines/', ['dashboards', 'migration']),
    tests: [...UNITS, ...suites('dashboards', 'migration', 'v2')],
  },
  'machines-chat': {
    mutate: ['spec/machines/chat-stream.ts'],
    tests: [...UNITS, ...suites('chat')],
  },
  // The reference's front door (routing, bodies, credentials, tokens, the store, the hooks'
  // router) is reached by every suite but the browser's.
  'reference-core': {
    mutate: [
      'reference/server.ts',
      'reference/settings.ts',
      'reference/tenants/*.ts',
      ...each('reference/http/', [
        'app',
        'auth',
        'route',
        'json-body',
        'client-errors',
        'render',
        'uuid-case',
        'users',
        'roles',
        'tenants',
        'tokens',
        'organizations',
      ]),
      'reference/context.ts',
      'reference/done.ts',
      'reference/store/*.ts',
      'reference/tokens/*.ts',
      ...each('reference/hooks/', ['account', 'routes', 'snapshot']),
    ],
    tests: [
      ...REFERENCE_UNITS,
      ...suites(
        'identity',
        'security',
        'protocol',
        'robustness',
        'concurrency',
        'dashboards',
        'migration',
        'v2',
        'chat',
      ),
    ],
  },
  'reference-dashboards': {
    mutate: [
      ...each('reference/http/', ['dashboards', 'v2']),
      'reference/hooks/dashboards.ts',
      'reference/charts/save.ts',
    ],
    tests: [...REFERENCE_UNITS, ...suites('dashboards', 'migration', 'v2', 'security')],
  },
  'reference-chat': {
    mutate: ['reference/chat/*.ts', 'reference/http/chat.ts', 'reference/hooks/chat.ts'],
    tests: [...REFERENCE_UNITS, ...suites('chat', 'security')],
  },
  // The analytics data behind charts: the chat's answers, the charts' rows (which the hub's
  // pages and its chart-data probes read) and the SQL guard (which the security suite attacks).
  'reference-data': {
    mutate: [
      ...each('reference/data/', ['sql', 'database', 'seed', 'words']),
      'reference/charts/rows.ts',
    ],
    tests: [...REFERENCE_UNITS, ...suites('chat', 'dashboards', 'v2', 'hub', 'security')],
  },
  'reference-hub': {
    mutate: ['reference/hub/*.ts', 'reference/data/drill.ts', 'reference/charts/drill-down.ts'],
    tests: [...REFERENCE_UNITS, ...suites('hub')],
  },
};

/** A glob of the slices (`dir/*.ts`, `dir/**\/*.ts`, a plain path) as a regular expression. */
export const globRegex = (glob: string) =>
  new RegExp(
    `^${glob
      .split('**/')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
      .join('(?:.*/)?')}$`,
  );

const root = join(import.meta.dirname, '..', '..');

/** One Stryker run of the project's config (niced: the machine is shared), output inherited. */
export function runStryker(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): SpawnSyncReturns<Buffer> {
  return spawnSync(
    'nice',
    [
      process.execPath,
      join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
      'run',
      'tools/mutation/stryker.config.json',
      ...args,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' },
  );
}
