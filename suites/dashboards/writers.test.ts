import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import {
  describeAnswer,
  detailsOf,
  expectClientError,
  refusedAs,
  successStatus,
} from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf,
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
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';

// §2.2: a write made as a tenant succeeds only when its permissions grant editing (rules 1 and
// 2) and the flag for that kind of write is on; readOnly refuses every write. Each kind of
// write is a row (STYLE 14); the flag each needs is the document's (fixtures/oracles). A
// refusal is asserted as "refused (4xx) and nothing changed"; its exact status is a probe.
const parts = ['v1-dashboards', 'tenant-flow'] as const;
const relies = [...READ_BACK, ...TENANT_FIELDS];
const needs = CONTENT;

type WriteKind = 'create' | 'clone' | 'addCharts' | 'appendCharts' | 'removeCharts';

interface Write {
  readonly kind: WriteKind;
  /** The §2.2 clause of the flag this write needs. */
  readonly clause: ClauseId;
  readonly send: (
    t: Conformance,
    w: DashboardsWorld,
    other: Shared,
    secret: string,
  ) => Promise<Reply>;
}

const writes: readonly Write[] = [
  {
    kind: 'create',
    clause: 'permissions.add-dashboard.effect',
    send: (t, w, _other, secret) => v1Create(t, secret, w.board.workspaceId, 'A board of mine'),
  },
  {
    kind: 'clone',
    clause: 'permissions.can-duplicate-dashboard.effect',
    send: (t, w, _other, secret) =>
      v1Post(t, CLONE, secret, { sourceDashboardId: w.board.dashboardId }),
  },
  {
    kind: 'addCharts',
    clause: 'permissions.add-chart.allows-adding',
    send: (t, w, other, secret) =>
      v1AddCharts(t, secret, w.board.dashboardId, [other.charts[0]?.chartId ?? '']),
  },
  {
    kind: 'appendCharts',
    clause: 'permissions.add-chart.allows-adding',
    send: (t, w, other, secret) =>
      v1Post(t, APPEND, secret, {
        sourceDashboardId: other.dashboardId,
        targetDashboardId: w.board.dashboardId,
      }),
  },
  {
    kind: 'removeCharts',
    clause: 'permissions.remove-chart.allows-removing',
    send: (t, w, _other, secret) =>
      v1Post(t, REMOVE, secret, {
        dashboardId: w.board.dashboardId,
        chartIds: [w.board.charts[0]?.chartId],
      }),
  },
];

function writeOf(kind: WriteKind): Write {
  const found = writes.find((w) => w.kind === kind);
  if (found === undefined) throw new Error(`the table of writes has no ${kind} row`);
  return found;
}

const removal = () => writeOf('removeCharts');

/** Every flag that grants editing (§2.2 rule 1), each set to `value`. */
const allEditing = (value: boolean): Record<string, boolean> =>
  Object.fromEntries(expectedPermissions.grantsEditing.map((f) => [f, value]));

/** What the tenant and the host see of the workspace, for "nothing changed". */
async function seen(t: Conformance, w: DashboardsWorld, token: string): Promise<string> {
  const host = layoutOf(await dashboardsOf(t, w, w.board.workspaceId));
  const tenant = layoutOf(await dashboardsOf(t, w, w.board.workspaceId, { token }));
  return `host ${host}; tenant ${tenant}`;
}

/** A refusal: a 4xx in the envelope, and neither the tenant's nor the host's view changed. */
async function expectRefused(
  t: Conformance,
  w: DashboardsWorld,
  token: string,
  send: () => Promise<Reply>,
  what: string,
): Promise<Reply> {
  const before = await seen(t, w, token);
  const res = await send();
  expectClientError(res, what);
  expect(await seen(t, w, token), `${what}: nothing changed`).toBe(before);
  return res;
}

async function world(t: Conformance) {
  const w = await dashboardsWorld(t, 2);
  return { w, other: await sharedDashboard(t, w, 1) };
}

