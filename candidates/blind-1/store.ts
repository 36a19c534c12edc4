import type { Permissions } from './permissions.ts';
import type { Table } from './sql.ts';

/** Everything this service keeps, in memory, per customer account. */

export interface Clock {
  offsetMs: number;
  frozenAt: number | null;
}

export interface Project {
  id: string;
  name: string;
  createdAt: number;
}

export interface Role {
  id: string;
  name: string;
  projectId: string | null;
  permissions: Permissions;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectOrganization {
  id: string;
  projectId: string;
  externalId: string;
  name: string;
  properties: Record<string, unknown>;
}

export interface ProjectUser {
  id: string;
  projectId: string;
  name: string;
  properties: Record<string, unknown>;
  userRoleId: string | null;
  projectOrganizationId: string | null;
  /** Set when the user stands for a migrated v1 tenant. */
  tenantId: string | null;
}

export interface Tenant {
  id: string;
  identity: string;
  name: string;
  columns: Record<string, unknown>;
  schema: string | null;
  uniqueKey: string | null;
  permissions: Permissions;
  connectionOverride: string | null;
  metadata: Record<string, unknown>;
  /** The project user the migration turned this tenant into. */
  projectUserId: string | null;
}

export interface Workspace {
  id: string;
  name: string;
  projectId: string | null;
  teamId: string | null;
  primaryDashboardId: string;
  createdAt: number;
}

export interface FilterControl {
  controlKey: string;
  field: string;
  label: string;
}

export interface Dashboard {
  id: string;
  /** 1 for the v1 world; 2 for dashboards the migration (or a v2 call) made. */
  generation: 1 | 2;
  /** v1: the workspace; v2: the application. */
  containerId: string;
  name: string;
  chartIds: string[];
  controls: FilterControl[];
  /** v1 only: the tenant owning this dashboard (its own copy or its own dashboard). */
  tenantId: string | null;
  /** The project user owning this dashboard; null for a shared dashboard. */
  ownerProjectUserId: string | null;
  /** For a user's copy made by editing a shared dashboard: the shared dashboard it replaces. */
  replacesId: string | null;
  /** v2 only: the v1 dashboard this one came from. */
  legacyDashboardId: string | null;
  createdAt: number;
  seq: number;
}

export interface Chart {
  id: string;
  name: string;
  chartConfig: Record<string, unknown>;
  connectionId: string | null;
  agentId: string | null;
  sql: string | null;
  thumbnail: string | null;
}

export interface Connection {
  id: string;
  name: string;
  /** null: the seeded demo dataset. */
  table: Table | null;
  rowFilters: { column: string; property: string }[];
  seq: number;
}

export interface Agent {
  id: string;
  projectId: string;
  name: string;
  connectionId: string | null;
  versions: { version: number; note: string | null }[];
}

export interface Application {
  id: string;
  name: string;
  legacyWorkspaceId: string;
  defaultDashboardId: string;
  projectId: string | null;
  teamId: string | null;
}

export interface Migration {
  finalizedAt: number;
}

export interface ThreadState {
  last: unknown;
  turns: number;
}

export interface Account {
  id: string;
  name: string;
  hubUserId: string;
  clock: Clock;
  projects: Map<string, Project>;
  roles: Map<string, Role>;
  organizations: Map<string, ProjectOrganization>;
  users: Map<string, ProjectUser>;
  tenants: Map<string, Tenant>;
  workspaces: Map<string, Workspace>;
  dashboards: Map<string, Dashboard>;
  charts: Map<string, Chart>;
  connections: Map<string, Connection>;
  agents: Map<string, Agent>;
  applications: Map<string, Application>;
  migration: Migration | null;
  /** Chat session context by `${userId}\u0000${thread_id}`; not part of the snapshot. */
  threads: Map<string, ThreadState>;
  /** Chat request instants by `${userId}`; not part of the snapshot. */
  rate: Map<string, number[]>;
  seq: number;
}

export interface ApiKey {
  key: string;
  kind: 'org-bound' | 'user-scoped';
  /** org-bound: the account; user-scoped: the hub user. */
  owner: string;
}

export class Store {
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, ApiKey>();
  /** Hub user id -> account ids it belongs to. */
  readonly memberships = new Map<string, Set<string>>();
  /** Every project user id ever registered -> its account (ids are global). */
  readonly userIndex = new Map<string, string>();

  newAccount(id: string, name: string, hubUserId: string): Account {
    const account: Account = {
      id,
      name,
      hubUserId,
      clock: { offsetMs: 0, frozenAt: null },
      ...emptyContents(),
    };
    this.accounts.set(id, account);
    return account;
  }

  reset(account: Account): void {
    for (const user of account.users.keys()) this.userIndex.delete(user);
    Object.assign(account, emptyContents());
  }

  now(account: Account): number {
    return account.clock.frozenAt ?? Date.now() + account.clock.offsetMs;
  }
}

function emptyContents(): Omit<Account, 'id' | 'name' | 'hubUserId' | 'clock'> {
  return {
    projects: new Map(),
    roles: new Map(),
    organizations: new Map(),
    users: new Map(),
    tenants: new Map(),
    workspaces: new Map(),
    dashboards: new Map(),
    charts: new Map(),
    connections: new Map(),
    agents: new Map(),
    applications: new Map(),
    migration: null,
    threads: new Map(),
    rate: new Map(),
    seq: 0,
  };
}

export function nextSeq(account: Account): number {
  account.seq += 1;
  return account.seq;
}
