/**
 * Why a test ended not-run, as data: the kind of thing it waits on and the entry that names it.
 * The harness knows both where it ends a test; the reporter carries them into results.json and
 * the reports group by entry, so no report reads a reason's prose back.
 */

/**
 * - `part`: a part of the document the target's profile does not serve, or the hub of a run
 *   given no `--hub` (`part:hub`);
 * - `hook`: a host hook the target lacks (`hook:accounts`), a credentials file standing in for
 *   it included;
 * - `shape`: an open shape or other entry the profile does not state (`shapes.embedToken`,
 *   `hub.heightMessage`, `chat.examples.thread`);
 * - `follows`: a behaviour the profile does not list in `follows` (`follows:<clause id>`);
 * - `browser`: no browser for the hub pages (`browser:driver`, `browser:chromium`,
 *   `browser:setup`);
 * - `document-gap`: the document gives no way to observe what the test needs (`§4.13`, a
 *   clause id);
 * - `other`: the target's own answer left nothing to check (it accepted the request a test
 *   meant to see refused, the agent answered with no chart): none of the kinds above, since no
 *   profile entry, hook or part would change it.
 */
export const NOT_RUN_KINDS = [
  'part',
  'hook',
  'shape',
  'follows',
  'browser',
  'document-gap',
  'other',
] as const;
export type NotRunKind = (typeof NOT_RUN_KINDS)[number];

/** What the hub pages lack: playwright-core, a chromium, or the run's browser setup. */
export type BrowserGap = 'driver' | 'chromium' | 'setup';

export interface NotRunCause {
  readonly kind: NotRunKind;
  /** What the test waits on, e.g. `shapes.embedToken`, `follows:<clause>`, `hook:roles`. */
  readonly entry: string;
}

/** The causes of one not-run, built where the harness knows them. */
export const cause = {
  part: (name: string): NotRunCause => ({ kind: 'part', entry: `part:${name}` }),
  hook: (name: string): NotRunCause => ({ kind: 'hook', entry: `hook:${name}` }),
  /** A profile entry by its dot path: `shapes.tokenClaims`, `hub.things.chart`. */
  shape: (path: string): NotRunCause => ({ kind: 'shape', entry: path }),
  follows: (clause: string): NotRunCause => ({ kind: 'follows', entry: `follows:${clause}` }),
  browser: (missing: BrowserGap): NotRunCause => ({
    kind: 'browser',
    entry: `browser:${missing}`,
  }),
  /** A section (`§4.13`) or clause id the document leaves without a way to observe. */
  documentGap: (point: string): NotRunCause => ({ kind: 'document-gap', entry: point }),
  /** The target's answer left nothing to check; `entry` says what, in a few stable words. */
  other: (entry: string): NotRunCause => ({ kind: 'other', entry }),
} as const;

/** The name an entry carries after its kind's prefix: `hook:roles` -> `roles`. */
export function entryName(c: NotRunCause): string {
  const prefix = `${c.kind === 'browser' ? 'browser' : c.kind}:`;
  return c.entry.startsWith(prefix) ? c.entry.slice(prefix.length) : c.entry;
}