for (const write of writes) {
  const flag = expectedPermissions.writes[write.kind];

  conformance(
    [write.clause],
    `${write.kind} by a tenant is refused when ${flag} is off, and changes nothing`,
    async (t) => {
      const { w, other } = await world(t);
      const token = await tenantToken(t, w, { ...allEditing(true), [flag]: false });
      await expectRefused(
        t,
        w,
        token,
        () => write.send(t, w, other, token),
        `${write.kind} with every editing flag but ${flag}`,
      );
    },
    { needs, parts, relies },
  );

  conformance(
    [write.clause, 'permissions.editing.grant-flags'],
    `${write.kind} by a tenant works with ${flag} alone`,
    async (t) => {
      const { w, other } = await world(t);
      const token = await tenantToken(t, w, { [flag]: true });
      const res = await write.send(t, w, other, token);
      // §4.10–§4.12 show 200; §4.16 shows no status for the v1 create and add-charts.
      const ok =
        write.kind === 'create' || write.kind === 'addCharts'
          ? successStatus(res.status)
          : res.status === 200;
      expect(ok, `${write.kind} with only ${flag}: ${res.status} ${res.text.slice(0, 300)}`).toBe(
        true,
      );
    },
    {
      needs,
      parts,
      // The removal names a chart of the shared dashboard, which the tenant's copy holds under
      // the same id only by the decision dashboards.copy.chart-ids.
      relies:
        write.kind === 'removeCharts'
          ? [...TENANT_FIELDS, 'dashboards.copy.chart-ids']
          : TENANT_FIELDS,
    },
  );
}

conformance(
  ['permissions.read-only.refuses-dashboard-writes', 'permissions.editing.read-only-overrides'],
  'readOnly refuses every kind of write, whatever the editing flags, and changes nothing',
  async (t) => {
    const { w, other } = await world(t);
    const token = await tenantToken(t, w, { ...allEditing(true), readOnly: true });
    for (const write of writes) {
      await expectRefused(
        t,
        w,
        token,
        () => write.send(t, w, other, token),
        `${write.kind} as a read-only tenant`,
      );
    }
  },
  { needs, parts, relies },
);

conformance(
  ['permissions.editing.empty-is-view-only'],
  'a tenant with no editing flag can make no write, and changes nothing',
  async (t) => {
    const { w, other } = await world(t);
    const token = await tenantToken(t, w, {});
    for (const write of writes) {
      await expectRefused(
        t,
        w,
        token,
        () => write.send(t, w, other, token),
        `${write.kind} as a view-only tenant`,
      );
    }
  },
  { needs, parts, relies },
);

probe(
  ['dashboards.write-refusal.status'],
  'how a write without its flag is refused',
  async (t) => {
    const { w, other } = await world(t);
    const token = await tenantToken(t, w, { ...allEditing(true), removeChart: false });
    const res = await removal().send(t, w, other, token);
    const details = detailsOf(res);
    t.observe(
      `${describeAnswer(res)} permission=${String(details['permission'])}`,
      refusedAs(res, 403, 'FORBIDDEN', { permission: 'removeChart' }),
    );
  },
  { needs, parts, relies: TENANT_FIELDS },
);

probe(
  ['dashboards.tenant-permissions.read-at-write', 'tenants.register.identity'],
  'a tenant made read-only after its token was issued, writing with that token',
  async (t) => {
    const { w, other } = await world(t);
    const columns = { customer_id: t.faker.string.alphanumeric(10) };
    const issued = await tenantToken(t, w, allEditing(true), columns);
    // The same tenant registered again, now read-only; the first token is still in hand.
    await tenantToken(t, w, { ...allEditing(true), readOnly: true }, columns);
    const before = await seen(t, w, issued);
    // A create names no chart: its answer rests on the permissions alone, not on which chart ids
    // the tenant's copy holds (dashboards.copy.chart-ids).
    const res = await writeOf('create').send(t, w, other, issued);
    const unchanged = (await seen(t, w, issued)) === before;
    t.observe(
      `${describeAnswer(res)}; ${unchanged ? 'nothing changed' : 'the write went through'}`,
      res.status >= 400 && res.status < 500 && unchanged,
    );
  },
  { needs, parts, relies },
);
