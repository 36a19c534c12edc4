import { describe, expect, it } from 'vitest';
import { postJson, referenceForTests, type Envelope } from '../test-client.ts';

type Body = Envelope;
type Event = { type: string; payload?: Record<string, unknown> };

// The reset hook (spec/hooks.openapi.yaml, tag reset): everything one account holds goes, its
// API chat state included (connections, agents, threads, rate windows), its keys and clock
// stay, tokens issued to the users and tenants it removed are refused afterwards, and no other
// account sees any of it.
describe('reset hook', () => {
  const ref = referenceForTests({ hooks: true, seed: 23 });
  const post = (url: string, body: unknown) => postJson<Body>(url, body);

  const sales = (rows: { region: string; amount: number; day: string }[]) => ({
    name: 'sales',
    columns: [
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'number' },
      { name: 'day', type: 'date' },
    ],
    rows,
  });
  const rowsOld = [
    { region: 'north', amount: 10, day: '2024-03-01' },
    { region: 'north', amount: 5, day: '2025-03-01' },
  ];

  const snapshot = async (org: string) => {
    const res = await fetch(`${ref.hooks}/accounts/${org}/snapshot`);
    expect(res.status).toBe(200);
    return JSON.stringify(((await res.json()) as Body).data['state']);
  };

  /** An account with a frozen clock, a project, a connection, an agent, a user and a tenant. */
  async function account() {
    const made = (await post(`${ref.hooks}/accounts`, {})).body.data;
    const org = String(made['organizationId']);
    const apiKey = String(made['orgBoundKey']);
    const empty = await snapshot(org);
    // Ten seconds into a clock minute, so a rate window stays the same window.
    const clock = await post(`${ref.hooks}/accounts/${org}/clock/freeze`, {
      at: '2031-05-01T00:00:10.000Z',
    });
    expect(clock.status).toBe(200);
    const projectId = String(
      (await post(`${ref.hooks}/accounts/${org}/projects`, {})).body.data['projectId'],
    );
    const connectionId = String(
      (await post(`${ref.hooks}/accounts/${org}/connections`, { table: sales(rowsOld) })).body.data[
        'connectionId'
      ],
    );
    const agentId = String(
      (await post(`${ref.hooks}/accounts/${org}/projects/${projectId}/agents`, { connectionId }))
        .body.data['agentId'],
    );
    const pog = String(
      (
        await post(`${ref.url}/v1/api/projects/register-organization`, {
          apiKey,
          projectId,
          name: 'Org',
        })
      ).body.data['projectOrganizationId'],
    );
    const user = async () => {
      const registered = await post(`${ref.url}/v1/api/projects/register-user`, {
        apiKey,
        projectId,
        name: 'U',
        properties: {},
        projectOrganizationId: pog,
      });
      expect(registered.status).toBe(200);
      const token = await post(`${ref.url}/v1/api/projects/user-token`, {
        apiKey,
        userId: registered.body.data['userId'],
      });
      expect(token.status).toBe(200);
      return String(token.body.data['token']);
    };
    const tenant = await post(`${ref.url}/v1/api/tenant/register-tenant`, {
      apiKey,
      uniqueKey: 'acme',
    });
    expect(tenant.status).toBe(200);
    return {
      org,
      apiKey,
      empty,
      projectId,
      connectionId,
      agentId,
      user,
      tenantToken: String(tenant.body.data['token']),
    };
  }

  async function chat(agentId: string, token: string, content: string, threadId?: string) {
    const res = await fetch(`${ref.url}/v1/api/project-agents/${agentId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        messages: [{ role: 'user', content }],
        payload: { agent_id: agentId },
        ...(threadId === undefined ? {} : { thread_id: threadId }),
      }),
    });
    const text = await res.text();
    if (!res.ok) return { status: res.status, error: JSON.parse(text) as Body, events: [] };
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as Event);
    return { status: res.status, error: undefined, events };
  }
  const chartOf = (events: Event[]) =>
    events.find((e) => e.type === 'tool-result' && e.payload?.['toolName'] === 'generateChart')
      ?.payload?.['result'] as
      { chartConfig: Record<string, unknown>; chartData: Record<string, unknown>[] } | undefined;

  /** 401 UNAUTHORIZED in the §7 envelope, reason invalid-token (decision auth.token.invalid). */
  const expectInvalidToken = (status: number, body: Body | undefined, what: string) => {
    expect(status, what).toBe(401);
    expect(body?.status, what).toBe('error');
    expect(body?.error?.code, what).toBe('UNAUTHORIZED');
    expect(body?.error?.details?.['reason'], what).toBe('invalid-token');
  };

  it('empties one account, keeps its keys and clock, and leaves another account as it was', async () => {
    const a = await account();
    const b = await account();
    const aUser = await a.user();
    const bUser = await b.user();
    const bBusy = await b.user();

    // A: a thread and a rate window of its own.
    expect((await chat(a.agentId, aUser, 'total amount by month as a table', 't1')).status).toBe(
      200,
    );
    // B: a thread, a full rate window, and a saved chart reading the connection it names
    // while a newer connection holds a table of the same name.
    const first = await chat(b.agentId, bUser, 'total amount by month as a table', 't1');
    expect(chartOf(first.events)?.chartData).toEqual([
      { day_month: '2024-03-01', total_amount: 10 },
      { day_month: '2025-03-01', total_amount: 5 },
    ]);
    for (let sent = 0; sent < 180; sent += 30) {
      const batch = await Promise.all(
        Array.from({ length: 30 }, () => chat(b.agentId, bBusy, 'hi')),
      );
      expect(batch.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 200));
    }
    expect((await chat(b.agentId, bBusy, 'hi')).status, 'the window is full').toBe(429);
    const newer = await post(`${ref.hooks}/accounts/${b.org}/connections`, {
      table: sales([{ region: 'east', amount: 99, day: '2025-01-01' }]),
    });
    expect(newer.status).toBe(201);
    const saved = await post(`${ref.url}/v1/api/chart/save-from-chat`, {
      apiKey: b.apiKey,
      chartConfig: chartOf(first.events)?.chartConfig,
      connectionId: b.connectionId,
      name: 'Saved',
    });
    expect(saved.status).toBe(200);
    const chartId = String(saved.body.data['chartId']);
    const bRows = async () =>
      (await post(`${ref.hooks}/accounts/${b.org}/charts/${chartId}/data`, { token: bUser })).body
        .data['rows'];
    expect(await bRows()).toEqual(chartOf(first.events)?.chartData);
    const bBefore = await snapshot(b.org);
    const aClock = (await (await fetch(`${ref.hooks}/accounts/${a.org}/clock`)).json()) as Body;

    const reset = await post(`${ref.hooks}/accounts/${a.org}/reset`, {});
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ status: 'success', data: { organizationId: a.org, reset: true } });

    // A holds nothing: the snapshot of a new account, no agent, no connection.
    expect(await snapshot(a.org), 'A holds what it held when created').toBe(a.empty);
    const versions = await post(
      `${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents/${a.agentId}/versions`,
      {},
    );
    expect(versions.status, "A's agent is gone").toBe(404);
    // A's keys and clock stay.
    const projectId = String(
      (await post(`${ref.hooks}/accounts/${a.org}/projects`, {})).body.data['projectId'],
    );
    const org = await post(`${ref.url}/v1/api/projects/register-organization`, {
      apiKey: a.apiKey,
      projectId,
      name: 'Again',
    });
    expect(org.status, "A's organization-bound key still works").toBe(200);
    expect(await (await fetch(`${ref.hooks}/accounts/${a.org}/clock`)).json()).toEqual(aClock);
    const agent = await post(`${ref.hooks}/accounts/${a.org}/projects/${projectId}/agents`, {
      connectionId: a.connectionId,
    });
    expect(agent.status, "A's connection is gone").toBe(404);

    // B is untouched: its state, agent, thread, full rate window and saved chart's connection.
    expect(await snapshot(b.org)).toBe(bBefore);
    const refined = await chat(b.agentId, bUser, 'only 2025 as a bar chart', 't1');
    expect(refined.status, "B's agent is still there").toBe(200);
    expect(chartOf(refined.events)?.chartConfig['type'], "B's thread is kept").toBe('bar');
    expect(chartOf(refined.events)?.chartData).toEqual([
      { day_month: '2025-03-01', total_amount: 5 },
    ]);
    expect((await chat(b.agentId, bBusy, 'hi')).status, "B's rate window is kept").toBe(429);
    expect(await bRows(), "B's chart still reads the connection it was saved with").toEqual(
      chartOf(first.events)?.chartData,
    );
  }, 60_000);

  it('refuses the tokens of the users and tenants it removed, on the API and on chat', async () => {
    const a = await account();
    const token = await a.user();
    expect((await chat(a.agentId, token, 'hi')).status).toBe(200);
    const before = await fetch(`${ref.url}/v2/api/applications`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(before.status).toBe(200);
    expect((await post(`${ref.hooks}/accounts/${a.org}/reset`, {})).status).toBe(200);

    const chatted = await chat(a.agentId, token, 'hi');
    expectInvalidToken(chatted.status, chatted.error, 'chat with a removed user');
    const v2 = await fetch(`${ref.url}/v2/api/applications`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expectInvalidToken(v2.status, (await v2.json()) as Body, 'v2 with a removed user');
    const saved = await fetch(`${ref.url}/v1/api/chart/save-from-chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: a.tenantToken },
      body: JSON.stringify({ chartConfig: { type: 'bar' }, name: 'X' }),
    });
    expectInvalidToken(saved.status, (await saved.json()) as Body, 'a removed tenant');
    expect(await snapshot(a.org), 'the refused save wrote nothing').toBe(a.empty);
  });

  it('answers 404 NOT_FOUND for an unknown account', async () => {
    const res = await post(`${ref.hooks}/accounts/00000000-0000-4000-8000-000000000000/reset`, {});
    expect(res.status).toBe(404);
    expect(res.body.error?.code).toBe('NOT_FOUND');
    expect(res.body.error?.details?.['resource']).toBe('account');
  });
});
