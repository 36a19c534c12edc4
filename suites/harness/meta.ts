import type {} from 'vitest';
import type { NotRunCause } from './causes.ts';

/**
 * What a conformance test records about itself, carried to the reporters in vitest's task meta.
 * The runner's reporter reads `meta.eac` of every test case; `meta.eacDeclared` is known as soon
 * as the test is registered, so a collection without a run can check citations.
 */
export type Outcome = 'pass' | 'fail' | 'not-run' | 'probe' | 'probe-error';

export interface Exchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body?: unknown;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body?: unknown;
  };
  readonly error?: string;
  readonly ms: number;
}

/** One thing a probe saw the target do, next to whether it is what the reference decided. */
export interface Observation {
  /** What the target did, in the probe's words (bounded, see MAX_OBSERVATION_CHARS). */
  readonly observation: string;
  /** Whether it is what the reference decided (or what the profile says the target chose). */
  readonly matchesDecision: boolean;
  /** Method and path template of the last request before the observation, e.g. `GET /v1/x/{id}`. */
  readonly endpoint?: string;
  /** Set when the probe itself broke on a foreign target: what broke, not what the target did. */
  readonly kind?: 'probe-error';
}

/** An observation is kept whole up to this many characters (16 KiB), then cut with a mark. */
export const MAX_OBSERVATION_CHARS = 16 * 1024;
/** At most this many observations are kept per test; the count of the rest is noted. */
export const MAX_OBSERVATIONS = 200;

/** What a test declares when it is registered, before anything runs. */
export interface DeclaredTest {
  readonly kind: 'conformance' | 'probe';
  /** The test's explicit id within its area (`ConformanceOptions.id`), when it has one. */
  readonly id?: string;
  readonly clauses: readonly string[];
  readonly relies: readonly string[];
  readonly needs: readonly string[];
  readonly parts: readonly string[];
}

export interface EacMeta {
  /** Explicit id within the area: results.json `id` is `<area>/<id>` whatever the name says. */
  id?: string;
  /** Clause ids the test checks. */
  clauses: string[];
  /** Unspecified clauses whose decision the test leans on (coverage through a decision). */
  relies: string[];
  /** Whether the test was registered with conformance() or probe(). */
  kind?: 'conformance' | 'probe';
  /** Human name of the behaviour, without the clause suffix vitest sees. */
  name: string;
  /** Suite area: the folder under suites/. */
  area: string;
  /**
   * Set by the wrapper for not-run, probe and probe-error (a probe that broke before or while
   * it recorded, on a foreign target); pass/fail come from vitest's own result.
   */
  outcome?: 'not-run' | 'probe' | 'probe-error';
  /** Why a test did not run, or what a probe observed. */
  reason?: string;
  /** For a not-run: what it waits on, as data (causes.ts); the reports group by entry. */
  causes?: NotRunCause[];
  /** For probes: the reference's recorded decision, next to what the target did. */
  decision?: string;
  /** For probes: every observation, in order, with whether it matches the decision. */
  observations?: Observation[];
  /** Per-test seed, for the replay line. */
  seed: number;
  /** HTTP exchanges of a failed or probed test (the last ones, bounded). */
  exchanges?: Exchange[];
}

declare module 'vitest' {
  interface TaskMeta {
    eac?: EacMeta;
    eacDeclared?: DeclaredTest;
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Arguments of `eac run` that a replay line keeps (`--credentials`, `--profile`, ...). */
    eacReplayArgs: string[];
    /** The run's report folder, when `eac run` made one (screenshots of failures go there). */
    eacReportDir?: string;
  }
}

/** `roles.update` -> `roles-update`; stable, lowercase, safe in URLs and file names. */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'unnamed' : s;
}

/**
 * A test's id as results.json records it (reports/results.ts assignIds): `<area>/<explicit
 * id>`, or `<area>/<slug of the name>`; `--only` takes it and runs that one test.
 */
export function testIdOf(meta: Pick<EacMeta, 'area' | 'id' | 'name'>): string {
  return `${meta.area}/${meta.id ?? slug(meta.name)}`;
}
