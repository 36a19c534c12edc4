import { specError, type SpecError } from '../errors.ts';
import type { RolePermissions } from '../schemas/permissions.ts';
import { derivedUuid } from './derived-id.ts';
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
import { effectivePermissions, grantsEditing } from './permissions.ts';
import { emptyLike, emptyTable, plainTables, put, type Table, type TableWrites } from './table.ts';

/**
 * Workspaces, dashboards and charts of one customer account (§2.2 editing rules, §2.8, §4.10–
 * §4.14, §4.16), and who may write them. Pure: ids are passed in (a command that makes many
 * records derives them from the one it was given), time is passed in.
 *
 * A dashboard is *shared* (the host's, visible to every user of its workspace) or *a user's
 * own*: made by that user, or the user's copy of a shared dashboard. §2.2 rule 3 and §2.8: an
 * edit by a user never changes a shared dashboard. Through v1 it lands on the user's copy,
 * made on the first edit, which from then on stands in for the shared one in that user's lists
 * and look-ups; through v2 it is refused (409) and the user clones first.
 */

export interface FilterControl {
  /** The key of `filter_{controlKey}` on the embedded pages (§4.17). */
  readonly controlKey: string;
  /** The data column the control filters. */
  readonly field: string;
  readonly label: string;
}

export interface WorkspaceRecord {
  readonly workspaceId: string;
  readonly name: string;
  /** §4.13's two optional filters match these. */
  readonly projectId: string | null;
  readonly teamId: string | null;
  /** §2.8: a workspace is listed with its primary dashboard (its first shared one). */
  readonly primaryDashboardId: string | null;
  readonly createdAt: string;
}

export interface ChartRecord {
  readonly chartId: string;
  readonly name: string;
  /** §2.6, kept exactly as given (§4.14), `sqlOverride` included. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
}

export interface DashboardRecord {
  readonly dashboardId: string;
  readonly workspaceId: string;
  readonly name: string;
  /** The layout: chart ids in order. */
  readonly chartIds: readonly string[];
  /** §2.8: set on a v1 user's own dashboard (the tenant that owns it). */
  readonly tenantId: string | null;
  /** §2.8: set on a dashboard in one project user's space. */
  readonly ownerProjectUserId: string | null;
  /** On a user's copy: the shared dashboard it stands in for in that user's lists. */
  readonly copyOf: string | null;
  readonly controls: readonly FilterControl[];
  readonly createdAt: string;
}

export interface DashboardsState {
  readonly workspaces: Table<WorkspaceRecord>;
  readonly dashboards: Table<DashboardRecord>;
  readonly charts: Table<ChartRecord>;
  /**
   * workspaceId -> the ids of its dashboards (shared, copies and users' own): what a list of
   * one workspace reads, so that its cost follows the workspace's size, not the account's.
   */
  readonly byWorkspace: Table<Table<true>>;
  /** The choices this service makes where the document leaves them open; absent: DECIDED. */
  readonly rules?: DashboardRules;
}

/**
 * Where the document leaves a dashboard rule open, the choice a service makes: the reference's
 * recorded decisions (DECIDED), or the other choices a server may make as well, fixed when the
 * service starts (reference/settings.ts).
 */
