import { describe, expect, it } from 'vitest';
import { OPEN_BODIES } from '../spec/bodies.ts';
import { TargetProfile } from '../spec/profile.ts';
import { bodiesNone, statusCreated } from './json.ts';
import { answerOf, fixedRandom } from './test-answer.ts';

const APP = '11111111-1111-4111-8111-111111111111';
const DASH = '22222222-2222-4222-8222-222222222222';
const CHART = '33333333-3333-4333-8333-333333333333';
const ok = (data: unknown) => ({ status: 'success', data });
const board = { id: DASH, name: 'b', chartIds: [CHART] };
const at = `/v2/api/applications/${APP}/dashboards`;

/** One success of each call spec/bodies.ts lists, at the reference's paths, and its answer. */
const CALLS = [
  ['POST', at, 201, `${at}/${DASH}`],
  ['POST', `${at}/${DASH}/clone?apiKey=k`, 204, undefined],
  ['POST', `${at}/${DASH}/charts`, 200, undefined],
  ['DELETE', `${at}/${DASH}/charts/${CHART}`, 204, undefined],
  ['POST', `${at}/${DASH}/append-charts`, 202, undefined],
  ['POST', '/v1/api/dashboard/create', 200, undefined],
  ['POST', '/v1/api/dashboard/add-charts', 204, undefined],
] as const;

describe('bodies.none', () => {
  it('answers each call whose answer the document does not show with no body, at its fixed status', () => {
    expect(CALLS).toHaveLength(OPEN_BODIES.length);
    for (const [method, url, status, location] of CALLS) {
      const out = bodiesNone.apply(answerOf(method, url, 200, ok(board)), fixedRandom());
      expect(out?.status, `${method} ${url}`).toBe(status);
      expect(out?.body.length, `${method} ${url}: no body`).toBe(0);
      expect(out?.headers['content-type'], 'nothing to type').toBeUndefined();
      expect(out?.headers['location'], `${method} ${url}: Location`).toBe(location);
    }
    // Both kinds of bodiless answer are taken: 204 and another 2xx with nothing in it.
    expect(new Set(CALLS.map(([, , s]) => s === 204))).toEqual(new Set([true, false]));
  });

  it('names in Location the dashboard the v2 create made, whatever the query or trailing slash', () => {
    const url = `${at}/?apiKey=k`;
    const out = bodiesNone.apply(answerOf('POST', url, 201, ok(board)), fixedRandom());
    expect(out?.headers['location']).toBe(`${at}/${DASH}`);
    const nameless = bodiesNone.apply(answerOf('POST', at, 201, ok({})), fixedRandom());
    expect(nameless?.headers['location'], 'no id, no Location').toBeUndefined();
  });

  it('leaves reads, the calls whose answer the document shows, refusals and empty answers alone', () => {
    const r = fixedRandom();
    const untouched = [
      answerOf('GET', at, 200, ok({ dashboards: [board] })),
      answerOf('GET', '/v2/api/applications', 200, ok({ applications: [] })),
      answerOf('GET', `/v2/api/dashboards/${DASH}/lookup`, 200, ok({ applicationId: APP })),
      answerOf('POST', '/v1/api/dashboard/clone', 200, ok({ dashboardId: DASH, name: 'c' })),
      answerOf('POST', '/v1/api/dashboard/append-charts-from', 200, ok({})),
      answerOf('POST', '/v1/api/dashboard/remove-charts', 200, ok({})),
      answerOf('POST', at, 409, { status: 'error', error: { message: 'no' } }),
      answerOf('POST', at, 204, ''),
    ];
    for (const a of untouched) expect(bodiesNone.apply(a, r), a.request.url).toBe(undefined);
  });

  it('follows status.created and drops a cut into pieces made before it', () => {
    const r = fixedRandom();
    const created = statusCreated.apply(answerOf('POST', `${at}/${DASH}/clone`, 200, ok(board)), r);
    if (created === undefined) expect.fail('status.created left the clone alone');
    const cut = { ...created, pieces: [created.body.subarray(0, 3), created.body.subarray(3)] };
    const out = bodiesNone.apply(cut, r);
    expect(out?.status).toBe(204);
    expect(out?.pieces).toBeUndefined();
  });

  it("states each call's status in the profile, at the profile's own v1 paths", () => {
    const base = TargetProfile.parse({
      serves: ['v2', 'v1-dashboards'],
      shapes: { endpoints: { v1CreateDashboard: 'POST /v1/api/boards' } },
    });
    const p = bodiesNone.restate?.(base);
    const statuses = p?.shapes.successStatuses;
    expect(statuses?.['POST /v1/api/boards']).toBe(200);
    expect(statuses?.['POST /v1/api/dashboard/add-charts']).toBe(204);
    expect(statuses?.['POST /v2/api/applications/{applicationId}/dashboards']).toBe(201);
    expect(
      statuses?.[
        'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}'
      ],
    ).toBe(204);
    expect(() => TargetProfile.parse(p)).not.toThrow();
  });
});
