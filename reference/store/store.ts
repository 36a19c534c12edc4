import { randomBytes } from 'node:crypto';
import {
  applyClock,
  readClock,
  realClock,
  type ClockCommand,
  type ClockState,
} from '../../spec/machines/clock.ts';
import {
  applyIdentity,
  emptyIdentity,
  type IdentityCommand,
  type IdentityResults,
  type IdentityState,
  type UserRecord,
} from '../../spec/machines/identity.ts';
import { DataStore } from '../data/database.ts';
import type { Done } from '../done.ts';
import { emptyChat, type AccountChat } from './chat.ts';
import type { IdSource } from './ids.ts';
import { persistentTables } from './tables.ts';
import { MachineRows } from './machine-rows.ts';
import { specError } from '../../spec/errors.ts';
import {
  applyDashboards,
  DECIDED,
  emptyDashboards,
  rulesOf,
  type DashboardRules,
  type DashboardsCommand,
  type DashboardsResults,
  type DashboardsState,
} from '../../spec/machines/dashboards.ts';
import {
  applyMigration,
  BEFORE_FINALIZE,
  mapTenantUsers,
  withTenantMapped,
  type Finalized,
  type MigrationState,
} from '../../spec/machines/migration.ts';

const notFound = (resource: string) =>
  specError('NOT_FOUND', `no ${resource} with that id here`, { resource });

/** One customer account (§5 rule 2: its own organization UUID owns keys and projects). */
export interface AccountRecord {
  readonly organizationId: string;
  readonly name: string;
  readonly orgBoundKey: string;
  identity: IdentityState;
  clock: ClockState;
  /** Workspaces, dashboards and charts (spec/machines/dashboards.ts). */
  dashboards: DashboardsState;
  /** Before or after the v1 -> v2 finalize (spec/machines/migration.ts). */
  migration: MigrationState;
  /** Agents, threads and rate windows of the chat (reference/store/chat.ts). */
  chat: AccountChat;
}

/** A hub user (§5 rule 1): owns a user-scoped key and is a member of some organizations. */
export interface HubUser {
  readonly hubUserId: string;
  readonly key: string;
  readonly memberships: Set<string>;
}

export type KeyOwner =
  | { readonly kind: 'user-scoped'; readonly hubUser: HubUser }
  | { readonly kind: 'org-bound'; readonly organizationId: string };

/**
 * API keys are random, not seeded: ids are replayable from the seed, and a key must not be
 * derivable from an id someone has seen.
 *
 * The reference's whole in-memory state: per-account namespaces, each with its own identity
 * state and clock, and the data store that holds the accounts' connections. Every change of
 * the identity, dashboards and migration goes through a pure machine and is stored only when
 * the machine accepts it, so a refused request leaves nothing behind.
 */
export class Store {
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly keys = new Map<string, KeyOwner>();
  /** Which rows of the machines' tables the store's commands took, and which guards refused. */
  readonly machineRows = new MachineRows();
  /** The connections' tables and the seeded dataset (§4.15: what the agents read). */
  readonly data: DataStore;

  constructor(
    readonly ids: IdSource,
    private readonly realNow: () => number = Date.now,
    data: ConstructorParameters<typeof DataStore>[0] = {},
    /** The dashboard rules the service was started with (reference/settings.ts). */
    private readonly rules: DashboardRules = DECIDED,
  ) {
    this.data = new DataStore(data);
  }

  createAccount(name: string) {
    const organizationId = this.ids.uuid();
    const hubUser: HubUser = {
      hubUserId: this.ids.uuid(),
      key: `eac_us_${randomBytes(20).toString('hex')}`,
      memberships: new Set([organizationId]),
    };
    const account: AccountRecord = {
      organizationId,
      name,
      orgBoundKey: `eac_ob_${randomBytes(20).toString('hex')}`,
      identity: emptyIdentity(organizationId, persistentTables),
      clock: realClock,
      dashboards: emptyDashboards(persistentTables, this.rules),
      migration: BEFORE_FINALIZE,
      chat: emptyChat(),
    };
    this.accounts.set(organizationId, account);
    this.keys.set(hubUser.key, { kind: 'user-scoped', hubUser });
    this.keys.set(account.orgBoundKey, { kind: 'org-bound', organizationId });
    return { account, hubUser };
  }