export interface DashboardRules {
  /**
   * dashboards.remove-charts.unknown-chart: a v1 remove-charts naming a chart that is not on the
   * layout `skip`s it, or `refuse`s the whole call (404, nothing removed).
   */
  readonly unknownChartRemoval: 'skip' | 'refuse';
  /**
   * dashboards.v1-add-charts.repeat: a v1 add-charts naming a chart already on the layout
   * `skip`s it, or `refuse`s the whole call (409, nothing placed).
   */
  readonly repeatedChart: 'skip' | 'refuse';
  /**
   * dashboards.connection-id.guest: a connectionId on a v1 dashboard write names a connection
   * this service does not keep, so it is `unknown` (404); or the service takes it `unchecked`,
   * as a guest connection it does not look up, and the write goes on.
   */
  readonly guestConnection: 'unknown' | 'unchecked';
  /**
   * dashboards.append-charts-from.copies: the v1 append-charts-from adds `copies` of the source's
   * charts under new ids, or the `same` charts (those not on the target already), shared by both.
   */
  readonly appendedCharts: 'copies' | 'same';
  /**
   * dashboards.copy.chart-ids and migration.chart-ids-kept: a dashboard made to stand in for
   * another (a user's copy of a shared dashboard, a dashboard migrated to v2) holds the `kept`
   * chart ids of the one it stands in for, or `fresh` copies of its charts under new ids.
   */
  readonly standInCharts: 'kept' | 'fresh';
  /**
   * dashboards.v1-list.api-key-view: what an API key sees in a workspace's list, the `shared`
   * dashboards only, or `all` of them (users' copies and own dashboards too).
   */
  readonly apiKeyView: 'shared' | 'all';
  /**
   * dashboards.copy.clone-beside: a user's clone of a shared dashboard is a new dashboard
   * listed `beside` it, or (while the user has no copy of it) `in-place`: the user's copy that
   * takes the shared one's place, as an edit's copy would.
   */
  readonly userClone: 'beside' | 'in-place';
  /**
   * v2.applications.list.before-finalize: before the account is migrated the v2 application
   * list answers `none`, or is `refused` (409: there is no v2 space yet).
   */
  readonly applicationsBeforeFinalize: 'none' | 'refused';
  /**
   * charts.save-from-chat.permissions: saving a chart from chat is `unchecked` against §2.2
   * (it lands on no dashboard), or `checked` as adding a chart is (addChart, readOnly).
   */
  readonly chartSaving: 'unchecked' | 'checked';
  /**
   * migration.tenant-users, tenants.migration.mapping: the project user a tenant becomes holds a
   * project organization and a role of its `own`, or is `shared`: one project organization for
   * every tenant of the account, one role per set of editing permissions.
   */
  readonly tenantUsers: 'own' | 'shared';
  /**
   * v2.no-organization.calls: a project user with no project organization is refused (403) on
   * every call `under-application` and the look-up, before anything else; or only where a call
   * would put a dashboard in its `own-space` (create, clone, an edit of its own), so that it
   * reads as any user and its edit of a template meets the 409 first.
   */
  readonly noOrganizationCalls: 'under-application' | 'own-space';
  /**
   * dashboards.v1-writes.credentials: a project-user token on a v1 dashboard call other than
   * clone (which §5 rule 4 gives an API key or a tenant JWT) is `refused`, or `taken`: the user
   * acts in their own space with their role's permissions, as a tenant does through v1.
   */
  readonly v1ProjectUsers: 'refused' | 'taken';
  /**
   * dashboards.tenant-permissions.read-at-write: a tenant JWT writes with the tenant's
   * permissions as `stored` now (a later registration reaches it at once), or as `issued` in the
   * token (a later registration reaches the tenant's next token only).
   */
  readonly tenantPermissions: 'stored' | 'issued';
}

export const DECIDED: DashboardRules = {
  unknownChartRemoval: 'skip',
  repeatedChart: 'skip',
  guestConnection: 'unknown',
  appendedCharts: 'copies',
  standInCharts: 'kept',
  apiKeyView: 'shared',
  userClone: 'beside',
  applicationsBeforeFinalize: 'none',
  chartSaving: 'unchecked',
  tenantUsers: 'own',
  noOrganizationCalls: 'under-application',
  v1ProjectUsers: 'refused',
  tenantPermissions: 'stored',
};

/**
 * §4.10–§4.12: `connectionId` names a connection a guest may use, which must be one of the
 * account's. The reference keeps no connections, so any connectionId is unknown to it
 * (decision dashboards.connection-id.guest), unless its rules take it unchecked.
 */
export function connectionRefusal(
  state: DashboardsState,
  connectionId: string | undefined,
): SpecError | undefined {
  if (connectionId === undefined || rulesOf(state).guestConnection === 'unchecked')
    return undefined;
  return specError('NOT_FOUND', 'no connection with that id here', {
    resource: 'connection',
    field: 'connectionId',
  });
}

