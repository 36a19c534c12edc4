import fc from 'fast-check';
import { expect } from 'vitest';
import type { Conformance } from '../harness/conformance.ts';
import { conformance } from '../harness/conformance.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  tokenFor,
} from '../harness/given/accounts.ts';
import {
  EDITOR,
  V2_SHAPES,
  dashboardsOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  snapshot,
  v2Get,
  v2Post,
  writtenDashboard,
  Dashboard,
  type As,
  type Migrated,
} from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import { replyShown, runSchedule, scheduleText, schedules } from '../harness/metamorphic.ts';
import { chartsPath, clonePath, dashboardsPath } from '../harness/paths.ts';
import { successStatus } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';
import { z } from 'zod';

// Metamorphic relations of the v2 lists and the look-up (issue 34): with a project-user token,
// v2 calls act in that user's space (§5 rule 7), a dashboard of kind 'dashboard' is one user's
// (§2.8), and the look-up turns an id into {applicationId, dashboardId} (§4.16). What a user
// sees there is the same whatever other users of its project organization write or read
// before or at the same time, whichever of its tokens asks, in any order. The baseline is
// the user's reads alone, made where no other user's read can stand in for them: a template
// looked up by its v1 id (the schedules use its v2 id, §9), and another user's dashboard that
// no one else reads (the schedules name a third user's).

const Found = z.object({ data: z.object({ applicationId: z.string(), dashboardId: z.string() }) });

/**
 * A look-up answer as a comparison sees it: where it leads (`self`, the v2 id of the dashboard
 * asked for, shown as such), or the refusal's status and code.
 */
function lookedUp(res: Reply, self: string): string {
  const found = Found.safeParse(res.body);
  if (!successStatus(res.status) || !found.success) return replyShown(res);
  const { applicationId, dashboardId } = found.data.data;
  return `${applicationId} ${dashboardId === self ? '(the dashboard asked for)' : dashboardId}`;
}

/** A list as a set of entries (an order is open), or the refusal. */
function listed(res: Reply): string {
  const parsed = z
    .object({ data: z.object({ dashboards: z.array(Dashboard) }) })
    .safeParse(res.body);
  return successStatus(res.status) && parsed.success
    ? snapshot(parsed.data.data.dashboards)
    : replyShown(res);
}

/** A project user with editing flags in a project organization, and a dashboard of its own. */
async function spaceUser(t: Conformance, m: Migrated, projectOrganizationId: string) {
  const role = await createRole(t, m.w, EDITOR);
  const { userId } = await registerUser(t, m.w, { userRoleId: role.id, projectOrganizationId });
  const token = await tokenFor(t, m.w, userId);
  const as = { token };
  const before = await dashboardsOf(t, m.w, m.applicationId, as);
  const made = await writtenDashboard(
    t,
    m.w,
    await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Own' }),
    { call: 'v2.create', applicationId: m.applicationId, as, before },
    'create',
  );
  return { userId, token, own: made.id };
}

conformance(
  ['auth.v2.user-token-own-space', 'v2.dashboard.kind-dashboard', 'v2.dashboards.lookup'],
  "a user's v2 dashboard list and look-ups do not depend on other users' writes and reads before or at the same time, on which of its tokens asks, nor on the order of its reads",
  async (t) => {
    const m = await migratedWorld(t);
    const lookUp = (id: string) => {
      const path = lookUpPath(t, id);
      if (path === undefined)
        return t.notRun(
          'the profile names no path for the dashboard look-up',
          cause.shape('shapes.endpoints.lookUpDashboard'),
        );
      return path;
    };
    const org = await registerOrganization(t, m.w);
    // A reads; B and C write and read; all three in one project organization.
    const a = await spaceUser(t, m, org.projectOrganizationId);
    const b = await spaceUser(t, m, org.projectOrganizationId);
    const c = await spaceUser(t, m, org.projectOrganizationId);
    const second = await tokenFor(t, m.w, a.userId, '24h');
    const as: Record<string, As> = {
      A: { token: a.token },
      'A (second token)': { token: second },
      B: { token: b.token },
      C: { token: c.token },
    };
    const get = (who: string, path: string) => v2Get(t, m.w, path, as[who] ?? { token: '' });

    // The baseline, A alone with its first token: its lists, the template by its v1 id, and
    // C's dashboard, which nobody reads again.
    const baseline = {
      list: listed(await get('A', dashboardsPath(m.applicationId))),
      'other list': listed(await get('A', dashboardsPath(m.otherApplicationId))),
      template: lookedUp(await get('A', lookUp(m.board.dashboardId)), m.template.id),
      "another user's dashboard": lookedUp(await get('A', lookUp(c.own)), c.own),
    };
    type Seen = keyof typeof baseline;
    const reads: Record<Seen, (who: string) => Promise<string>> = {
      list: async (who) => listed(await get(who, dashboardsPath(m.applicationId))),
      'other list': async (who) => listed(await get(who, dashboardsPath(m.otherApplicationId))),
      template: async (who) => lookedUp(await get(who, lookUp(m.template.id)), m.template.id),
      "another user's dashboard": async (who) => lookedUp(await get(who, lookUp(b.own)), b.own),
    };
    const writes: Record<string, (who: string) => Promise<Reply>> = {
      'creates a dashboard': (who) =>
        v2Post(t, m.w, dashboardsPath(m.applicationId), as[who] ?? { token: '' }, { name: 'New' }),
      'clones the template': (who) =>
        v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as[who] ?? { token: '' }, {}),
      'adds charts to its own dashboard': (who) =>
        v2Post(
          t,
          m.w,
          chartsPath(m.applicationId, who === 'B' ? b.own : c.own),
          as[who] ?? { token: '' },
          {
            charts: m.otherTemplate.chartIds ?? [],
          },
        ),
      'edits the template (refused)': (who) =>
        v2Post(t, m.w, chartsPath(m.applicationId, m.template.id), as[who] ?? { token: '' }, {
          charts: m.otherTemplate.chartIds ?? [],
        }),
    };
    type Step =
      | { readonly by: string; readonly reads: Seen }
      | { readonly by: string; readonly does: string };
    const seenKeys = Object.keys(baseline) as Seen[];
    const steps: Step[] = [
      ...['A', 'A (second token)', 'B'].flatMap((by) =>
        seenKeys.map((r): Step => ({ by, reads: r })),
      ),
      ...['B', 'C'].flatMap((by) => Object.keys(writes).map((does): Step => ({ by, does }))),
    ];
    const text = (s: Step) =>
      'reads' in s ? `${s.by} reads ${s.reads}` : `${s.by} ${s.does} and reads its list`;
    await fc.assert(
      fc.asyncProperty(schedules(steps), async (batches) => {
        const done = await runSchedule(batches, async (s) => {
          if ('reads' in s) return reads[s.reads](s.by);
          const res = await writes[s.does]?.(s.by);
          expect(res?.status ?? 0, `${text(s)}: ${res?.text.slice(0, 200) ?? ''}`).toBeLessThan(
            500,
          );
          // As a client does, the writer then reads its list back.
          await reads.list(s.by);
          return undefined;
        });
        for (const [s, seen] of done) {
          if (!('reads' in s) || !s.by.startsWith('A')) continue;
          expect(
            seen,
            `${text(s)} in the schedule "${scheduleText(batches, text)}": not what A got alone`,
          ).toBe(baseline[s.reads]);
        }
      }),
      t.fc(15),
    );
  },
  { needs, parts, relies: [...V2_SHAPES, 'v2.dashboards.lookup-path'], timeout: 60_000 },
);
