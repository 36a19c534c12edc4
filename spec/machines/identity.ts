import { createHash } from 'node:crypto';
import { specError } from '../errors.ts';
import type { Properties } from '../schemas/common.ts';
import type { RolePermissions } from '../schemas/permissions.ts';
import type { ProjectUserRole } from '../schemas/role.ts';
import type { ProjectUser } from '../schemas/user.ts';
import {
  applyBy,
  fail,
  iso,
  ok,
  transitionsOf,
  type Applied,
  type Instant,
  type MachineTable,
  type Transition,
} from './machine.ts';
import {
  drop,
  emptyLike,
  emptyTable,
  plainTables,
  put,
  putAll,
  type Table,
  type TableWrites,
} from './table.ts';

/**
 * The identity side of one customer account (§2.1–§2.4, §3, §4.1–§4.6): projects, roles,
 * project organizations and project users, and the rules that cross them (a deleted role
 * leaves its users with no role; organization identifiers resolve externalIds; userIds are
 * unique in the account). Pure: the reference stores the state, the model-based suite uses
 * the same functions as its oracle.
 */
export interface ProjectRecord {
  readonly projectId: string;
  readonly name: string;
}

export interface OrganizationRecord {
  readonly projectOrganizationId: string;
  readonly projectId: string;
  readonly externalId: string | null;
  readonly name: string;
  readonly properties: Properties;
}

export type UserRecord = ProjectUser;

/** §4.9: a v1 tenant, known by its identity (decision tenants.register.identity). */
export interface TenantRecord {
  readonly tenantId: string;
  readonly identity: string;
  readonly name: string | null;
  readonly permissions: RolePermissions;
  readonly metadata: Properties;
}

/**
 * Keyed records (spec/machines/table.ts): a command writes the entries it touches and leaves
 * the previous state as it was.
 */
export interface IdentityState {
  readonly organizationId: string;
  readonly projects: Table<ProjectRecord>;
  readonly roles: Table<ProjectUserRole>;
  readonly organizations: Table<OrganizationRecord>;
  /**
   * Keyed by userId: a userId is unique within the account (decision
   * users.register.user-id-conflict).
   */
  readonly users: Table<UserRecord>;
  /** Keyed by tenant identity. */
  readonly tenants: Table<TenantRecord>;
  readonly index: IdentityIndex;
}

/**
 * What the commands look up by something other than a table's key, kept beside the tables
 * so no command scans one. Read through resolveOrganization, rolesOf and tenantById.
 */
export interface IdentityIndex {
  /**
   * projectId -> externalId -> projectOrganizationId (decision orgs.register.external-id-upsert:
   * one per project).
   */
  readonly organizationByExternalId: Table<Table<string>>;
  /** projectId -> the ids of its roles (the list of §4.2). */
  readonly rolesByProject: Table<Table<true>>;
  /** roleId -> the userIds that hold it (§3: deleting a role takes it from them). */
  readonly usersByRole: Table<Table<true>>;
  /** tenantId -> tenant identity (a tenant token names its tenantId). */
  readonly tenantIdentityById: Table<string>;
}

/** An account with no identity yet; `writes` makes its tables (plain records by default). */
export function emptyIdentity(
  organizationId: string,
  writes: TableWrites = plainTables,
): IdentityState {
  return {
    organizationId,
    projects: emptyTable(writes),
    roles: emptyTable(writes),
    organizations: emptyTable(writes),
    users: emptyTable(writes),
    tenants: emptyTable(writes),
    index: {
      organizationByExternalId: emptyTable(writes),
      rolesByProject: emptyTable(writes),
      usersByRole: emptyTable(writes),
      tenantIdentityById: emptyTable(writes),
    },
  };
}

/** `outer` with `key` added to (or, `present` false, taken from) the set held at `at`. */
function withMember(
  outer: Table<Table<true>>,
  at: string,
  key: string,
  present: boolean,
): Table<Table<true>> {
  const inner = outer[at] ?? emptyLike<true>(outer);
  return put(outer, at, present ? put(inner, key, true) : drop(inner, key));
}

