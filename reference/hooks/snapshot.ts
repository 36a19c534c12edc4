import type { AccountRecord } from '../store/store.ts';

/** Sorts every object's members by name, recursively, so equal states print equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])] as const);
    return Object.fromEntries(entries);
  }
  return value;
}

/** A table's rows sorted by their key (a table enumerates like a record). */
function rows(table: Readonly<Record<string, unknown>>): unknown[] {
  return Object.keys(table)
    .sort()
    .map((key) => table[key]);
}

/** A Map's entries as a record, so that it prints like the tables. */
const record = <V>(map: ReadonlyMap<string, V>): Record<string, V> => Object.fromEntries(map);

/**
 * The snapshot hook's view of an account (spec/hooks.openapi.yaml): what its identity,
 * dashboards and chat state hold, read-only and canonical. The clock is left out (it moves
 * without a request), and so are the identity state's index, which only restates the tables,
 * and the chat's threads and rate windows: a chat moves them, and §4.15 has a chat persist
 * nothing (the chat suites compare snapshots around one).
 */
export function accountSnapshot(account: AccountRecord): unknown {
  const { identity } = account;
  return canonical({
    projects: rows(identity.projects),
    roles: rows(identity.roles),
    organizations: rows(identity.organizations),
    users: rows(identity.users),
    tenants: rows(identity.tenants),
    workspaces: rows(account.dashboards.workspaces),
    dashboards: rows(account.dashboards.dashboards),
    charts: rows(account.dashboards.charts),
    agents: rows(record(account.chat.agents)),
    chartConnections: record(account.chat.chartConnections),
  });
}
