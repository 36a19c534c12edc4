import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { World } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectClientError } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { accountSnapshot } from '../harness/readback.ts';
import {
  API_KEY,
  V2_KEY,
  dashboardsOf,
  lookUpPath,
  migratedWorld,
  needs,
  snapshot,
  v2Delete,
  v2Get,
  v2Post,
  type Migrated,
} from '../harness/given/v2.ts';
import {
  dashboardsPath,
  appendChartsPath,
  chartPath,
  chartsPath,
  clonePath,
} from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// §5: a credential acts for its own account only. Account A's API key, aimed at account B's
// v2 applications, dashboards and charts by their ids (every v2 endpoint that takes one, read
// and write), is refused, shows nothing of B, and leaves B as it was. Each row is one
// endpoint (STYLE 14); the v1 rows live in suites/dashboards/isolation.test.ts.

interface ForeignRow {
  readonly name: string;
  readonly relies?: readonly ClauseId[];
  send(t: Conformance, a: Migrated, b: Migrated): Promise<Reply>;
}

const chartOf = (m: Migrated) => m.template.chartIds?.[0] ?? m.board.charts[0]?.chartId ?? '';

const ROWS: readonly ForeignRow[] = [
  {
    name: "GET the dashboards of B's application",
    send: (t, a, b) => v2Get(t, a.w, dashboardsPath(b.applicationId), API_KEY),
  },
  {
    name: "look-up of B's v2 dashboard id",
    relies: ['v2.dashboards.lookup-path'],
    send: (t, a, b) => lookUp(t, a.w, b.template.id),
  },
  {
    name: "look-up of B's v1 dashboard id",
    relies: ['v2.dashboards.lookup-path'],
    send: (t, a, b) => lookUp(t, a.w, b.board.dashboardId),
  },
  {
    name: "create a dashboard in B's application",
    send: (t, a, b) =>
      v2Post(t, a.w, dashboardsPath(b.applicationId), API_KEY, { name: 'planted by A' }),
  },
  {
    name: "clone B's dashboard",
    send: (t, a, b) =>
      v2Post(t, a.w, clonePath(b.applicationId, b.template.id), API_KEY, {
        name: 'stolen by A',
      }),
  },
  {
    name: "clone B's dashboard under A's application",
    send: (t, a, b) =>
      v2Post(t, a.w, clonePath(a.applicationId, b.template.id), API_KEY, {
        name: 'stolen by A',
      }),
  },
  {
    name: "add a chart to B's dashboard",
    send: (t, a, b) =>
      v2Post(t, a.w, chartsPath(b.applicationId, b.template.id), API_KEY, {
        charts: [chartOf(a)],
      }),
  },
  {
    name: "remove a chart from B's dashboard",
    send: (t, a, b) =>
      v2Delete(t, a.w, chartPath(b.applicationId, b.template.id, chartOf(b)), API_KEY),
  },
  {
    name: "append the charts of B's dashboard onto A's",
    send: (t, a, b) =>
      v2Post(t, a.w, appendChartsPath(a.applicationId, a.template.id), API_KEY, {
        sourceDashboardId: b.template.id,
      }),
  },
];

function lookUp(t: Conformance, w: World, id: string): Promise<Reply> {
  const path = lookUpPath(t, id);
  if (path === undefined)
    t.notRun(
      'the profile names no path for the dashboard look-up',
      cause.shape('shapes.endpoints.lookUpDashboard'),
    );
  return v2Get(t, w, path, API_KEY);
}

/** What either account holds, read with its own key: both applications' dashboards. */
async function stateOf(t: Conformance, a: Migrated, b: Migrated): Promise<string> {
  const lists = [];
  for (const m of [a, b])
    for (const app of [m.applicationId, m.otherApplicationId])
      lists.push(snapshot(await dashboardsOf(t, m.w, app)));
  const snaps = [await accountSnapshot(t, a.w), await accountSnapshot(t, b.w)];
  return JSON.stringify([lists, snaps]);
}

for (const row of ROWS) {
  conformance(
    [
      'auth.isolation.other-account-refused',
      'auth.isolation.refused-changes-nothing',
      'auth.isolation.no-foreign-data',
    ],
    `v2: ${row.name} with A's API key is refused, shows nothing of B and changes nothing`,
    async (t) => {
      const a = await migratedWorld(t);
      const b = await migratedWorld(t);
      const before = await stateOf(t, a, b);
      const res = await row.send(t, a, b);
      expectClientError(res, row.name);
      for (const secret of [b.board.name, b.other.name, ...b.board.charts.map((c) => c.name)])
        expect(res.text, `the refusal shows nothing of B (${secret})`).not.toContain(secret);
      expect(await stateOf(t, a, b), 'neither account changed').toBe(before);
    },
    { needs, parts: ['v2'], relies: [...V2_KEY, ...(row.relies ?? [])], timeout: 90_000 },
  );
}
