import { describe, expect, it } from 'vitest';
import { TargetProfile } from '../spec/profile.ts';
import { templatedProfile, untemplated } from './templated.ts';

const base = TargetProfile.parse({
  serves: ['v1-dashboards', 'v2'],
  shapes: {
    endpoints: {
      v1CreateDashboard: 'POST /v1/api/dashboard/create',
      v1AddCharts: 'POST /v1/api/dashboard/add-charts',
      v1ListWorkspaceDashboards: 'GET /v1/api/dashboard/list-workspace-dashboards',
      lookUpDashboard: 'GET /v2/api/dashboards/{dashboardId}/lookup',
    },
    successStatuses: { 'POST /v1/api/dashboard/create': 201 },
  },
});

describe('endpoints.templated', () => {
  it('states templated paths in the profile, statuses keyed by them', () => {
    const shapes = templatedProfile(base).shapes;
    expect(shapes.endpoints).toEqual({
      v1CreateDashboard: 'POST /v1/api/workspaces/{workspaceId}/dashboards',
      v1AddCharts: 'POST /v1/api/dashboards/{dashboardId}/charts',
      v1ListWorkspaceDashboards: 'GET /v1/api/workspaces/{workspaceId}/dashboards',
      lookUpDashboard: 'GET /v2/api/dashboard-lookup',
    });
    expect(shapes.successStatuses).toEqual({
      'POST /v1/api/workspaces/{workspaceId}/dashboards': 201,
    });
    expect(TargetProfile.safeParse(templatedProfile(base)).success).toBe(true);
  });

  it("routes a request on a templated path to the target's own, ids where it wants them", () => {
    expect(untemplated(base, 'GET', '/v1/api/workspaces/w%201/dashboards?apiKey=k')).toBe(
      '/v1/api/dashboard/list-workspace-dashboards?apiKey=k&workspaceId=w+1',
    );
    expect(untemplated(base, 'POST', '/v1/api/workspaces/w1/dashboards')).toBe(
      '/v1/api/dashboard/create',
    );
    expect(untemplated(base, 'POST', '/v1/api/dashboards/d1/charts')).toBe(
      '/v1/api/dashboard/add-charts',
    );
    expect(untemplated(base, 'GET', '/v2/api/dashboard-lookup?dashboardId=d1&apiKey=k')).toBe(
      '/v2/api/dashboards/d1/lookup?apiKey=k',
    );
  });

  it('leaves every other request alone', () => {
    expect(untemplated(base, 'DELETE', '/v1/api/workspaces/w1/dashboards')).toBe(undefined);
    expect(untemplated(base, 'GET', '/v1/api/dashboard/list-workspaces')).toBe(undefined);
    expect(untemplated(base, 'GET', '/v2/api/dashboard-lookup')).toBe(undefined);
    const bare = TargetProfile.parse({ serves: ['v2'], shapes: {} });
    expect(untemplated(bare, 'POST', '/v1/api/workspaces/w1/dashboards')).toBe(undefined);
  });
});
