/**
 * `eac doctor`: a preflight before a long run. Checks the target is reachable (and its hub and
 * hooks), lists the hooks it offers and the parts its profile serves, and counts, without
 * running a test, how many tests will be not-run and why: the parts and hooks each test
 * declared (`parts`, `needs`) against what the target offers. Tests can still end not-run
 * for reasons only a run finds (an open shape the profile leaves out, more accounts than a
 * credentials file holds); the report says so.
 */
import path from 'node:path';
import type { NotRunCause } from '../reports/schema.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import type { Target } from '../suites/harness/target.ts';
import type { CollectedTest } from './citations.ts';
import { causeLabel } from '../reports/outline.ts';
import { planFile, type Selection } from './only.ts';

export interface DoctorOptions {
  readonly target?: string;
  readonly hub?: string;
  readonly hooks?: string;
  readonly credentials?: string;
  readonly profile?: string;
  readonly only: readonly string[];
  readonly ca?: string;
  readonly json: boolean;
}

export interface DoctorReport {
  readonly target: string;
  readonly embedded: boolean;
  readonly implementation?: string;
  readonly hub: { readonly url: string; readonly reachable: boolean; readonly error?: string };
  readonly hooksUrl?: string;
  readonly hooks: readonly string[];
  readonly profile: { readonly source: string; readonly serves: readonly string[] };
  readonly credentials?: { readonly file: string; readonly accounts: number };
  readonly tests: number;
  readonly willRun: number;
  readonly notRun: number;
  /** Not-run tests by cause; a test lacking two hooks counts under each. */
  readonly causes: readonly NotRunCause[];
  /** Per area: tests, and how many will be not-run. */
  readonly areas: readonly {
    readonly area: string;
    readonly tests: number;
    readonly notRun: number;
  }[];
  /** Files that could not be collected. */
  readonly fileErrors: readonly string[];
  /** Problems that will make a run fail or not start. */
  readonly problems: readonly string[];
}

/** The test's file and vitest name from `file > name` (see citations.ts). */
function split(where: string): { file: string; name: string } {
  const at = where.indexOf(' > ');
  return at < 0
    ? { file: where, name: '' }
    : { file: where.slice(0, at), name: where.slice(at + 3) };
}

function areaOf(file: string): string | undefined {
  return /(?:^|\/)suites\/([^/]+)\//.exec(file)?.[1];
}

/** Whether a collected test is in the `--only` selection (an area, or a clause in its name). */
export function selected(selection: Selection, where: string): boolean {
  const { file, name } = split(where);
  const plan = planFile(selection, areaOf(file));
  return plan.run && (plan.pattern === undefined || plan.pattern.test(name));
}

/**
 * What a declared test lacks on this target: the parts its profile does not serve, the hooks
 * it neither offers nor stands in for with pre-provisioned credentials. The harness decides
 * not-run the same way when the test starts (suites/harness/conformance.ts).
 */
export function lacks(
  declared: DeclaredTest,
  target: Pick<Target, 'profile' | 'hooks' | 'credentials'>,
  provisioned: (hook: string) => boolean,
): { parts: string[]; hooks: string[] } {
  return {
    parts: declared.parts.filter((p) => !target.profile.serves.includes(p as never)),
    hooks: declared.needs.filter((h) => !target.hooks.includes(h) && !provisioned(h)),
  };
}

const ORDER: Record<NotRunCause['kind'], number> = { part: 0, hook: 1, other: 2 };

/** Counts of the plan: tests, not-runs by cause and per area. */
export function planRun(
  tests: readonly CollectedTest[],
  selection: Selection,
  target: Pick<Target, 'profile' | 'hooks' | 'credentials'>,
  provisioned: (hook: string) => boolean,
): Pick<DoctorReport, 'tests' | 'willRun' | 'notRun' | 'causes' | 'areas'> {
  const causes = new Map<string, NotRunCause>();
  const areas = new Map<string, { area: string; tests: number; notRun: number }>();
  let count = 0;
  let notRun = 0;
  for (const test of tests) {
    if (!selected(selection, test.where)) continue;
    count += 1;
    const area = areaOf(split(test.where).file) ?? 'unknown';
    const row = areas.get(area) ?? { area, tests: 0, notRun: 0 };
    areas.set(area, row);
    row.tests += 1;
    if (test.declared === undefined) continue;
    const missing = lacks(test.declared, target, provisioned);
    // The harness checks parts first: a test of an unserved part never asks for its hooks.
    const named =
      missing.parts.length > 0
        ? missing.parts.map((name) => ({ kind: 'part' as const, name }))
        : missing.hooks.map((name) => ({ kind: 'hook' as const, name }));
    if (named.length === 0) continue;
    notRun += 1;
    row.notRun += 1;
    for (const cause of named) {
      const key = `${cause.kind}\u0000${cause.name}`;
      const found = causes.get(key);
      if (found) found.tests += 1;
      else causes.set(key, { ...cause, tests: 1 });
    }
  }
  return {
    tests: count,
    willRun: count - notRun,
    notRun,
    causes: [...causes.values()].sort(
      (a, b) => ORDER[a.kind] - ORDER[b.kind] || b.tests - a.tests || a.name.localeCompare(b.name),
    ),
    areas: [...areas.values()].sort((a, b) => a.area.localeCompare(b.area)),
  };
}

