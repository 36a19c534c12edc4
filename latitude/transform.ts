import type { FreedomId } from '../spec/latitude.ts';
import type { TargetProfile } from '../spec/profile.ts';

/**
 * One answer the proxy relays, whole (bodies are buffered: every answer of the API ends, event
 * streams included), with the request it answers.
 */
export interface Answer {
  readonly request: {
    readonly method: string;
    /** Path and query as the client sent them. */
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Buffer;
    /** Which listener took it: the API (with the hooks under it) or the hub. */
    readonly origin: 'api' | 'hub';
  };
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /**
   * How the body is written out, when a transform chose: each piece written and flushed on its
   * own (their concatenation is `body`). Absent: one write.
   */
  readonly pieces?: readonly Buffer[];
}

/** What a transform's `before` makes of a request. */
export type Before =
  { readonly request: Answer['request'] } | { readonly answer: Omit<Answer, 'request'> };

/** One entry of the latitude catalogue (spec/latitude.ts) as the proxy carries it out. */
export interface Transform {
  readonly id: FreedomId;
  /**
   * Rewrites one relayed answer into another form the document allows; undefined when this
   * answer is not one the freedom concerns or nothing changed. `random` is seeded per answer.
   */
  apply(answer: Answer, random: () => number): Answer | undefined;
  /**
   * Before relaying: the request as a server taking this freedom reads it (`request`: it finds
   * what the target finds elsewhere), or the answer such a server gives at once (`answer`: the
   * request is refused before it acts, so nothing reaches the target and nothing changes). Undefined
   * when the request is not one the freedom concerns. Run on API requests only, in catalogue
   * order; an answer made here goes through every chosen `apply` as the target's own would.
   */
  before?(request: Answer['request']): Before | undefined;
  /**
   * Sees every answer the target gives, hook answers included, before any `apply`: for a
   * transform that keeps what one run has shown (what exists, what was deleted).
   */
  observe?(answer: Answer): void;
  /** The profile stating the shapes this transform produces, from the one before it. */
  restate?(profile: TargetProfile): TargetProfile;
}
