import type { ClauseId } from './clauses/index.ts';
import type { TargetProfile } from './profile.ts';

/**
 * Where a target's profile states its answer to each unspecified clause a test may rely on
 * (`relies` of conformance()). A test runs on a target only when the profile states every
 * reliance it declares; otherwise the harness makes it not-run before it sends a request, naming
 * the entry. An entry is a dot path into the profile (`shapes.tokenClaims`), or `follows`: the
 * clause is a behaviour, stated by listing its id in the profile's `follows`.
 *
 * A unit test (suites/harness/reliance.test.ts) checks that every `relies` of the suites has a
 * row here and that the reference's own profile states every row.
 */
export const RELIANCE = {
  'auth.header.format': 'shapes.authorizationHeader',
  'auth.org-bound.organization-id-shape': 'follows',
  'charts.save-from-chat.permissions': 'follows',
  'charts.save-from-chat.required-fields': 'follows',
  'dashboards.append-charts-from.copies': 'follows',
  'dashboards.connection-id.guest': 'follows',
  'dashboards.copy.chart-ids': 'follows',
  'dashboards.copy.clone-beside': 'follows',
  'dashboards.tenant-permissions.read-at-write': 'follows',
  'dashboards.v1-add-charts.repeat': 'follows',
  'dashboards.v1-list.api-key-view': 'follows',
  'dashboards.v1-record.fields': 'shapes.v1Dashboard',
  'dashboards.v1-shapes.not-shown': 'shapes.endpoints',
  'dashboards.v1-writes.credentials': 'follows',
  'hub.controls.placement': 'follows',
  'hub.dashboard.navigation': 'follows',
  'hub.drill-down.rows': 'hub.things.drillDownRows',
  'hub.events.height-message': 'hub.heightMessage',
  'hub.events.embed-params-shape': 'hub.paramsMessage',
  'hub.filters.values': 'follows',
  'hub.schedule-report.organization': 'hub.scheduledReports',
  'hub.v1-component.page': 'hub.v1Component',
  'migration.chart-ids-kept': 'follows',
  'migration.tenant-users': 'follows',
  'orgs.identifier.resolution-order': 'follows',
  'orgs.register.external-id-upsert': 'follows',
  'tenants.register.field-names': 'shapes.registerTenant',
  'tenants.register.identity': 'shapes.tenantIdentity',
  'tokens.claims': 'shapes.tokenClaims',
  'tokens.embed-token.body-shape': 'shapes.embedToken',
  'tokens.embed-token.creates': 'follows',
  'tokens.embed-token.response-fields': 'shapes.embedToken.answer',
  'tokens.embed-token.upserts': 'follows',
  'tokens.jwt.exp-matches-expires-at': 'follows',
  'users.update.absent-fields-unchanged': 'follows',
  'users.update.response-fields': 'shapes.userUpdate',
  'v2.applications.list.before-finalize': 'follows',
  'v2.credentials.api-key-carrier': 'follows',
  'v2.dashboards.lookup-path': 'shapes.endpoints.lookUpDashboard',
  'v2.no-organization.calls': 'follows',
  'v2.refusals.not-found': 'follows',
  'v2.shapes.beyond-named-fields': 'shapes.v2Dashboard',
  'workspaces.list-item.fields': 'shapes.workspaceItem',
  'workspaces.list.filter-names': 'shapes.listWorkspacesFilters',
} as const satisfies Partial<Record<ClauseId, string>>;

export type ReliedClause = keyof typeof RELIANCE;

/**
 * Reliances a profile may also state by another entry than their row: following the decision
 * (the row) or stating the shape the target takes instead. v2.credentials.api-key-carrier: the
 * decided `apiKey` member, or the header shapes.v2ApiKey names; the suites send the key where the
 * profile says.
 */
export const STATED_OTHERWISE: Readonly<Partial<Record<ReliedClause, string>>> = {
  'v2.credentials.api-key-carrier': 'shapes.v2ApiKey',
};
/**
 * Shape entries whose clause's recorded decision is itself a shape: a profile that lists the
 * clause in `follows` answers in the decided shape, which states the entry as well (the
 * harness then reads in the decided shape). Profiles written before the entry keep working.
 */
export const STATED_BY_FOLLOWS: ReadonlySet<ReliedClause> = new Set<ReliedClause>([
  'users.update.response-fields',
  'v2.shapes.beyond-named-fields',
]);

/** True when the profile follows the clause's decision and that decision states its shape. */
export function followsDecidedShape(profile: TargetProfile, clause: ReliedClause): boolean {
  return STATED_BY_FOLLOWS.has(clause) && (profile.follows ?? []).includes(clause);
}

/**
 * Whether a reliance rests on a decision of ours: its row is `follows` (or it has none) and no
 * shape may state it otherwise. A reliance a profile states as a shape (a field name, a path, a
 * carrier) does not: the test reads the target's own shape and is not-run, with a shape cause,
 * where the profile states none, so what it checks holds on any target that states it.
 */
export function restsOnDecision(id: string): boolean {
  if ((STATED_OTHERWISE as Record<string, string | undefined>)[id] !== undefined) return false;
  const entry = (RELIANCE as Record<string, string | undefined>)[id];
  return entry === undefined || entry === 'follows';
}

function at(profile: unknown, path: string): unknown {
  let here: unknown = profile;
  for (const key of path.split('.')) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** A reliance the profile does not state: the clause, the entry that would state it. */
export interface UnstatedReliance {
  readonly clause: string;
  /** The profile's dot path, or `follows` (the clause listed in the profile's `follows`). */
  readonly entry: string;
  /** True when the profile states it by listing the clause in `follows`. */
  readonly follows: boolean;
  /** `clause (entry)`, as a reason words it. */
  readonly text: string;
}

/**
 * The reliances of a test this profile does not state; empty when it states them all. A
 * reliance with no row is reported too (entry `follows`: only a listing could state it).
 */
export function unstatedEntries(
  profile: TargetProfile,
  relies: readonly string[],
): UnstatedReliance[] {
  const missing: UnstatedReliance[] = [];
  for (const id of relies) {
    const otherwise = (STATED_OTHERWISE as Record<string, string | undefined>)[id];
    if (otherwise !== undefined && at(profile, otherwise) !== undefined) continue;
    const entry = (RELIANCE as Record<string, string>)[id];
    if (entry === undefined)
      missing.push({
        clause: id,
        entry: 'follows',
        follows: true,
        text: `${id} (no profile entry states it)`,
      });
    else if (entry === 'follows') {
      if (!(profile.follows ?? []).includes(id))
        missing.push({ clause: id, entry, follows: true, text: `${id} (follows)` });
    } else if (
      at(profile, entry) === undefined &&
      !followsDecidedShape(profile, id as ReliedClause)
    )
      missing.push({ clause: id, entry, follows: false, text: `${id} (${entry})` });
  }
  return missing;
}

/** The same, as `clause (entry)` texts. */
export function unstatedReliances(profile: TargetProfile, relies: readonly string[]): string[] {
  return unstatedEntries(profile, relies).map((u) => u.text);
}
