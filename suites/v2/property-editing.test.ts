import fc from 'fast-check';
import { expect } from 'vitest';
import { expectedEffective, expectedPermissions } from '../../fixtures/oracles/index.ts';
import type { World } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectClientError, successStatus } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  rolePath,
  APPEND,
  CLONE,
  REMOVE,
  dashboardPath,
  dashboardsPath,
  clonePath,
} from '../harness/paths.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf as v1DashboardsOf,
  dashboardsWorld,
  layoutOf,
  sharedDashboard,
  tenantToken,
  v1AddCharts,
  v1Create,
  v1Post,
  type DashboardsWorld,
  type Shared,
} from '../harness/given/dashboards.ts';
import {
  EDITOR,
  V2_KEY,
  dashboardsOf,
  migratedWorld,
  needs,
  projectUser,
  snapshot,
  v2Delete,
  v2Post,
  writtenDashboard,
  type Dashboard,
  type Migrated,
} from '../harness/given/v2.ts';
import { cause } from '../harness/causes.ts';

// Issue 7 property 11 (§2.2, §3 role row): for arbitrary sets of the twenty flags, a write
// succeeds exactly when §2.2 allows it, observed on the writes themselves and never read from
// a token: the flag each kind of write needs and the editing rules come from the document's
// table (fixtures/oracles: expectedEffective, writes). A role update is read by the very
// next write (§3). A refusal is "refused (4xx) and nothing changed"; its status is a probe
// elsewhere (dashboards.write-refusal.status).
type WriteKind = 'create' | 'clone' | 'addCharts' | 'appendCharts' | 'removeCharts';
const KINDS: readonly WriteKind[] = [
  'create',
  'clone',
  'addCharts',
  'appendCharts',
  'removeCharts',
];

const flags: fc.Arbitrary<Record<string, boolean>> = fc
  .record(Object.fromEntries(expectedPermissions.flags.map((f) => [f, fc.boolean()])), {
    requiredKeys: [],
  })
  .map((p) => {
    const set: Record<string, boolean> = {};
    for (const [flag, value] of Object.entries(p)) if (value !== undefined) set[flag] = value;
    return set;
  });
const step = fc.record({ permissions: flags, kind: fc.constantFrom(...KINDS), pick: fc.nat() });
type Step = { permissions: Record<string, boolean>; kind: WriteKind; pick: number };

/** Whether §2.2 lets a holder of these permissions make this kind of write. */
const allowed = (permissions: Record<string, boolean>, kind: WriteKind): boolean =>
  expectedEffective(permissions)[expectedPermissions.writes[kind]] === true;

const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

/** §4.1: the role's permissions replaced. */
async function updateRole(
  t: Conformance,
  w: World,
  roleId: string,
  permissions: Record<string, boolean>,
) {
  const res = await t.http.put(rolePath(w, roleId), { ...w.creds(), permissions });
  expect(res.status, `updating the role to ${JSON.stringify(permissions)}: ${res.text}`).toBe(200);
}

/** The user's own dashboard the chart writes aim at: the first of the user's space. */
const ownBoard = (items: readonly Dashboard[]) => items.find((d) => d.kind === 'dashboard');

