/**
 * `eac profile discover`: writes a draft profile by watching a target answer, for its
 * implementer to review (issue 35). It builds a small world through the target's host hooks,
 * makes the calls the document names, and reads off what the document leaves open: which parts
 * answer, where a project-user token carries the user, role, organization, properties and
 * permissions (and in which form), the key set, how an API key travels in the authorization
 * header, the embed-token members that a call accepted, where a user update answer and the v2
 * lists hold their members, the v2 calls' success statuses, and where a chat answer reports
 * its agent version. Whatever it cannot decide it says, and leaves out of the draft; a `follows`
 * entry is proposed only for a behaviour it saw, and is listed for review. Nothing is applied
 * to a run silently: the draft is a file the implementer reads.
 */
import type { TargetProfile } from '../../spec/profile.ts';
import type { ProfilePart } from '../../spec/profile.ts';
import { buildWorld, givenFor } from '../../suites/harness/given/accounts.ts';
import {
  APPLICATIONS,
  LIST_WORKSPACES,
  REGISTER_ORGANIZATION,
  REGISTER_TENANT,
} from '../../suites/harness/paths.ts';
import type { Target, TestTarget } from '../../suites/harness/target.ts';
import { resolveTarget } from '../target.ts';
import type { TargetSpec } from '../target-spec.ts';
import { behaviours } from './behaviours.ts';
import { chatVersion } from './chat.ts';
import { hubSection } from './hub.ts';
import { identity } from './identity.ts';
import { tenant } from './tenant.ts';
import { routesWithCredentials } from './v1.ts';
import { v1Dashboards } from './v1-dashboards.ts';
import { v2Shapes } from './v2.ts';
import { routeAnswers, Watch } from './watch.ts';

/** What discover saw, decided and left open. */
export interface Discovery {
  /** The draft: only what was observed. */
  readonly profile: TargetProfile;
  /** Entries of the draft a person should confirm before relying on them. */
  readonly review: readonly string[];
  /** What could not be decided from the target's answers, with why. */
  readonly undecided: readonly string[];
  /** One line per observation made, for the terminal. */
  readonly observed: readonly string[];
}

/**
 * Resolves the target the words name, as `eac run` does (a URL, the embedded reference, the
 * latitude proxy before it, an image), watches it, and lets it go.
 */
export async function discoverSpec(spec: TargetSpec, seed: number): Promise<Discovery> {
  const resolved = await resolveTarget(spec, seed);
  try {
    return await discover(resolved.target);
  } finally {
    await resolved.close();
  }
}

/**
 * Watches a target and writes what it saw as a draft profile. What the target's profile states
 * is never read: the draft holds only what the answers showed.
 */
export async function discover(found: Target): Promise<Discovery> {
  const target: TestTarget = {
    ...found,
    hubUrl: found.hubUrl ?? '',
    checkDecisions: false,
    profile: { serves: [], shapes: {} },
  };
  const w = new Watch(givenFor(target));
  if (found.hubUrl !== undefined) {
    w.serves.add('hub');
  } else w.cannot('the hub part', 'no hub address given (--hub URL)');

  if (!target.hooks.includes('accounts') || !target.hooks.includes('projects')) {
    w.cannot(
      'everything a call with credentials shows',
      'the target announces no accounts and projects hooks, so no world can be built (--hooks URL)',
    );
    await partsWithoutCredentials(w);
    return finish(w);
  }
  const world = await buildWorld(w.t);
  await identity(w, world);
  await routesWithCredentials(w, world);
  await tenant(w, world);
  if (w.serves.has('v1-dashboards')) await v1Dashboards(w);
  if (w.serves.has('v2')) await v2Shapes(w, world);
  await chatVersion(w, world);
  if (found.hubUrl !== undefined) await hubSection(w);
  // Last: it builds on the shapes and paths every other part found.
  await behaviours(w, world);
  return finish(w);
}

function finish(w: Watch): Discovery {
  const profile: TargetProfile = {
    description: `A draft written by eac profile discover: review it before a run relies on it.`,
    serves: [...w.serves].sort(),
    shapes: w.shapes,
    ...(w.follows.length === 0 ? {} : { follows: [...w.follows].sort() }),
    ...(w.chat === undefined ? {} : { chat: w.chat }),
    ...(w.hub === undefined ? {} : { hub: w.hub }),
  };
  return { profile, review: w.review, undecided: w.undecided, observed: w.observed };
}

/** Without credentials: a part is served when its route answers at all. */
async function partsWithoutCredentials(w: Watch) {
  const tries: [ProfilePart, string, string][] = [
    ['identity', 'POST', REGISTER_ORGANIZATION],
    ['tenant-flow', 'POST', REGISTER_TENANT],
    ['v1-dashboards', 'GET', LIST_WORKSPACES],
    ['v2', 'GET', APPLICATIONS],
  ];
  for (const [part, method, path] of tries) {
    const res = await w.t.http.call(method, path, method === 'POST' ? { body: {} } : {});
    if (routeAnswers(res)) {
      w.serves.add(part);
      w.review.push(
        `serves ${part}: its route answers (${res.status}) but no call was made with credentials`,
      );
    }
  }
}

/** The terminal's account of a discovery. */
export function renderDiscovery(d: Discovery, out: string): string {
  const lines = [
    `Draft profile written to ${out} (serves ${d.profile.serves.join(', ') || 'nothing seen'}).`,
    '',
    'Observed:',
  ];
  lines.push(...d.observed.map((o) => `  ${o}`));
  if (d.review.length > 0)
    lines.push('', 'Review before relying on it:', ...d.review.map((r) => `  - ${r}`));
  if (d.undecided.length > 0)
    lines.push(
      '',
      'Could not decide (left out of the draft):',
      ...d.undecided.map((u) => `  - ${u}`),
    );
  return `${lines.join('\n')}\n`;
}
