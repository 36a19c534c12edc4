import type { Faker } from '@faker-js/faker';
import { seededFaker } from './builders.ts';
import { inject, test, type TestContext } from 'vitest';
import { clauseById, type ClauseId } from '../../spec/clauses/index.ts';
import type { ProfilePart, TargetProfile } from '../../spec/profile.ts';
import { unstatedEntries, type ReliedClause } from '../../spec/reliance.ts';
import { cause, type NotRunCause } from './causes.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { Hooks, provisionedFor } from './hooks.ts';
import { Http } from './http.ts';
import { propertyOptions, type PropertyOptions } from './property.ts';
import {
  MAX_OBSERVATION_CHARS,
  MAX_OBSERVATIONS,
  testIdOf,
  type DeclaredTest,
  type EacMeta,
  type Exchange,
  type Observation,
} from './meta.ts';
import { NO_HUB_REASON, type Target, type TestTarget } from './target.ts';
import { replayLine } from '../../reports/replay.ts';

/** What every conformance test receives. */
export interface Conformance {
  /** The target; reading its hub address on a target without a hub ends the test not-run. */
  readonly target: TestTarget;
  /** What the target states about itself: the parts it serves and its open shapes. */
  readonly profile: TargetProfile;
  /** HTTP to the target; its exchanges go into the report when the test fails or probes. */
  readonly http: Http;
  /** The host hooks (only those the target announced; see `needs`). */
  readonly hooks: Hooks;
  /** Faker seeded for this test alone: same run seed and name, same data. */
  readonly faker: Faker;
  /** This test's seed (run seed mixed with the test's name). */
  readonly seed: number;
  /**
   * Options for `fc.assert`, seeded like the rest of the test; a failure names each part of
   * the counterexample and gives expected against actual (property.ts).
   */
  fc(numRuns?: number): PropertyOptions;
  /**
   * Ends the test as not-run, never as pass: `reason` in a person's words, `causes` what it
   * waits on as data (causes.ts), which the reports group by. Without causes the reason alone
   * is the entry, of kind `other`: for a target's answer that left nothing to check.
   */
  notRun(reason: string, causes?: NotRunCause | readonly NotRunCause[]): never;
  /**
   * Declares reliances (as `relies` does) at the point where the path that needs them is taken,
   * for a reliance only some paths of the test have: a profile that does not state one ends the
   * test not-run there, naming it; otherwise the test's result relies on it from then on.
   */
  relyOn(...clauses: readonly ClauseId[]): void;
}

export interface Probe extends Conformance {
  /**
   * Records what the target did where the document is silent. Against the reference (or with
   * --check-decisions) an observation that departs from the recorded decision fails the test;
   * against any other target it is recorded as a probe and never fails.
   */
  observe(observation: string, matchesDecision: boolean): void;
}

export interface ConformanceOptions {
  /** Host hooks the test cannot do without; a target lacking one gets not-run. */
  readonly needs?: readonly HookName[];
  /**
   * Parts of the document the test exercises or leans on as its oracle; a target whose
   * profile does not serve one of them gets not-run.
   */
  readonly parts?: readonly ProfilePart[];
  /**
   * `unspecified` clauses whose decision (or the profile's answer to them) the test leans on to
   * check its clauses: our claim names, a field name the document leaves open, an error code
   * outside §7. The clauses it checks are then covered through a decision, not portably, unless
   * every reliance is a shape the profile states (spec/reliance.ts `restsOnDecision`).
   */
  readonly relies?: readonly ClauseId[];
  /**
   * An explicit id within the suite area (lowercase words joined by `-`): results.json then
   * names the test `<area>/<id>` and derives its seed from the id, so expectations files and
   * baselines keep matching it when its name is reworded. Without one, the id is the slug of
   * the name; to give an existing test an id, freeze that slug.
   */
  readonly id?: string;
  readonly timeout?: number;
}

const EXPLICIT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const DEFAULT_RUNS = 25;