/** One v2 write in the user's own space, and the change a success must show in the list. */
async function v2Write(
  t: Conformance,
  m: Migrated,
  token: string,
  s: Step,
  before: readonly Dashboard[],
): Promise<{ res: Reply; shows: (after: readonly Dashboard[]) => boolean } | undefined> {
  const as = { token };
  const mine = ownBoard(before);
  if (mine === undefined) return undefined;
  const at = dashboardPath(m.applicationId, mine.id);
  const own = (items: readonly Dashboard[]) => items.filter((d) => d.kind === 'dashboard').length;
  const chartsOf = (items: readonly Dashboard[]) =>
    items.find((d) => d.id === mine.id)?.chartIds ?? [];
  switch (s.kind) {
    case 'create': {
      const res = await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Mine' });
      return { res, shows: (after) => own(after) === own(before) + 1 };
    }
    case 'clone': {
      const res = await v2Post(t, m.w, `${at}/clone`, as, { name: 'My copy' });
      return { res, shows: (after) => own(after) === own(before) + 1 };
    }
    case 'addCharts': {
      const chart = pick(
        (m.otherTemplate.chartIds ?? []).filter((c) => !chartsOf(before).includes(c)),
        s.pick,
      );
      if (chart === undefined) return undefined;
      const res = await v2Post(t, m.w, `${at}/charts`, as, { charts: [chart] });
      return { res, shows: (after) => chartsOf(after).includes(chart) };
    }
    case 'appendCharts': {
      const res = await v2Post(t, m.w, `${at}/append-charts`, as, {
        sourceDashboardId: m.otherTemplate.id,
      });
      const added = m.otherTemplate.chartIds?.length ?? 0;
      return {
        res,
        shows: (after) => chartsOf(after).length === chartsOf(before).length + added,
      };
    }
    case 'removeCharts': {
      const chart = pick(chartsOf(before), s.pick);
      if (chart === undefined) return undefined;
      const res = await v2Delete(t, m.w, `${at}/charts/${chart}`, as);
      return { res, shows: (after) => !chartsOf(after).includes(chart) };
    }
  }
}

conformance(
  [
    'permissions.add-dashboard.effect',
    'permissions.can-duplicate-dashboard.effect',
    'permissions.add-chart.allows-adding',
    'permissions.remove-chart.allows-removing',
    'permissions.editing.grant-flags',
    'permissions.editing.read-only-overrides',
    'permissions.editing.empty-is-view-only',
    'permissions.read-only.refuses-dashboard-writes',
    'states.role.update-immediate-api-checks',
    'auth.v2.user-token-own-space',
  ],
  "for arbitrary flag sets on a project user's role, each v2 write in the user's own space succeeds exactly when §2.2 allows it, from the very next write after a role update",
  async (t) => {
    const m = await migratedWorld(t);
    const templates = snapshot(await dashboardsOf(t, m.w, m.applicationId));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const user = await projectUser(t, m.w, EDITOR);
        const roleId = user.roleId ?? '';
        const as = { token: user.token };
        const listed = await dashboardsOf(t, m.w, m.applicationId, as);
        await writtenDashboard(
          t,
          m.w,
          await v2Post(t, m.w, clonePath(m.applicationId, m.template.id), as, {
            name: 'Work board',
          }),
          { call: 'v2.clone', applicationId: m.applicationId, as, before: listed },
          'setting up: the user clones the template into their space',
        );
        for (const s of steps) {
          await updateRole(t, m.w, roleId, s.permissions);
          const before = await dashboardsOf(t, m.w, m.applicationId, as);
          const sent = await v2Write(t, m, user.token, s, before);
          if (sent === undefined) continue;
          const what = `${s.kind} right after the role became ${JSON.stringify(s.permissions)}`;
          const after = await dashboardsOf(t, m.w, m.applicationId, as);
          if (allowed(s.permissions, s.kind)) {
            expect(
              successStatus(sent.res.status),
              `${what} is allowed: ${sent.res.status} ${sent.res.text.slice(0, 200)}`,
            ).toBe(true);
            expect(sent.shows(after), `${what}: the user's list shows the write`).toBe(true);
          } else {
            expectClientError(sent.res, `${what} is not allowed`);
            expect(snapshot(after), `${what}: nothing changed`).toBe(snapshot(before));
          }
        }
      }),
      t.fc(10),
    );
    expect(
      snapshot(await dashboardsOf(t, m.w, m.applicationId)),
      'no user write changed a template',
    ).toBe(templates);
  },
  { needs, parts: ['v2', 'identity'], relies: V2_KEY, timeout: 240_000 },
);