  account(organizationId: string): AccountRecord | undefined {
    return this.accounts.get(organizationId);
  }

  keyOwner(key: string): KeyOwner | undefined {
    return this.keys.get(key);
  }

  now(account: AccountRecord): number {
    return readClock(account.clock, this.realNow());
  }

  clock(account: AccountRecord, command: ClockCommand): Done<number> {
    const applied = this.machineRows.count(
      'clock',
      applyClock(account.clock, command, this.realNow()),
    );
    if (!applied.ok) return applied;
    account.clock = applied.state;
    return { ok: true, value: applied.result };
  }

  /** Applies an identity command; what it gives back is typed by the command. */
  identity<C extends IdentityCommand>(
    account: AccountRecord,
    command: C,
  ): Done<IdentityResults[C['type']]> {
    const applied = this.machineRows.count(
      'identity',
      applyIdentity(account.identity, command, this.now(account)),
    );
    if (!applied.ok) return applied;
    account.identity = applied.state;
    return { ok: true, value: applied.result };
  }

  /** Applies a dashboards command; what it gives back is typed by the command. */
  dashboards<C extends DashboardsCommand>(
    account: AccountRecord,
    command: C,
  ): Done<DashboardsResults[C['type']]> {
    const applied = this.machineRows.count(
      'dashboards',
      applyDashboards(account.dashboards, command, this.now(account)),
    );
    if (!applied.ok) return applied;
    account.dashboards = applied.state;
    return { ok: true, value: applied.result };
  }

  /** §9: finalizes the account's migration; `tenants` maps each tenant to its project user. */
  finalize(
    account: AccountRecord,
    tenants: readonly { tenantId: string; projectUserId: string }[],
  ): Done<Finalized> {
    const applied = this.machineRows.count(
      'migration',
      applyMigration(
        account.migration,
        { type: 'finalize', dashboards: account.dashboards, tenants },
        this.now(account),
      ),
    );
    if (!applied.ok) return applied;
    // §4.9, §5 rule 6: the identity side holds the project users the tenants became.
    const users = mapTenantUsers(
      account.identity,
      tenants,
      this.now(account),
      rulesOf(account.dashboards).tenantUsers,
    );
    if (!users.ok) return users;
    account.identity = users.state;
    account.migration = applied.result.migration;
    account.dashboards = applied.result.dashboards;
    return { ok: true, value: applied.result };
  }

  /** §9: a tenant registered or re-registered after finalize becomes (or updates) its user. */
  mapTenant(account: AccountRecord, tenantId: string, projectUserId: string): Done<UserRecord> {
    const users = mapTenantUsers(
      account.identity,
      [{ tenantId, projectUserId }],
      this.now(account),
      rulesOf(account.dashboards).tenantUsers,
    );
    if (!users.ok) return users;
    const [user] = users.result;
    if (user === undefined) return { ok: false, error: notFound('tenant') };
    account.identity = users.state;
    account.migration = withTenantMapped(account.migration, tenantId, projectUserId);
    return { ok: true, value: user };
  }

  /** Save-from-chat names the connection of the chart it saves (§4.14 connectionId). */
  rememberChartConnection(
    account: AccountRecord,
    chartId: string,
    connectionId: string | undefined,
  ): void {
    if (
      connectionId !== undefined &&
      this.data.connection(account.organizationId, connectionId) !== undefined
    )
      account.chat.chartConnections.set(chartId, connectionId);
  }

  /**
   * Drops what the account built (projects, users, roles, tenants, dashboards, connections,
   * agents, threads and rate windows); keeps keys and clock.
   */
  async reset(account: AccountRecord): Promise<void> {
    account.identity = emptyIdentity(account.organizationId, persistentTables);
    account.dashboards = emptyDashboards(persistentTables, this.rules);
    account.migration = BEFORE_FINALIZE;
    account.chat = emptyChat();
    await this.data.dropAccount(account.organizationId);
  }
}
