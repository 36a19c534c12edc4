import { expect } from 'vitest';
import { authorization } from '../harness/authorization.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { READ_BACK, openEndpoint } from '../harness/given/dashboards.ts';
import {
  SHORT,
  findings,
  runConcurrency,
  type Entity,
  type Report,
  type Shapes,
} from './workload.ts';

// Issue 11, part 5: four clients act at once on one account (100 requests each); every
// answer must be explained by some order of the requests one at a time that keeps each
// request after those that had answered before it was sent (linearizability), with the
// entities behaving as §3 and §4 say when requests come one at a time (models.ts).
// tools/concurrency.ts --full runs the same with 16 clients of 1,000 requests.

/**
 * Where the workload reads layouts (§2.8 shows no layout member): the list items' member the
 * profile names, else the read-only dashboard-charts hook, else the test is not-run.
 */
function layoutReading(t: Conformance): Shapes['layout'] {
  const member = t.profile.shapes.v1Dashboard?.chartIds;
  if (member !== undefined) return { listMember: member };
  if (t.hooks.has('dashboard-charts')) return { hook: true };
  return t.notRun(
    "the layout workload reads layouts through the list items' member the profile names (shapes.v1Dashboard.chartIds) or the dashboard-charts host hook; the target offers neither",
  );
}

async function run(t: Conformance, entities: readonly Entity[]): Promise<Report> {
  const report = await runConcurrency(
    t,
    entities.includes('layouts')
      ? {
          addChartsPath: (targetDashboardId) =>
            openEndpoint(t, 'v1AddCharts', { targetDashboardId }).path,
          listDashboardsPath: (workspaceId) =>
            openEndpoint(t, 'v1ListWorkspaceDashboards', { workspaceId }).path,
          authorization: (apiKey) => authorization(t, apiKey),
          layout: layoutReading(t),
        }
      : {
          addChartsPath: () => '',
          listDashboardsPath: () => '',
          authorization: () => ({}),
          layout: { hook: true },
        },
    { ...SHORT, entities, seed: t.seed },
  );
  expect(report.anomalies, 'answers no sequential model can take (5xx, unreadable lists)').toEqual(
    [],
  );
  const unexplained = findings(report);
  expect(unexplained, `histories no sequential order explains:\n${unexplained.join('\n')}`).toEqual(
    [],
  );
  return report;
}

conformance(
  [
    'roles.update.renames',
    'roles.update.replaces-permissions',
    'roles.list.path',
    'states.role.update-replaces',
    'states.role.delete-removes',
    'users.register.user-id-supplied',
    'users.update.path',
    'tokens.user-token.user-id-required',
  ],
  'roles, users and tokens under four concurrent clients: every answer fits one sequential order',
  async (t) => {
    const report = await run(t, ['roles', 'users']);
    expect(report.partitions.some((p) => p.entity === 'role' && p.operations > 1)).toBe(true);
  },
  { needs: ['accounts', 'projects', 'roles'], parts: ['identity'], timeout: 120_000 },
);

conformance(
  ['dashboards.remove-charts.removes-from-layout', 'dashboards.v1-add-charts.body'],
  'dashboard layouts under four concurrent clients adding and removing charts: every list fits one sequential order, no edit is lost',
  async (t) => {
    const report = await run(t, ['layouts']);
    expect(report.partitions.some((p) => p.entity === 'layout' && p.operations > 1)).toBe(true);
  },
  {
    needs: ['accounts', 'projects', 'workspaces', 'dashboards', 'charts'],
    parts: ['v1-dashboards'],
    relies: [...READ_BACK, 'auth.header.format'],
    timeout: 120_000,
  },
);
