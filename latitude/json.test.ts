import { describe, expect, it } from 'vitest';
import { TargetProfile } from '../spec/profile.ts';
import {
  arraysReordered,
  membersExtra,
  statusCreated,
  timestampsOtherForm,
  v1RecordMinimal,
  workspacesRenamed,
} from './json.ts';
import { answerOf, bodyOf, fixedRandom } from './test-answer.ts';

const APP = '11111111-1111-4111-8111-111111111111';
const DASH = '22222222-2222-4222-8222-222222222222';
const ok = (data: unknown) => ({ status: 'success', data });
const base = TargetProfile.parse({ serves: ['v2'], shapes: {} });

describe('status.created', () => {
  it('answers 201 to a v2 write and to the v1 create, the envelope kept', () => {
    for (const [method, url] of [
      ['POST', `/v2/api/applications/${APP}/dashboards`],
      ['POST', `/v2/api/applications/${APP}/dashboards/${DASH}/clone?x=1`],
      ['POST', '/v1/api/dashboard/create'],
      ['POST', '/v1/api/dashboard/add-charts'],
    ] as const) {
      const out = statusCreated.apply(answerOf(method, url, 200, ok({ id: DASH })), fixedRandom());
      expect(out?.status, url).toBe(201);
      expect(bodyOf(out)).toEqual(ok({ id: DASH }));
    }
  });

  it('answers 202 to the v2 chart removal', () => {
    const url = `/v2/api/applications/${APP}/dashboards/${DASH}/charts/${DASH}`;
    expect(statusCreated.apply(answerOf('DELETE', url, 200, ok({})), fixedRandom())?.status).toBe(
      202,
    );
  });

  it('leaves the calls whose 200 the document shows, reads, errors and 204s alone', () => {
    const r = fixedRandom();
    expect(statusCreated.apply(answerOf('POST', '/v1/api/dashboard/clone', 200, ok({})), r)).toBe(
      undefined,
    );
    expect(statusCreated.apply(answerOf('GET', '/v2/api/applications', 200, ok({})), r)).toBe(
      undefined,
    );
    const create = `/v2/api/applications/${APP}/dashboards`;
    expect(
      statusCreated.apply(answerOf('POST', create, 404, { status: 'error', error: {} }), r),
    ).toBe(undefined);
    expect(statusCreated.apply(answerOf('POST', create, 204, ''), r)).toBe(undefined);
  });

  it('states the statuses it answers in the profile', () => {
    const p = statusCreated.restate?.(base);
    expect(p?.shapes.successStatuses?.['POST /v1/api/dashboard/create']).toBe(201);
    expect(p?.shapes.successStatuses?.['GET /v2/api/applications']).toBe(200);
    expect(() => TargetProfile.parse(p)).not.toThrow();
  });
});

describe('members.extra', () => {
  const role = {
    id: APP,
    name: 'r',
    permissions: { addChart: true },
    created_at: '2026-01-02T03:04:05.678Z',
  };
  const answer = answerOf('GET', '/v1/api/projects/x/user-roles', 200, ok({ userRoles: [role] }));

  it('adds members at every depth, none inside permissions or to arrays of ids', () => {
    const out = bodyOf(membersExtra.apply(answer, fixedRandom())) as {
      meta: unknown;
      data: { userRoles: Record<string, unknown>[] } & Record<string, unknown>;
    };
    expect(out.meta).toBeDefined();
    expect(Object.keys(out.data).length).toBeGreaterThan(1);
    const item = out.data.userRoles[0]!;
    expect(Object.keys(item).length).toBeGreaterThan(Object.keys(role).length);
    expect(item).toMatchObject(role);
    expect(item['permissions']).toEqual({ addChart: true });
    const ids = bodyOf(
      membersExtra.apply(answerOf('POST', '/x', 200, ok({ chartIds: [APP, DASH] })), fixedRandom()),
    ) as { data: { chartIds: unknown } };
    expect(ids.data.chartIds).toEqual([APP, DASH]);
  });

  it('adds the same members to the same object read twice', () => {
    const a = bodyOf(membersExtra.apply(answer, fixedRandom(0.1))) as { data: unknown };
    const b = bodyOf(membersExtra.apply(answer, fixedRandom(0.9))) as { data: unknown };
    expect(a.data).toEqual(b.data);
  });

  it('leaves error answers alone', () => {
    const error = answerOf('GET', '/x', 404, { status: 'error', error: { message: 'm' } });
    expect(membersExtra.apply(error, fixedRandom())).toBe(undefined);
  });
});