export type IdentityCommand =
  | { readonly type: 'createProject'; readonly projectId: string; readonly name: string }
  | {
      readonly type: 'createRole';
      readonly projectId: string;
      readonly roleId: string;
      readonly name: string;
      readonly permissions: RolePermissions;
    }
  | {
      readonly type: 'updateRole';
      readonly projectId: string;
      readonly roleId: string;
      readonly name?: string;
      readonly permissions?: RolePermissions;
    }
  | { readonly type: 'deleteRole'; readonly projectId: string; readonly roleId: string }
  | {
      readonly type: 'registerOrganization';
      readonly projectId: string;
      /** Used only when a new organization is created. */
      readonly newId: string;
      readonly name: string;
      readonly properties?: Properties;
      readonly externalId?: string;
    }
  | {
      readonly type: 'registerUser';
      readonly projectId: string;
      /** The caller's userId, or a generated one. */
      readonly userId: string;
      readonly name: string;
      readonly properties?: Properties;
      readonly userRoleId?: string;
      readonly projectOrganizationId?: string;
    }
  | {
      readonly type: 'updateUser';
      readonly projectId: string;
      readonly userId: string;
      readonly name: string;
      readonly properties?: Properties;
      readonly userRoleId?: string | null;
      readonly projectOrganizationId?: string | null;
    }
  | {
      /**
       * §4.8 (decisions tokens.embed-token.creates and tokens.embed-token.upserts): create or
       * update the organization and the user together, or change nothing.
       */
      readonly type: 'embedSignIn';
      readonly projectId: string;
      readonly newOrganizationId: string;
      readonly organization: {
        readonly externalId: string;
        readonly name?: string | undefined;
        readonly properties?: Properties | undefined;
      };
      readonly userId: string;
      readonly user: {
        readonly name: string;
        readonly properties?: Properties | undefined;
        readonly userRoleId?: string | null | undefined;
      };
      /**
       * `upsert` (the decision, the default): fields the body gives replace the stored ones;
       * `create-only` (the other reading): an organization or user the project already holds
       * keeps its name, properties and role; the user is still attached to the organization.
       */
      readonly existing?: 'upsert' | 'create-only';
      /**
       * `create` (the decision, the default): an organization or user the project does not hold
       * is created; `refuse` (the other reading): it is refused 404 and nothing changes.
       */
      readonly absent?: 'create' | 'refuse';
    }
  | {
      readonly type: 'registerTenant';
      readonly newTenantId: string;
      readonly identity: string;
      readonly name?: string;
      readonly permissions?: RolePermissions;
      readonly metadata?: Properties;
    };

export type IdentityResult =
  | { readonly kind: 'project'; readonly project: ProjectRecord }
  | { readonly kind: 'role'; readonly role: ProjectUserRole }
  | { readonly kind: 'roleDeleted'; readonly roleId: string; readonly usersCleared: string[] }
  | {
      readonly kind: 'organization';
      readonly organization: OrganizationRecord;
      readonly created: boolean;
    }
  | { readonly kind: 'user'; readonly user: UserRecord; readonly created: boolean }
  | {
      readonly kind: 'signIn';
      readonly user: UserRecord;
      readonly organization: OrganizationRecord;
    }
  | { readonly kind: 'tenant'; readonly tenant: TenantRecord; readonly created: boolean };

type Result = Applied<IdentityState, IdentityResult>;

function notFound(resource: string, field?: string) {
  const details = field === undefined ? { resource } : { resource, field };
  return specError('NOT_FOUND', `no ${resource} with that id here`, details);
}