export function renderDoctor(report: DoctorReport): string {
  const lines = [
    `eac doctor: ${report.problems.length === 0 ? 'ready' : `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}`}`,
    `  target   ${report.target}${report.embedded ? ' (the embedded reference)' : ''}: reachable${report.implementation !== undefined ? `, announces ${report.implementation}` : ''}`,
    `  hub      ${report.hub.url}: ${report.hub.reachable ? 'reachable' : `NOT reachable (${report.hub.error ?? 'no answer'})`}`,
    `  hooks    ${report.hooksUrl !== undefined ? `${report.hooksUrl}: ${report.hooks.join(', ') || 'none announced'}` : 'none (no --hooks)'}`,
    `  profile  ${report.profile.source}: serves ${report.profile.serves.join(', ') || 'nothing'}`,
  ];
  if (report.credentials !== undefined)
    lines.push(
      `  credentials ${report.credentials.file}: ${report.credentials.accounts} account${report.credentials.accounts === 1 ? '' : 's'}`,
    );
  lines.push(
    '',
    `${report.tests} tests selected: ${report.willRun} will run, ${report.notRun} will be not-run for what they declare`,
  );
  if (report.causes.length > 0) {
    lines.push('  not-run by cause:');
    for (const cause of report.causes)
      lines.push(`    ${String(cause.tests).padStart(4)}  ${causeLabel(cause)}`);
  }
  lines.push('  by area:');
  for (const a of report.areas)
    lines.push(
      `    ${a.area.padEnd(12)} ${String(a.tests).padStart(4)} tests${a.notRun > 0 ? `, ${a.notRun} not-run` : ''}`,
    );
  lines.push(
    '  (a run may find more not-runs: open shapes the profile does not state, more accounts than',
    '   the credentials hold, a hook a test asks for only on some paths)',
  );
  if (report.fileErrors.length > 0) {
    lines.push('', 'Files that could not be collected:');
    for (const error of report.fileErrors) lines.push(`  ${error}`);
  }
  if (report.problems.length > 0) {
    lines.push('', 'Problems:');
    for (const problem of report.problems) lines.push(`  ✗ ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the checks; a target that cannot be reached throws TargetError (exit 2). */
export async function doctor(
  options: DoctorOptions,
  root: string,
  configFile: string,
  suitesDir: string,
): Promise<DoctorReport> {
  const [
    { resolveTarget, checkReachable, randomSeed },
    { collectConformance },
    only,
    network,
    hooks,
  ] = await Promise.all([
    import('./target.ts'),
    import('./citations.ts'),
    import('./only.ts'),
    import('../suites/harness/network.ts'),
    import('../suites/harness/hooks.ts'),
  ]);
  if (options.ca !== undefined) process.env['EAC_CA'] = path.resolve(options.ca);
  network.installNetwork();
  const selection = only.resolveOnly(options.only, only.listAreas(suitesDir));
  const resolved = await resolveTarget({
    seed: randomSeed(),
    ...(options.target !== undefined ? { target: options.target } : {}),
    ...(options.hub !== undefined ? { hub: options.hub } : {}),
    ...(options.hooks !== undefined ? { hooks: options.hooks } : {}),
    ...(options.credentials !== undefined ? { credentials: options.credentials } : {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
  });
  try {
    const { target } = resolved;
    const problems: string[] = [];
    let hubError: string | undefined;
    try {
      await checkReachable(target.hubUrl);
    } catch (error) {
      hubError = (error as Error).message;
      if (target.profile.serves.includes('hub'))
        problems.push(`the profile serves hub but ${hubError}`);
    }
    const collection = await collectConformance(root, configFile);
    const plan = planRun(collection.tests, selection, target, (hook) =>
      hooks.provisionedFor(target.credentials, hook as never),
    );
    if (plan.tests === 0) problems.push('no test matches the selection');
    if (collection.fileErrors.length > 0)
      problems.push(`${collection.fileErrors.length} test file(s) could not be collected`);
    return {
      target: target.baseUrl,
      embedded: resolved.embedded,
      ...(target.implementation !== undefined ? { implementation: target.implementation } : {}),
      hub: {
        url: target.hubUrl,
        reachable: hubError === undefined,
        ...(hubError !== undefined ? { error: hubError } : {}),
      },
      ...(target.hooksUrl !== undefined ? { hooksUrl: target.hooksUrl } : {}),
      hooks: [...target.hooks],
      profile: {
        source: options.profile !== undefined ? path.resolve(options.profile) : 'reference default',
        serves: [...target.profile.serves],
      },
      ...(options.credentials !== undefined && target.credentials !== undefined
        ? {
            credentials: {
              file: path.resolve(options.credentials),
              accounts: target.credentials.accounts.length,
            },
          }
        : {}),
      ...plan,
      fileErrors: collection.fileErrors,
      problems,
    };
  } finally {
    await resolved.close();
  }
}
