import { createHash } from 'node:crypto';
import { specError } from '../errors.ts';
import type { Properties } from '../schemas/common.ts';
import type { RolePermissions } from '../schemas/permissions.ts';
import type { ProjectUserRole } from '../schemas/role.ts';
import type { ProjectUser } from '../schemas/user.ts';
import {
  applyBy,
  effected,
  iso,
  transitionsOf,
  type Applied,
  type Effected,
  type Guard,
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

/** What each identity command gives back when the machine accepts it. */
export interface IdentityResults {
  readonly createProject: { readonly kind: 'project'; readonly project: ProjectRecord };
  readonly createRole: RoleResult;
  readonly updateRole: RoleResult;
  readonly deleteRole: {
    readonly kind: 'roleDeleted';
    readonly roleId: string;
    readonly usersCleared: string[];
  };
  readonly registerOrganization: {
    readonly kind: 'organization';
    readonly organization: OrganizationRecord;
    readonly created: boolean;
  };
  readonly registerUser: UserResult;
  readonly updateUser: UserResult;
  readonly embedSignIn: {
    readonly kind: 'signIn';
    readonly user: UserRecord;
    readonly organization: OrganizationRecord;
    /** Whether the sign-in made the user (a row's landing: a user kept is not). */
    readonly created: boolean;
  };
  readonly registerTenant: {
    readonly kind: 'tenant';
    readonly tenant: TenantRecord;
    readonly created: boolean;
  };
}

interface RoleResult {
  readonly kind: 'role';
  readonly role: ProjectUserRole;
}

interface UserResult {
  readonly kind: 'user';
  readonly user: UserRecord;
  readonly created: boolean;
}

export type IdentityResult = IdentityResults[IdentityCommand['type']];

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

type Cmd<T extends IdentityCommand['type']> = Extract<IdentityCommand, { type: T }>;
type Check<C> = Guard<IdentityState, C>;

/** Every command but createProject and registerTenant acts inside a project of the account. */
const projectExists: Check<{ readonly projectId: string }> = {
  name: 'project-exists',
  refuses: (state, c) => state.projects[c.projectId] === undefined,
  error: () => notFound('project'),
};

const roleExists: Check<{ readonly projectId: string; readonly roleId: string }> = {
  name: 'role-exists',
  refuses: (state, c) => roleIn(state, c.projectId, c.roleId) === undefined,
  error: () => notFound('role'),
};

/** Decision users.register.unknown-references: a role id the body names is one of the project's. */
const roleKnown = <C extends { readonly projectId: string }>(
  roleOfCommand: (state: IdentityState, c: C) => string | null | undefined,
): Check<C> => ({
  name: 'role-known',
  refuses: (state, c) => {
    const roleId = roleOfCommand(state, c);
    return typeof roleId === 'string' && roleIn(state, c.projectId, roleId) === undefined;
  },
  error: () => notFound('role', 'userRoleId'),
});

/** Decision users.register.unknown-references: an organization identifier names one of them. */
const organizationKnown: Check<{
  readonly projectId: string;
  readonly projectOrganizationId?: string | null | undefined;
}> = {
  name: 'organization-known',
  refuses: (state, c) =>
    typeof c.projectOrganizationId === 'string' &&
    resolveOrganization(state, c.projectId, c.projectOrganizationId) === undefined,
  error: () => notFound('projectOrganization', 'projectOrganizationId'),
};

/** Decision orgs.identifier.resolution-order: an identifier must name one organization. */
const externalIdNotAnId = <C extends { readonly projectId: string }>(
  externalIdOf: (c: C) => string | undefined,
): Check<C> => ({
  name: 'external-id-not-an-id',
  refuses: (state, c) => {
    const externalId = externalIdOf(c);
    return externalId !== undefined && state.organizations[externalId]?.projectId === c.projectId;
  },
  error: () =>
    specError('CONFLICT', 'this externalId is the service id of another organization', {
      field: 'externalId',
    }),
});

/** Decision users.register.user-id-conflict: a userId is unique within the account. */
const userIdInProject: Check<{ readonly projectId: string; readonly userId: string }> = {
  name: 'user-id-in-project',
  refuses: (state, c) => {
    const existing = state.users[c.userId];
    return existing !== undefined && existing.projectId !== c.projectId;
  },
  error: () =>
    specError('CONFLICT', 'this userId already belongs to a user of another project', {
      field: 'userId',
    }),
};

const userExists: Check<Cmd<'updateUser'>> = {
  name: 'user-exists',
  refuses: (state, c) => state.users[c.userId]?.projectId !== c.projectId,
  error: () => notFound('user'),
};

/** §4.8: a sign-in that registers a new organization names it. */
const organizationNamed: Check<Cmd<'embedSignIn'>> = {
  name: 'organization-named',
  refuses: (state, c) =>
    c.organization.name === undefined &&
    organizationByExternalId(state, c.projectId, c.organization.externalId) === undefined,
  error: () =>
    specError('VALIDATION_ERROR', 'a new organization needs a name', {
      issues: [
        {
          path: ['body', 'organization', 'name'],
          message: 'required for a new organization',
          code: 'invalid_type',
        },
      ],
    }),
};

/**
 * Decision tokens.embed-token.creates: what the project does not hold is created; the other
 * reading (`absent: 'refuse'`) refuses it, after every other check of the sign-in.
 */
const heldUnlessCreated: Check<Cmd<'embedSignIn'>> = {
  name: 'held-unless-created',
  refuses: (state, c) =>
    c.absent === 'refuse' &&
    (organizationByExternalId(state, c.projectId, c.organization.externalId) === undefined ||
      state.users[c.userId]?.projectId !== c.projectId),
  error: (state, c) =>
    organizationByExternalId(state, c.projectId, c.organization.externalId) === undefined
      ? notFound('projectOrganization', 'externalId')
      : notFound('user', 'id'),
};

/** The user a create-only sign-in (tokens.embed-creates-only) finds and keeps, if any. */
const keptUser = (state: IdentityState, c: Cmd<'embedSignIn'>) =>
  c.existing === 'create-only' ? state.users[c.userId] : undefined;

/**
 * The role a sign-in leaves its user with: the body's, else the one the user holds; created
 * only, a user the project holds keeps its own.
 */
const signInRole = (state: IdentityState, c: Cmd<'embedSignIn'>) =>
  keptUser(state, c) !== undefined || c.user.userRoleId === undefined
    ? state.users[c.userId]?.userRoleId
    : c.user.userRoleId;

const present = (found: unknown, name: string) => (found === undefined ? 'absent' : name);

const userSubject = (state: IdentityState, c: { readonly userId: string }) =>
  present(state.users[c.userId], 'user');

/**
 * The identity machine's table: for each command, the state of its subject it moves from and
 * to, the guards that refuse it (in the order they are asked) and its effect (applyIdentity
 * runs them; the reports draw the rows).
 */
const IDENTITY: MachineTable<IdentityState, IdentityCommand, IdentityResults> = {
  createProject: {
    subject: (state, c) => present(state.projects[c.projectId], 'project'),
    rows: [
      { from: 'absent', to: 'project', section: 'hook' },
      { from: 'project', to: 'project', note: 'an id the account holds: renamed', section: 'hook' },
    ],
    effect: createProject,
    landed: () => 'project',
  },
  createRole: {
    subject: (state, c) => present(roleIn(state, c.projectId, c.roleId), 'role'),
    guards: [projectExists],
    rows: [
      {
        from: 'absent',
        to: 'role',
        note: 'host hook; §4.3 leaves creation unshown',
        section: '4.3',
      },
      { from: 'role', to: 'role', note: 'an id the project holds: replaced', section: 'hook' },
    ],
    effect: createRole,
    landed: () => 'role',
  },
  updateRole: {
    subject: (state, c) => present(roleIn(state, c.projectId, c.roleId), 'role'),
    guards: [projectExists, roleExists],
    rows: [{ from: 'role', to: 'role', note: 'name changed, permissions replaced', section: '3' }],
    effect: updateRole,
    landed: () => 'role',
  },
  deleteRole: {
    subject: (state, c) => present(roleIn(state, c.projectId, c.roleId), 'role'),
    guards: [projectExists, roleExists],
    rows: [{ from: 'role', to: 'absent', note: 'its users are left with no role', section: '3' }],
    effect: deleteRole,
    landed: (after, c) => present(roleIn(after, c.projectId, c.roleId), 'role'),
  },
  registerOrganization: {
    subject: (state, c) =>
      present(
        c.externalId === undefined
          ? undefined
          : organizationByExternalId(state, c.projectId, c.externalId),
        'organization',
      ),
    guards: [projectExists, externalIdNotAnId((c) => c.externalId)],
    rows: [
      { from: 'absent', to: 'organization', section: '4.4' },
      {
        from: 'organization',
        to: 'organization',
        note: 'same externalId: name and properties replaced',
        section: 'decision',
      },
    ],
    effect: registerOrganization,
    landed: () => 'organization',
  },
  registerUser: {
    subject: userSubject,
    guards: [projectExists, userIdInProject, roleKnown((_, c) => c.userRoleId), organizationKnown],
    rows: [
      { from: 'absent', to: 'user', section: '4.5' },
      {
        from: 'user',
        to: 'user',
        note: 'same userId, same project: fields replaced',
        section: 'decision',
      },
    ],
    effect: registerUser,
    landed: () => 'user',
  },
  updateUser: {
    subject: userSubject,
    guards: [projectExists, userExists, roleKnown((_, c) => c.userRoleId), organizationKnown],
    rows: [
      {
        from: 'user',
        to: 'user',
        note: 'userRoleId null: no role; organization null: detached',
        section: '3',
      },
    ],
    effect: updateUser,
    landed: () => 'user',
  },
  embedSignIn: {
    subject: userSubject,
    // The guards of registerOrganization and registerUser, for the two records it writes.
    guards: [
      projectExists,
      organizationNamed,
      externalIdNotAnId((c) => c.organization.externalId),
      userIdInProject,
      roleKnown(signInRole),
      heldUnlessCreated,
    ],
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
      {
        from: 'user',
        to: 'same',
        note: 'created only (tokens.embed-creates-only): the user keeps its fields; it is attached to the organization',
        section: 'decision',
      },
    ],
    effect: embedSignIn,
    // Created only, a user the sign-in found is kept as it was (but for its organization).
    landed: (_, c, result) => (!result.created && c.existing === 'create-only' ? 'same' : 'user'),
  },
  registerTenant: {
    subject: (state, c) => present(state.tenants[c.identity], 'tenant'),
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
    landed: () => 'tenant',
  },
};

