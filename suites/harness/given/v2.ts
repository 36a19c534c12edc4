import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../../spec/clauses/index.ts';
import type { HookName } from '../../../spec/schemas/hooks.ts';
import type { RolePermissions } from '../../../spec/schemas/permissions.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from './accounts.ts';
import type { Conformance } from '../conformance.ts';
import { fillEndpoint } from '../stated-endpoint.ts';
import type { Reply } from '../http.ts';
import { CONTENT, dashboardsWorld, sharedDashboard, type Shared } from './dashboards.ts';
import { APPLICATIONS, dashboardsPath } from '../paths.ts';
import { expectOpenSuccess, madeEntry, successStatus } from '../expect.ts';

/**
 * What the v2 suites share (§4.16, §5 rules 6 and 7, §9): a migrated account (v1 content built
 * through the host hooks, then the `migration` hook), v2 calls made with an API key or a
 * bearer token, and read-backs through the v2 lists, whose shapes beyond the named fields
 * are the reference's decision (declared by each test in `relies`).
 */

export const parts = ['v2'] as const;
export const needs: readonly HookName[] = [...CONTENT, 'roles', 'migration'];

/** Every v2 read-back leans on the list shapes; an API key on v2 on where it travels. */
export const V2_SHAPES: readonly ClauseId[] = ['v2.shapes.beyond-named-fields'];
export const V2_KEY: readonly ClauseId[] = [...V2_SHAPES, 'v2.credentials.api-key-carrier'];

/**
 * The look-up's path for a dashboard id, where the profile states one (decision
 * v2.dashboards.lookup-path: the path is open).
 */
export function lookUpPath(t: Conformance, dashboardId: string): string | undefined {
  const stated = t.profile.shapes.endpoints?.lookUpDashboard;
  if (stated === undefined) return undefined;
  const { path, used } = fillEndpoint('lookUpDashboard', stated, { dashboardId });
  // A path without the id takes it in the query, under the document's name for it.
  return used.has('dashboardId')
    ? path
    : `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ dashboardId }).toString()}`;
}

export async function finalize(t: Conformance, w: World): Promise<void> {
  const res = await t.http.post(
    `/accounts/${w.account.organizationId}/migration/finalize`,
    {},
    { base: 'hooks' },
  );
  if (res.status >= 300)
    throw new Error(`host hook "migration" failed: ${res.status} ${res.text.slice(0, 300)}`);
}

/** Who calls: a bearer JWT, or an API key of a style (§5 rule 7 places organizationId). */
export type As = { readonly token: string } | { readonly key: 'org-bound' | 'user-scoped' };
export const API_KEY: As = { key: 'org-bound' };

/** What a v2 request carries for its caller: headers, query members and body members. */
interface Carried {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, string>>;
}

function carry(t: Conformance, w: World, as: As, method: 'GET' | 'POST' | 'DELETE'): Carried {
  if ('token' in as) {
    return { headers: { authorization: `Bearer ${as.token}` }, query: {}, body: {} };
  }
  // Decision v2.credentials.api-key-carrier: apiKey rides with organizationId (§5 rule 7: in
  // the query on GET and DELETE, in the JSON body on POST), unless the profile states the
  // header a target reads it from instead (organizationId stays where rule 7 puts it).
  const { apiKey, ...organization } = w.creds(as.key);
  const header = t.profile.shapes.v2ApiKey;
  const headers: Record<string, string> =
    header === undefined
      ? {}
      : { [header.header]: header.scheme === undefined ? apiKey : `${header.scheme} ${apiKey}` };
  const creds = header === undefined ? { apiKey, ...organization } : organization;
  return method === 'POST'
    ? { headers, query: {}, body: creds }
    : { headers, query: creds, body: {} };
}

/**
 * An API key (§5 rule 7) as a v2 call carries it: headers, query and body members to merge into
 * the request, where the profile says (shapes.v2ApiKey) or the decided member.
 */
