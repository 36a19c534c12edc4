import { specError, type SpecError } from '../errors.ts';
import {
  DECIDED,
  copyCharts,
  copyIdFor,
  indexByWorkspace,
  rulesOf,
  type DashboardRecord,
  type DashboardRules,
  type DashboardsState,
  type WriteKind,
} from './dashboards.ts';
import { derivedUuid } from './derived-id.ts';
import {
  applyIdentity,
  tenantById,
  type IdentityCommand,
  type IdentityResults,
  type IdentityState,
  type TenantRecord,
  type UserRecord,
} from './identity.ts';
import {
  applyBy,
  effected,
  fail,
  iso,
  ok,
  transitionsOf,
  type Applied,
  type Effected,
  type Instant,
  type MachineTable,
  type Transition,
} from './machine.ts';
import { emptyLike, put, type Table } from './table.ts';

/**
 * The v1 -> v2 migration of one customer account (§3 last row, §9). Before finalize the v1
 * endpoints work; finalizing (a host action, not an API call) turns every workspace into an
 * application and every dashboard into a v2 dashboard, keeping the old ids as legacy ids, maps
 * each tenant to a project user, and freezes the v1 view as it was. After it the five v1 writes
 * answer 410 MIGRATED_TO_V2 naming the v2 endpoint to use. Another account is never touched:
 * the state is per account.
 */

export interface ApplicationRecord {
  readonly applicationId: string;
  readonly name: string;
  /** The v2 id of the workspace's primary dashboard. */
  readonly defaultDashboardId: string | null;
  readonly legacyWorkspaceId: string;
}

export type MigrationState =
  | { readonly phase: 'before' }
  | {
      readonly phase: 'after';
      readonly finalizedAt: string;
      readonly applications: Table<ApplicationRecord>;
      /** legacyWorkspaceId -> applicationId */
      readonly applicationOf: Table<string>;
      /** v1 dashboard id -> v2 dashboard id */
      readonly v2IdOf: Table<string>;
      /** v2 dashboard id -> v1 dashboard id (only for migrated dashboards) */
      readonly legacyIdOf: Table<string>;
      /** tenantId -> the project user the tenant became (§4.9, §5 rule 6) */
      readonly projectUserOf: Table<string>;
      /** §9: the v1 dashboards as they were at finalize; nothing changes them afterwards. */
      readonly frozen: DashboardsState;
    };

export const BEFORE_FINALIZE: MigrationState = { phase: 'before' };

export type MigrationCommand = {
  readonly type: 'finalize';
  /** The account's v1 dashboards, workspaces and charts at this moment. */
  readonly dashboards: DashboardsState;
  /** Every tenant of the account with the project user it becomes. */
  readonly tenants: readonly { readonly tenantId: string; readonly projectUserId: string }[];
};

export interface Finalized {
  readonly migration: Extract<MigrationState, { readonly phase: 'after' }>;
  /** The live store from now on: the same dashboards under their v2 ids. */
  readonly dashboards: DashboardsState;
}

export const applicationIdFor = (workspaceId: string): string =>
  derivedUuid('eac-application', workspaceId);
export const v2DashboardIdFor = (dashboardId: string): string =>
  derivedUuid('eac-v2-dashboard', dashboardId);

/**
 * The migration's table: finalize moves the account from before to after, once (applyMigration
 * runs it; the reports draw the rows).
 */
const MIGRATION: MachineTable<MigrationState, MigrationCommand, { finalize: Finalized }> = {
  finalize: {
    subject: (state) => state.phase,
    guards: [
      {
        // Decision: finalize happens once; a second one is refused.
        name: 'not-yet-final',
        refuses: (state) => state.phase === 'after',
        error: () =>
          specError('CONFLICT', 'this account is already migrated to v2', { phase: 'after' }),
      },
    ],
    rows: [
      {
        from: 'before',
        to: 'after',
        note: 'workspaces become applications, dashboards v2 dashboards, tenants project users',
        section: '9',
      },
    ],
    effect: (_, command, now) => finalize(command, now),
    landed: (_, __, result) => result.migration.phase,
  },
};

