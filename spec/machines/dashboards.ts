import { specError, type SpecError } from '../errors.ts';
import type { RolePermissions } from '../schemas/permissions.ts';
import { derivedUuid } from './derived-id.ts';
import {
  applyBy,
  effected,
  guardOf,
  iso,
  transitionsOf,
  type Applied,
  type Effected,
  type Guard,
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

/** What a dashboard write gives back. */
export interface DashboardResult {
  readonly kind: 'dashboard';
  readonly dashboard: DashboardRecord;
  /** For an edit: the shared dashboard the user's copy was made from on this call. */
  readonly copiedFrom?: string;
}

/** What each dashboards command gives back when the machine accepts it. */
export interface DashboardsResults {
  readonly createWorkspace: { readonly kind: 'workspace'; readonly workspace: WorkspaceRecord };
  readonly createChart: { readonly kind: 'chart'; readonly chart: ChartRecord };
  readonly createDashboard: DashboardResult;
  readonly clone: DashboardResult;
  readonly addCharts: DashboardResult;
  readonly appendCharts: DashboardResult;
  readonly removeCharts: DashboardResult;
}

export type DashboardsResult = DashboardsResults[DashboardsCommand['type']];

/** The commands that write a dashboard (each gives back a DashboardResult). */
export type DashboardWrite = Extract<DashboardsCommand, { readonly actor: Actor }>;

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
 * Where an edit by `actor` lands (§2.2 rule 3): the dashboard as the actor sees it, or, on a
 * user's first edit of a shared dashboard outside v2, the user's copy made for it (which keeps
 * its chart ids, or under the other rule holds copies of them). The guards have made sure the
 * dashboard exists for the actor and that a v2 edit of a shared one does not get here.
 */
function editTarget(
  state: DashboardsState,
  dashboardId: string,
  actor: Actor,
  via: Via,
  now: string,
): { state: DashboardsState; dashboard: DashboardRecord; copiedFrom?: string } {
  const seen = resolveFor(state, dashboardId, actor);
  if (seen === undefined) throw new Error('an edit got past dashboard-exists');
  if (!makesCopy(seen, actor, via)) return { state, dashboard: seen };
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
  return { state: withDashboard(withCharts, copy), dashboard: copy, copiedFrom: seen.dashboardId };
}

/** Whether an edit of `seen` by the actor lands on a copy made for the actor. */
const makesCopy = (seen: DashboardRecord, actor: Actor, via: Via): boolean =>
  actor.kind !== 'api-key' && isShared(seen) && via !== 'v2';

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

type Cmd<T extends DashboardsCommand['type']> = Extract<DashboardsCommand, { type: T }>;
type Check<C> = Guard<DashboardsState, C>;
type Made<T extends DashboardsCommand['type']> = Effected<DashboardsState, DashboardsResults[T]>;

/** What a write names: who makes it, through which API. */
interface Write {
  readonly actor: Actor;
  readonly via: Via;
}

/** A layout edit names the dashboard it edits (appendCharts: its target). */
type Edit = Cmd<'addCharts' | 'appendCharts' | 'removeCharts'>;
const editedId = (c: Edit): string => ('dashboardId' in c ? c.dashboardId : c.targetDashboardId);

/** §2.2: a write of this kind needs the actor's role to allow it (before anything changes). */
const mayWrite = (write: WriteKind): Check<Write> =>
  guardOf('may-write', (state, c) => writeRefusal(c.actor, write, c.via, rulesOf(state)));

/** §2.8: the dashboard an edit names exists for the actor (another user's own does not). */
const dashboardExists: Check<Edit> = {
  name: 'dashboard-exists',
  refuses: (state, c) => resolveFor(state, editedId(c), c.actor) === undefined,
  error: () => notFound('dashboard', 'dashboardId'),
};

/**
 * §2.4, §7, v2.no-organization.calls: under the other rule (`own-space`), a v2 edit of a
 * dashboard of the user's own space by a project user with no project organization is refused
 * here (403); an edit of a shared one meets not-shared-via-v2 (409). Under the decision may-write
 * has refused every such write already.
 */
const spaceForEdit: Check<Edit> = {
  name: 'space-for-edit',
  refuses: (state, c) => {
    const seen = resolveFor(state, editedId(c), c.actor);
    return (
      rulesOf(state).noOrganizationCalls === 'own-space' &&
      c.via === 'v2' &&
      hasNoSpace(c.actor) &&
      seen !== undefined &&
      !isShared(seen)
    );
  },
  error: () => withoutSpace(),
};

/** §2.8, §7: through v2 a user never edits a shared dashboard; the user clones it first. */
const notSharedViaV2: Check<Edit> = {
  name: 'not-shared-via-v2',
  refuses: (state, c) => {
    const seen = resolveFor(state, editedId(c), c.actor);
    return seen !== undefined && c.actor.kind !== 'api-key' && isShared(seen) && c.via === 'v2';
  },
  error: (state, c) =>
    specError(
      'SHARED_DASHBOARD_READ_ONLY',
      'a shared dashboard cannot be edited; clone it and edit the copy',
      {
        dashboardId: resolveFor(state, editedId(c), c.actor)?.dashboardId,
        remedy: 'clone',
      },
    ),
};

/** The chart ids the command names are charts of the account. */
const chartsKnown: Check<{ readonly chartIds?: readonly string[] | undefined }> = {
  name: 'charts-known',
  refuses: (state, c) => (c.chartIds ?? []).some((id) => state.charts[id] === undefined),
  error: () => notFound('chart', 'chartIds'),
};

/** The layout an edit starts from: the dashboard it lands on, before the change. */
const layoutBefore = (state: DashboardsState, c: Edit, now: Instant): readonly string[] =>
  editTarget(state, editedId(c), c.actor, c.via, iso(now)).dashboard.chartIds;

/**
 * dashboards.v1-add-charts.repeat: under the other rule a v1 add-charts naming a chart already
 * on the layout is refused whole (409).
 */
const repeatedRefused = (state: DashboardsState, c: Cmd<'addCharts'>, now: Instant) =>
  c.via === 'v1' && rulesOf(state).repeatedChart === 'refuse'
    ? c.chartIds.find((id) => layoutBefore(state, c, now).includes(id))
    : undefined;

const noRepeatedChart: Check<Cmd<'addCharts'>> = {
  name: 'no-repeated-chart',
  refuses: (state, c, now) => repeatedRefused(state, c, now) !== undefined,
  error: (state, c, now) =>
    specError('CONFLICT', 'that chart is already on the layout', {
      field: 'charts',
      chartId: repeatedRefused(state, c, now),
    }),
};

/**
 * dashboards.remove-charts.unknown-chart: under the other rule a v1 remove-charts naming a
 * chart not on the layout is refused whole (404).
 */
const noAbsentChart: Check<Cmd<'removeCharts'>> = {
  name: 'no-absent-chart',
  refuses: (state, c, now) =>
    c.via === 'v1' &&
    rulesOf(state).unknownChartRemoval === 'refuse' &&
    c.chartIds.some((id) => !layoutBefore(state, c, now).includes(id)),
  error: () => notFound('chart', 'chartIds'),
};

const sourceExists: Check<Cmd<'clone' | 'appendCharts'>> = {
  name: 'source-exists',
  refuses: (state, c) => resolveFor(state, c.sourceDashboardId, c.actor) === undefined,
  error: () => notFound('dashboard', 'sourceDashboardId'),
};

/** §4.10: the clone's workspace, by default its source's, exists. */
const cloneWorkspace = (state: DashboardsState, c: Cmd<'clone'>): string | undefined =>
  c.targetWorkspaceId ?? resolveFor(state, c.sourceDashboardId, c.actor)?.workspaceId;

const targetWorkspaceExists: Check<Cmd<'clone'>> = {
  name: 'target-workspace-exists',
  refuses: (state, c) => state.workspaces[cloneWorkspace(state, c) ?? ''] === undefined,
  error: () => notFound('workspace', 'targetWorkspaceId'),
};

const workspaceExists: Check<Cmd<'createDashboard'>> = {
  name: 'workspace-exists',
  refuses: (state, c) => state.workspaces[c.workspaceId] === undefined,
  error: () => notFound('workspace', 'workspaceId'),
};

/** Decision charts.save-from-chat.permissions: unchecked; the other rule checks it as adding. */
const chartSavingAllowed: Check<Cmd<'createChart'>> = guardOf('chart-saving-allowed', (state, c) =>
  c.actor !== undefined && rulesOf(state).chartSaving === 'checked'
    ? writeRefusal(c.actor, 'addCharts', 'v1')
    : undefined,
);

/** Whether a dashboard is shared or in a user's space: the states of the dashboards rows. */
const kindOf = (d: DashboardRecord | undefined): string =>
  d === undefined ? 'absent' : isShared(d) ? 'shared' : 'own';

/** The rows of a layout edit: by an API key, by a user on a shared one (copy), on the user's. */
const EDIT_ROWS = (section: string, note: string) => [
  { from: 'shared', to: 'shared', note: `API key: ${note}`, section },
  {
    from: 'shared',
    to: 'own',
    note: "a user outside v2: the edit lands on the user's copy",
    section: '2.2',
  },
  { from: 'own', to: 'own', note: `a user's copy or own dashboard: ${note}`, section },
];

const editMove = {
  subject: (state: DashboardsState, c: Edit) => kindOf(resolveFor(state, editedId(c), c.actor)),
  landed: (_: DashboardsState, __: Edit, result: DashboardResult) => kindOf(result.dashboard),
};

/**
 * The dashboards machine's table: for each command, the states of its subject it moves from
 * and to, the guards that refuse it (in the order they are asked) and its effect
 * (applyDashboards runs them; the reports draw the rows).
 */
const DASHBOARDS: MachineTable<DashboardsState, DashboardsCommand, DashboardsResults> = {
  createWorkspace: {
    subject: (state, c) => (state.workspaces[c.workspaceId] === undefined ? 'absent' : 'workspace'),
    rows: [{ from: 'absent', to: 'workspace', section: 'hook' }],
    effect: createWorkspace,
    landed: () => 'workspace',
  },
  createChart: {
    subject: (state, c) => (state.charts[c.chartId] === undefined ? 'absent' : 'chart'),
    guards: [chartSavingAllowed],
    rows: [{ from: 'absent', to: 'chart', note: 'hook or save-from-chat', section: '4.14' }],
    effect: createChart,
    landed: () => 'chart',
  },
  createDashboard: {
    subject: (state, c) => kindOf(state.dashboards[c.dashboardId]),
    guards: [mayWrite('create'), workspaceExists, chartsKnown],
    rows: [
      { from: 'absent', to: 'shared', note: 'with an API key or a hook', section: '4.16' },
      { from: 'absent', to: 'own', note: "in the user's space", section: '5' },
    ],
    effect: createDashboard,
    landed: (_, __, result) => kindOf(result.dashboard),
  },
  clone: {
    subject: (state, c) => kindOf(resolveFor(state, c.sourceDashboardId, c.actor)),
    guards: [mayWrite('clone'), sourceExists, targetWorkspaceExists],
    rows: [
      {
        from: 'shared',
        to: 'shared',
        note: 'API key: a new dashboard beside its source, every chart copied under a new id',
        section: '4.10',
      },
      {
        from: 'shared',
        to: 'own',
        note: "a user's clone lands in the user's space",
        section: '4.10',
      },
      { from: 'own', to: 'own', note: "a user's clone of their own", section: '4.10' },
    ],
    effect: clone,
    landed: (_, __, result) => kindOf(result.dashboard),
  },
  addCharts: {
    ...editMove,
    guards: [
      mayWrite('addCharts'),
      dashboardExists,
      spaceForEdit,
      notSharedViaV2,
      chartsKnown,
      noRepeatedChart,
    ],
    rows: EDIT_ROWS('4.16', 'the charts placed at the end'),
    effect: addCharts,
  },
  appendCharts: {
    ...editMove,
    guards: [mayWrite('appendCharts'), dashboardExists, spaceForEdit, notSharedViaV2, sourceExists],
    rows: EDIT_ROWS('4.11', "the source's charts copied to the end of the target"),
    effect: appendCharts,
  },
  removeCharts: {
    ...editMove,
    guards: [
      mayWrite('removeCharts'),
      dashboardExists,
      spaceForEdit,
      notSharedViaV2,
      noAbsentChart,
    ],
    rows: EDIT_ROWS('4.12', 'the ids leave the layout'),
    effect: removeCharts,
  },
};

/** Transition table (data): what each command does to its subject. */
export const dashboardsTransitions: readonly Transition[] = transitionsOf(DASHBOARDS);

/** Applies a command; what it gives back is typed by the command (DashboardsResults). */
export function applyDashboards<C extends DashboardsCommand>(
  state: DashboardsState,
  command: C,
  now: Instant,
): Applied<DashboardsState, DashboardsResults[C['type']]> {
  return applyBy(DASHBOARDS, state, command, now);
}

function createWorkspace(
  state: DashboardsState,
  command: Cmd<'createWorkspace'>,
  now: Instant,
): Made<'createWorkspace'> {
  const workspace: WorkspaceRecord = {
    workspaceId: command.workspaceId,
    name: command.name,
    projectId: command.projectId ?? null,
    teamId: command.teamId ?? null,
    primaryDashboardId: null,
    createdAt: iso(now),
  };
  return effected(
    { ...state, workspaces: put(state.workspaces, workspace.workspaceId, workspace) },
    { kind: 'workspace', workspace },
  );
}

function createChart(
  state: DashboardsState,
  command: Cmd<'createChart'>,
  now: Instant,
): Made<'createChart'> {
  const chart: ChartRecord = {
    chartId: command.chartId,
    name: command.name,
    config: command.config,
    createdAt: iso(now),
  };
  return effected(
    { ...state, charts: put(state.charts, chart.chartId, chart) },
    { kind: 'chart', chart },
  );
}

function createDashboard(
  state: DashboardsState,
  command: Cmd<'createDashboard'>,
  now: Instant,
): Made<'createDashboard'> {
  const workspace = state.workspaces[command.workspaceId];
  if (workspace === undefined) throw new Error('createDashboard got past workspace-exists');
  const dashboard: DashboardRecord = {
    dashboardId: command.dashboardId,
    workspaceId: workspace.workspaceId,
    name: command.name,
    chartIds: [...new Set(command.chartIds ?? [])],
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
  return effected(next, { kind: 'dashboard', dashboard });
}

function clone(state: DashboardsState, command: Cmd<'clone'>, now: Instant): Made<'clone'> {
  const source = resolveFor(state, command.sourceDashboardId, command.actor);
  if (source === undefined) throw new Error('clone got past source-exists');
  // §4.10: the target workspace defaults to the source's.
  const workspaceId = command.targetWorkspaceId ?? source.workspaceId;
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
  return effected(withDashboard({ ...state, charts: copied.charts }, dashboard), {
    kind: 'dashboard',
    dashboard,
  });
}

/** An edit of a dashboard's layout, on the dashboard it lands on for this actor. */
function edit(
  state: DashboardsState,
  command: Edit,
  now: Instant,
  change: (s: DashboardsState, d: DashboardRecord) => Effected<DashboardsState, DashboardRecord>,
): Effected<DashboardsState, DashboardResult> {
  const target = editTarget(state, editedId(command), command.actor, command.via, iso(now));
  const done = change(target.state, target.dashboard);
  return effected(done.state, {
    kind: 'dashboard',
    dashboard: done.result,
    ...(target.copiedFrom === undefined ? {} : { copiedFrom: target.copiedFrom }),
  });
}

const placed = (s: DashboardsState, dashboard: DashboardRecord) =>
  effected(withDashboard(s, dashboard), dashboard);

function addCharts(
  state: DashboardsState,
  command: Cmd<'addCharts'>,
  now: Instant,
): Made<'addCharts'> {
  return edit(state, command, now, (s, d) =>
    // A chart already on the layout is not placed twice (decision).
    placed(s, {
      ...d,
      chartIds: [
        ...d.chartIds,
        ...command.chartIds.filter(
          (id, i, all) => !d.chartIds.includes(id) && all.indexOf(id) === i,
        ),
      ],
    }),
  );
}

function appendCharts(
  state: DashboardsState,
  command: Cmd<'appendCharts'>,
  now: Instant,
): Made<'appendCharts'> {
  const source = resolveFor(state, command.sourceDashboardId, command.actor);
  if (source === undefined) throw new Error('appendCharts got past source-exists');
  return edit(state, command, now, (s, d) => {
    if (rulesOf(s).appendedCharts === 'same' && command.via === 'v1') {
      // The other rule: the source's own charts, each placed once.
      const added = source.chartIds.filter((id) => !d.chartIds.includes(id));
      return placed(s, { ...d, chartIds: [...d.chartIds, ...added] });
    }
    // Appended charts are copies (decision): the two dashboards never share a chart.
    const copied = copyCharts(s.charts, source.chartIds, command.batchId, iso(now));
    return placed(
      { ...s, charts: copied.charts },
      { ...d, chartIds: [...d.chartIds, ...copied.ids] },
    );
  });
}

function removeCharts(
  state: DashboardsState,
  command: Cmd<'removeCharts'>,
  now: Instant,
): Made<'removeCharts'> {
  // Ids not on the layout are skipped (decision dashboards.remove-charts.unknown-chart).
  const gone = new Set(command.chartIds);
  return edit(state, command, now, (s, d) =>
    placed(s, { ...d, chartIds: d.chartIds.filter((id) => !gone.has(id)) }),
  );
}
