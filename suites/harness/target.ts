import type {} from 'vitest';
import type { TargetProfile } from '../../spec/profile.ts';

/** What the suites know about the implementation under test. Serialisable (crosses into workers). */
export interface Target {
  /** Base address of the service, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Address of the hub that serves embedded pages; absent when the run was not told where the
   * hub is (`--target` without `--hub`): the hub tests then end not-run (NO_HUB_REASON).
   */
  readonly hubUrl?: string;
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

/**
 * The target as a test sees it (`t.target`): its hub address always reads as a string, as a
 * test reads it only to reach the hub; on a target without one, reading it ends the test
 * not-run with NO_HUB_REASON (suites/harness/conformance.ts).
 */
export type TestTarget = Omit<Target, 'hubUrl'> & { readonly hubUrl: string };

/** Why a hub test did not run on a target given without a hub address. */
export const NO_HUB_REASON = 'no hub given (--hub URL): the hub pages were not tested';

/** A role that exists on a pre-provisioned account: its id, project and §2.2 permissions. */
export interface StaticRole {
  readonly id: string;
  /** The project it belongs to; the account's `projectId` when absent. */
  readonly projectId?: string;
  readonly permissions: Readonly<Record<string, boolean>>;
}

/** A hub user who is a member of the account: its user-scoped key (§5 rule 1). */
export interface StaticMember {
  readonly userScopedKey: string;
  readonly hubUserId?: string;
}

/** One pre-provisioned customer account, as a target without the accounts hook offers it. */
export interface StaticAccount {
  readonly organizationId: string;
  readonly userScopedKey?: string;
  readonly orgBoundKey?: string;
  /** The project tests use; without it they need the projects hook. */
  readonly projectId?: string;
  /** More projects of the account, for worlds with several projects. */
  readonly projects?: readonly string[];
  readonly members?: readonly StaticMember[];
  /** Roles that stand in for the roles hook: a test asking for a role gets one of these. */
  readonly roles?: readonly StaticRole[];
  // Room for what later parts need; tests that need one of these read it from the world.
  readonly applications?: readonly string[];
  readonly dashboards?: readonly string[];
  readonly agents?: readonly string[];
  readonly connections?: readonly string[];
}

/**
 * Pre-provisioned accounts for targets without hooks (`--credentials FILE`). The first
 * account's fields also sit at the top level (the single-account shape of earlier files);
 * `accounts` holds all of them, first included.
 */
export interface StaticCredentials extends Partial<StaticAccount> {
  readonly organizationId: string;
  readonly accounts: readonly StaticAccount[];
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Provided by runner/global-setup.ts; read in tests with `inject('eacTarget')`. */
    eacTarget: Target;
  }
}
