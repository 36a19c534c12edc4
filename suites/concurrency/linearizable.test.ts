import { expect } from 'vitest';
import { authorization } from '../harness/authorization.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { READ_BACK, openEndpoint } from '../dashboards/world.ts';
import {
  SHORT,
  findings,
  runConcurrency,
  type Caller,
  type Entity,
  type Report,
} from './workload.ts';

// Issue 11, part 5: four clients act at once on one account (100 requests each); every
// answer must be explained by some order of the requests one at a time that keeps each
// request after those that had answered before it was sent (linearizability), with the
// entities behaving as §3 and §4 say when requests come one at a time (models.ts).
// tools/concurrency.ts --full runs the same with 16 clients of 1,000 requests.

const caller =
  (t: Conformance): Caller =>
  (method, path, options = {}) =>
    t.http.call(method, path, {
      ...(options.query === undefined ? {} : { query: options.query }),
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.base === undefined ? {} : { base: options.base }),
    });

async function run(t: Conformance, entities: readonly Entity[]): Promise<Report> {
  const report = await runConcurrency(
    caller(t),
    entities.includes('layouts')
      ? {
          addChartsPath: openEndpoint(t, 'v1AddCharts').path,
          listDashboardsPath: openEndpoint(t, 'v1ListWorkspaceDashboards').path,
          authorization: (apiKey) => authorization(t, apiKey),
        }
      : {
          addChartsPath: '',
          listDashboardsPath: '',
          authorization: () => ({}),
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
    // The workload reads each layout from the list items' `chartIds` member (a member §2.8
    // does not show), so it runs only where the profile names that member so.
    const member = t.profile.shapes.v1Dashboard?.chartIds;
    if (member !== 'chartIds')
      t.notRun(
        `the layout workload reads a v1 list item's chartIds member; the profile names ${member ?? 'none'} (shapes.v1Dashboard.chartIds)`,
      );
    const report = await run(t, ['layouts']);
    expect(report.partitions.some((p) => p.entity === 'layout' && p.operations > 1)).toBe(true);
  },
  {
    needs: ['accounts', 'projects', 'workspaces', 'dashboards', 'charts'],
    parts: ['v1-dashboards'],
    relies: [...READ_BACK, 'dashboards.v1-record.fields', 'auth.header.format'],
    timeout: 120_000,
  },
);