describe('v1.record-minimal', () => {
  it('reduces list-workspace-dashboards items to id, tenantId, ownerProjectUserId', () => {
    const item = { id: DASH, tenantId: null, ownerProjectUserId: null, name: 'n', chartIds: [] };
    const url = `/v1/api/dashboard/list-workspace-dashboards?workspaceId=${APP}`;
    const out = v1RecordMinimal.apply(
      answerOf('GET', url, 200, ok({ dashboards: [item] })),
      fixedRandom(),
    );
    expect(bodyOf(out)).toEqual(
      ok({ dashboards: [{ id: DASH, tenantId: null, ownerProjectUserId: null }] }),
    );
    const v2 = `/v2/api/applications/${APP}/dashboards`;
    expect(
      v1RecordMinimal.apply(answerOf('GET', v2, 200, ok({ dashboards: [item] })), fixedRandom()),
    ).toBe(undefined);
    const p = v1RecordMinimal.restate?.(
      TargetProfile.parse({ serves: [], shapes: { v1Dashboard: { name: 'name' } } }),
    );
    expect(p?.shapes.v1Dashboard).toBe(undefined);
  });
});

describe('workspaces.renamed', () => {
  it('renames the members of a list-workspaces item and states the names', () => {
    const item = {
      workspace_id: APP,
      dashboard_id: DASH,
      dashboard_name: 'd',
      name: 'w',
      teamId: null,
    };
    const url = '/v1/api/dashboard/list-workspaces?apiKey=k';
    const out = workspacesRenamed.apply(
      answerOf('GET', url, 200, ok({ workspaces: [item] })),
      fixedRandom(),
    );
    expect(bodyOf(out)).toEqual(
      ok({
        workspaces: [
          {
            teamId: null,
            id: APP,
            title: 'w',
            primaryDashboardId: DASH,
            primaryDashboardName: 'd',
          },
        ],
      }),
    );
    const shape = workspacesRenamed.restate?.(base).shapes.workspaceItem;
    expect(shape).toEqual({
      workspaceId: 'id',
      name: 'title',
      dashboardId: 'primaryDashboardId',
      dashboardName: 'primaryDashboardName',
    });
  });
});

describe('arrays.reordered', () => {
  it('moves every element of the open-order lists, never chart ids', () => {
    const roles = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const chartIds = ['x', 'y', 'z'];
    for (const r of [0, 0.5, 0.99]) {
      const out = bodyOf(
        arraysReordered.apply(
          answerOf('GET', '/x', 200, ok({ userRoles: roles, chartIds })),
          fixedRandom(r),
        ),
      ) as { data: { userRoles: { id: string }[]; chartIds: string[] } };
      out.data.userRoles.forEach((role, i) => expect(role.id).not.toBe(roles[i]?.id));
      expect(out.data.chartIds).toEqual(chartIds);
    }
    const one = answerOf('GET', '/x', 200, ok({ dashboards: [{ id: 'a' }] }));
    expect(arraysReordered.apply(one, fixedRandom())).toBe(undefined);
  });
});

describe('timestamps.other-form', () => {
  it('writes snake-case stamps with an offset and no fraction, expiresAt with microseconds and an offset, other camel-case stamps with nanoseconds', () => {
    const data = {
      created_at: '2026-01-02T03:04:05.678Z',
      nested: { updatedAt: '2026-01-02T03:04:06Z' },
      expiresAt: '2026-01-02T04:04:05.678Z',
      name: '2026-01-02T03:04:05.678Z',
    };
    const out = bodyOf(
      timestampsOtherForm.apply(answerOf('GET', '/x', 200, ok(data)), fixedRandom()),
    );
    expect(out).toEqual(
      ok({
        created_at: '2026-01-02T03:04:05+00:00',
        nested: { updatedAt: '2026-01-02T03:04:06.000000000Z' },
        expiresAt: '2026-01-02T04:04:05.678000+00:00',
        name: data.name,
      }),
    );
    const token = answerOf('POST', '/x', 200, ok({ expiresAt: '2026-01-02T04:04:05Z' }));
    expect(bodyOf(timestampsOtherForm.apply(token, fixedRandom()))).toEqual(
      ok({ expiresAt: '2026-01-02T04:04:05.000000+00:00' }),
    );
  });
});