export function v2KeyCarrier(
  t: Conformance,
  w: World,
  method: 'GET' | 'POST' | 'DELETE',
  key: 'org-bound' | 'user-scoped' = 'org-bound',
): Carried {
  return carry(t, w, { key }, method);
}

export function v2Get(t: Conformance, w: World, path: string, as: As): Promise<Reply> {
  const c = carry(t, w, as, 'GET');
  return t.http.get(path, { headers: c.headers, query: c.query });
}

export function v2Post(
  t: Conformance,
  w: World,
  path: string,
  as: As,
  body: Record<string, unknown>,
): Promise<Reply> {
  const c = carry(t, w, as, 'POST');
  return t.http.post(path, { ...c.body, ...body }, { headers: c.headers });
}

export function v2Delete(t: Conformance, w: World, path: string, as: As): Promise<Reply> {
  const c = carry(t, w, as, 'DELETE');
  return t.http.delete(path, { headers: c.headers, query: c.query });
}

// Read-backs, written from §2.8's fields; the envelope members are the decided shapes.
const Application = z.looseObject({
  applicationId: z.string(),
  name: z.string(),
  defaultDashboardId: z.string().nullable(),
  legacyWorkspaceId: z.string(),
});
export const Dashboard = z.looseObject({
  id: z.string(),
  legacyDashboardId: z.string().nullable(),
  kind: z.enum(['template', 'dashboard']),
  ownerProjectUserId: z.string().nullable(),
  name: z.string().optional(),
  chartIds: z.array(z.string()).optional(),
});
export type Dashboard = z.infer<typeof Dashboard>;