/** Roles of one project in list order (decision roles.list.order: created_at, then id). */
export function rolesOf(state: IdentityState, projectId: string): ProjectUserRole[] {
  const ids = Object.keys(state.index.rolesByProject[projectId] ?? {});
  return ids
    .flatMap((id) => roleIn(state, projectId, id) ?? [])
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export function roleIn(state: IdentityState, projectId: string, roleId: string) {
  const role = state.roles[roleId];
  return role !== undefined && role.project_id === projectId ? role : undefined;
}

/**
 * §2.3, §4.5 (decision orgs.identifier.resolution-order): a project organization identifier is a
 * service UUID of the project's organizations, or else one of their externalIds.
 */
export function resolveOrganization(
  state: IdentityState,
  projectId: string,
  identifier: string,
): OrganizationRecord | undefined {
  const byId = state.organizations[identifier];
  if (byId !== undefined && byId.projectId === projectId) return byId;
  return organizationByExternalId(state, projectId, identifier);
}

function organizationByExternalId(
  state: IdentityState,
  projectId: string,
  externalId: string,
): OrganizationRecord | undefined {
  const id = state.index.organizationByExternalId[projectId]?.[externalId];
  return id === undefined ? undefined : state.organizations[id];
}

/** The role a user holds now, if any (§3: a role's change reaches its users at once). */
export function roleOf(state: IdentityState, user: UserRecord): ProjectUserRole | undefined {
  return user.userRoleId === null ? undefined : state.roles[user.userRoleId];
}

/** The tenant a tenant token names (its tenantId), if the account still holds it. */
export function tenantById(state: IdentityState, tenantId: string): TenantRecord | undefined {
  const identity = state.index.tenantIdentityById[tenantId];
  return identity === undefined ? undefined : state.tenants[identity];
}

/** Stores a user and keeps the role index in step with the role it holds. */
function withUser(state: IdentityState, before: UserRecord | undefined, user: UserRecord) {
  let usersByRole = state.index.usersByRole;
  if (before?.userRoleId !== user.userRoleId) {
    const held = typeof before?.userRoleId === 'string' ? before.userRoleId : undefined;
    if (held !== undefined && usersByRole[held] !== undefined) {
      usersByRole = withMember(usersByRole, held, user.id, false);
    }
    if (user.userRoleId !== null) {
      usersByRole = withMember(usersByRole, user.userRoleId, user.id, true);
    }
  }
  return {
    ...state,
    users: put(state.users, user.id, user),
    index: { ...state.index, usersByRole },
  };
}

/** Every command but createProject and registerTenant acts inside a project of the account. */
function inProject(state: IdentityState, command: { readonly projectId: string }) {
  return state.projects[command.projectId] === undefined ? notFound('project') : undefined;
}

/**
 * The identity machine's table: for each command, the moves it makes of its subject, the
 * check before it, and its effect (applyIdentity runs them; the reports draw the rows).
 */
const IDENTITY: MachineTable<IdentityState, IdentityCommand, IdentityResult> = {
  createProject: {
    rows: [{ from: 'absent', to: 'project', section: 'hook' }],
    effect: createProject,
  },
  createRole: {
    rows: [
      {
        from: 'absent',
        to: 'role',
        note: 'host hook; §4.3 leaves creation unshown',
        section: '4.3',
      },
    ],
    guard: inProject,
    effect: createRole,
  },
  updateRole: {
    rows: [{ from: 'role', to: 'role', note: 'name changed, permissions replaced', section: '3' }],
    guard: inProject,
    effect: updateRole,
  },
  deleteRole: {
    rows: [{ from: 'role', to: 'absent', note: 'its users are left with no role', section: '3' }],
    guard: inProject,
    effect: deleteRole,
  },
  registerOrganization: {
    rows: [
      { from: 'absent', to: 'organization', section: '4.4' },
      {
        from: 'organization',
        to: 'organization',
        note: 'same externalId: name and properties replaced',
        section: 'decision',
      },
    ],
    guard: inProject,
    effect: registerOrganization,
  },
  registerUser: {
    rows: [
      { from: 'absent', to: 'user', section: '4.5' },
      {
        from: 'user',
        to: 'user',
        note: 'same userId, same project: fields replaced',
        section: 'decision',
      },
    ],
    guard: inProject,
    effect: registerUser,
  },
  updateUser: {
    rows: [
      {
        from: 'user',
        to: 'user',
        note: 'userRoleId null: no role; organization null: detached',
        section: '3',
      },
    ],
    guard: inProject,
    effect: updateUser,
  },
  embedSignIn: {
    rows: [
      {
        from: 'absent',
        to: 'user',
        note: 'its organization registered by externalId first',
        section: 'decision',
      },
      {
        from: 'user',
        to: 'user',
        note: 'fields the body gives replace the stored ones',
        section: 'decision',
      },
    ],
    guard: inProject,
    effect: embedSignIn,
  },
  registerTenant: {
    rows: [
      { from: 'absent', to: 'tenant', section: '4.9' },
      {
        from: 'tenant',
        to: 'tenant',
        note: 'same identity: the fields given replace the stored ones',
        section: 'decision',
      },
    ],
    effect: registerTenant,
  },
};

/** Transition table (data): what each command does to its subject. */
export const identityTransitions: readonly Transition[] = transitionsOf(IDENTITY);

export function applyIdentity(
  state: IdentityState,
  command: IdentityCommand,
  now: Instant,
): Result {
  return applyBy(IDENTITY, state, command, now);
}

type Cmd<T extends IdentityCommand['type']> = Extract<IdentityCommand, { type: T }>;

function createProject(state: IdentityState, c: Cmd<'createProject'>): Result {
  const project = { projectId: c.projectId, name: c.name };
  return ok(
    { ...state, projects: put(state.projects, project.projectId, project) },
    { kind: 'project', project },
  );
}

function createRole(state: IdentityState, c: Cmd<'createRole'>, now: Instant): Result {
  const stamp = iso(now);
  const role: ProjectUserRole = {
    id: c.roleId,
    name: c.name,
    organization_id: state.organizationId,
    project_id: c.projectId,
    permissions: { ...c.permissions },
    created_at: stamp,
    updated_at: stamp,
  };
  const rolesByProject = withMember(state.index.rolesByProject, c.projectId, role.id, true);
  return ok(
    { ...state, roles: put(state.roles, role.id, role), index: { ...state.index, rolesByProject } },
    { kind: 'role', role },
  );
}

function updateRole(state: IdentityState, c: Cmd<'updateRole'>, now: Instant): Result {
  const current = roleIn(state, c.projectId, c.roleId);
  if (current === undefined) return fail(notFound('role'));
  // §3, §4.1: permissions are replaced as a whole, never merged.
  const role: ProjectUserRole = {
    ...current,
    name: c.name ?? current.name,
    permissions: c.permissions === undefined ? current.permissions : { ...c.permissions },
    updated_at: iso(now),
  };
  return ok({ ...state, roles: put(state.roles, role.id, role) }, { kind: 'role', role });
}

function deleteRole(state: IdentityState, c: Cmd<'deleteRole'>): Result {
  if (roleIn(state, c.projectId, c.roleId) === undefined) return fail(notFound('role'));
  const roles = drop(state.roles, c.roleId);
  // §3, §4.3: users who held the role are left with none.
  const cleared: (readonly [string, UserRecord])[] = [];
  for (const id of Object.keys(state.index.usersByRole[c.roleId] ?? {})) {
    const user = state.users[id];
    if (user?.userRoleId === c.roleId) cleared.push([id, { ...user, userRoleId: null }]);
  }
  const users = putAll(state.users, cleared);
  const index = {
    ...state.index,
    rolesByProject: withMember(state.index.rolesByProject, c.projectId, c.roleId, false),
    usersByRole: drop(state.index.usersByRole, c.roleId),
  };
  return ok(
    { ...state, roles, users, index },
    { kind: 'roleDeleted', roleId: c.roleId, usersCleared: cleared.map(([id]) => id) },
  );
}

function registerOrganization(state: IdentityState, c: Cmd<'registerOrganization'>): Result {
  const shadowed = c.externalId === undefined ? undefined : state.organizations[c.externalId];
  if (shadowed !== undefined && shadowed.projectId === c.projectId) {
    // Decision (orgs.identifier.resolution-order): an identifier must name one organization.
    return fail(
      specError('CONFLICT', 'this externalId is the service id of another organization', {
        field: 'externalId',
      }),
    );
  }
  const existing =
    c.externalId === undefined
      ? undefined
      : organizationByExternalId(state, c.projectId, c.externalId);
  // Decision orgs.register.external-id-upsert: an externalId already in the project names that
  // organization (upsert).
  const organization: OrganizationRecord = {
    projectOrganizationId: existing?.projectOrganizationId ?? c.newId,
    projectId: c.projectId,
    externalId: c.externalId ?? null,
    name: c.name,
    properties: { ...(c.properties ?? {}) },
  };
  const byExternalId =
    organization.externalId === null || existing !== undefined
      ? state.index.organizationByExternalId
      : put(
          state.index.organizationByExternalId,
          c.projectId,
          put(
            state.index.organizationByExternalId[c.projectId] ??
              emptyLike<string>(state.index.organizationByExternalId),
            organization.externalId,
            organization.projectOrganizationId,
          ),
        );
  return ok(
    {
      ...state,
      organizations: put(state.organizations, organization.projectOrganizationId, organization),
      index: { ...state.index, organizationByExternalId: byExternalId },
    },
    { kind: 'organization', organization, created: existing === undefined },
  );
}

/**
 * Checks a role id and an organization identifier against the project (decision
 * users.register.unknown-references).
 */
function references(
  state: IdentityState,
  projectId: string,
  userRoleId: string | null | undefined,
  organization: string | null | undefined,
) {
  if (typeof userRoleId === 'string' && roleIn(state, projectId, userRoleId) === undefined) {
    return { error: notFound('role', 'userRoleId') } as const;
  }
  if (typeof organization === 'string') {
    const found = resolveOrganization(state, projectId, organization);
    if (found === undefined)
      return { error: notFound('projectOrganization', 'projectOrganizationId') } as const;
    return { organizationId: found.projectOrganizationId } as const;
  }
  return { organizationId: organization } as const;
}

function registerUser(state: IdentityState, c: Cmd<'registerUser'>): Result {
  const existing = state.users[c.userId];
  if (existing !== undefined && existing.projectId !== c.projectId) {
    return fail(
      specError('CONFLICT', 'this userId already belongs to a user of another project', {
        field: 'userId',
      }),
    );
  }
  const refs = references(state, c.projectId, c.userRoleId, c.projectOrganizationId);
  if ('error' in refs) return fail(refs.error);
  // Decision users.register.user-id-reuse: registering an existing userId again replaces what it
  // holds.
  const user: UserRecord = {
    id: c.userId,
    projectId: c.projectId,
    name: c.name,
    properties: { ...(c.properties ?? {}) },
    userRoleId: c.userRoleId ?? null,
    projectOrganizationId: refs.organizationId ?? null,
  };
  return ok(withUser(state, existing, user), {
    kind: 'user',
    user,
    created: existing === undefined,
  });
}

function updateUser(state: IdentityState, c: Cmd<'updateUser'>): Result {
  const current = state.users[c.userId];
  if (current === undefined || current.projectId !== c.projectId) return fail(notFound('user'));
  const refs = references(state, c.projectId, c.userRoleId, c.projectOrganizationId);
  if ('error' in refs) return fail(refs.error);
  // §4.6: properties replace the stored set; absent role/organization stay; null removes.
  const user: UserRecord = {
    ...current,
    name: c.name,
    properties: c.properties === undefined ? current.properties : { ...c.properties },
    userRoleId: c.userRoleId === undefined ? current.userRoleId : c.userRoleId,
    projectOrganizationId:
      c.projectOrganizationId === undefined
        ? current.projectOrganizationId
        : (refs.organizationId ?? null),
  };
  return ok(withUser(state, current, user), { kind: 'user', user, created: false });
}

function embedSignIn(state: IdentityState, c: Cmd<'embedSignIn'>): Result {
  const existingOrg = organizationByExternalId(state, c.projectId, c.organization.externalId);
  // Decision tokens.embed-token.creates: what the project does not hold is created; the other
  // reading refuses it, once the rest of the sign-in has passed its checks.
  const absent =
    c.absent !== 'refuse'
      ? undefined
      : existingOrg === undefined
        ? notFound('projectOrganization', 'externalId')
        : state.users[c.userId]?.projectId !== c.projectId
          ? notFound('user', 'id')
          : undefined;
  const keep = c.existing === 'create-only';
  const name =
    keep && existingOrg !== undefined
      ? existingOrg.name
      : (c.organization.name ?? existingOrg?.name);
  if (name === undefined) {
    return fail(
      specError('VALIDATION_ERROR', 'a new organization needs a name', {
        issues: [
          {
            path: ['body', 'organization', 'name'],
            message: 'required for a new organization',
            code: 'invalid_type',
          },
        ],
      }),
    );
  }
  const org = registerOrganization(state, {
    type: 'registerOrganization',
    projectId: c.projectId,
    newId: c.newOrganizationId,
    name,
    externalId: c.organization.externalId,
    properties:
      keep && existingOrg !== undefined
        ? existingOrg.properties
        : (c.organization.properties ?? existingOrg?.properties ?? {}),
  });
  if (!org.ok || org.result.kind !== 'organization') return org;
  const organization = org.result.organization;
  const existingUser = org.state.users[c.userId];
  // Decision tokens.embed-token.upserts: fields the body gives replace the stored ones; the others
  // are kept. Created only, a user the project holds keeps all it has but its organization.
  const kept = keep ? existingUser : undefined;
  const user = registerUser(org.state, {
    type: 'registerUser',
    projectId: c.projectId,
    userId: c.userId,
    name: kept?.name ?? c.user.name,
    properties: kept?.properties ?? c.user.properties ?? existingUser?.properties ?? {},
    ...optionalRole(
      kept !== undefined || c.user.userRoleId === undefined
        ? existingUser?.userRoleId
        : c.user.userRoleId,
    ),
    projectOrganizationId: organization.projectOrganizationId,
  });
  if (!user.ok || user.result.kind !== 'user') return user;
  if (absent !== undefined) return fail(absent);
  return ok(user.state, { kind: 'signIn', user: user.result.user, organization });
}

const optionalRole = (role: string | null | undefined) =>
  typeof role === 'string' ? { userRoleId: role } : {};

function registerTenant(state: IdentityState, c: Cmd<'registerTenant'>): Result {
  const existing = state.tenants[c.identity];
  const tenant: TenantRecord = {
    tenantId: existing?.tenantId ?? c.newTenantId,
    identity: c.identity,
    name: c.name ?? existing?.name ?? null,
    permissions: { ...(c.permissions ?? existing?.permissions ?? {}) },
    metadata: { ...(c.metadata ?? existing?.metadata ?? {}) },
  };
  const tenantIdentityById = put(state.index.tenantIdentityById, tenant.tenantId, c.identity);
  return ok(
    {
      ...state,
      tenants: put(state.tenants, c.identity, tenant),
      index: { ...state.index, tenantIdentityById },
    },
    { kind: 'tenant', tenant, created: existing === undefined },
  );
}

/**
 * Decision tenants.register.identity: a tenant is known by its deprecated unique key when one is
 * given, else by its split columns and schema (canonical JSON, keys sorted, so order does not
 * matter).
 */
export function tenantIdentity(body: {
  readonly uniqueKey?: string | undefined;
  readonly tenantColumns?: Readonly<Record<string, unknown>> | undefined;
  readonly tenantSchema?: string | undefined;
}): string {
  if (body.uniqueKey !== undefined) return `key:${body.uniqueKey}`;
  const columns = Object.keys(body.tenantColumns ?? {})
    .sort()
    .map((k) => [k, body.tenantColumns?.[k]]);
  return `split:${JSON.stringify({ columns, schema: body.tenantSchema ?? null })}`;
}

/**
 * Decision tenants.migration.mapping, the tenant -> project-user mapping the migration will apply
 * (§4.9, §5 rule 6): each tenant of an organization becomes one project user whose id is derived
 * from the organization and the tenant, so the mapping can be recomputed at any time, a tenant JWT
 * issued before the migration names its user without a lookup table, and two tenants never share a
 * user. The id is a UUID of version 8 (RFC 9562, custom) over SHA-256.
 */
export function tenantProjectUserId(organizationId: string, tenantId: string): string {
  const h = createHash('sha256').update(`eac-tenant-user:${organizationId}:${tenantId}`).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x80;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