/** Transition table (data): what each command does to its subject. */
export const identityTransitions: readonly Transition[] = transitionsOf(IDENTITY);

/** Applies a command; what it gives back is typed by the command (IdentityResults). */
export function applyIdentity<C extends IdentityCommand>(
  state: IdentityState,
  command: C,
  now: Instant,
): Applied<IdentityState, IdentityResults[C['type']]> {
  return applyBy(IDENTITY, state, command, now);
}

type Made<T extends IdentityCommand['type']> = Effected<IdentityState, IdentityResults[T]>;

function createProject(state: IdentityState, c: Cmd<'createProject'>): Made<'createProject'> {
  const project = { projectId: c.projectId, name: c.name };
  return effected(
    { ...state, projects: put(state.projects, project.projectId, project) },
    { kind: 'project', project },
  );
}

function createRole(state: IdentityState, c: Cmd<'createRole'>, now: Instant): Made<'createRole'> {
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
  return effected(
    { ...state, roles: put(state.roles, role.id, role), index: { ...state.index, rolesByProject } },
    { kind: 'role', role },
  );
}

/** The record a guard found (a guard asked before the effect has made sure it is there). */
function found<T>(record: T | undefined): T {
  if (record === undefined) throw new Error('a guard let through a command on no record');
  return record;
}