export const migrationTransitions: readonly Transition[] = transitionsOf(MIGRATION);

export function applyMigration(
  state: MigrationState,
  command: MigrationCommand,
  now: Instant,
): Applied<MigrationState, Finalized> {
  return applyBy(MIGRATION, state, command, now);
}

function finalize(command: MigrationCommand, now: Instant): Effected<MigrationState, Finalized> {
  const v1 = command.dashboards;
  // The tables made here write as the account's dashboards do.
  const empty = <V>() => emptyLike<V>(v1.dashboards);
  let projectUserOf = empty<string>();
  for (const t of command.tenants) projectUserOf = put(projectUserOf, t.tenantId, t.projectUserId);

  let v2IdOf = empty<string>();
  let legacyIdOf = empty<string>();
  let dashboards = empty<DashboardRecord>();
  // A tenant's own dashboard moves into the space of the project user the tenant became.
  const ownerOf = (d: DashboardRecord): string | null =>
    d.tenantId !== null ? (projectUserOf[d.tenantId] ?? null) : d.ownerProjectUserId;
  const all = Object.values(v1.dashboards);
  // Ids: shared and made dashboards first; a user's copy keeps the one-copy-per-user id rule
  // of the dashboards machine, now keyed by the template's v2 id and the project user.
  for (const d of all.filter((x) => x.copyOf === null)) {
    v2IdOf = put(v2IdOf, d.dashboardId, v2DashboardIdFor(d.dashboardId));
  }
  for (const d of all.filter((x) => x.copyOf !== null)) {
    const owner = ownerOf(d);
    const template = v2IdOf[d.copyOf ?? ''];
    const id =
      owner !== null && template !== undefined
        ? copyIdFor(template, {
            kind: 'project-user',
            userId: owner,
            permissions: null,
            projectOrganizationId: null,
          })
        : v2DashboardIdFor(d.dashboardId);
    v2IdOf = put(v2IdOf, d.dashboardId, id);
  }
  for (const [v1Id, v2Id] of Object.entries(v2IdOf)) legacyIdOf = put(legacyIdOf, v2Id, v1Id);
  // Decision migration.chart-ids-kept: a migrated dashboard holds the chart ids of its v1
  // dashboard; under the other rule, copies of its charts under new ids.
  let charts = v1.charts;
  for (const d of all) {
    const id = v2IdOf[d.dashboardId] ?? d.dashboardId;
    // A tenant's own dashboard moves into the space of the project user the tenant became.
    const owner = d.tenantId !== null ? (projectUserOf[d.tenantId] ?? null) : d.ownerProjectUserId;
    const fresh =
      rulesOf(v1).standInCharts === 'fresh'
        ? copyCharts(charts, d.chartIds, `migrated:${id}`, iso(now))
        : undefined;
    if (fresh !== undefined) charts = fresh.charts;
    dashboards = put(dashboards, id, {
      ...d,
      chartIds: fresh?.ids ?? d.chartIds,
      dashboardId: id,
      workspaceId: applicationIdFor(d.workspaceId),
      tenantId: null,
      ownerProjectUserId: owner,
      copyOf: d.copyOf === null ? null : (v2IdOf[d.copyOf] ?? null),
    });
  }
  let applications = empty<ApplicationRecord>();
  let applicationOf = empty<string>();
  let workspaces = empty<DashboardsState['workspaces'][string]>();
  for (const w of Object.values(v1.workspaces)) {
    const applicationId = applicationIdFor(w.workspaceId);
    const primary = w.primaryDashboardId === null ? null : (v2IdOf[w.primaryDashboardId] ?? null);
    applications = put(applications, applicationId, {
      applicationId,
      name: w.name,
      defaultDashboardId: primary,
      legacyWorkspaceId: w.workspaceId,
    });
    applicationOf = put(applicationOf, w.workspaceId, applicationId);
    workspaces = put(workspaces, applicationId, {
      ...w,
      workspaceId: applicationId,
      primaryDashboardId: primary,
    });
  }
  const migration: Finalized['migration'] = {
    phase: 'after',
    finalizedAt: iso(now),
    applications,
    applicationOf,
    v2IdOf,
    legacyIdOf,
    projectUserOf,
    frozen: v1,
  };
  return effected(migration, {
    migration,
    dashboards: {
      ...v1,
      workspaces,
      dashboards,
      charts,
      byWorkspace: indexByWorkspace(dashboards),
    },
  });
}

