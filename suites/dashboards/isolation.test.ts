import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { conformance } from '../harness/conformance.ts';
import { expectClientError } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import type { Conformance } from '../harness/conformance.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf,
  dashboardsWorld,
  layoutOf,
  openEndpoint,
  tenantToken,
  v1AddCharts,
  v1Post,
  type DashboardsWorld,
} from '../harness/given/dashboards.ts';
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';

// §5 rules 2 and 3: a credential acts for its own account only. Account A's API key, and a
// tenant JWT of A, aimed at account B's dashboards and charts are refused, show nothing of B,
// and leave A and B as they were. Each trespass is a row (STYLE 14).

interface Trespass {
  readonly name: string;
  readonly relies: readonly ClauseId[];
  readonly send: (
    t: Conformance,
    a: DashboardsWorld,
    b: DashboardsWorld,
    secret: string,
  ) => Promise<Reply>;
}

const trespasses: readonly Trespass[] = [
  {
    name: "clone of B's dashboard",
    relies: [],
    send: (t, _a, b, secret) =>
      v1Post(t, CLONE, secret, { sourceDashboardId: b.board.dashboardId }),
  },
  {
    name: "append-charts-from B's dashboard onto A's",
    relies: [],
    send: (t, a, b, secret) =>
      v1Post(t, APPEND, secret, {
        sourceDashboardId: b.board.dashboardId,
        targetDashboardId: a.board.dashboardId,
      }),
  },
  {
    name: "append-charts-from A's dashboard onto B's",
    relies: [],
    send: (t, a, b, secret) =>
      v1Post(t, APPEND, secret, {
        sourceDashboardId: a.board.dashboardId,
        targetDashboardId: b.board.dashboardId,
      }),
  },
  {
    name: "remove-charts on B's dashboard",
    relies: [],
    send: (t, _a, b, secret) =>
      v1Post(t, REMOVE, secret, {
        dashboardId: b.board.dashboardId,
        chartIds: [b.board.charts[0]?.chartId],
      }),
  },
  {
    name: "add-charts of B's chart onto A's dashboard",
    relies: ['dashboards.v1-shapes.not-shown'],
    send: (t, a, b, secret) =>
      v1AddCharts(t, secret, a.board.dashboardId, [b.board.charts[0]?.chartId ?? '']),
  },
  {
    name: "list-workspace-dashboards of B's workspace",
    relies: ['dashboards.v1-shapes.not-shown', 'dashboards.v1-writes.credentials'],
    send: (t, _a, b, secret) => {
      const { path } = openEndpoint(t, 'v1ListWorkspaceDashboards', {
        workspaceId: b.board.workspaceId,
      });
      return secret.split('.').length === 3
        ? t.http.get(path, {
            query: { workspaceId: b.board.workspaceId },
            headers: { authorization: `Bearer ${secret}` },
          })
        : t.http.get(path, { query: { apiKey: secret, workspaceId: b.board.workspaceId } });
    },
  },
];

const CLAUSES: readonly ClauseId[] = [
  'auth.isolation.refused-changes-nothing',
  'auth.isolation.no-foreign-data',
];

for (const credential of ['an API key', 'a tenant JWT'] as const) {
  for (const trespass of trespasses) {
    conformance(
      CLAUSES,
      `${trespass.name} with ${credential} of A is refused, shows nothing of B and changes nothing`,
      async (t) => {
        const a = await dashboardsWorld(t, 1);
        const b = await dashboardsWorld(t, 2);
        const secret =
          credential === 'an API key'
            ? a.creds().apiKey
            : await tenantToken(t, a, {
                addChart: true,
                removeChart: true,
                canDuplicateDashboard: true,
              });
        const read = async () =>
          `A ${layoutOf(await dashboardsOf(t, a, a.board.workspaceId))} B ${layoutOf(await dashboardsOf(t, b, b.board.workspaceId))}`;
        const before = await read();
        const res = await trespass.send(t, a, b, secret);
        expectClientError(res, trespass.name);
        for (const secretOfB of [b.board.name, ...b.board.charts.map((c) => c.name)]) {
          expect(res.text, `the refusal shows nothing of B (${secretOfB})`).not.toContain(
            secretOfB,
          );
        }
        expect(await read(), 'neither account changed').toBe(before);
      },
      {
        needs: CONTENT,
        parts: credential === 'an API key' ? ['v1-dashboards'] : ['v1-dashboards', 'tenant-flow'],
        relies: [
          ...READ_BACK,
          ...trespass.relies,
          ...(credential === 'an API key' ? [] : TENANT_FIELDS),
        ],
      },
    );
  }
}
