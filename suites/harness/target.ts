import type {} from 'vitest';
import type { TargetProfile } from '../../spec/profile.ts';

/** What the suites know about the implementation under test. Serialisable (crosses into workers). */
export interface Target {
  /** Base address of the service, without a trailing slash. */
  readonly baseUrl: string;
  /** Address of the hub that serves embedded pages. */
  readonly hubUrl: string;
  /** Base address of the host hooks, when the target has any. */
  readonly hooksUrl?: string;
  /** Hook names announced at `GET {hooksUrl}/capabilities`. */
  readonly hooks: readonly string[];
  /** `implementation` announced by the capabilities, e.g. `eac-reference`. */
  readonly implementation?: string;
  /**
   * Whether probes of unspecified clauses are held to the reference's recorded decisions
   * (true for the reference itself), or only recorded (any other target).
   */
  readonly checkDecisions: boolean;
  /** Pre-provisioned account for targets without the accounts hook (`--credentials FILE`). */
  readonly credentials?: StaticCredentials;
  /** Seed of the run; each test derives its own from it and its name. */
  readonly seed: number;
  /**
   * What the target states about itself (`--profile FILE`; the reference's profile by
   * default): the parts it serves and its answers to the document's open shapes.
   */
  readonly profile: TargetProfile;
}

export interface StaticCredentials {
  readonly organizationId: string;
  readonly userScopedKey?: string;
  readonly orgBoundKey?: string;
  readonly projectId?: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Provided by suites/runner's global setup; read in tests with `inject('eacTarget')`. */
    eacTarget: Target;
  }
}