/** The v2 endpoint that replaces each v1 write (§4.16). */
export const V2_REPLACEMENT: Readonly<Record<WriteKind, string>> = {
  create: 'POST /v2/api/applications/{applicationId}/dashboards',
  clone: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
  addCharts: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts',
  appendCharts: 'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/append-charts',
  removeCharts:
    'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}',
};

/**
 * §7, §9: a v1 write after finalize. The error names the v2 endpoint, with the ids filled in
 * where the v1 id it was given maps to one.
 */
export function migratedWrite(
  state: MigrationState,
  write: WriteKind,
  ids: { readonly workspaceId?: string; readonly dashboardId?: string } = {},
): SpecError | undefined {
  if (state.phase === 'before') return undefined;
  const v2DashboardId = ids.dashboardId === undefined ? undefined : state.v2IdOf[ids.dashboardId];
  const v1Dashboard =
    ids.dashboardId === undefined ? undefined : state.frozen.dashboards[ids.dashboardId];
  const workspaceId = ids.workspaceId ?? v1Dashboard?.workspaceId;
  const applicationId = workspaceId === undefined ? undefined : state.applicationOf[workspaceId];
  let endpoint = V2_REPLACEMENT[write];
  if (applicationId !== undefined) endpoint = endpoint.replace('{applicationId}', applicationId);
  if (v2DashboardId !== undefined) endpoint = endpoint.replace('{dashboardId}', v2DashboardId);
  // Decision errors.migrated-to-v2.details: the template in details.replacement; the message
  // and details.v2Endpoint name it with the ids filled in where the v1 ids map to v2 ones.
  return specError('MIGRATED_TO_V2', `this organization is migrated to v2: use ${endpoint}`, {
    replacement: V2_REPLACEMENT[write],
    v2Endpoint: endpoint,
    migratedAt: state.finalizedAt,
  });
}

/** How tenants' project users are placed (decision migration.tenant-users, or the other rule). */
export type TenantUsers = DashboardRules['tenantUsers'];

/** Decision migration.tenant-users: the project that holds the users tenants became. */
export const tenantsProjectIdFor = (organizationId: string): string =>
  derivedUuid('eac-migrated-tenants', organizationId);

