/**
 * Replay words: the command lines that run a run, a test, a clause or an area again with the
 * same seed against the same target. Rendered here alone, for the reporter, the closing lines,
 * summary.md, index.html, a failing test's message (suites/harness/conformance.ts) and the run
 * line `eac serve` prints.
 */

export interface ReplayContext {
  /** Seed of the whole run (what `--seed` takes). */
  readonly runSeed: number;
  /** Extra arguments that point a replay at the same target, e.g. `['--target', url]`. */
  readonly targetArgs: readonly string[];
}

/** Quotes an argument for a POSIX shell only when it needs it. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Arguments that point a replay at the target of a run, as it was described: the addresses
 * (none for the embedded reference), and the credentials file, profile, certificate authority
 * and --check-decisions the run was given.
 */
export function targetArgsOf(target: {
  readonly baseUrl: string;
  readonly hubUrl?: string | undefined;
  readonly hooksUrl?: string | undefined;
  readonly embedded?: boolean | undefined;
  readonly credentialsFile?: string | undefined;
  readonly profileFile?: string | undefined;
  readonly caFile?: string | undefined;
  readonly checkDecisionsAsked?: boolean | undefined;
  readonly latitude?: string | undefined;
  /** `--image`: a replay starts the image again instead of naming its passing addresses. */
  readonly image?: { readonly args?: readonly string[] | undefined } | undefined;
}): string[] {
  const args: string[] = [];
  if (target.image?.args !== undefined) args.push(...target.image.args);
  else if (target.embedded === false) {
    args.push('--target', target.baseUrl);
    // A hub at the target's own address was given all the same: without --hub none is tested.
    if (target.hubUrl !== undefined) args.push('--hub', target.hubUrl);
    if (target.hooksUrl !== undefined) args.push('--hooks', target.hooksUrl);
  }
  if (target.credentialsFile !== undefined) args.push('--credentials', target.credentialsFile);
  if (target.profileFile !== undefined) args.push('--profile', target.profileFile);
  if (target.caFile !== undefined) args.push('--ca', target.caFile);
  if (target.checkDecisionsAsked === true) args.push('--check-decisions');
  if (target.latitude !== undefined) args.push('--latitude', target.latitude);
  return args;
}

/** The command that re-runs the whole run (or the same selection) with the same seed. */
export function runReplayLine(context: ReplayContext, only: readonly string[] = []): string {
  const args = ['npx', 'eac', 'run', '--seed', String(context.runSeed)];
  const selection = only.flatMap((value) => ['--only', value]);
  return [...args, ...selection, ...context.targetArgs].map(shellQuote).join(' ');
}

/** The command that re-runs one test (by its id), or one clause or area, with the same seed. */
export function replayLine(context: ReplayContext, only: string): string {
  const args = ['npx', 'eac', 'run', '--seed', String(context.runSeed), '--only', only];
  return [...args, ...context.targetArgs].map(shellQuote).join(' ');
}
