/**
 * `eac doctor`: a preflight before a long run. Checks the target is reachable, that its hub
 * answers like a hub (§4.17), its hooks, a browser for the hub pages and the JWKS the profile
 * names; lists the parts its profile serves; and counts, without running a test, how many
 * tests will be not-run and why: what each test declared (`parts`, `needs`, `relies`) against
 * what the target offers and states, and what the set-up lacks (no --hub, no browser). Tests
 * can still end not-run for reasons only a run finds (an open shape a test reads as it goes,
 * more accounts than a credentials file holds); the report says so.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { expectedStrings } from '../fixtures/oracles/index.ts';
import { unstatedEntries, type UnstatedReliance } from '../spec/reliance.ts';
import { cause, type NotRunCause as NotRunCauseOf } from '../suites/harness/causes.ts';
import { ErrorEnvelope } from '../spec/schemas/common.ts';
import { API } from '../suites/harness/paths.ts';
import type { NotRunCause } from '../reports/schema.ts';
import type { DeclaredTest } from '../suites/harness/meta.ts';
import type { Target } from '../suites/harness/target.ts';
import type { CollectedTest } from './citations.ts';
import { causeLabel } from '../reports/outline.ts';
import { tallyCauses } from '../reports/not-run.ts';
import { BROWSER_HINT, chromiumPath } from '../suites/harness/browser-setup.ts';
import { installLine, missingPart, PARTS } from './parts.ts';
import { planFile, type Selection } from './only.ts';
import {
  describe as describeError,
  DOCUMENT_ONLY_SOURCE,
  REFERENCE_IMPLEMENTATION,
} from './target.ts';
import { plural } from '../reports/words.ts';
import type { TargetSpec } from './target-spec.ts';
import { diffProfiles, renderDiff, type DiffRow } from './profile-diff.ts';

export interface DoctorOptions {
  /** The target to check and the files that describe it, as given (target-spec.ts). */
  readonly target: TargetSpec;
  readonly only: readonly string[];
  readonly json: boolean;
  /** Also watch the target as `eac profile discover` does and compare the profile with it. */
  readonly observe?: boolean;
}

export interface DoctorReport {
  readonly target: string;
  readonly embedded: boolean;
  readonly implementation?: string;
  readonly hub: HubCheck;
  /** The browser the hub tests use, when the selection has hub tests that will run. */
  readonly browser?: {
    readonly path: string;
    readonly found: boolean;
    /** Why the driver is missing (playwright-core, an optional part of the kit), if it is. */
    readonly driver?: string;
  };
  /** The profile's JWKS (shapes.jwks), when the selection has security tests. */
  readonly jwks?: { readonly where?: string; readonly ok: boolean; readonly detail: string };
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
  /** What the set-up leaves untested (no --hub, no browser, no JWKS): tests end not-run. */
  readonly untested: readonly string[];
  /**
   * With --observe: the profile against what discover saw, leaf by leaf, and what discover could
   * not decide; or why nothing could be observed.
   */
  readonly observed?: {
    readonly rows: readonly DiffRow[];
    readonly undecided: readonly string[];
    readonly error?: string;
  };
}

/**
 * The hub as doctor found it: `hub` when a page path answered HTML with the text §4.17
 * prescribes for a page without a token; `none` without --hub; `unserved` when the profile
 * serves no hub; `not-a-hub` when something else answered; `unreachable`.
 */
export interface HubCheck {
  readonly state: 'hub' | 'none' | 'unserved' | 'not-a-hub' | 'unreachable';
  readonly url?: string;
  readonly detail?: string;
}

/** Where the hub is asked: the dashboard page of §4.17, with an id of no dashboard and no jwt. */
export const HUB_PROBE_PATH = '/share/dashboard/eac-doctor';

/** The §4.17 text of a page given no token, as the suites keep it (fixtures/oracles). */
const { invalidToken } = expectedStrings.hub;