export const rulesOf = (state: DashboardsState): DashboardRules => state.rules ?? DECIDED;

/**
 * The permissions a tenant JWT writes with (decision dashboards.tenant-permissions.read-at-write:
 * the tenant's as stored now); under the other rule, those its token was issued with.
 */
export function tenantWritePermissions(
  state: DashboardsState,
  stored: RolePermissions | null,
  issued: RolePermissions | null,
): RolePermissions | null {
  return rulesOf(state).tenantPermissions === 'issued' ? issued : stored;
}

/** An account with no dashboards yet; `writes` makes its tables (plain records by default). */
export function emptyDashboards(
  writes: TableWrites = plainTables,
  rules: DashboardRules = DECIDED,
): DashboardsState {
  return {
    workspaces: emptyTable(writes),
    dashboards: emptyTable(writes),
    charts: emptyTable(writes),
    byWorkspace: emptyTable(writes),
    ...(rules === DECIDED ? {} : { rules }),
  };
}

/** The workspace index of a dashboards table built in one go (the migration's). */
export function indexByWorkspace(dashboards: Table<DashboardRecord>): Table<Table<true>> {
  let index = emptyLike<Table<true>>(dashboards);
  for (const d of Object.values(dashboards)) {
    index = put(
      index,
      d.workspaceId,
      put(index[d.workspaceId] ?? emptyLike<true>(index), d.dashboardId, true),
    );
  }
  return index;
}

/**
 * Who makes a call. An API key acts on shared dashboards (§5 rule 7). A tenant (v1 tenant JWT)
 * or a project user (project-user token) acts in their own space, with the permissions of
 * their role *as it is now*: §3 says the write checks read the role at once, so the caller
 * passes what the store holds, never what a token carried.
 */
export type Actor =
  | { readonly kind: 'api-key' }
  | {
      readonly kind: 'tenant';
      readonly tenantId: string;
      readonly permissions: RolePermissions | null;
    }
  | {
      readonly kind: 'project-user';
      readonly userId: string;
      readonly permissions: RolePermissions | null;
      readonly projectOrganizationId: string | null;
    };

/** The API generation a write came through: v1 copies on edit, v2 refuses edits of templates. */
export type Via = 'v1' | 'v2' | 'hook';

/** The kinds of dashboard write §2.2 ties to a flag. */
export type WriteKind = 'create' | 'clone' | 'addCharts' | 'appendCharts' | 'removeCharts';

/** §2.2: the flag each write needs, on a role that grants editing and is not readOnly. */
export const WRITE_FLAG = {
  create: 'addDashboard',
  clone: 'canDuplicateDashboard',
  addCharts: 'addChart',
  appendCharts: 'addChart',
  removeCharts: 'removeChart',
} as const satisfies Record<WriteKind, keyof RolePermissions>;

export type DashboardsCommand =
  | {
      readonly type: 'createWorkspace';
      readonly workspaceId: string;
      readonly name: string;
      readonly projectId?: string | null;
      readonly teamId?: string | null;
    }
  | {
      readonly type: 'createChart';
      readonly chartId: string;
      readonly name: string;
      readonly config: Readonly<Record<string, unknown>>;
      /** Who saves it through the API (save-from-chat); a hook names nobody. */
      readonly actor?: Actor;
    }
  | {
      readonly type: 'createDashboard';
      readonly dashboardId: string;
      readonly workspaceId: string;
      readonly name: string;
      readonly chartIds?: readonly string[];
      readonly controls?: readonly FilterControl[];
      readonly actor: Actor;
      readonly via: Via;
    }
  | {
      readonly type: 'clone';
      readonly sourceDashboardId: string;
      /** The new dashboard's id; its charts' ids are derived from it. */
      readonly newDashboardId: string;
      readonly name?: string;
      readonly targetWorkspaceId?: string;
      readonly actor: Actor;
      readonly via: Via;
    }
  | {
      readonly type: 'addCharts';
      readonly dashboardId: string;
      readonly chartIds: readonly string[];
      readonly actor: Actor;
      readonly via: Via;
    }
  | {
      readonly type: 'appendCharts';
      readonly sourceDashboardId: string;
      readonly targetDashboardId: string;
      /** A fresh id for this call; the appended charts' ids are derived from it. */
      readonly batchId: string;
      readonly actor: Actor;
      readonly via: Via;
    }
  | {
      readonly type: 'removeCharts';
      readonly dashboardId: string;
      readonly chartIds: readonly string[];
      readonly actor: Actor;
      readonly via: Via;
    };