/** The permissions as one text, whatever order their flags come in. */
const permissionsKey = (permissions: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(
    Object.keys(permissions)
      .sort()
      .map((k) => [k, permissions[k]]),
  );

/**
 * The role and project organization a tenant's project user holds. Decision
 * migration.tenant-users: a role of its own holding the tenant's editing permissions (updated
 * when the tenant is mapped again) and a project organization of its own carrying its metadata.
 * Under the other rule (DashboardRules `tenantUsers: 'shared'`), one role per set of editing
 * permissions, shared by the tenants that hold it and never changed (a tenant registered again
 * with others moves to theirs), and one project organization for every tenant of the account.
 */
function tenantPlaces(
  state: IdentityState,
  projectId: string,
  tenant: TenantRecord,
  name: string,
  mapping: TenantUsers,
): {
  readonly roleId: string;
  readonly organizationId: string;
  readonly commands: readonly IdentityCommand[];
} {
  const account = state.organizationId;
  if (mapping === 'shared') {
    const key = permissionsKey(tenant.permissions);
    const roleId = derivedUuid('eac-tenants-role', account, key);
    const organizationId = derivedUuid('eac-tenants-organization', account);
    const granted = Object.keys(tenant.permissions).filter(
      (k) => (tenant.permissions as Readonly<Record<string, unknown>>)[k] === true,
    );
    return {
      roleId,
      organizationId,
      commands: [
        ...(state.roles[roleId] === undefined
          ? [
              {
                type: 'createRole' as const,
                projectId,
                roleId,
                name: `Tenants: ${granted.length === 0 ? 'no flag' : granted.sort().join(', ')}`,
                permissions: tenant.permissions,
              },
            ]
          : []),
        ...(state.organizations[organizationId] === undefined
          ? [
              {
                type: 'registerOrganization' as const,
                projectId,
                newId: organizationId,
                externalId: 'migrated-tenants',
                name: 'Migrated tenants',
              },
            ]
          : []),
      ],
    };
  }
  const roleId = derivedUuid('eac-tenant-role', account, tenant.tenantId);
  const organizationId = derivedUuid('eac-tenant-organization', account, tenant.tenantId);
  return {
    roleId,
    organizationId,
    commands: [
      state.roles[roleId] === undefined
        ? { type: 'createRole', projectId, roleId, name, permissions: tenant.permissions }
        : { type: 'updateRole', projectId, roleId, permissions: tenant.permissions },
      {
        type: 'registerOrganization',
        projectId,
        newId: organizationId,
        externalId: `tenant:${tenant.tenantId}`,
        name,
        properties: tenant.metadata,
      },
    ],
  };
}

/**
 * §4.9, §5 rule 6 (decisions tenants.migration.mapping, migration.tenant-users): the identity
 * side of mapping tenants to project users. Each mapped tenant becomes a project user of one
 * project of the account, on the role and in the project organization tenantPlaces gives it
 * (so it has a space to hold v2 dashboards, §2.4), named after the tenant and carrying its
 * metadata as properties.
 */
export function mapTenantUsers(
  identity: IdentityState,
  tenants: readonly { readonly tenantId: string; readonly projectUserId: string }[],
  now: Instant,
  mapping: TenantUsers = DECIDED.tenantUsers,
): Applied<IdentityState, readonly UserRecord[]> {
  let state = identity;
  const projectId = tenantsProjectIdFor(identity.organizationId);
  /** Applies one command to the identity being built: what it gives back, or its refusal. */
  const step = <C extends IdentityCommand>(
    command: C,
  ): { readonly refused: SpecError } | { readonly result: IdentityResults[C['type']] } => {
    const done = applyIdentity(state, command, now);
    if (!done.ok) return { refused: done.error };
    state = done.state;
    return { result: done.result };
  };
  if (state.projects[projectId] === undefined) {
    const made = step({ type: 'createProject', projectId, name: 'Migrated tenants' });
    if ('refused' in made) return fail(made.refused);
  }
  const mapped: UserRecord[] = [];
  for (const { tenantId, projectUserId } of tenants) {
    const tenant = tenantById(state, tenantId);
    if (tenant === undefined) continue;
    const name = tenant.name ?? `Tenant ${tenantId}`;
    const { roleId, organizationId, commands } = tenantPlaces(
      state,
      projectId,
      tenant,
      name,
      mapping,
    );
    for (const command of commands) {
      const done = step(command);
      if ('refused' in done) return fail(done.refused);
    }
    const registered = step({
      type: 'registerUser',
      projectId,
      userId: projectUserId,
      name,
      properties: tenant.metadata,
      userRoleId: roleId,
      projectOrganizationId: organizationId,
    });
    if ('refused' in registered) return fail(registered.refused);
    mapped.push(registered.result.user);
  }
  return ok(state, mapped);
}

/** A tenant registered after finalize is mapped on the spot (§9: register-tenant row). */
export function withTenantMapped(
  state: MigrationState,
  tenantId: string,
  projectUserId: string,
): MigrationState {
  if (state.phase === 'before') return state;
  return { ...state, projectUserOf: put(state.projectUserOf, tenantId, projectUserId) };
}

/**
 * Decision v2.applications.list.before-finalize: before finalize the v2 application list holds
 * no application. Under the other rule (DashboardRules) it is refused there, 409: the account
 * has no v2 space yet.
 */
export function applicationsListRefusal(
  migration: MigrationState,
  dashboards: DashboardsState,
): SpecError | undefined {
  const rule = (dashboards.rules ?? DECIDED).applicationsBeforeFinalize;
  if (migration.phase === 'after' || rule === 'none') return undefined;
  return specError('CONFLICT', 'this account is not migrated to v2 yet', {
    reason: 'not-migrated',
  });
}