function updateRole(state: IdentityState, c: Cmd<'updateRole'>, now: Instant): Made<'updateRole'> {
  const current = found(roleIn(state, c.projectId, c.roleId));
  // §3, §4.1: permissions are replaced as a whole, never merged.
  const role: ProjectUserRole = {
    ...current,
    name: c.name ?? current.name,
    permissions: c.permissions === undefined ? current.permissions : { ...c.permissions },
    updated_at: iso(now),
  };
  return effected({ ...state, roles: put(state.roles, role.id, role) }, { kind: 'role', role });
}

function deleteRole(state: IdentityState, c: Cmd<'deleteRole'>): Made<'deleteRole'> {
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
  return effected(
    { ...state, roles, users, index },
    { kind: 'roleDeleted', roleId: c.roleId, usersCleared: cleared.map(([id]) => id) },
  );
}

function registerOrganization(
  state: IdentityState,
  c: Cmd<'registerOrganization'>,
): Made<'registerOrganization'> {
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
  return effected(
    {
      ...state,
      organizations: put(state.organizations, organization.projectOrganizationId, organization),
      index: { ...state.index, organizationByExternalId: byExternalId },
    },
    { kind: 'organization', organization, created: existing === undefined },
  );
}

/** The organization an identifier resolves to (organization-known has checked it does). */
function organizationIdOf(
  state: IdentityState,
  projectId: string,
  identifier: string | null | undefined,
): string | null | undefined {
  if (typeof identifier !== 'string') return identifier;
  return found(resolveOrganization(state, projectId, identifier)).projectOrganizationId;
}

