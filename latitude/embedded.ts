import { readFileSync } from 'node:fs';
import type { FreedomId, LATITUDE } from '../spec/latitude.ts';
import { TargetProfile } from '../spec/profile.ts';
import { start, type MachineRowCount } from '../reference/server.ts';
import { behaviourIds, chosenIds, type LatitudeVary } from './choice.ts';
import { startLatitude, type RunningLatitude } from './proxy.ts';

/** The reference's own profile, which the printed profile restates. */
const REFERENCE_PROFILE = new URL('../fixtures/profiles/reference.json', import.meta.url);

type BehaviourId = Extract<(typeof LATITUDE)[number], { kind: 'behaviour' }>['id'];

/** The reference's own profile (fixtures/profiles/reference.json). */
export function referenceProfile(): TargetProfile {
  return TargetProfile.parse(JSON.parse(readFileSync(REFERENCE_PROFILE, 'utf8')));
}

/** A profile restated for the reference taking these behaviour entries (`eac serve --latitude`). */
export function behaviourProfile(
  behaviours: readonly FreedomId[],
  base: TargetProfile = referenceProfile(),
): TargetProfile {
  return behaviours.reduce((p, id) => BEHAVIOUR_SHAPES[id as BehaviourId](p), base);
}

/**
 * What each behaviour entry changes in the profile, as the reference takes it
 * (reference/settings.ts): the printed profile must state the target's choice.
 */
const BEHAVIOUR_SHAPES: Readonly<Record<BehaviourId, (p: TargetProfile) => TargetProfile>> = {
  'tenant.identity-name': (p) => ({
    ...p,
    shapes: { ...p.shapes, tenantIdentity: 'columns-and-name' },
  }),
  // HS256 with a shared secret: no key set is published.
  'tokens.hs256': (p) => {
    const { jwks: _dropped, ...shapes } = p.shapes;
    return { ...p, shapes };
  },
  'auth.both-forms': (p) => ({ ...p, shapes: { ...p.shapes, authorizationHeader: 'both' } }),
  // exp no longer names the end of a token's life (it is the second after expiresAt).
  'tokens.through-expires-at': (p) => ({
    ...p,
    follows: (p.follows ?? []).filter((id) => id !== 'tokens.jwt.exp-matches-expires-at'),
  }),
  // The nested layout: the user in `uid`, the rest under `ctx`.
  'claims.layout': (p) => ({
    ...p,
    shapes: {
      ...p.shapes,
      tokenClaims: {
        ...p.shapes.tokenClaims,
        subject: 'uid',
        permissions: 'ctx.permissions',
        role: 'ctx.role',
        projectOrganization: 'ctx.organization',
        properties: 'ctx.properties',
      },
    },
  }),
  // The permissions as granted names: nested under ctx when the layout is, else a claim of
  // their own (a namespaced one for the array, reached by a JSON pointer).
  'claims.permissions-array': (p) =>
    permissionsIn(p, 'array', '/https:~1~1eac.example~1permissions'),
  'claims.permissions-string': (p) => permissionsIn(p, 'string', 'scope'),
  // The user a token stands for, read as stored now: nothing the profile states changes.
  'tokens.live-user': (p) => p,
  // A user with no role may do nothing: the profile states no permission of it.
  'permissions.no-role-nothing': (p) => p,
  // Recursive SQL refused: the profile states nothing of which SQL runs.
  'sql.no-recursion': (p) => p,
  // Property values bound as text: nothing the profile states.
  'properties.bound-as-text': (p) => p,
  // The second agent (reference/chat/second-agent.ts): where it reports the answering version,
  // and example questions in its own words over the sales table the chat tests load.
  'chat.second-agent': (p) => ({
    ...p,
    chat: {
      ...p.chat,
      versionReport: { event: 'start', pointer: '/payload/agent/version' },
      examples: {
        charts: [
          'Show the total amount per product',
          'What is the average amount for each region?',
          'How many orders per tenant?',
          'Largest amount across regions as a table',
        ],
        thread: {
          question: 'Show the total amount per region',
          followUp: 'now as a pie chart',
          keeps: ['/dimensions', '/measures'],
        },
      },
    },
  }),
  // Probes record these answers; no profile entry states them and no test relies on them.
  'chat.requests-answered': (p) => p,
  'chat.version-carried': (p) => p,
  'chat.sliding-window': (p) => p,
  // The dashboard alone, by redirection: the decision that the page shows the application's
  // navigation no longer holds.
  'hub.dashboard-redirect': (p) => ({
    ...p,
    follows: (p.follows ?? []).filter((id) => id !== 'hub.dashboard.navigation'),
  }),
  // Probed only.
  'hub.unloadable-line-only': (p) => p,
  // A value that is not JSON sets a filter: the decision no longer holds whole.
  'hub.filter-text': (p) => ({
    ...p,
    follows: (p.follows ?? []).filter((id) => id !== 'hub.filters.values'),
  }),
  // Probed only.
  'hub.drill-sampled': (p) => p,
  'hub.v1-component-dashboard-page': (p) =>
    p.hub === undefined ? p : { ...p, hub: { ...p.hub, v1Component: 'dashboard-page' } },
  'hub.no-scheduled-reports': (p) =>
    p.hub === undefined ? p : { ...p, hub: { ...p.hub, scheduledReports: 'none' } },
  'dashboards.layout-strict': (p) =>
    notFollowing(p, 'dashboards.remove-charts.unknown-chart', 'dashboards.v1-add-charts.repeat'),
  // No test rests on the split being required (a probe records it): the profile stays.
  'tenants.split-optional': (p) => p,
  'dashboards.connections-unchecked': (p) => notFollowing(p, 'dashboards.connection-id.guest'),
  'dashboards.append-same-charts': (p) => notFollowing(p, 'dashboards.append-charts-from.copies'),
  'dashboards.charts-renumbered': (p) =>
    notFollowing(p, 'dashboards.copy.chart-ids', 'migration.chart-ids-kept'),
  'dashboards.key-sees-all': (p) => notFollowing(p, 'dashboards.v1-list.api-key-view'),
  'dashboards.clone-in-place': (p) => notFollowing(p, 'dashboards.copy.clone-beside'),
  'v2.unmigrated-refused': (p) => notFollowing(p, 'v2.applications.list.before-finalize'),
  'charts.save-checked': (p) => notFollowing(p, 'charts.save-from-chat.permissions'),
  'migration.tenants-shared-organization': (p) => notFollowing(p, 'migration.tenant-users'),
  'v2.no-organization-own-space': (p) => notFollowing(p, 'v2.no-organization.calls'),
  // A project-user token is taken on the v1 calls beside clone: the decision no longer holds.
  'dashboards.v1-project-users': (p) => notFollowing(p, 'dashboards.v1-writes.credentials'),
  'tenants.permissions-at-issue': (p) =>
    notFollowing(p, 'dashboards.tenant-permissions.read-at-write'),
  'tokens.embed-creates-only': (p) => notFollowing(p, 'tokens.embed-token.upserts'),
  'charts.save-name-required': (p) => notFollowing(p, 'charts.save-from-chat.required-fields'),
  'tokens.embed-known-only': (p) => notFollowing(p, 'tokens.embed-token.creates'),
};

