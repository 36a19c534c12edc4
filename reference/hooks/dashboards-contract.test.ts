import { describe, expect, it } from 'vitest';
import { postJson, referenceForTests, type Envelope } from '../test-client.ts';

type Body = Envelope;

const NOBODY = '00000000-0000-4000-8000-000000000000';

// What spec/hooks.openapi.yaml says of the workspaces, dashboards and charts hooks beyond their
// happy path (reference/hooks/dashboards.test.ts): their defaults, and a 404 in the §7 envelope
// naming the unknown parent, with nothing made.
describe('dashboards and charts hooks, as the hooks contract words them', () => {
  const ref = referenceForTests({ hooks: true, seed: 41 });
  const post = (url: string, body: unknown) => postJson<Body>(url, body);
  const snapshot = async (org: string) =>
    (await fetch(`${ref.hooks}/accounts/${org}/snapshot`)).text();
  const expectNotFound = (
    res: { status: number; body: Body },
    resource: string,
    field?: string,
  ) => {
    expect(res.status, `unknown ${resource}`).toBe(404);
    expect(res.body.status).toBe('error');
    expect(res.body.error?.code).toBe('NOT_FOUND');
    expect(typeof res.body.error?.message).toBe('string');
    expect(res.body.error?.details?.['resource'], `unknown ${resource}`).toBe(resource);
    if (field !== undefined) {
      expect(res.body.error?.details?.['field'], `unknown ${resource}`).toBe(field);
    }
  };

  async function account() {
    const made = (await post(`${ref.hooks}/accounts`, {})).body.data;
    const org = String(made['organizationId']);
    const ws = (await post(`${ref.hooks}/accounts/${org}/workspaces`, { name: 'Sales' })).body.data;
    return {
      org,
      key: String(made['orgBoundKey']),
      workspaceId: String(ws['workspaceId']),
      dashboardId: String(ws['dashboardId']),
    };
  }

  it('a dashboard made without controls has none', async () => {
    const { org, workspaceId } = await account();
    const made = await post(`${ref.hooks}/accounts/${org}/workspaces/${workspaceId}/dashboards`, {
      name: 'Plain',
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toEqual(
      expect.objectContaining({ name: 'Plain', workspaceId, controls: [] }),
    );
  });

  it('a dashboard in an unknown workspace or account answers 404 naming it, and makes nothing', async () => {
    const { org } = await account();
    const other = await account();
    const before = await snapshot(org);
    expectNotFound(
      await post(`${ref.hooks}/accounts/${org}/workspaces/${NOBODY}/dashboards`, { name: 'Lost' }),
      'workspace',
      'workspaceId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${org}/workspaces/${other.workspaceId}/dashboards`, {
        name: 'Theirs',
      }),
      'workspace',
      'workspaceId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/workspaces/${NOBODY}/dashboards`, {
        name: 'Lost',
      }),
      'account',
      'organizationId',
    );
    expect(await snapshot(org), 'refused: nothing made').toBe(before);
  });

  it('a chart made without chartConfig has {title: name}, as the v1 list shows it', async () => {
    const { org, key, workspaceId, dashboardId } = await account();
    const made = await post(`${ref.hooks}/accounts/${org}/dashboards/${dashboardId}/charts`, {
      name: 'Revenue',
    });
    expect(made.status).toBe(201);
    const chartId = String(made.body.data['chartId']);
    const listed = (await (
      await fetch(
        `${ref.url}/v1/api/dashboard/list-workspace-dashboards?apiKey=${key}&workspaceId=${workspaceId}`,
      )
    ).json()) as { data: { dashboards: { id: string; charts: unknown[] }[] } };
    expect(listed.data.dashboards.find((d) => d.id === dashboardId)?.charts).toEqual([
      { chartId, name: 'Revenue', chartConfig: { title: 'Revenue' } },
    ]);
  });

  it('a chart on an unknown dashboard answers 404 naming it and leaves no chart behind', async () => {
    const { org } = await account();
    const other = await account();
    const before = await snapshot(org);
    expectNotFound(
      await post(`${ref.hooks}/accounts/${org}/dashboards/${NOBODY}/charts`, { name: 'Orphan' }),
      'dashboard',
      'dashboardId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${org}/dashboards/${other.dashboardId}/charts`, {
        name: 'Theirs',
      }),
      'dashboard',
      'dashboardId',
    );
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/dashboards/${NOBODY}/charts`, { name: 'Lost' }),
      'account',
      'organizationId',
    );
    expect(await snapshot(org), 'refused: no orphan chart').toBe(before);
  });
});
