import { describe, expect, it } from 'vitest';
import { fillEndpoint } from './stated-endpoint.ts';

describe('fillEndpoint', () => {
  it('fills each placeholder with the value it stands for, and says which were used', () => {
    const filled = fillEndpoint('v1AddCharts', 'POST /v1/api/dashboards/{dashboardId}/charts', {
      targetDashboardId: 'd 1',
    });
    expect(filled).toEqual({
      method: 'POST',
      path: '/v1/api/dashboards/d%201/charts',
      used: new Set(['targetDashboardId']),
    });
    const bare = fillEndpoint('lookUpDashboard', 'GET /v2/api/lookup', { dashboardId: 'x' });
    expect(bare.path).toBe('/v2/api/lookup');
    expect(bare.used.size).toBe(0);
  });
});