/** Whether the page at `hubUrl` answers like a hub: HTML that shows the missing-token text. */
export async function checkHub(hubUrl: string): Promise<HubCheck> {
  const url = `${hubUrl}${HUB_PROBE_PATH}`;
  let status: number;
  let type: string;
  let text: string;
  try {
    const response = await request(url, {
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
      headers: { accept: 'text/html' },
    });
    status = response.statusCode;
    type = String(response.headers['content-type'] ?? '');
    text = await response.body.text();
  } catch (error) {
    return {
      state: 'unreachable',
      url: hubUrl,
      detail: `cannot reach the hub at ${url}: ${describeError(error)}`,
    };
  }
  if (!/^text\/html\b/i.test(type)) {
    const said = /json/i.test(type)
      ? `JSON ${status}${errorCode(text)}`
      : `${status} ${type || 'without a content type'}`;
    return {
      state: 'not-a-hub',
      url: hubUrl,
      detail: `--hub points at ${hubUrl}, which answered ${said} at ${HUB_PROBE_PATH}, not a hub page (§4.17)`,
    };
  }
  if (!text.includes(invalidToken))
    return {
      state: 'not-a-hub',
      url: hubUrl,
      detail: `--hub ${hubUrl} answered HTML ${status} at ${HUB_PROBE_PATH} without the text '${invalidToken}' §4.17 prescribes for a page without a token (a page that writes it with script is not seen here)`,
    };
  return { state: 'hub', url: hubUrl, detail: `${HUB_PROBE_PATH} shows '${invalidToken}'` };
}

/**
 * Calls the doctor makes to see that the target answers as the service does: paths the
 * document fixes, sent without credentials, which a service refuses (or, were it to take
 * them, answers in the success envelope). A host answering 404 to everything is not one.
 */
const SERVICE_PROBES = [API.userToken.path, API.registerOrganization.path] as const;

export interface ServiceCheck {
  readonly ok: boolean;
  readonly detail: string;
}

/** Whether `baseUrl` answers the document's fixed paths in the document's envelopes. */
export async function checkService(baseUrl: string): Promise<ServiceCheck> {
  const seen: { said: string; enveloped: boolean; status: number }[] = [];
  for (const where of SERVICE_PROBES) {
    let status: number;
    let type: string;
    let text: string;
    try {
      const response = await request(`${baseUrl}${where}`, {
        method: 'POST',
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
      status = response.statusCode;
      type = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
      text = await response.body.text();
    } catch (error) {
      return { ok: false, detail: `POST ${where}: no answer (${describeError(error)})` };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    // Preamble and §7: a success in the success envelope, a failure in the error envelope.
    const enveloped =
      status < 400
        ? typeof body === 'object' &&
          body !== null &&
          (body as { status?: unknown }).status === 'success'
        : ErrorEnvelope.safeParse(body).success;
    const kind = status < 400 ? 'success envelope' : '§7 error envelope';
    const said = `POST ${where} answered ${status} ${type || 'without a content type'}`;
    if (!enveloped)
      return {
        ok: false,
        detail: `the target does not answer as the service does: ${said} without the ${kind} (is --target the service's base address?)`,
      };
    seen.push({ said: `POST ${where}: ${status} in the ${kind}`, enveloped, status });
  }
  if (seen.every((s) => s.status === 404))
    return {
      ok: false,
      detail: `the target does not answer as the service does: 404 on every path the document fixes (${SERVICE_PROBES.map((p) => `POST ${p}`).join(', ')}); is --target the service's base address?`,
    };
  return { ok: true, detail: seen.map((s) => s.said).join('; ') };
}

/** ` ROUTE_NOT_FOUND` from an error envelope, or nothing. */
function errorCode(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown }; code?: unknown };
    const code = body.error?.code ?? body.code;
    return typeof code === 'string' ? ` ${code}` : '';
  } catch {
    return '';
  }
}

/** What the set-up lacks for tests that would otherwise run: a browser for some files. */
export interface SetUpGaps {
  /** What the tests of the files `uses` names wait on when no browser is found. */
  readonly browser?: { readonly cause: NotRunCauseOf; readonly uses: (file: string) => boolean };
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
): { parts: string[]; hooks: string[]; unstated: UnstatedReliance[] } {
  return {
    parts: declared.parts.filter((p) => !target.profile.serves.includes(p as never)),
    hooks: declared.needs.filter((h) => !target.hooks.includes(h) && !provisioned(h)),
    unstated: unstatedEntries(target.profile, declared.relies),
  };
}

/**
 * The causes a test ends not-run for, in the harness's order: unserved parts, else missing
 * hooks, else reliances the profile does not state (each as the run's report counts it), else
 * what the set-up lacks.
 */
