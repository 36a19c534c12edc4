import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../server.ts';
import { postJson } from '../test-client.ts';

type Body = {
  data: Record<string, unknown>;
  error?: { code: string; details: Record<string, unknown> };
};
type Event = { type: string; payload?: Record<string, unknown> };

// The chat endpoint (§4.15, §6), its hooks (connections, agents, chart-data) and row-level
// security seen from outside.
describe('chat', () => {
  let running: RunningReference;
  let hooks: string;
  beforeAll(async () => {
    running = await start({ hooks: true, seed: 11 });
    hooks = running.hooksUrl ?? '';
  });
  afterAll(() => running.close());
  const post = (url: string, body: unknown) => postJson<Body>(url, body);

  async function world(table?: unknown, rowFilters?: unknown) {
    const account = (await post(`${hooks}/accounts`, {})).body.data;
    const org = String(account['organizationId']);
    const apiKey = String(account['orgBoundKey']);
    const projectId = String(
      (await post(`${hooks}/accounts/${org}/projects`, {})).body.data['projectId'],
    );
    const connection = await post(`${hooks}/accounts/${org}/connections`, {
      ...(table === undefined ? {} : { table }),
      ...(rowFilters === undefined ? {} : { rowFilters }),
    });
    expect(connection.status).toBe(201);
    const connectionId = String(connection.body.data['connectionId']);
    const agent = await post(`${hooks}/accounts/${org}/projects/${projectId}/agents`, {
      connectionId,
    });
    expect(agent.status).toBe(201);
    const agentId = String(agent.body.data['agentId']);
    const pog = String(
      (
        await post(`${running.url}/v1/api/projects/register-organization`, {
          apiKey,
          projectId,
          name: 'Org',
        })
      ).body.data['projectOrganizationId'],
    );
    const user = async (properties: Record<string, unknown>) => {
      const userId = String(
        (
          await post(`${running.url}/v1/api/projects/register-user`, {
            apiKey,
            projectId,
            name: 'U',
            properties,
            projectOrganizationId: pog,
          })
        ).body.data['userId'],
      );
      return String(
        (await post(`${running.url}/v1/api/projects/user-token`, { apiKey, userId })).body.data[
          'token'
        ],
      );
    };
    return { org, apiKey, projectId, connectionId, agentId, user };
  }

  async function chat(
    agentId: string,
    token: string | undefined,
    content: string,
    extra: Record<string, unknown> = {},
  ) {
    const res = await fetch(`${running.url}/v1/api/project-agents/${agentId}/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({
        messages: [{ role: 'user', content }],
        payload: { agent_id: agentId },
        ...extra,
      }),
    });
    const text = await res.text();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as Event);
    return { status: res.status, headers: res.headers, text, events };
  }
  const result = (events: Event[]) =>
    events.find((e) => e.type === 'tool-result' && e.payload?.['toolName'] === 'generateChart')
      ?.payload?.['result'] as
      { chartConfig: Record<string, unknown>; chartData: Record<string, unknown>[] } | undefined;

  const sales = {
    name: 'sales',
    columns: [
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'number' },
      { name: 'day', type: 'date' },
    ],
    rows: [
      { region: 'north', amount: 10, day: '2024-03-01' },
      { region: 'north', amount: 5, day: '2025-03-01' },
      { region: 'south', amount: 7, day: '2025-04-01' },
    ],
  };

  it('streams a chart of the rows the user may see, refines it in the thread, and saves it', async () => {
    const w = await world(sales, [{ column: 'region', property: 'region' }]);
    const north = await w.user({ region: 'north' });
    const first = await chat(w.agentId, north, 'total amount by month as a table', {
      thread_id: 't1',
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const types = first.events.map((e) => e.type);
    expect(types.filter((t) => t.startsWith('t'))).toEqual([
      'tool-call',
      'tool-result',
      'tool-call',
      'tool-result',
      'text-start',
      ...types.filter((t) => t === 'text-delta'),
      'text-end',
    ]);
    expect(types.at(-1)).toBe('finish');
    const chart = result(first.events);
    expect(chart?.chartConfig['type']).toBe('table');
    expect(chart?.chartData).toEqual([
      { day_month: '2024-03-01', total_amount: 10 },
      { day_month: '2025-03-01', total_amount: 5 },
    ]);
    const refined = result(
      (await chat(w.agentId, north, 'only 2025 as a bar chart', { thread_id: 't1' })).events,
    );
    expect(refined?.chartConfig['type']).toBe('bar');
    expect(refined?.chartData).toEqual([{ day_month: '2025-03-01', total_amount: 5 }]);

    const saved = await postJson<Body>(`${running.url}/v1/api/chart/save-from-chat`, {
      apiKey: w.apiKey,
      chartConfig: refined?.chartConfig,
      connectionId: w.connectionId,
      name: 'Saved',
    });
    expect(saved.status).toBe(200);
    const chartId = String(saved.body.data['chartId']);
    const rows = await post(`${hooks}/accounts/${w.org}/charts/${chartId}/data`, { token: north });
    expect(rows.body.data['rows']).toEqual(refined?.chartData);
    const south = await w.user({ region: 'south' });
    const other = await post(`${hooks}/accounts/${w.org}/charts/${chartId}/data`, { token: south });
    expect(other.body.data['rows']).toEqual([{ day_month: '2025-04-01', total_amount: 7 }]);
    const none = await post(`${hooks}/accounts/${w.org}/charts/${chartId}/data`, {
      token: await w.user({}),
    });
    expect(none.status).toBe(403);
  });

  it("loads a saved chart's rows from the connection save-from-chat named", async () => {
    const w = await world(sales, []);
    // A newer connection of the same account holding a table of the same name.
    const newer = await post(`${hooks}/accounts/${w.org}/connections`, {
      table: { ...sales, rows: [{ region: 'east', amount: 99, day: '2025-01-01' }] },
    });
    expect(newer.status).toBe(201);
    const token = await w.user({});
    const chart = result((await chat(w.agentId, token, 'total amount by region')).events);
    const saved = await postJson<Body>(`${running.url}/v1/api/chart/save-from-chat`, {
      apiKey: w.apiKey,
      chartConfig: chart?.chartConfig,
      connectionId: w.connectionId,
    });
    const rows = await post(
      `${hooks}/accounts/${w.org}/charts/${String(saved.body.data['chartId'])}/data`,
      { token },
    );
    expect(rows.body.data['rows']).toEqual(chart?.chartData);
  });

  it('answers free text with help, never an error', async () => {
    const w = await world(sales, []);
    const said = await chat(w.agentId, await w.user({}), 'what is the meaning of life?');
    expect(said.status).toBe(200);
    expect(said.events.map((e) => e.type)).not.toContain('tool-call');
    const text = said.events
      .map((e) => (e.type === 'text-delta' ? String(e.payload?.['text']) : ''))
      .join('');
    expect(text).toMatch(/total amount by region/);
  });

  it('refuses before any stream: no token, an API key, a mismatched agent id, unknown agent or version', async () => {
    const w = await world();
    const token = await w.user({ organization: 'Acme' });
    expect((await chat(w.agentId, undefined, 'count')).status).toBe(401);
    expect((await chat(w.agentId, w.apiKey, 'count')).status).toBe(401);
    const mismatch = await chat(w.agentId, token, 'count', {
      payload: { agent_id: w.connectionId },
    });
    expect(mismatch.status).toBe(400);
    expect(
      (await chat(w.connectionId, token, 'count', { payload: { agent_id: w.connectionId } }))
        .status,
    ).toBe(404);
    expect(
      (
        await chat(w.agentId, token, 'count', {
          payload: { agent_id: w.agentId, agent_version: 2 },
        })
      ).status,
    ).toBe(404);
    const v2 = await post(
      `${hooks}/accounts/${w.org}/projects/${w.projectId}/agents/${w.agentId}/versions`,
      {},
    );
    expect(v2.body.data).toMatchObject({ version: 2, versions: [1, 2] });
    const pinned = await chat(w.agentId, token, 'count', {
      payload: { agent_id: w.agentId, agent_version: 1 },
    });
    expect(pinned.events.find((e) => e.type === 'tool-call')?.payload?.['agentVersion']).toBe(1);
    const latest = await chat(w.agentId, token, 'count');
    expect(latest.events.find((e) => e.type === 'tool-call')?.payload?.['agentVersion']).toBe(2);
    expect((await chat(w.agentId, await w.user({}), 'count')).status).toBe(403);
  });

  it('limits 180 requests per organization and user per clock minute', async () => {
    const w = await world(sales, []);
    await post(`${hooks}/accounts/${w.org}/clock/freeze`, { at: '2030-01-01T00:00:10.000Z' });
    const token = await w.user({});
    for (let i = 0; i < 180; i++) expect((await chat(w.agentId, token, 'hi')).status).toBe(200);
    const refused = await chat(w.agentId, token, 'hi');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect((await chat(w.agentId, await w.user({}), 'hi')).status).toBe(200);
    await post(`${hooks}/accounts/${w.org}/clock/advance`, { seconds: 60 });
    expect((await chat(w.agentId, token, 'hi')).status).toBe(200);
  }, 60_000);
});
