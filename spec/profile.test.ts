import { describe, expect, it } from 'vitest';
import { TargetProfile } from './profile.ts';

const withEndpoints = (endpoints: Record<string, string>) =>
  TargetProfile.safeParse({ serves: ['v1-dashboards', 'v2'], shapes: { endpoints } });

describe('profile endpoints with path placeholders', () => {
  it('accepts the placeholders a test fills, and paths without any', () => {
    const parsed = withEndpoints({
      v1ListWorkspaceDashboards: 'GET /v1/api/workspaces/{workspaceId}/dashboards',
      v1AddCharts: 'POST /v1/api/dashboards/{dashboardId}/charts',
      lookUpDashboard: 'GET /v2/api/lookup',
    });
    expect(parsed.success).toBe(true);
  });

  it('refuses a placeholder no test can fill, saying which ones it may hold', () => {
    const parsed = withEndpoints({
      v1ListWorkspaceDashboards: 'GET /v1/api/workspaces/{workspace}/dashboards',
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual(['shapes', 'endpoints', 'v1ListWorkspaceDashboards']);
    expect(issue?.message).toMatch(/\{workspace\}.*\{workspaceId\}/);
  });
});

describe('profile token claims', () => {
  it('takes a JSON pointer for any claim name and a permissions form', () => {
    const parsed = TargetProfile.safeParse({
      serves: ['identity'],
      shapes: {
        tokenClaims: {
          permissions: '/https:~1~1example.com~1permissions',
          permissionsForm: 'array',
          subject: 'sub',
        },
      },
    });
    expect(parsed.success).toBe(true);
  });

  it('refuses a path that is neither a member path nor a pointer', () => {
    const parsed = TargetProfile.safeParse({
      serves: ['identity'],
      shapes: { tokenClaims: { role: 'ctx..role' } },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/JSON pointer/);
  });
});