function causesFor(
  missing: ReturnType<typeof lacks>,
  file: string,
  gaps: SetUpGaps,
): NotRunCauseOf[] {
  if (missing.parts.length > 0) return missing.parts.map(cause.part);
  if (missing.hooks.length > 0) return missing.hooks.map(cause.hook);
  if (missing.unstated.length > 0)
    return missing.unstated.map((u) =>
      u.follows ? cause.follows(u.clause) : cause.shape(u.entry),
    );
  if (gaps.browser?.uses(file) === true) return [gaps.browser.cause];
  return [];
}

/** Counts of the plan: tests, not-runs by cause and per area. */
export function planRun(
  tests: readonly CollectedTest[],
  selection: Selection,
  target: Pick<Target, 'profile' | 'hooks' | 'credentials'>,
  provisioned: (hook: string) => boolean,
  gaps: SetUpGaps = {},
): Pick<DoctorReport, 'tests' | 'willRun' | 'notRun' | 'causes' | 'areas'> {
  const perTest: NotRunCauseOf[][] = [];
  const areas = new Map<string, { area: string; tests: number; notRun: number }>();
  let count = 0;
  for (const test of tests) {
    if (!selected(selection, test.where)) continue;
    count += 1;
    const file = split(test.where).file;
    const area = areaOf(file) ?? 'unknown';
    const row = areas.get(area) ?? { area, tests: 0, notRun: 0 };
    areas.set(area, row);
    row.tests += 1;
    if (test.declared === undefined) continue;
    const named = causesFor(lacks(test.declared, target, provisioned), file, gaps);
    if (named.length === 0) continue;
    row.notRun += 1;
    perTest.push(named);
  }
  return {
    tests: count,
    willRun: count - perTest.length,
    notRun: perTest.length,
    causes: tallyCauses(perTest),
    areas: [...areas.values()].sort((a, b) => a.area.localeCompare(b.area)),
  };
}