/** FNV-1a over the run seed and the test name: a stable per-test seed. */
export function testSeed(runSeed: number, name: string): number {
  let h = 0x811c9dc5 ^ runSeed;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Whether the target can do what a hook name stands for: the hook itself, or, for an account
 * and its project, a pre-provisioned one from `--credentials` (given/accounts.ts then hands
 * out that one account, and a test that needs a second one ends as not-run).
 */
function available(target: Target, need: HookName): boolean {
  if (target.hooks.includes(need)) return true;
  return provisionedFor(target.credentials, need);
}

/**
 * The target as a test sees it: the same fields, the hub address read through a guard. A test
 * that reaches for the hub of a target given without one (no `--hub`) ends not-run saying so,
 * rather than calling some other address.
 */
export function testTarget(target: Target, notRun: Conformance['notRun']): TestTarget {
  const { hubUrl, ...rest } = target;
  return {
    ...rest,
    get hubUrl(): string {
      return hubUrl ?? notRun(NO_HUB_REASON, cause.part('hub'));
    },
  };
}

/**
 * Why a test cannot run on this target, in this order: parts it exercises that the target
 * lacks (the hub of a run given no `--hub` named as such), else host hooks it needs, else
 * open shapes its reading rests on that the profile does not state; undefined when it can run.
 * The reason is for a person, the causes are what the reports count.
 */
export function notRunReason(
  target: Target,
  options: Pick<ConformanceOptions, 'parts' | 'needs' | 'relies'>,
): { reason: string; causes: NotRunCause[] } | undefined {
  const parts = options.parts ?? [];
  // A run told of no hub names --hub, whatever the profile says of the hub part.
  const hubless = target.hubUrl === undefined && parts.includes('hub');
  const unserved = parts.filter(
    (p) => !(hubless && p === 'hub') && !target.profile.serves.includes(p),
  );
  if (unserved.length > 0 || hubless)
    return {
      reason: [
        ...(unserved.length > 0
          ? [`the target's profile does not serve ${unserved.join(', ')}`]
          : []),
        ...(hubless ? [NO_HUB_REASON] : []),
      ].join('; '),
      causes: [...unserved, ...(hubless ? ['hub'] : [])].map(cause.part),
    };
  const missing = (options.needs ?? []).filter((h) => !available(target, h));
  if (missing.length > 0)
    return {
      reason: `the target lacks the host hook${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      causes: missing.map(hookCause),
    };
  return unstatedReason(target.profile, options.relies ?? []);
}

/**
 * A missing hook as a not-run cause. agent-grammar is a target's word that its agent reads
 * questions in our vocabulary: the document fixes none (partial.form.chat-words), so a test of
 * that vocabulary waits on a gap of the document, not on something the target lacks.
 */
function hookCause(hook: string): NotRunCause {
  return hook === 'agent-grammar' ? cause.documentGap('partial.form.chat-words') : cause.hook(hook);
}

/** Why a test relying on `relies` cannot run on a target of this profile; undefined when it can. */
function unstatedReason(
  profile: TargetProfile,
  relies: readonly ClauseId[],
): { reason: string; causes: NotRunCause[] } | undefined {
  const unstated = unstatedEntries(profile, relies);
  if (unstated.length === 0) return undefined;
  return {
    reason: `the target's profile does not state ${unstated.map((u) => u.text).join(', ')}`,
    causes: unstated.map((u) => (u.follows ? cause.follows(u.clause) : cause.shape(u.entry))),
  };
}

function areaOf(file: string): string {
  return /suites[\\/]([^\\/]+)[\\/]/.exec(file)?.[1] ?? 'unknown';
}

/** Arguments `eac run` was given that point a replay at the same target (see global-setup). */
function replayArgs(): readonly string[] {
  try {
    return inject('eacReplayArgs') ?? [];
  } catch {
    return [];
  }
}

/** `http://h:1/v1/projects/3f…/roles?x=1` -> `/v1/projects/{id}/roles`: where a probe looked. */
export function endpointOf(exchange: Exchange | undefined): string | undefined {
  if (exchange === undefined) return undefined;
  let pathname: string;
  try {
    pathname = new URL(exchange.request.url).pathname;
  } catch {
    pathname = exchange.request.url.split('?')[0] ?? exchange.request.url;
  }
  const template = pathname
    .split('/')
    .map((part) =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(part) ||
      /^\d{3,}$/.test(part)
        ? '{id}'
        : part,
    )
    .join('/');
  return `${exchange.request.method} ${template}`;
}

/** Keeps an observation whole up to the limit, and says so when it had to cut it. */
export function boundObservation(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  return `${text.slice(0, MAX_OBSERVATION_CHARS)}… (${text.length - MAX_OBSERVATION_CHARS} more characters not kept)`;
}

type Body<C> = (t: C) => Promise<void> | void;

function assertOpen(name: string, id: ClauseId): void {
  if (clauseById.get(id)?.level !== 'unspecified')
    throw new Error(`test "${name}" relies on ${id}, which is not an unspecified clause`);
}

/** The profile's statement of reliances a path of the test takes: not-run when one is unstated. */
function relyOn(
  profile: TargetProfile,
  meta: EacMeta,
  notRun: Conformance['notRun'],
  clauses: readonly ClauseId[],
): void {
  const why = unstatedReason(profile, clauses);
  if (why !== undefined) notRun(why.reason, why.causes);
  for (const id of clauses) if (!meta.relies.includes(id)) meta.relies.push(id);
}

function register<C extends Conformance>(
  kind: DeclaredTest['kind'],
  clauses: readonly ClauseId[],
  name: string,
  options: ConformanceOptions,
  build: (
    base: Conformance,
    meta: EacMeta,
  ) => {
    readonly t: C;
    readonly finish?: () => void;
    /** Turns an exception the body threw into a recorded outcome; true when it did. */
    readonly absorb?: (err: unknown) => boolean;
  },
  body: Body<C>,
): void {
  if (clauses.length === 0) throw new Error(`test "${name}" cites no clause`);
  if (options.id !== undefined && !EXPLICIT_ID.test(options.id))
    throw new Error(`test "${name}": id "${options.id}" is not lowercase words joined by -`);
  for (const id of options.relies ?? []) assertOpen(name, id);
  const declared: DeclaredTest = {
    kind,
    ...(options.id !== undefined ? { id: options.id } : {}),
    clauses: [...clauses],
    relies: [...(options.relies ?? [])],
    needs: [...(options.needs ?? [])],
    parts: [...(options.parts ?? [])],
  };
  // The clause ids ride in the test name so that `--only CLAUSE` can select by name, and so does
  // an explicit id, so that `--only AREA/ID` (a replay line) finds its test; what the test
  // declares rides in its meta, readable by a collection that runs nothing.
  test(
    `${name}${options.id !== undefined ? ` [${options.id}]` : ''} {${clauses.join(' ')}}`,
    { timeout: options.timeout ?? 30_000, meta: { eacDeclared: declared } },
    async (ctx: TestContext) => {
      const target = inject('eacTarget');
      const seed = testSeed(target.seed, options.id ?? name);
      const meta: EacMeta = {
        ...(options.id !== undefined ? { id: options.id } : {}),
        clauses: [...clauses],
        relies: [...(options.relies ?? [])],
        kind,
        name,
        area: areaOf(ctx.task.file.filepath),
        seed,
      };
      ctx.task.meta.eac = meta;
      const notRun: Conformance['notRun'] = (reason, causes): never => {
        meta.outcome = 'not-run';
        meta.reason = reason;
        meta.causes =
          causes === undefined
            ? [cause.other(reason.split(/\r?\n/, 1)[0] ?? reason)]
            : [causes].flat();
        ctx.skip(reason);
        throw new Error('unreachable: skip did not stop the test');
      };
      const seen = testTarget(target, notRun);
      const http = new Http(seen, notRun);
      const why = notRunReason(target, options);
      if (why !== undefined) notRun(why.reason, why.causes);
      const faker = seededFaker(seed);
      const base: Conformance = {
        target: seen,
        profile: target.profile,
        http,
        hooks: new Hooks(http, target, notRun),
        faker,
        seed,
        fc: (numRuns = DEFAULT_RUNS) => propertyOptions(seed, numRuns),
        notRun,
        relyOn: (...ids) => {
          for (const id of ids) assertOpen(name, id);
          relyOn(target.profile, meta, notRun, ids);
        },
      };
      ctx.onTestFailed(() => {
        meta.exchanges = [...http.exchanges];
      });
      const built = build(base, meta);
      try {
        try {
          await body(built.t);
          built.finish?.();
        } catch (err) {
          if (!(built.absorb?.(err) ?? false)) throw err;
        }
        // A 5xx from the reference is always a bug of the reference, even in a passing test.
        if (target.checkDecisions && http.serverErrors.length > 0) {
          throw new Error(`the target answered 5xx: ${http.serverErrors.join('; ')}`);
        }
      } catch (err) {
        if (err instanceof Error && !err.message.includes('replay:')) {
          err.message += `\n  seed ${target.seed} (test seed ${seed}); replay: ${replayLine({ runSeed: target.seed, targetArgs: replayArgs() }, testIdOf(meta))}`;
        }
        throw err;
      }
    },
  );
}

/**
 * A test of `must` or `observed` clauses: it passes or fails (STYLE 1: it names one
 * behaviour and cites the clauses it checks).
 */
export function conformance(
  clauses: readonly ClauseId[],
  name: string,
  body: Body<Conformance>,
  options: ConformanceOptions = {},
): void {
  // A pass or fail needs something the document (or security) requires; where the document
  // is silent the test is a probe.
  if (clauses.every((id) => clauseById.get(id)?.level === 'unspecified'))
    throw new Error(
      `conformance test "${name}" cites only unspecified clauses: make it a probe, or cite what it checks`,
    );
  register('conformance', clauses, name, options, (base) => ({ t: base }), body);
}

/**
 * A probe of `unspecified` clauses: it records what the target does where the document is
 * silent, next to the reference's decision, for the ambiguity table.
 */
export function probe(
  clauses: readonly ClauseId[],
  name: string,
  body: Body<Probe>,
  options: ConformanceOptions = {},
): void {
  const decisions = clauses
    .map((id) => clauseById.get(id)?.decision)
    .filter((d): d is string => d !== undefined);
  // A probe that cites a clause the document requires (or security forbids) would let that
  // clause go unchecked on another target; runner/citations.test.ts refuses it over all
  // the suites (not here, so that one such file does not stop the others from loading).
  register(
    'probe',
    clauses,
    name,
    options,
    (base, meta) => {
      const observations: Observation[] = [];
      let dropped = 0;
      const t: Probe = {
        ...base,
        observe(observation: string, matchesDecision: boolean) {
          const endpoint = endpointOf(base.http.exchanges.at(-1));
          if (observations.length < MAX_OBSERVATIONS)
            observations.push({
              observation: boundObservation(observation),
              matchesDecision,
              ...(endpoint !== undefined ? { endpoint } : {}),
            });
          else dropped += 1;
          meta.observations = observations;
          meta.outcome = 'probe';
          meta.reason =
            observations.map((o) => o.observation).join('; ') +
            (dropped > 0 ? `; … ${dropped} more observations not kept` : '');
          meta.decision = decisions.join(' | ');
          meta.exchanges = [...base.http.exchanges];
          if (base.target.checkDecisions && !matchesDecision) {
            throw new Error(
              `the target departs from the reference's decision.\n  decision: ${meta.decision}\n  observed: ${observation}`,
            );
          }
        },
      };
      const finish = () => {
        if (observations.length === 0)
          throw new Error('the probe ended without recording what the target did');
      };
      // On a foreign target a probe never fails: an exception while it records (an answer it
      // could not parse, a set-up the target answered its own way, a request that failed) ends
      // it as a probe-error, an outcome of its own. Against the reference it stays a failure. A
      // not-run (vitest's skip) passes through.
      const absorb = (err: unknown): boolean => {
        if (base.target.checkDecisions || meta.outcome === 'not-run') return false;
        if (err instanceof Error && /skip/i.test(err.name)) return false;
        recordProbeError(meta, observations, err, {
          exchanges: base.http.exchanges,
          decision: decisions.join(' | '),
        });
        return true;
      };
      return { t, finish, absorb };
    },
    body,
  );
}

/**
 * Ends a probe that broke before or while it recorded as a probe-error: what broke is kept as
 * an observation of kind probe-error beside any the probe recorded before it broke.
 */
export function recordProbeError(
  meta: EacMeta,
  observations: Observation[],
  err: unknown,
  seen: { readonly exchanges: readonly Exchange[]; readonly decision: string },
): void {
  const message = err instanceof Error ? err.message : String(err);
  const endpoint = endpointOf(seen.exchanges.at(-1));
  observations.push({
    observation: boundObservation(`probe-error: ${message}`),
    matchesDecision: false,
    kind: 'probe-error',
    ...(endpoint !== undefined ? { endpoint } : {}),
  });
  meta.observations = observations;
  meta.outcome = 'probe-error';
  meta.reason = observations.map((o) => o.observation).join('; ');
  meta.decision = seen.decision;
  meta.exchanges = [...seen.exchanges];
}

/**
 * Whether the target's profile states an open point a comparison rests on (spec/reliance.ts):
 * a test or comparison that rests on one the profile does not state takes another path or is left
 * out, never failed.
 */
export function states(t: Pick<Conformance, 'profile'>, clause: ReliedClause): boolean {
  return unstatedEntries(t.profile, [clause]).length === 0;
}
