import { describe, expect, it } from 'vitest';
import { applicationItems, dashboardItems, madeDashboard, userUpdateRecord } from './records.ts';

describe('the open-shape reader', () => {
  it("reads a list's items at the stated pointers, named members at their names by default", () => {
    const body = {
      status: 'success',
      result: {
        items: [{ applicationId: 'a1', title: 'Sales', defaultDashboardId: null, legacy: 'w1' }],
      },
    };
    expect(
      applicationItems(body, {
        list: '/result/items',
        name: '/title',
        legacyWorkspaceId: '/legacy',
      }),
    ).toEqual([
      { applicationId: 'a1', name: 'Sales', defaultDashboardId: null, legacyWorkspaceId: 'w1' },
    ]);
    expect(applicationItems(body, { list: '/data/applications' })).toBeUndefined();
  });

  it('reads a dashboard, its layout and name only where stated, and a write answer at made', () => {
    const item = {
      id: 'd1',
      legacyDashboardId: 'v1',
      kind: 'template',
      ownerProjectUserId: null,
      meta: { title: 'Board', layout: ['c1', 'c2'] },
      chartIds: ['wrong'],
    };
    const shape = {
      list: '/data',
      made: '/data/board',
      chartIds: '/meta/layout',
      name: '/meta/title',
    };
    expect(dashboardItems({ data: [item] }, shape)).toEqual([
      {
        id: 'd1',
        legacyDashboardId: 'v1',
        kind: 'template',
        ownerProjectUserId: null,
        name: 'Board',
        chartIds: ['c1', 'c2'],
      },
    ]);
    expect(madeDashboard({ data: { board: item } }, shape)).toMatchObject({ id: 'd1' });
    expect(madeDashboard({ data: {} }, shape)).toBeUndefined();
    expect(
      madeDashboard({ data: { board: item } }, { list: '/data', chartIds: '/x' }),
    ).toBeUndefined();
  });

  it("reads a user update's data at the stated pointers and leaves out what it does not show", () => {
    expect(
      userUpdateRecord(
        { user: { userId: 'u1', props: { a: 1 } }, userRoleId: null },
        { id: '/user/userId', properties: '/user/props', userRoleId: '/userRoleId', name: '/name' },
      ),
    ).toEqual({ id: 'u1', properties: { a: 1 }, userRoleId: null });
  });
});