export type DashboardsResult =
  | { readonly kind: 'workspace'; readonly workspace: WorkspaceRecord }
  | { readonly kind: 'chart'; readonly chart: ChartRecord }
  | {
      readonly kind: 'dashboard';
      readonly dashboard: DashboardRecord;
      /** For an edit: the shared dashboard the user's copy was made from on this call. */
      readonly copiedFrom?: string;
    };

type Result = Applied<DashboardsState, DashboardsResult>;

const notFound = (resource: string, field: string) =>
  specError('NOT_FOUND', `no ${resource} with that id here`, { resource, field });

export const isShared = (d: DashboardRecord): boolean =>
  d.tenantId === null && d.ownerProjectUserId === null;

/** Whether `d` lives in the actor's own space. */
function ownedBy(d: DashboardRecord, actor: Actor): boolean {
  if (actor.kind === 'tenant') return d.tenantId === actor.tenantId;
  if (actor.kind === 'project-user') return d.ownerProjectUserId === actor.userId;
  return false;
}

/** Where the actor's own dashboards go: the fields that mark a dashboard as theirs. */
function spaceOf(actor: Actor): Pick<DashboardRecord, 'tenantId' | 'ownerProjectUserId'> {
  if (actor.kind === 'tenant') return { tenantId: actor.tenantId, ownerProjectUserId: null };
  if (actor.kind === 'project-user') return { tenantId: null, ownerProjectUserId: actor.userId };
  return { tenantId: null, ownerProjectUserId: null };
}

/** The id of a user's copy of a shared dashboard: one per user and shared dashboard. */
export function copyIdFor(sharedDashboardId: string, actor: Actor): string {
  const owner =
    actor.kind === 'tenant'
      ? `tenant:${actor.tenantId}`
      : `user:${'userId' in actor ? actor.userId : ''}`;
  return derivedUuid('eac-user-copy', sharedDashboardId, owner);
}

/** §2.4, §7: a project user with no project organization has no space to hold dashboards. */
const withoutSpace = (): SpecError =>
  specError(
    'PROJECT_USER_WITHOUT_ORGANIZATION',
    'this project user has no project organization, so no space to hold dashboards',
    {},
  );

const hasNoSpace = (actor: Actor): boolean =>
  actor.kind === 'project-user' && actor.projectOrganizationId === null;

/**
 * Decision v2.no-organization.calls: a project user with no project organization is refused
 * every v2 call under an application, and the look-up, before anything else. Under the other
 * rule nothing is refused here: only a write that would put a dashboard in its space is
 * (writeRefusal, editTarget).
 */
export function noOrganizationRefusal(rules: DashboardRules, actor: Actor): SpecError | undefined {
  if (!hasNoSpace(actor) || rules.noOrganizationCalls === 'own-space') return undefined;
  return withoutSpace();
}

/** §2.2 and §7: may the actor make this kind of write at all? */
export function writeRefusal(
  actor: Actor,
  write: WriteKind,
  via: Via,
  rules: DashboardRules = DECIDED,
): SpecError | undefined {
  if (actor.kind === 'api-key') return undefined;
  // A create or a clone always lands in the user's space; an edit of a template, under the
  // other rule of v2.no-organization.calls, meets the 409 of editTarget first.
  const landsInSpace =
    rules.noOrganizationCalls === 'under-application' || write === 'create' || write === 'clone';
  if (via === 'v2' && hasNoSpace(actor) && landsInSpace) return withoutSpace();
  const flag = WRITE_FLAG[write];
  if (actor.permissions?.readOnly === true) {
    return specError('FORBIDDEN', 'the role is read-only', { permission: 'readOnly', write });
  }
  if (!grantsEditing(actor.permissions)) {
    return specError('FORBIDDEN', 'the role does not grant editing', {
      permission: flag,
      write,
      reason: 'view-only',
    });
  }
  if (!effectivePermissions(actor.permissions)[flag]) {
    return specError('FORBIDDEN', `the role does not allow ${flag}`, { permission: flag, write });
  }
  return undefined;
}

