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

/** A request the proxy is about to relay. */
export type Relayed = Answer['request'];

/**
 * What a transform makes of a request before it is relayed: the request rewritten (relayed in
 * its place), or answered by the proxy itself and never relayed (a refused request reaches no
 * target, so it changes nothing); an answer names its request or stands for the one it was given.
 */
export type Before =
  | { readonly request: Relayed }
  | { readonly answer: Omit<Answer, 'request'> & { readonly request?: Relayed } };

/** One entry of the latitude catalogue (spec/latitude.ts) as the proxy carries it out. */
export interface Transform {
  readonly id: FreedomId;
  /**
   * Takes an API request (hooks never) before it is relayed, for a freedom in what a server
   * accepts: undefined leaves it as it is. Transforms take it in catalogue order; the first
   * answer ends the walk, and every transform's `apply` then rewrites that answer as any other.
   */
  before?(request: Relayed): Before | undefined;
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
  /**
   * Rewrites what the target holds rather than how it writes it (which items a list answer
   * carries): its `apply` takes the target's answer before every other transform's, whatever
   * the catalogue order.
   */
  readonly nearest?: boolean;
  /**
   * How long the proxy's listeners give a client to send a request (its line and headers, then
   * the whole of it), and how often they look: a request still arriving after that is answered
   * 408 and its connection closed. Absent: Node's defaults (60 s, 300 s).
   */
  readonly timeouts?: {
    readonly headersMs: number;
    readonly requestMs: number;
    readonly checkMs: number;
  };
  /** The profile stating the shapes this transform produces, from the one before it. */
  restate?(profile: TargetProfile): TargetProfile;
}