function data<S extends z.ZodType>(res: Reply, schema: S, what: string): z.infer<S> {
  const parsed = z.object({ status: z.literal('success'), data: schema }).safeParse(res.body);
  // §4.16 shows no status for the v2 calls: any 2xx success. A list is read, so it has a body
  // (spec/bodies.ts).
  if (!successStatus(res.status) || !parsed.success) {
    expect.fail(
      `${what}: expected a 2xx success with the decided shape, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  }
  return (parsed.data as { data: z.infer<S> }).data;
}

export async function applicationsOf(t: Conformance, w: World, as: As = API_KEY) {
  const res = await v2Get(t, w, APPLICATIONS, as);
  return data(res, z.object({ applications: z.array(Application) }), 'listing applications')
    .applications;
}

export async function dashboardsOf(
  t: Conformance,
  w: World,
  applicationId: string,
  as: As = API_KEY,
): Promise<Dashboard[]> {
  const res = await v2Get(t, w, dashboardsPath(applicationId), as);
  return data(res, z.object({ dashboards: z.array(Dashboard) }), 'listing v2 dashboards')
    .dashboards;
}

/** Which write (create or clone), where, as whom, and the caller's list read just before it. */
export interface WriteSite {
  readonly call: 'v2.create' | 'v2.clone';
  readonly applicationId: string;
  readonly as: As;
  readonly before: readonly Dashboard[];
}

/**
 * The dashboard a v2 create or clone made. §4.16 shows no answer (spec/bodies.ts), so the
 * write may answer 204 or an empty 2xx: a body, when there is one, is the success envelope and
 * carries the dashboard (decision v2.shapes.beyond-named-fields); without a dashboard in it,
 * the new one is the entry of the caller's list that a `Location` header names, else the one
 * entry that list gained since `before`.
 */
export async function writtenDashboard(
  t: Conformance,
  w: World,
  res: Reply,
  site: WriteSite,
  what: string,
): Promise<Dashboard> {
  const answered = Dashboard.safeParse(expectOpenSuccess(res, site.call, what));
  if (answered.success) return answered.data;
  return madeEntry(res, site.before, await dashboardsOf(t, w, site.applicationId, site.as), what);
}

export function entryOf(items: readonly Dashboard[], id: string, what: string): Dashboard {
  const found = items.find((d) => d.id === id);
  if (found === undefined)
    expect.fail(`${what}: no dashboard ${id} among ${items.map((d) => d.id).join(', ')}`);
  return found;
}

/** What a list shows, for "nothing changed": ids, kinds, owners, names and layouts. */
export const snapshot = (items: readonly Dashboard[]) =>
  JSON.stringify(items.map((d) => [d.id, d.kind, d.ownerProjectUserId, d.name, d.chartIds]).sort());

export interface Migrated {
  readonly w: World;
  /** The v1 shared dashboard the host made, and a second one in another workspace. */
  readonly board: Shared;
  readonly other: Shared;
  readonly applicationId: string;
  readonly otherApplicationId: string;
  /** The v2 templates the two v1 dashboards became. */
  readonly template: Dashboard;
  readonly otherTemplate: Dashboard;
}

/** The v2 dashboard whose legacyDashboardId is a v1 id (§9: old ids are kept). */
export function byLegacy(items: readonly Dashboard[], v1Id: string, what: string): Dashboard {
  const found = items.find((d) => d.legacyDashboardId === v1Id);
  if (found === undefined)
    expect.fail(`${what}: no v2 dashboard has legacyDashboardId ${v1Id}: ${JSON.stringify(items)}`);
  return found;
}

/** A v1 account with two shared dashboards in two workspaces, then finalized. */
export async function migratedWorld(
  t: Conformance,
  beforeFinalize?: (m: { w: World; board: Shared; other: Shared }) => Promise<void>,
): Promise<Migrated> {
  const dw = await dashboardsWorld(t, 3);
  const other = await sharedDashboard(t, dw, 2);
  await beforeFinalize?.({ w: dw, board: dw.board, other });
  await finalize(t, dw);
  const apps = await applicationsOf(t, dw);
  const appOf = (workspaceId: string) => {
    const app = apps.find((a) => a.legacyWorkspaceId === workspaceId);
    if (app === undefined)
      expect.fail(`no application has legacyWorkspaceId ${workspaceId}: ${JSON.stringify(apps)}`);
    return app.applicationId;
  };
  const applicationId = appOf(dw.board.workspaceId);
  const otherApplicationId = appOf(other.workspaceId);
  const template = byLegacy(
    await dashboardsOf(t, dw, applicationId),
    dw.board.dashboardId,
    'migrated',
  );
  const otherTemplate = byLegacy(
    await dashboardsOf(t, dw, otherApplicationId),
    other.dashboardId,
    'migrated',
  );
  return {
    w: dw,
    board: dw.board,
    other,
    applicationId,
    otherApplicationId,
    template,
    otherTemplate,
  };
}

/** The editing flags §2.2 gives every kind of dashboard write. */
export const EDITOR: RolePermissions = {
  addDashboard: true,
  canDuplicateDashboard: true,
  addChart: true,
  removeChart: true,
};

/**
 * A project user (§4.5) holding a role with these permissions (none: no role), in a project
 * organization of its own unless `organization` is false, and a project-user token (§4.7).
 */
export async function projectUser(
  t: Conformance,
  w: World,
  permissions: RolePermissions | null = EDITOR,
  organization = true,
): Promise<{ userId: string; token: string; roleId?: string }> {
  const role = permissions === null ? undefined : await createRole(t, w, permissions);
  const org = organization ? await registerOrganization(t, w) : undefined;
  const { userId } = await registerUser(t, w, {
    ...(role === undefined ? {} : { userRoleId: role.id }),
    ...(org === undefined ? {} : { projectOrganizationId: org.projectOrganizationId }),
  });
  const res = await userToken(t, w, userId);
  const token = (res.body as { data?: { token?: unknown } }).data?.token;
  if (res.status !== 200 || typeof token !== 'string')
    throw new Error(`world building: user-token answered ${res.status} ${res.text.slice(0, 200)}`);
  return { userId, token, ...(role === undefined ? {} : { roleId: role.id }) };
}