/**
 * The dashboard `dashboardId` as the actor sees it (§2.8): the actor's copy stands in for a
 * shared dashboard; another user's own dashboard does not exist for them.
 */
export function resolveFor(
  state: DashboardsState,
  dashboardId: string,
  actor: Actor,
): DashboardRecord | undefined {
  const found = state.dashboards[dashboardId];
  if (found === undefined) return undefined;
  if (isShared(found)) {
    if (actor.kind === 'api-key') return found;
    return state.dashboards[copyIdFor(found.dashboardId, actor)] ?? found;
  }
  return ownedBy(found, actor) ? found : undefined;
}

/**
 * The dashboards of a workspace as the actor sees them (§2.8): shared ones, each replaced by
 * the actor's copy where there is one, then the actor's own others; one entry per dashboard.
 */
export function dashboardsFor(
  state: DashboardsState,
  workspaceId: string,
  actor: Actor,
  /** The list asked for: the v1 list of a workspace's dashboards, or another (v2, hub). */
  list: 'v1' | 'other' = 'other',
): DashboardRecord[] {
  // A copy takes its shared dashboard's place in the order.
  const out: { at: DashboardRecord; shown: DashboardRecord }[] = [];
  // Under the other rule an API key sees every dashboard of the workspace in the v1 list.
  const everything =
    list === 'v1' && actor.kind === 'api-key' && rulesOf(state).apiKeyView === 'all';
  for (const id of Object.keys(state.byWorkspace[workspaceId] ?? {})) {
    const d = state.dashboards[id];
    if (d === undefined || d.workspaceId !== workspaceId) continue;
    if (everything) out.push({ at: d, shown: d });
    else if (isShared(d)) out.push({ at: d, shown: resolveFor(state, d.dashboardId, actor) ?? d });
    else if (ownedBy(d, actor) && d.copyOf === null) out.push({ at: d, shown: d });
  }
  return out
    .sort(
      (a, b) =>
        a.at.createdAt.localeCompare(b.at.createdAt) ||
        a.at.dashboardId.localeCompare(b.at.dashboardId),
    )
    .map((entry) => entry.shown);
}

/** Copies charts under ids derived from `seed`, in layout order. */
export function copyCharts(
  charts: Table<ChartRecord>,
  chartIds: readonly string[],
  seed: string,
  now: string,
): { charts: Table<ChartRecord>; ids: string[] } {
  let table = charts;
  const ids: string[] = [];
  chartIds.forEach((id, index) => {
    const source = table[id];
    if (source === undefined) return;
    const chartId = derivedUuid('eac-chart-copy', seed, index, id);
    table = put(table, chartId, { ...source, chartId, createdAt: now });
    ids.push(chartId);
  });
  return { charts: table, ids };
}

/**
 * The dashboard an edit by `actor` lands on, making the user's copy of a shared dashboard on
 * the first v1 edit (§2.2 rule 3); a v2 edit of a shared dashboard by a user is refused.
 */