/**
 * The profile without these `follows` entries: the behaviour makes the other choice, so the tests
 * that rest on the reference's end not-run on it, as on any target that does not state them.
 */
function notFollowing(p: TargetProfile, ...clauses: readonly string[]): TargetProfile {
  return { ...p, follows: (p.follows ?? []).filter((id) => !clauses.includes(id)) };
}

/** The profile with the permissions claim in `form`, at `flatPath` unless nested under ctx. */
function permissionsIn(
  p: TargetProfile,
  form: 'array' | 'string',
  flatPath: string,
): TargetProfile {
  const claims = p.shapes.tokenClaims;
  const nested = claims?.permissions === 'ctx.permissions';
  return {
    ...p,
    shapes: {
      ...p.shapes,
      tokenClaims: {
        ...claims,
        permissions: nested ? 'ctx.permissions' : flatPath,
        permissionsForm: form,
      },
    },
  };
}

export interface EmbeddedLatitude extends RunningLatitude {
  /** The reference's profile restated by every chosen entry: what the run reads. */
  readonly printedProfile: TargetProfile;
  /** The reference behind the proxy, reached directly. */
  readonly target: { readonly url: string; readonly hubUrl: string; readonly hooksUrl?: string };
  /** What the reference behind the proxy counted of its machines' tables. */
  readonly machineRows: () => MachineRowCount[];
}

/**
 * Starts the reference with the chosen behaviour entries switched on, and the latitude proxy in
 * front of it with the chosen form entries; closing closes both.
 */
export async function startLatitudeOnReference(options: {
  readonly vary: LatitudeVary;
  readonly seed?: number;
  /** The proxy's ports, the ones a run is pointed at (0 or none: ephemeral ones). */
  readonly port?: number;
  readonly hubPort?: number;
  readonly log?: (line: string) => void;
}): Promise<EmbeddedLatitude> {
  const chosen: readonly FreedomId[] = chosenIds(options.vary);
  const behaviours = behaviourIds(chosen);
  const randomSeed =
    typeof options.vary === 'object' && 'random' in options.vary ? options.vary.random : undefined;
  const seed = options.seed ?? randomSeed;
  const reference = await start({
    hooks: true,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    latitude: behaviours,
  });
  let proxy: RunningLatitude;
  try {
    proxy = await startLatitude({
      target: reference.url,
      hub: reference.hubUrl,
      ...(reference.hooksUrl === undefined ? {} : { hooks: reference.hooksUrl }),
      // The same entries the random choice took, named, so it is made (and printed) once.
      vary: [...chosen],
      base: referenceProfile(),
      ...(seed === undefined ? {} : { seed }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.hubPort === undefined ? {} : { hubPort: options.hubPort }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  } catch (error) {
    await reference.close();
    throw error;
  }
  if (randomSeed !== undefined) {
    (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
      `latitude random:${String(randomSeed)} takes ${chosen.join(', ')}`,
    );
  }
  const restated = behaviourProfile(behaviours, proxy.profile(referenceProfile()));
  const printedProfile: TargetProfile = {
    ...restated,
    description: `eac-latitude over eac-reference: ${chosen.join(', ')}`,
  };
  return {
    ...proxy,
    printedProfile,
    target: {
      url: reference.url,
      hubUrl: reference.hubUrl,
      ...(reference.hooksUrl === undefined ? {} : { hooksUrl: reference.hooksUrl }),
    },
    machineRows: () => reference.machineRows(),
    close: async () => {
      await proxy.close();
      await reference.close();
    },
  };
}
