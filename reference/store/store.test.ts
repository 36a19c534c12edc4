import { DEFAULT_SETTINGS } from '../settings.ts';
import { describe, expect, it } from 'vitest';
import { accountSnapshot } from '../hooks/snapshot.ts';
import { takeChatSlot } from '../chat/rate.ts';
import { seededIds } from './ids.ts';
import { sizeOf } from './tables.ts';
import { Store, type AccountRecord } from './store.ts';

// The chat state of an account lives in the store with the rest of it: the snapshot hook shows
// its agents and chart connections (a chat's threads and rate windows move with every chat,
// which persists nothing), and the reset hook (one call, Store.reset) clears all of it, for
// that account only.
describe('chat state in the store', () => {
  const chatIn = (store: Store, account: AccountRecord, chartId: string) => {
    const org = account.organizationId;
    account.chat.agents.set(`agent-${org}`, {
      agentId: `agent-${org}`,
      organizationId: org,
      projectId: 'p',
      name: 'agent',
      connectionId: null,
      versions: [1, 2],
    });
    account.chat.threads.set(`${org}\u0000u\u0000t`, { charts: 1 });
    expect(
      takeChatSlot(account.chat.rates, `${org}\u0000\u0000u`, store.now(account), DEFAULT_SETTINGS),
    ).toBe(undefined);
    account.chat.chartConnections.set(chartId, 'c');
  };

  it('shows in the snapshot and goes with a reset of its account only', async () => {
    const store = new Store(seededIds(5));
    const { account } = store.createAccount('a');
    const { account: other } = store.createAccount('b');
    const empty = JSON.stringify(accountSnapshot(account));
    chatIn(store, account, 'chart-a');
    chatIn(store, other, 'chart-b');
    const written = accountSnapshot(account) as Record<string, unknown>;
    expect(Object.keys(written['agents'] as object), 'the agent shows').toHaveLength(1);
    expect(written['threads'], 'a thread is no content of the account').toBeUndefined();
    expect(written['chartConnections'], 'the chart connection shows').toEqual({ 'chart-a': 'c' });

    const otherBefore = JSON.stringify(accountSnapshot(other));
    await store.reset(account);
    expect(JSON.stringify(accountSnapshot(account)), 'reset leaves nothing of the chat').toBe(
      empty,
    );
    expect(account.chat.threads.size + account.chat.rates.size, 'threads and windows go').toBe(0);
    expect(other.chat.threads.size + other.chat.rates.size, 'not another account’s').toBe(2);
    expect(JSON.stringify(accountSnapshot(other)), 'another account keeps its chat').toBe(
      otherBefore,
    );
  });
});

// The store holds each account's identity and dashboards in its own tables (tables.ts), which a
// command writes without copying; a reset starts them afresh of the same kind.
describe("the store's tables", () => {
  const tablesOf = (a: AccountRecord) => [
    a.identity.projects,
    a.identity.index.usersByRole,
    a.dashboards.dashboards,
    a.dashboards.byWorkspace,
  ];

  it('hold an account from its start, through its commands, and after a reset', async () => {
    const store = new Store(seededIds(6));
    const { account } = store.createAccount('a');
    for (const table of tablesOf(account)) expect(sizeOf(table)).toBe(0);
    store.identity(account, { type: 'createProject', projectId: 'p', name: 'p' });
    expect(sizeOf(account.identity.projects)).toBe(1);
    await store.reset(account);
    for (const table of tablesOf(account)) expect(sizeOf(table)).toBe(0);
  });
});