function editTarget(
  state: DashboardsState,
  dashboardId: string,
  actor: Actor,
  via: Via,
  now: string,
): Applied<DashboardsState, { dashboard: DashboardRecord; copiedFrom?: string }> {
  const seen = resolveFor(state, dashboardId, actor);
  if (seen === undefined) return fail(notFound('dashboard', 'dashboardId'));
  if (via === 'v2' && hasNoSpace(actor) && !isShared(seen)) return fail(withoutSpace());
  if (actor.kind === 'api-key' || !isShared(seen)) return ok(state, { dashboard: seen });
  if (via === 'v2') {
    return fail(
      specError(
        'SHARED_DASHBOARD_READ_ONLY',
        'a shared dashboard cannot be edited; clone it and edit the copy',
        {
          dashboardId: seen.dashboardId,
          remedy: 'clone',
        },
      ),
    );
  }
  // The copy keeps the shared dashboard's chart ids (decision): it stands in for it, so the
  // ids a user sees before and after the first edit are the same; no call edits a chart.
  // Under the other rule it holds copies of them under new ids.
  const copyId = copyIdFor(seen.dashboardId, actor);
  const fresh =
    rulesOf(state).standInCharts === 'fresh'
      ? copyCharts(state.charts, seen.chartIds, copyId, now)
      : undefined;
  const copy: DashboardRecord = {
    ...seen,
    ...spaceOf(actor),
    dashboardId: copyId,
    copyOf: seen.dashboardId,
    chartIds: fresh?.ids ?? seen.chartIds,
    createdAt: now,
  };
  const withCharts = fresh === undefined ? state : { ...state, charts: fresh.charts };
  return ok(withDashboard(withCharts, copy), { dashboard: copy, copiedFrom: seen.dashboardId });
}

function withDashboard(state: DashboardsState, d: DashboardRecord): DashboardsState {
  const inWorkspace = state.byWorkspace[d.workspaceId] ?? emptyLike<true>(state.byWorkspace);
  return {
    ...state,
    dashboards: put(state.dashboards, d.dashboardId, d),
    byWorkspace:
      inWorkspace[d.dashboardId] === true
        ? state.byWorkspace
        : put(state.byWorkspace, d.workspaceId, put(inWorkspace, d.dashboardId, true)),
  };
}

/** An edit of a dashboard's layout, on the dashboard it lands on for this actor. */
function edit(
  state: DashboardsState,
  dashboardId: string,
  actor: Actor,
  via: Via,
  now: Instant,
  change: (s: DashboardsState, d: DashboardRecord) => Result,
): Result {
  const target = editTarget(state, dashboardId, actor, via, iso(now));
  if (!target.ok) return target;
  const done = change(target.state, target.result.dashboard);
  if (!done.ok || target.result.copiedFrom === undefined) return done;
  return ok(done.state, { ...done.result, copiedFrom: target.result.copiedFrom });
}

/** §2.2: a write of this kind needs the actor's role to allow it (before anything changes). */
const mayWrite =
  (write: WriteKind) =>
  (state: DashboardsState, command: { readonly actor: Actor; readonly via: Via }) =>
    writeRefusal(command.actor, write, command.via, rulesOf(state));

/**
 * The dashboards machine's table: for each command, the moves it makes of its subject, the
 * check before it, and its effect (applyDashboards runs them; the reports draw the rows).
 */
const DASHBOARDS: MachineTable<DashboardsState, DashboardsCommand, DashboardsResult> = {
  createWorkspace: {
    rows: [{ from: 'absent', to: 'workspace', section: 'hook' }],
    effect: createWorkspace,
  },
  createChart: {
    rows: [{ from: 'absent', to: 'chart', note: 'hook or save-from-chat', section: '4.14' }],
    // Decision charts.save-from-chat.permissions: unchecked; the other rule checks it as adding.
    guard: (state, command) =>
      command.actor !== undefined && rulesOf(state).chartSaving === 'checked'
        ? writeRefusal(command.actor, 'addCharts', 'v1')
        : undefined,
    effect: createChart,
  },
  createDashboard: {
    rows: [
      { from: 'absent', to: 'shared', note: 'with an API key or a hook', section: '4.16' },
      { from: 'absent', to: 'own', note: "in the user's space", section: '5' },
    ],
    guard: mayWrite('create'),
    effect: createDashboard,
  },
  clone: {
    rows: [
      {
        from: 'any',
        to: 'any',
        note: 'a new dashboard beside its source, every chart copied under a new id',
        section: '4.10',
      },
    ],
    guard: mayWrite('clone'),
    effect: clone,
  },
  addCharts: {
    rows: [
      { from: 'shared', to: 'shared', note: 'API key', section: '4.16' },
      {
        from: 'shared',
        to: 'own',
        note: "a user through v1: the edit lands on the user's copy",
        section: '2.2',
      },
      {
        from: 'shared',
        to: 'shared',
        note: 'a user through v2: refused, SHARED_DASHBOARD_READ_ONLY',
        section: '7',
      },
    ],
    guard: mayWrite('addCharts'),
    effect: addCharts,
  },
  appendCharts: {
    rows: [
      {
        from: 'any',
        to: 'any',
        note: "the source's charts copied to the end of the target",
        section: '4.11',
      },
    ],
    guard: mayWrite('appendCharts'),
    effect: appendCharts,
  },
  removeCharts: {
    rows: [{ from: 'any', to: 'any', note: 'the ids leave the layout', section: '4.12' }],
    guard: mayWrite('removeCharts'),
    effect: removeCharts,
  },
};

