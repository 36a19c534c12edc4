import type { z } from 'zod';
import type { UserUpdateShape, V2ApplicationShape, V2DashboardShape } from '../../spec/profile.ts';
import { followsDecidedShape } from '../../spec/reliance.ts';
import { cause } from './causes.ts';
import type { Conformance } from './conformance.ts';
import { atPointer } from './json-pointer.ts';

/**
 * The one reading of the records whose shape the document leaves open and the profile states
 * (`shapes.v2Application`, `shapes.v2Dashboard`, `shapes.userUpdate`): each answer is read at
 * the profile's JSON pointers into a record under the document's names. A profile that follows
 * the recorded decision instead (`follows` lists the clause) is read in the decided shape.
 */

type V2Application = z.infer<typeof V2ApplicationShape>;
type V2Dashboard = z.infer<typeof V2DashboardShape>;
type UserUpdate = z.infer<typeof UserUpdateShape>;

/** Decision v2.shapes.beyond-named-fields: the lists under data, the members by their names. */
const DECIDED_APPLICATION: V2Application = { list: '/data/applications' };
const DECIDED_DASHBOARD: V2Dashboard = {
  list: '/data/dashboards',
  made: '/data',
  name: '/name',
  chartIds: '/chartIds',
};
/** Decision users.update.response-fields: the stored user's §2.4 fields by their names. */
const DECIDED_USER_UPDATE: UserUpdate = {
  id: '/id',
  name: '/name',
  properties: '/properties',
  userRoleId: '/userRoleId',
  projectOrganizationId: '/projectOrganizationId',
};

const V2_CLAUSE = 'v2.shapes.beyond-named-fields';

/** Where the target keeps its v2 applications; not-run when its profile does not say. */
export function v2ApplicationShape(t: Conformance): V2Application {
  const stated = t.profile.shapes.v2Application;
  if (stated !== undefined) return stated;
  if (followsDecidedShape(t.profile, V2_CLAUSE)) return DECIDED_APPLICATION;
  return t.notRun(
    'the profile does not state where the v2 application list holds its items (§2.8, §4.16)',
    cause.shape('shapes.v2Application'),
  );
}

/** Where the target keeps its v2 dashboards; not-run when its profile does not say. */
export function v2DashboardShape(t: Conformance): V2Dashboard {
  const stated = t.profile.shapes.v2Dashboard;
  if (stated !== undefined) return stated;
  if (followsDecidedShape(t.profile, V2_CLAUSE)) return DECIDED_DASHBOARD;
  return t.notRun(
    'the profile does not state where the v2 dashboard list holds its items (§2.8, §4.16)',
    cause.shape('shapes.v2Dashboard'),
  );
}

/**
 * A record under the document's names, read at the stated pointers (a name the shape leaves
 * out at `/<name>`, where the document names it); a member the item lacks stays absent.
 */
function read(
  item: unknown,
  pointers: Readonly<Record<string, string | undefined>>,
  named: readonly string[],
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of new Set([...named, ...Object.keys(pointers)])) {
    const at = pointers[name] ?? (named.includes(name) ? `/${name}` : undefined);
    if (at === undefined) continue;
    const value = atPointer(item, at);
    if (value !== undefined) record[name] = value;
  }
  return record;
}

/** §2.8's members of a v2 application. */
const APPLICATION_NAMES = ['applicationId', 'name', 'defaultDashboardId', 'legacyWorkspaceId'];
/** §2.8's members of a v2 dashboard. */
const DASHBOARD_NAMES = ['id', 'legacyDashboardId', 'kind', 'ownerProjectUserId'];

/** The items of an application list answer, each under the document's names. */
export function applicationItems(body: unknown, shape: V2Application): unknown[] | undefined {
  const items = atPointer(body, shape.list);
  if (!Array.isArray(items)) return undefined;
  const { list: _list, ...members } = shape;
  return items.map((item) => read(item, members, APPLICATION_NAMES));
}

/** One v2 dashboard item under the document's names, `name` and `chartIds` included. */
export function dashboardRecord(item: unknown, shape: V2Dashboard): Record<string, unknown> {
  const { list: _list, made: _made, ...members } = shape;
  return read(item, members, DASHBOARD_NAMES);
}

/** The items of a v2 dashboard list answer, each under the document's names. */
export function dashboardItems(body: unknown, shape: V2Dashboard): unknown[] | undefined {
  const items = atPointer(body, shape.list);
  return Array.isArray(items) ? items.map((item) => dashboardRecord(item, shape)) : undefined;
}

/** The dashboard a create or clone answer holds where the shape says, when it holds one. */
export function madeDashboard(body: unknown, shape: V2Dashboard): unknown {
  if (shape.made === undefined) return undefined;
  const item = atPointer(body, shape.made);
  return item === undefined ? undefined : dashboardRecord(item, shape);
}

/**
 * Where a user update answer shows the stored user (§4.6 shows none of it), or undefined
 * when the profile states no shape for it.
 */
export function userUpdateShape(t: Conformance): UserUpdate | undefined {
  return (
    t.profile.shapes.userUpdate ??
    (followsDecidedShape(t.profile, 'users.update.response-fields')
      ? DECIDED_USER_UPDATE
      : undefined)
  );
}

/** A user update answer's data under §2.4's names, the fields the shape does not show left out. */
export function userUpdateRecord(data: unknown, shape: UserUpdate): Record<string, unknown> {
  return read(data, shape, []);
}

/**
 * The stored user a user update answered (a reply's body), under §2.4's names: read in the
 * profile's shape, else in the decided one, for probes, which observe against the decision.
 */
export function shownUser(t: Conformance, body: unknown): Record<string, unknown> {
  return userUpdateRecord(atPointer(body, '/data'), userUpdateShape(t) ?? DECIDED_USER_UPDATE);
}