/** One v1 write by a tenant (§4.10–§4.12, §4.16 at the profile's paths). */
function v1Write(
  t: Conformance,
  w: DashboardsWorld,
  other: Shared,
  token: string,
  s: Step,
): Promise<Reply> {
  const board = w.board;
  switch (s.kind) {
    case 'create':
      return v1Create(t, token, board.workspaceId, 'A board of mine');
    case 'clone':
      return v1Post(t, CLONE, token, { sourceDashboardId: board.dashboardId });
    case 'addCharts':
      return v1AddCharts(t, token, board.dashboardId, [pick(other.charts, s.pick)?.chartId ?? '']);
    case 'appendCharts':
      return v1Post(t, APPEND, token, {
        sourceDashboardId: other.dashboardId,
        targetDashboardId: board.dashboardId,
      });
    case 'removeCharts':
      return v1Post(t, REMOVE, token, {
        dashboardId: board.dashboardId,
        chartIds: [pick(board.charts, s.pick)?.chartId],
      });
  }
}

conformance(
  [
    'permissions.add-dashboard.effect',
    'permissions.can-duplicate-dashboard.effect',
    'permissions.add-chart.allows-adding',
    'permissions.remove-chart.allows-removing',
    'permissions.editing.grant-flags',
    'permissions.editing.read-only-overrides',
    'permissions.read-only.refuses-dashboard-writes',
  ],
  "for arbitrary flag sets of a tenant's editing permissions, each v1 write succeeds exactly when §2.2 allows it, from the very next write after the tenant is registered again",
  async (t) => {
    if (t.profile.shapes.registerTenant?.permissions === undefined)
      t.notRun(
        'the profile names no register-tenant permissions field (shapes.registerTenant)',
        cause.shape('shapes.registerTenant.permissions'),
      );
    const w = await dashboardsWorld(t, 3);
    const other = await sharedDashboard(t, w, 2);
    const hostView = layoutOf(await v1DashboardsOf(t, w, w.board.workspaceId));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const columns = { customer_id: t.faker.string.alphanumeric(12) };
        const token = await tenantToken(t, w, {}, columns);
        // Charts this tenant already took off its copy: removing one again is open
        // (dashboards.remove-charts.unknown-chart), so only "a client error changes nothing".
        const gone = new Set<string>();
        for (const s of steps) {
          // The same tenant registered again with new permissions; its first token is kept.
          await tenantToken(t, w, s.permissions, columns);
          const seen = () => v1DashboardsOf(t, w, w.board.workspaceId, { token });
          const before = layoutOf(await seen());
          const res = await v1Write(t, w, other, token, s);
          const what = `${s.kind} right after the tenant's permissions became ${JSON.stringify(s.permissions)}`;
          const removed =
            s.kind === 'removeCharts' ? pick(w.board.charts, s.pick)?.chartId : undefined;
          if (removed !== undefined && gone.has(removed) && allowed(s.permissions, s.kind)) {
            if (!successStatus(res.status)) {
              expectClientError(res, `${what}, a chart already removed`);
              expect(layoutOf(await seen()), `${what}: nothing changed`).toBe(before);
            }
          } else if (allowed(s.permissions, s.kind)) {
            // §4.10–§4.12 show 200; §4.16 shows no status for the v1 create and add-charts.
            const ok =
              s.kind === 'create' || s.kind === 'addCharts'
                ? successStatus(res.status)
                : res.status === 200;
            expect(ok, `${what} is allowed: ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
            if (removed !== undefined) gone.add(removed);
          } else {
            expectClientError(res, `${what} is not allowed`);
            expect(layoutOf(await seen()), `${what}: nothing changed`).toBe(before);
          }
        }
      }),
      t.fc(10),
    );
    expect(
      layoutOf(await v1DashboardsOf(t, w, w.board.workspaceId)),
      "no tenant's write changed the shared dashboards",
    ).toBe(hostView);
  },
  {
    needs: CONTENT,
    parts: ['v1-dashboards', 'tenant-flow'],
    relies: [
      ...READ_BACK,
      ...TENANT_FIELDS,
      'tenants.register.identity',
      'dashboards.tenant-permissions.read-at-write',
      'dashboards.v1-add-charts.repeat',
    ],
    timeout: 240_000,
  },
);