/** Transition table (data): what each command does to its subject. */
export const dashboardsTransitions: readonly Transition[] = transitionsOf(DASHBOARDS);

export function applyDashboards(
  state: DashboardsState,
  command: DashboardsCommand,
  now: Instant,
): Result {
  return applyBy(DASHBOARDS, state, command, now);
}

type Cmd<T extends DashboardsCommand['type']> = Extract<DashboardsCommand, { type: T }>;

function createWorkspace(
  state: DashboardsState,
  command: Cmd<'createWorkspace'>,
  now: Instant,
): Result {
  const workspace: WorkspaceRecord = {
    workspaceId: command.workspaceId,
    name: command.name,
    projectId: command.projectId ?? null,
    teamId: command.teamId ?? null,
    primaryDashboardId: null,
    createdAt: iso(now),
  };
  return ok(
    { ...state, workspaces: put(state.workspaces, workspace.workspaceId, workspace) },
    { kind: 'workspace', workspace },
  );
}

function createChart(state: DashboardsState, command: Cmd<'createChart'>, now: Instant): Result {
  const chart: ChartRecord = {
    chartId: command.chartId,
    name: command.name,
    config: command.config,
    createdAt: iso(now),
  };
  return ok(
    { ...state, charts: put(state.charts, chart.chartId, chart) },
    { kind: 'chart', chart },
  );
}

function createDashboard(
  state: DashboardsState,
  command: Cmd<'createDashboard'>,
  now: Instant,
): Result {
  const workspace = state.workspaces[command.workspaceId];
  if (workspace === undefined) return fail(notFound('workspace', 'workspaceId'));
  const chartIds = command.chartIds ?? [];
  const unknown = chartIds.find((id) => state.charts[id] === undefined);
  if (unknown !== undefined) return fail(notFound('chart', 'chartIds'));
  const dashboard: DashboardRecord = {
    dashboardId: command.dashboardId,
    workspaceId: workspace.workspaceId,
    name: command.name,
    chartIds: [...new Set(chartIds)],
    ...spaceOf(command.actor),
    copyOf: null,
    controls: command.controls ?? [],
    createdAt: iso(now),
  };
  let next = withDashboard(state, dashboard);
  if (workspace.primaryDashboardId === null && isShared(dashboard)) {
    next = {
      ...next,
      workspaces: put(next.workspaces, workspace.workspaceId, {
        ...workspace,
        primaryDashboardId: dashboard.dashboardId,
      }),
    };
  }
  return ok(next, { kind: 'dashboard', dashboard });
}

