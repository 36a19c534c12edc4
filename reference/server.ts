// Placeholder signature; the real server lands in the same change.
export interface StartOptions {
  /** 0 (default) picks an ephemeral port. */
  readonly port?: number;
  readonly host?: string;
  /** Serve the host hooks under `/__eac`. */
  readonly hooks?: boolean;
  /** Seed for ids and keys, so runs can be replayed. */
  readonly seed?: number;
  readonly logger?: boolean;
}

export interface RunningReference {
  readonly url: string;
  readonly hubUrl: string;
  readonly hooksUrl?: string;
  close(): Promise<void>;
}

export declare function start(options?: StartOptions): Promise<RunningReference>;
