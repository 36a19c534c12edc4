import { describe, expect, it } from 'vitest';
import { hookAccount, postJson, referenceForTests, type Envelope } from '../test-client.ts';

type Body = Envelope;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOBODY = '00000000-0000-4000-8000-000000000000';
const aUuid: unknown = expect.stringMatching(UUID);

// The chat and data hooks of spec/hooks.openapi.yaml (connections, agents and their versions,
// chart-data): each answer's shape, what it builds, and its refusals.
describe('chat hooks', () => {
  const ref = referenceForTests({ hooks: true, seed: 29 });
  const post = (url: string, body: unknown) => postJson<Body>(url, body);
  type Answer = { status: number; body: Body };
  const expectNotFound = (res: Answer, resource: string, field?: string) => {
    expect(res.status, `unknown ${resource}`).toBe(404);
    expect(res.body.status).toBe('error');
    expect(res.body.error?.code, `unknown ${resource}`).toBe('NOT_FOUND');
    expect(res.body.error?.details?.['resource'], `unknown ${resource}`).toBe(resource);
    if (field !== undefined) {
      expect(res.body.error?.details?.['field'], `unknown ${resource}`).toBe(field);
    }
  };
  const expectInvalid = (res: Answer, what: string) => {
    expect(res.status, what).toBe(400);
    expect(res.body.status, what).toBe('error');
    expect(res.body.error?.code, what).toBe('VALIDATION_ERROR');
  };

  const sales = {
    name: 'sales',
    columns: [
      { name: 'region', type: 'text' },
      { name: 'amount', type: 'number' },
    ],
    rows: [
      { region: 'north', amount: 10 },
      { region: 'north', amount: 5 },
      { region: 'south', amount: 7 },
    ],
  };

  async function account() {
    const { org, apiKey, projectId, userToken: user } = await hookAccount(ref);
    /** A saved chart of the account: the hooks' own, holding the given sqlOverride. */
    const chart = async (sqlOverride?: string) => {
      const ws = await post(`${ref.hooks}/accounts/${org}/workspaces`, { name: 'W' });
      const made = await post(
        `${ref.hooks}/accounts/${org}/dashboards/${String(ws.body.data['dashboardId'])}/charts`,
        {
          name: 'C',
          chartConfig: { type: 'table', ...(sqlOverride === undefined ? {} : { sqlOverride }) },
        },
      );
      expect(made.status).toBe(201);
      return String(made.body.data['chartId']);
    };
    return { org, apiKey, projectId, user, chart };
  }

  it('are announced', async () => {
    const caps = (await (await fetch(`${ref.hooks}/capabilities`)).json()) as Body;
    expect(caps.data['hooks']).toEqual(
      expect.arrayContaining(['agents', 'connections', 'chart-data', 'agent-grammar']),
    );
  });

  it('create a connection holding the given table, or the seeded dataset', async () => {
    const { org } = await account();
    const given = await post(`${ref.hooks}/accounts/${org}/connections`, {
      name: 'Warehouse',
      table: sales,
    });
    expect(given.status).toBe(201);
    expect(given.body).toEqual({
      status: 'success',
      data: { connectionId: aUuid, tables: ['sales'] },
    });
    const seeded = await post(`${ref.hooks}/accounts/${org}/connections`, {});
    expect(seeded.status).toBe(201);
    expect(seeded.body.data['tables'], "the implementation's seeded tables").toEqual(
      expect.arrayContaining([expect.any(String)]),
    );
    expect(seeded.body.data['tables']).not.toContain('sales');
  });

  it('refuse a connection whose table or row filters are not valid, and an unknown account', async () => {
    const { org } = await account();
    expectInvalid(
      await post(`${ref.hooks}/accounts/${org}/connections`, {
        table: { ...sales, rows: [{ region: 'north', amount: 'ten' }] },
      }),
      'a value that does not fit its column',
    );
    expectInvalid(
      await post(`${ref.hooks}/accounts/${org}/connections`, {
        table: sales,
        rowFilters: [{ column: 'nowhere', property: 'region' }],
      }),
      'a row filter on no column of the table',
    );
    expectInvalid(
      await post(`${ref.hooks}/accounts/${org}/connections`, { table: { name: 'x' } }),
      'a table without columns',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/connections`, {}),
      'account',
      'organizationId',
    );
  });

  it('create an agent at version 1, naming its connection only when it has one', async () => {
    const { org, projectId } = await account();
    const connectionId = String(
      (await post(`${ref.hooks}/accounts/${org}/connections`, { table: sales })).body.data[
        'connectionId'
      ],
    );
    const withConnection = await post(`${ref.hooks}/accounts/${org}/projects/${projectId}/agents`, {
      name: 'Sales bot',
      connectionId,
    });
    expect(withConnection.status).toBe(201);
    expect(withConnection.body.data).toEqual({
      agentId: aUuid,
      name: 'Sales bot',
      projectId,
      connectionId,
      version: 1,
      versions: [1],
    });
    const seeded = await post(`${ref.hooks}/accounts/${org}/projects/${projectId}/agents`, {});
    expect(seeded.status).toBe(201);
    expect(seeded.body.data).toEqual({
      agentId: aUuid,
      name: expect.stringMatching(/./) as unknown,
      projectId,
      version: 1,
      versions: [1],
    });
  });

  it("refuse an agent of an unknown account or project, or naming another account's connection", async () => {
    const a = await account();
    const b = await account();
    const theirs = String(
      (await post(`${ref.hooks}/accounts/${b.org}/connections`, { table: sales })).body.data[
        'connectionId'
      ],
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/projects/${a.projectId}/agents`, {}),
      'account',
      'organizationId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${a.org}/projects/${b.projectId}/agents`, {}),
      'project',
      'projectId',
    );
    for (const connectionId of [theirs, NOBODY])
      expectNotFound(
        await post(`${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents`, {
          connectionId,
        }),
        'connection',
        'connectionId',
      );
    expectInvalid(
      await post(`${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents`, {
        connectionId: 'not-a-uuid',
      }),
      'a connectionId that is no UUID',
    );
  });

  it("publish agent versions, and refuse an unknown agent or another project's or account's", async () => {
    const a = await account();
    const b = await account();
    const agentId = String(
      (await post(`${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents`, {})).body.data[
        'agentId'
      ],
    );
    const versions = `${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents/${agentId}/versions`;
    const v2 = await post(versions, { note: 'second' });
    expect(v2.status).toBe(201);
    expect(v2.body).toEqual({
      status: 'success',
      data: { agentId, version: 2, versions: [1, 2] },
    });
    expect((await post(versions, {})).body.data).toEqual({
      agentId,
      version: 3,
      versions: [1, 2, 3],
    });
    const other = String(
      (await post(`${ref.hooks}/accounts/${a.org}/projects`, {})).body.data['projectId'],
    );
    expectNotFound(
      await post(
        `${ref.hooks}/accounts/${a.org}/projects/${a.projectId}/agents/${NOBODY}/versions`,
        {},
      ),
      'agent',
      'agentId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${a.org}/projects/${other}/agents/${agentId}/versions`, {}),
      'agent',
      'agentId',
    );
    expectNotFound(
      await post(
        `${ref.hooks}/accounts/${b.org}/projects/${b.projectId}/agents/${agentId}/versions`,
        {},
      ),
      'agent',
      'agentId',
    );
    // A's project and agent under B's account.
    expectNotFound(
      await post(
        `${ref.hooks}/accounts/${b.org}/projects/${a.projectId}/agents/${agentId}/versions`,
        {},
      ),
      'agent',
      'agentId',
    );
    expectNotFound(
      await post(
        `${ref.hooks}/accounts/${NOBODY}/projects/${a.projectId}/agents/${agentId}/versions`,
        {},
      ),
      'account',
      'organizationId',
    );
    expect((await post(versions, {})).body.data['version'], 'refusals published nothing').toBe(4);
  });

  it('load chart rows under the row filters, narrowed by filters', async () => {
    const w = await account();
    await post(`${ref.hooks}/accounts/${w.org}/connections`, {
      table: sales,
      rowFilters: [{ column: 'region', property: 'region' }],
    });
    const chartId = await w.chart('SELECT region, SUM(amount) AS total FROM sales GROUP BY region');
    const data = `${ref.hooks}/accounts/${w.org}/charts/${chartId}/data`;
    const north = await w.user({ region: 'north' });
    const rows = await post(data, { token: north });
    expect(rows.status).toBe(200);
    expect(rows.body).toEqual({
      status: 'success',
      data: { columns: ['region', 'total'], rows: [{ region: 'north', total: 15 }] },
    });
    const everyone = await w.user({ region: 'south' });
    expect((await post(data, { token: everyone })).body.data['rows']).toEqual([
      { region: 'south', total: 7 },
    ]);
    const filtered = await post(data, {
      token: north,
      filters: [{ field: 'region', value: 'south' }],
    });
    expect(filtered.body.data['rows'], 'a filter narrows, never widens').toEqual([]);

    const open = await account();
    await post(`${ref.hooks}/accounts/${open.org}/connections`, { table: sales });
    const all = await open.chart(
      'SELECT region, SUM(amount) AS total FROM sales GROUP BY region ORDER BY region',
    );
    const token = await open.user({});
    const openData = `${ref.hooks}/accounts/${open.org}/charts/${all}/data`;
    expect((await post(openData, { token })).body.data['rows']).toEqual([
      { region: 'north', total: 15 },
      { region: 'south', total: 7 },
    ]);
    expect(
      (await post(openData, { token, filters: [{ field: 'region', value: 'south' }] })).body.data[
        'rows'
      ],
    ).toEqual([{ region: 'south', total: 7 }]);
  });

  it("refuse chart rows for a bad token, another account's token, a chart without SQL, a bad body", async () => {
    const w = await account();
    const other = await account();
    await post(`${ref.hooks}/accounts/${w.org}/connections`, { table: sales });
    const chartId = await w.chart('SELECT COUNT(*) AS n FROM sales');
    const data = `${ref.hooks}/accounts/${w.org}/charts/${chartId}/data`;
    const tenant = await post(`${ref.url}/v1/api/tenant/register-tenant`, {
      apiKey: w.apiKey,
      uniqueKey: 'acme',
    });
    for (const [token, what] of [
      ['not.a.jwt', 'an invalid token'],
      [w.apiKey, 'an API key'],
      [String(tenant.body.data['token']), 'a tenant token'],
    ] as const) {
      const res = await post(data, { token });
      expect(res.status, what).toBe(401);
      expect(res.body.error?.code, what).toBe('UNAUTHORIZED');
    }
    expectNotFound(await post(data, { token: await other.user({}) }), 'chart', 'chartId');
    expectNotFound(
      await post(`${ref.hooks}/accounts/${w.org}/charts/${NOBODY}/data`, {
        token: await w.user({}),
      }),
      'chart',
      'chartId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/charts/${chartId}/data`, {
        token: await w.user({}),
      }),
      'account',
      'organizationId',
    );
    const bare = await post(`${ref.hooks}/accounts/${w.org}/charts/${await w.chart()}/data`, {
      token: await w.user({}),
    });
    expect(bare.status).toBe(409);
    expect(bare.body.error?.code).toBe('CONFLICT');
    expect(bare.body.error?.details?.['reason']).toBe('chart-without-sql');
    expectInvalid(await post(data, {}), 'a body without token');
    expectInvalid(await post(data, { token: await w.user({}), filters: [{}] }), 'a bad filter');
  });
});