function clone(state: DashboardsState, command: Cmd<'clone'>, now: Instant): Result {
  const source = resolveFor(state, command.sourceDashboardId, command.actor);
  if (source === undefined) return fail(notFound('dashboard', 'sourceDashboardId'));
  // §4.10: the target workspace defaults to the source's.
  const workspaceId = command.targetWorkspaceId ?? source.workspaceId;
  if (state.workspaces[workspaceId] === undefined) {
    return fail(notFound('workspace', 'targetWorkspaceId'));
  }
  // Decision dashboards.copy.clone-beside: the clone is a new dashboard beside its source.
  // Under the other rule a user's first v1 clone of a shared dashboard, in its workspace, is
  // the user's copy of it, which takes its place in the user's lists.
  const inPlace =
    rulesOf(state).userClone === 'in-place' &&
    command.via === 'v1' &&
    command.actor.kind !== 'api-key' &&
    isShared(source) &&
    workspaceId === source.workspaceId;
  const dashboardId = inPlace
    ? copyIdFor(source.dashboardId, command.actor)
    : command.newDashboardId;
  // §4.10: a deep copy, every chart under a new id; the default name adds " (Copy)".
  const copied = copyCharts(state.charts, source.chartIds, dashboardId, iso(now));
  const dashboard: DashboardRecord = {
    dashboardId,
    workspaceId,
    name: command.name ?? `${source.name} (Copy)`,
    chartIds: copied.ids,
    ...spaceOf(command.actor),
    copyOf: inPlace ? source.dashboardId : null,
    controls: source.controls,
    createdAt: iso(now),
  };
  return ok(withDashboard({ ...state, charts: copied.charts }, dashboard), {
    kind: 'dashboard',
    dashboard,
  });
}

function addCharts(state: DashboardsState, command: Cmd<'addCharts'>, now: Instant): Result {
  const unknown = command.chartIds.find((id) => state.charts[id] === undefined);
  return edit(state, command.dashboardId, command.actor, command.via, now, (s, d) => {
    if (unknown !== undefined) return fail(notFound('chart', 'chartIds'));
    const repeated = command.chartIds.find((id) => d.chartIds.includes(id));
    if (repeated !== undefined && command.via === 'v1' && rulesOf(s).repeatedChart === 'refuse')
      return fail(
        specError('CONFLICT', 'that chart is already on the layout', {
          field: 'charts',
          chartId: repeated,
        }),
      );
    // A chart already on the layout is not placed twice (decision).
    const chartIds = [
      ...d.chartIds,
      ...command.chartIds.filter((id, i, all) => !d.chartIds.includes(id) && all.indexOf(id) === i),
    ];
    const dashboard = { ...d, chartIds };
    return ok(withDashboard(s, dashboard), { kind: 'dashboard', dashboard });
  });
}

function appendCharts(state: DashboardsState, command: Cmd<'appendCharts'>, now: Instant): Result {
  const source = resolveFor(state, command.sourceDashboardId, command.actor);
  return edit(state, command.targetDashboardId, command.actor, command.via, now, (s, d) => {
    if (source === undefined) return fail(notFound('dashboard', 'sourceDashboardId'));
    if (rulesOf(s).appendedCharts === 'same' && command.via === 'v1') {
      // The other rule: the source's own charts, each placed once.
      const added = source.chartIds.filter((id) => !d.chartIds.includes(id));
      const dashboard = { ...d, chartIds: [...d.chartIds, ...added] };
      return ok(withDashboard(s, dashboard), { kind: 'dashboard', dashboard });
    }
    // Appended charts are copies (decision): the two dashboards never share a chart.
    const copied = copyCharts(s.charts, source.chartIds, command.batchId, iso(now));
    const dashboard = { ...d, chartIds: [...d.chartIds, ...copied.ids] };
    return ok(withDashboard({ ...s, charts: copied.charts }, dashboard), {
      kind: 'dashboard',
      dashboard,
    });
  });
}

function removeCharts(state: DashboardsState, command: Cmd<'removeCharts'>, now: Instant): Result {
  return edit(state, command.dashboardId, command.actor, command.via, now, (s, d) => {
    const absent = command.chartIds.find((id) => !d.chartIds.includes(id));
    if (absent !== undefined && command.via === 'v1' && rulesOf(s).unknownChartRemoval === 'refuse')
      return fail(notFound('chart', 'chartIds'));
    // Ids not on the layout are skipped (decision dashboards.remove-charts.unknown-chart).
    const gone = new Set(command.chartIds);
    const dashboard = { ...d, chartIds: d.chartIds.filter((id) => !gone.has(id)) };
    return ok(withDashboard(s, dashboard), { kind: 'dashboard', dashboard });
  });
}
