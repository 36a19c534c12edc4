import { expect } from 'vitest';
import { z } from 'zod';
import { conformance } from '../harness/conformance.ts';
import type { Conformance } from '../harness/conformance.ts';
import type { World } from '../harness/given/accounts.ts';
import {
  API_KEY,
  V2_KEY,
  dashboardsOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  v2Get,
  v2Post,
  writtenDashboard,
  type As,
} from '../harness/given/v2.ts';
import { dashboardsPath } from '../harness/paths.ts';
import { successStatus } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';

// §4.16 last row: a look-up turns any v1 or v2 dashboard id into {applicationId, dashboardId}.
// Its path is open: the profile states it (shapes.endpoints.lookUpDashboard).
const relies = [...V2_KEY, 'v2.dashboards.lookup-path'] as const;

const Found = z.object({ applicationId: z.string(), dashboardId: z.string() });

async function lookUp(t: Conformance, w: World, id: string, as: As = API_KEY) {
  const path = lookUpPath(t, id);
  if (path === undefined)
    t.notRun(
      'the profile names no path for the dashboard look-up',
      cause.shape('shapes.endpoints.lookUpDashboard'),
    );
  const res = await v2Get(t, w, path, as);
  const parsed = z.object({ data: Found }).safeParse(res.body);
  if (!successStatus(res.status) || !parsed.success)
    expect.fail(
      `look-up of ${id}: expected a 2xx success with {applicationId, dashboardId}, got ${res.status} ${res.text.slice(0, 300)}`,
    );
  return parsed.data.data;
}

conformance(
  ['v2.dashboards.lookup', 'migration.legacy-ids-kept'],
  'the look-up turns a v1 dashboard id and its v2 id into the same application and v2 dashboard',
  async (t) => {
    const m = await migratedWorld(t);
    const want = { applicationId: m.applicationId, dashboardId: m.template.id };
    expect(await lookUp(t, m.w, m.board.dashboardId), 'the v1 id').toEqual(want);
    expect(await lookUp(t, m.w, m.template.id), 'the v2 id').toEqual(want);
    expect(await lookUp(t, m.w, m.other.dashboardId), "another workspace's v1 id").toEqual({
      applicationId: m.otherApplicationId,
      dashboardId: m.otherTemplate.id,
    });
  },
  { needs, parts, relies },
);

conformance(
  ['v2.dashboards.lookup'],
  'the look-up finds a dashboard made through v2 after finalize',
  async (t) => {
    const m = await migratedWorld(t);
    const at = { applicationId: m.otherApplicationId, as: API_KEY } as const;
    const before = await dashboardsOf(t, m.w, at.applicationId);
    const made = await writtenDashboard(
      t,
      m.w,
      await v2Post(t, m.w, dashboardsPath(at.applicationId), API_KEY, { name: 'Late' }),
      { ...at, call: 'v2.create', before },
      'create',
    );
    expect(await lookUp(t, m.w, made.id)).toEqual({
      applicationId: m.otherApplicationId,
      dashboardId: made.id,
    });
  },
  { needs, parts, relies },
);
