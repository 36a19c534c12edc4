import type {} from 'vitest';

/**
 * What a conformance test records about itself, carried to the reporters in vitest's task meta.
 * The runner's reporter reads `meta.eac` of every test case.
 */
export type Outcome = 'pass' | 'fail' | 'not-run' | 'probe';

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

export interface EacMeta {
  /** Clause ids the test checks. */
  clauses: string[];
  /** Unspecified clauses whose decision the test leans on (coverage through a decision). */
  relies: string[];
  /** Human name of the behaviour, without the clause suffix vitest sees. */
  name: string;
  /** Suite area: the folder under suites/. */
  area: string;
  /** Set by the wrapper for not-run and probe; pass/fail come from vitest's own result. */
  outcome?: 'not-run' | 'probe';
  /** Why a test did not run, or what a probe observed. */
  reason?: string;
  /** For probes: the reference's recorded decision, next to what the target did. */
  decision?: string;
  /** Per-test seed, for the replay line. */
  seed: number;
  /** HTTP exchanges of a failed or probed test (the last ones, bounded). */
  exchanges?: Exchange[];
}

declare module 'vitest' {
  interface TaskMeta {
    eac?: EacMeta;
  }
}
