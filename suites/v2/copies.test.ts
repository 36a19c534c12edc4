import fc from 'fast-check';
import { expect } from 'vitest';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import { conformance } from '../harness/conformance.ts';
import { expectError, successStatus } from '../harness/expect.ts';
import {
  V2_KEY,
  dashboardsOf,
  migratedWorld,
  needs,
  parts,
  projectUser,
  snapshot,
  v2Post,
  writtenDashboard,
} from '../harness/given/v2.ts';
import { dashboardsPath, chartsPath, clonePath } from '../harness/paths.ts';

// §2.2 rule 3, §2.8, §5 rule 7, §7 409 (issue 7, property 10 on the v2 side): arbitrary
// interleavings of v2 writes by three project users with editing roles. The expected state is
// kept here, from the document alone: templates never change through a user's edit (409), each
// user's list holds every template once plus exactly that user's own dashboards, and nobody
// sees another user's.
const READ_ONLY = 'SHARED_DASHBOARD_READ_ONLY';
const USERS = 3;

type Op =
  | { readonly kind: 'create'; readonly user: number }
  | { readonly kind: 'clone'; readonly user: number }
  | { readonly kind: 'edit-template'; readonly user: number }
  | { readonly kind: 'edit-own'; readonly user: number; readonly pick: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), user }),
  fc.record({ kind: fc.constant('clone' as const), user }),
  fc.record({ kind: fc.constant('edit-template' as const), user }),
  fc.record({ kind: fc.constant('edit-own' as const), user, pick: fc.nat() }),
);

conformance(
  [
    'errors.shared-dashboard-read-only',
    'permissions.editing.edits-go-to-own-copy',
    'auth.v2.user-token-own-space',
    'dashboards.copy.one-entry',
  ],
  "any interleaving of v2 writes by several users leaves the templates unchanged and each user's list holding the templates once and only their own dashboards",
  async (t) => {
    const m = await migratedWorld(t);
    const users: { userId: string; token: string }[] = [];
    for (let i = 0; i < USERS; i++) users.push(await projectUser(t, m.w));
    const own: Set<string>[] = users.map(() => new Set());
    const templates = await dashboardsOf(t, m.w, m.applicationId);
    const shared = snapshot(templates);
    const extra = m.otherTemplate.chartIds ?? [];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        for (const o of ops) {
          const as = { token: users[o.user]?.token ?? '' };
          if (o.kind === 'create' || o.kind === 'clone') {
            const before = await dashboardsOf(t, m.w, m.applicationId, as);
            const res =
              o.kind === 'create'
                ? await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Own' })
                : await v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as, {});
            const site = {
              call: `v2.${o.kind}`,
              applicationId: m.applicationId,
              as,
              before,
            } as const;
            const made = await writtenDashboard(t, m.w, res, site, `${o.kind} by user ${o.user}`);
            own[o.user]?.add(made.id);
          } else if (o.kind === 'edit-template') {
            const res = await v2Post(t, m.w, chartsPath(m.applicationId, m.template.id), as, {
              charts: extra,
            });
            expectError(
              res,
              documentedStatus(READ_ONLY),
              `user ${o.user} edits the template`,
              READ_ONLY,
            );
          } else {
            const mine = [...(own[o.user] ?? [])];
            const target = mine[o.pick % Math.max(mine.length, 1)];
            if (target === undefined) continue;
            const res = await v2Post(t, m.w, chartsPath(m.applicationId, target), as, {
              charts: extra,
            });
            expect(
              successStatus(res.status),
              `user ${o.user} edits their own ${target}: ${res.status} ${res.text.slice(0, 200)}`,
            ).toBe(true);
          }
        }
        expect(snapshot(await dashboardsOf(t, m.w, m.applicationId)), 'the templates').toBe(shared);
        for (let i = 0; i < USERS; i++) {
          const seen = await dashboardsOf(t, m.w, m.applicationId, {
            token: users[i]?.token ?? '',
          });
          const ids = seen.map((d) => d.id);
          for (const tpl of templates) {
            expect(
              ids.filter((id) => id === tpl.id),
              `user ${i} sees template ${tpl.id} once`,
            ).toHaveLength(1);
          }
          const theirs = seen.filter((d) => d.kind === 'dashboard');
          expect(theirs.map((d) => d.id).sort(), `user ${i} sees exactly their own`).toEqual(
            [...(own[i] ?? [])].sort(),
          );
          expect(
            theirs.every((d) => d.ownerProjectUserId === users[i]?.userId),
            `user ${i}'s dashboards are owned by them`,
          ).toBe(true);
        }
      }),
      { ...t.fc(6) },
    );
  },
  { needs, parts, relies: V2_KEY },
);
