import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../server.ts';
import { postJson } from '../test-client.ts';

// The content and migration hooks (spec/hooks.openapi.yaml, tags content and migration), and
// what the v1 routes read from the state they build.
describe('content and migration hooks', () => {
  let running: RunningReference;
  let hooks: string;
  beforeAll(async () => {
    running = await start({ hooks: true, seed: 7 });
    hooks = running.hooksUrl ?? '';
  });
  afterAll(() => running.close());

  const post = (url: string, body: unknown) =>
    postJson<{
      data: Record<string, unknown>;
      error?: { code: string; details: Record<string, unknown> };
    }>(url, body);

  async function account() {
    const { body } = await post(`${hooks}/accounts`, {});
    return { org: String(body.data['organizationId']), key: String(body.data['orgBoundKey']) };
  }

  it('are announced', async () => {
    const caps = (await (await fetch(`${hooks}/capabilities`)).json()) as {
      data: { hooks: string[] };
    };
    expect(caps.data.hooks).toEqual(
      expect.arrayContaining(['workspaces', 'dashboards', 'charts', 'migration']),
    );
  });

  it('build a workspace with its primary dashboard, a dashboard with controls, and charts', async () => {
    const { org, key } = await account();
    const ws = await post(`${hooks}/accounts/${org}/workspaces`, {
      name: 'Sales',
      teamId: 'north',
      dashboardName: 'Sales overview',
    });
    expect(ws.status).toBe(201);
    const workspaceId = String(ws.body.data['workspaceId']);
    const dashboard = await post(`${hooks}/accounts/${org}/workspaces/${workspaceId}/dashboards`, {
      name: 'Regions',
      controls: [{ controlKey: 'region', field: 'region', label: 'Region' }],
    });
    expect(dashboard.status).toBe(201);
    expect(dashboard.body.data['controls']).toEqual([
      { controlKey: 'region', field: 'region', label: 'Region' },
    ]);
    const chart = await post(
      `${hooks}/accounts/${org}/dashboards/${String(ws.body.data['dashboardId'])}/charts`,
      { name: 'Revenue', chartConfig: { type: 'bar', sqlOverride: 'select 1' } },
    );
    expect(chart.status).toBe(201);
    const listed = (await (
      await fetch(`${running.url}/v1/api/dashboard/list-workspaces?apiKey=${key}&teamId=north`)
    ).json()) as { data: { workspaces: Record<string, unknown>[] } };
    expect(listed.data.workspaces).toEqual([
      expect.objectContaining({
        workspace_id: workspaceId,
        dashboard_id: ws.body.data['dashboardId'],
        dashboard_name: 'Sales overview',
        teamId: 'north',
      }),
    ]);
  });

  it('finalize one account once: v1 writes then answer 410 naming the v2 endpoint', async () => {
    const { org, key } = await account();
    const other = await account();
    const ws = await post(`${hooks}/accounts/${org}/workspaces`, { name: 'Ops' });
    const dashboardId = String(ws.body.data['dashboardId']);
    const done = await post(`${hooks}/accounts/${org}/migration/finalize`, {});
    expect(done.status).toBe(200);
    expect(done.body.data['applications']).toEqual([
      expect.objectContaining({ name: 'Ops', legacyWorkspaceId: ws.body.data['workspaceId'] }),
    ]);
    const again = await post(`${hooks}/accounts/${org}/migration/finalize`, {});
    expect(again.body.error?.code).toBe('CONFLICT');
    const clone = await post(`${running.url}/v1/api/dashboard/clone`, {
      apiKey: key,
      sourceDashboardId: dashboardId,
    });
    expect(clone.status).toBe(410);
    expect(clone.body.error?.details['replacement']).toBe(
      'POST /v2/api/applications/{applicationId}/dashboards/{dashboardId}/clone',
    );
    const otherWs = await post(`${hooks}/accounts/${other.org}/workspaces`, { name: 'Kept' });
    const untouched = await post(`${running.url}/v1/api/dashboard/clone`, {
      apiKey: other.key,
      sourceDashboardId: String(otherWs.body.data['dashboardId']),
    });
    expect(untouched.status, 'another account is not migrated').toBe(200);
  });

  it('answer 404 for an unknown account or dashboard', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await post(`${hooks}/accounts/${unknown}/workspaces`, { name: 'x' })).status).toBe(404);
    const { org } = await account();
    expect(
      (await post(`${hooks}/accounts/${org}/dashboards/${unknown}/charts`, { name: 'x' })).status,
    ).toBe(404);
  });

  it("read a dashboard's charts in layout order (dashboard-charts), and 404 for an unknown one", async () => {
    const { org } = await account();
    const ws = await post(`${hooks}/accounts/${org}/workspaces`, { name: 'Ops' });
    const dashboardId = String(ws.body.data['dashboardId']);
    const ids: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      const chart = await post(`${hooks}/accounts/${org}/dashboards/${dashboardId}/charts`, {
        name,
        chartConfig: { type: 'bar' },
      });
      ids.push(String(chart.body.data['chartId']));
    }
    const read = await fetch(`${hooks}/accounts/${org}/dashboards/${dashboardId}/charts`);
    expect(read.status).toBe(200);
    const { data } = (await read.json()) as {
      data: { chartIds: string[]; charts: { chartId: string; name: string }[] };
    };
    expect(data.chartIds).toEqual(ids);
    expect(data.charts.map((c) => c.name)).toEqual(['First', 'Second', 'Third']);
    const caps = (await (await fetch(`${hooks}/capabilities`)).json()) as {
      data: { hooks: string[] };
    };
    expect(caps.data.hooks).toContain('dashboard-charts');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await fetch(`${hooks}/accounts/${org}/dashboards/${unknown}/charts`)).status).toBe(404);
  });
});