export function renderDoctor(report: DoctorReport): string {
  const problems = report.problems.length;
  // Over half the selection not run: a run would pass having tested little.
  const mostlyNotRun = report.tests > 0 && report.notRun * 2 > report.tests;
  const status =
    problems > 0
      ? `${plural(problems, 'problem')}`
      : report.untested.length > 0
        ? `ready, but not everything will be tested: ${report.untested.join('; ')}`
        : mostlyNotRun
          ? `ready, but only ${report.willRun} of ${report.tests} selected tests will run`
          : 'ready';
  const lines = [
    `eac doctor: ${status}`,
    ...(mostlyNotRun
      ? [
          `  warning: over half the selection (${report.notRun} of ${plural(report.tests, 'test')}) will be not-run; see "not-run by entry" below`,
        ]
      : []),
    `  target   ${report.target}${report.embedded ? ' (the embedded reference)' : ''}: reachable${report.implementation !== undefined ? `, announces ${report.implementation}` : ''}`,
    `  hub      ${hubText(report.hub)}`,
    ...(report.browser !== undefined
      ? [
          `  browser  ${report.browser.path}: ${report.browser.found ? 'found' : `NOT found (${BROWSER_HINT})`}`,
          ...(report.browser.driver !== undefined
            ? [`  driver   NOT installed: ${report.browser.driver}`]
            : []),
        ]
      : []),
    `  hooks    ${report.hooksUrl !== undefined ? `${report.hooksUrl}: ${report.hooks.join(', ') || 'none announced'}` : 'none (no --hooks)'}`,
    `  profile  ${report.profile.source}: serves ${report.profile.serves.join(', ') || 'nothing'}`,
    ...(report.jwks !== undefined ? [`  jwks     ${report.jwks.detail}`] : []),
  ];
  if (report.credentials !== undefined)
    lines.push(
      `  credentials ${report.credentials.file}: ${plural(report.credentials.accounts, 'account')}`,
    );
  lines.push(
    '',
    `${plural(report.tests, 'test')} selected: ${report.willRun} will run, ${report.notRun} will be not-run for what they declare or the set-up lacks`,
  );
  if (report.causes.length > 0) {
    lines.push('  not-run by entry:');
    for (const cause of report.causes)
      lines.push(
        `    ${String(cause.tests).padStart(4)}  ${causeLabel(cause, report.hub.url === undefined ? {} : { hubUrl: report.hub.url })}`,
      );
  }
  lines.push('  by area:');
  for (const a of report.areas)
    lines.push(
      `    ${a.area.padEnd(12)} ${String(a.tests).padStart(4)} test${a.tests === 1 ? '' : 's'}${a.notRun > 0 ? `, ${a.notRun} not-run` : ''}`,
    );
  lines.push(
    '  (a run may find more not-runs: open shapes a test reads as it goes, more accounts than',
    '   the credentials hold, a hook a test asks for only on some paths; and without a browser,',
    '   fewer: a file that opens hub pages may hold a test that needs none)',
  );
  if (report.observed !== undefined) {
    lines.push('', 'Observed (--observe, as eac profile discover watches a target):');
    if (report.observed.error !== undefined)
      lines.push(`  could not observe the target: ${report.observed.error}`);
    else {
      lines.push(...renderDiff(report.observed.rows));
      if (report.observed.undecided.length > 0)
        lines.push(
          `  discover could not decide: ${report.observed.undecided.map((u) => u.split(':')[0] ?? u).join('; ')}`,
        );
    }
  } else
    lines.push(
      '',
      'eac doctor --observe compares the profile with what the target shows (it builds a small world through the hooks).',
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

function hubText(hub: HubCheck): string {
  switch (hub.state) {
    case 'hub':
      return `${hub.url ?? ''}: answers like a hub (${hub.detail ?? ''})`;
    case 'none':
      return 'none (no --hub): the hub tests will be not-run';
    case 'unserved':
      return `${hub.url ?? 'none'}: not asked (the profile does not serve hub)`;
    case 'not-a-hub':
    case 'unreachable':
      return `${hub.url ?? ''}: NOT a hub (${hub.detail ?? 'no answer'})`;
  }
}

/** Whether a test file opens hub pages in the browser (imports suites/harness/browser.ts). */
async function usesBrowser(root: string, file: string): Promise<boolean> {
  const text = await readFile(path.resolve(root, file), 'utf8').catch(() => '');
  return /from '\.\.\/harness\/browser\.ts'/.test(text);
}

/** The profile's JWKS (a path on the target or a URL), as the security suite fetches it. */
async function checkJwks(
  target: Pick<Target, 'baseUrl' | 'profile'>,
): Promise<NonNullable<DoctorReport['jwks']>> {
  const where = target.profile.shapes.jwks;
  if (where === undefined)
    return {
      ok: false,
      detail:
        'none (the profile names no shapes.jwks): the token attacks that use published keys will be not-run',
    };
  const url = /^https?:\/\//.test(where) ? where : `${target.baseUrl}${where}`;
  try {
    const response = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
    const body = (await response.body.json().catch(() => undefined)) as
      { keys?: unknown } | undefined;
    if (Array.isArray(body?.keys))
      return {
        where,
        ok: true,
        detail: `${url}: ${plural(body.keys.length, 'key')}`,
      };
    return {
      where,
      ok: false,
      detail: `${url} answered ${response.statusCode} without {keys: [...]}: the token attacks that use published keys will be not-run`,
    };
  } catch (error) {
    return { where, ok: false, detail: `cannot reach ${url}: ${describeError(error)}` };
  }
}

/** The profile in force against a discovery of the target (it builds a world through the hooks). */
async function observe(target: Target): Promise<NonNullable<DoctorReport['observed']>> {
  const { discover } = await import('./discover/index.ts');
  try {
    const found = await discover(target);
    return { rows: diffProfiles(target.profile, found.profile), undecided: found.undecided };
  } catch (error) {
    return { rows: [], undecided: [], error: describeError(error) };
  }
}

/** Runs the checks; a target that cannot be reached throws TargetError (exit 2). */
export async function doctor(
  options: DoctorOptions,
  root: string,
  configFile: string,
  suitesDir: string,
): Promise<DoctorReport> {
  const [{ resolveTarget, randomSeed }, { collectConformance }, only, network, hooks] =
    await Promise.all([
      import('./target.ts'),
      import('./citations.ts'),
      import('./only.ts'),
      import('../suites/harness/network.ts'),
      import('../suites/harness/hooks.ts'),
    ]);
  const spec = options.target;
  if (spec.ca !== undefined) process.env['EAC_CA'] = path.resolve(spec.ca);
  network.installNetwork();
  const selection = only.resolveOnly(options.only, only.listAreas(suitesDir));
  const resolved = await resolveTarget(spec, randomSeed());
  try {
    const { target } = resolved;
    const problems: string[] = [];
    const untested: string[] = [];
    const servesHub = target.profile.serves.includes('hub');
    const hub: HubCheck =
      target.hubUrl === undefined
        ? { state: 'none' }
        : !servesHub
          ? { state: 'unserved', url: target.hubUrl }
          : await checkHub(target.hubUrl);
    // The embedded reference is the service; any other target is asked before it is called ready.
    if (!resolved.embedded) {
      const service = await checkService(target.baseUrl);
      if (!service.ok) problems.push(service.detail);
    }
    if (hub.state === 'none') untested.push('hub pages (no --hub)');
    if ((hub.state === 'not-a-hub' || hub.state === 'unreachable') && hub.detail !== undefined)
      problems.push(hub.detail);
    const collection = await collectConformance(root, configFile);
    const provisioned = (hook: string) => hooks.provisionedFor(target.credentials, hook as never);
    const chosen = collection.tests.filter((t) => selected(selection, t.where));
    const hubFiles = [
      ...new Set(chosen.filter((t) => areaOf(t.where) === 'hub').map((t) => split(t.where).file)),
    ];
    const browserFiles = new Set<string>();
    for (const file of hubFiles) if (await usesBrowser(root, file)) browserFiles.add(file);
    let browser: DoctorReport['browser'];
    let gaps: SetUpGaps = {};
    const browserTests = servesHub && chosen.some((t) => browserFiles.has(split(t.where).file));
    if (browserTests) {
      const driver = missingPart('browser');
      browser = {
        path: chromiumPath(),
        found: existsSync(chromiumPath()),
        ...(driver !== undefined ? { driver } : {}),
      };
      if (driver !== undefined || !browser.found) {
        const lacking =
          driver !== undefined ? 'no playwright-core installed' : `no browser at ${browser.path}`;
        const hint =
          driver !== undefined
            ? `no browser driver: ${installLine(PARTS.browser.packages)}`
            : `no browser: ${BROWSER_HINT}`;
        if (process.env['EAC_REQUIRE_BROWSER'] === '1')
          problems.push(`EAC_REQUIRE_BROWSER=1 and ${lacking}: the hub tests will fail`);
        else {
          untested.push(`hub pages (${hint})`);
          gaps = {
            browser: {
              cause: cause.browser(driver !== undefined ? 'driver' : 'chromium'),
              uses: (file) => browserFiles.has(file),
            },
          };
        }
      }
    }
    const jwks = chosen.some((t) => areaOf(t.where) === 'security')
      ? await checkJwks(target)
      : undefined;
    if (jwks !== undefined && !jwks.ok)
      untested.push(`token attacks with published keys (${jwks.detail.split(':')[0] ?? ''})`);
    const plan = planRun(collection.tests, selection, target, provisioned, gaps);
    const observed = options.observe === true ? await observe(target) : undefined;
    if (plan.tests === 0) problems.push('no test matches the selection');
    if (collection.fileErrors.length > 0)
      problems.push(`${plural(collection.fileErrors.length, 'test file')} could not be collected`);
    return {
      target: target.baseUrl,
      embedded: resolved.embedded,
      ...(target.implementation !== undefined ? { implementation: target.implementation } : {}),
      hub,
      ...(browser !== undefined ? { browser } : {}),
      ...(jwks !== undefined ? { jwks } : {}),
      ...(target.hooksUrl !== undefined ? { hooksUrl: target.hooksUrl } : {}),
      hooks: [...target.hooks],
      profile: {
        source:
          spec.profile !== undefined
            ? path.resolve(spec.profile)
            : resolved.embedded || target.implementation === REFERENCE_IMPLEMENTATION
              ? 'reference default'
              : DOCUMENT_ONLY_SOURCE,
        serves: [...target.profile.serves],
      },
      ...(spec.credentials !== undefined && target.credentials !== undefined
        ? {
            credentials: {
              file: path.resolve(spec.credentials),
              accounts: target.credentials.accounts.length,
            },
          }
        : {}),
      ...plan,
      fileErrors: collection.fileErrors,
      problems,
      untested,
      ...(observed === undefined ? {} : { observed }),
    };
  } finally {
    await resolved.close();
  }
}