function registerUser(state: IdentityState, c: Cmd<'registerUser'>): Made<'registerUser'> {
  const existing = state.users[c.userId];
  // Decision users.register.user-id-reuse: registering an existing userId again replaces what it
  // holds.
  const user: UserRecord = {
    id: c.userId,
    projectId: c.projectId,
    name: c.name,
    properties: { ...(c.properties ?? {}) },
    userRoleId: c.userRoleId ?? null,
    projectOrganizationId: organizationIdOf(state, c.projectId, c.projectOrganizationId) ?? null,
  };
  return effected(withUser(state, existing, user), {
    kind: 'user',
    user,
    created: existing === undefined,
  });
}

function updateUser(state: IdentityState, c: Cmd<'updateUser'>): Made<'updateUser'> {
  const current = found(state.users[c.userId]);
  // §4.6: properties replace the stored set; absent role/organization stay; null removes.
  const user: UserRecord = {
    ...current,
    name: c.name,
    properties: c.properties === undefined ? current.properties : { ...c.properties },
    userRoleId: c.userRoleId === undefined ? current.userRoleId : c.userRoleId,
    projectOrganizationId:
      c.projectOrganizationId === undefined
        ? current.projectOrganizationId
        : (organizationIdOf(state, c.projectId, c.projectOrganizationId) ?? null),
  };
  return effected(withUser(state, current, user), { kind: 'user', user, created: false });
}

function embedSignIn(state: IdentityState, c: Cmd<'embedSignIn'>): Made<'embedSignIn'> {
  const existingOrg = organizationByExternalId(state, c.projectId, c.organization.externalId);
  // Created only (tokens.embed-creates-only), an organization the project holds keeps its
  // name and properties.
  const keptOrg = c.existing === 'create-only' ? existingOrg : undefined;
  const org = registerOrganization(state, {
    type: 'registerOrganization',
    projectId: c.projectId,
    newId: c.newOrganizationId,
    name: found(keptOrg?.name ?? c.organization.name ?? existingOrg?.name),
    externalId: c.organization.externalId,
    properties: keptOrg?.properties ?? c.organization.properties ?? existingOrg?.properties ?? {},
  });
  const organization = org.result.organization;
  const existingUser = org.state.users[c.userId];
  // Decision tokens.embed-token.upserts: fields the body gives replace the stored ones; the others
  // are kept. Created only, a user the project holds keeps all it has but its organization.
  const kept = keptUser(org.state, c);
  const user = registerUser(org.state, {
    type: 'registerUser',
    projectId: c.projectId,
    userId: c.userId,
    name: kept?.name ?? c.user.name,
    properties: kept?.properties ?? c.user.properties ?? existingUser?.properties ?? {},
    ...optionalRole(signInRole(org.state, c)),
    projectOrganizationId: organization.projectOrganizationId,
  });
  return effected(user.state, {
    kind: 'signIn',
    user: user.result.user,
    organization,
    created: user.result.created,
  });
}

const optionalRole = (role: string | null | undefined) =>
  typeof role === 'string' ? { userRoleId: role } : {};

function registerTenant(state: IdentityState, c: Cmd<'registerTenant'>): Made<'registerTenant'> {
  const existing = state.tenants[c.identity];
  const tenant: TenantRecord = {
    tenantId: existing?.tenantId ?? c.newTenantId,
    identity: c.identity,
    name: c.name ?? existing?.name ?? null,
    permissions: { ...(c.permissions ?? existing?.permissions ?? {}) },
    metadata: { ...(c.metadata ?? existing?.metadata ?? {}) },
  };
  const tenantIdentityById = put(state.index.tenantIdentityById, tenant.tenantId, c.identity);
  return effected(
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
