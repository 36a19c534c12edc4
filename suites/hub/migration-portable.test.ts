import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { hubProfile, openHub } from '../harness/browser.ts';
import { cause } from '../harness/causes.ts';
import { conformance } from '../harness/conformance.ts';
import { successStatus } from '../harness/expect.ts';
import {
  API_KEY,
  V2_KEY,
  applicationsOf,
  byLegacy,
  dashboardsOf,
  finalize,
  v2Delete,
} from '../harness/given/v2.ts';
import { chartPath } from '../harness/paths.ts';
import {
  applicationPath,
  dashboardPath,
  expectCount,
  hubWorld,
  needs,
  HUB_TIMEOUT,
} from './kit.ts';

// §9 with §4.17: after finalize the v1 dashboard component stays as the migration left it. The
// v2 dashboard is changed by removing its charts, named by the ids its own v2 record lists
// (shapes.v2Dashboard.chartIds, a shape), so whether charts kept their v1 ids in the migration
// (migration.chart-ids-kept) is never asked.
const parts = ['hub', 'v2'] as const;
const migrating: readonly HookName[] = [...needs, 'migration'];

conformance(
  ['migration.v1-component.frozen'],
  'after finalize the v1 component keeps showing the dashboard as migrated while the v2 dashboard loses the charts its record lists',
  async (t) => {
    const w = await hubWorld(t);
    await finalize(t, w);
    const app = (await applicationsOf(t, w)).find(
      (a) => a.legacyWorkspaceId === w.board.workspaceId,
    );
    if (app === undefined) return expect.fail('no application came from the workspace');
    const { applicationId } = app;
    const v2 = byLegacy(await dashboardsOf(t, w, applicationId), w.board.dashboardId, 'migrated');
    const chartIds =
      v2.chartIds ??
      t.notRun(
        "the target's profile names no chart ids in a v2 dashboard record (shapes.v2Dashboard.chartIds)",
        cause.shape('shapes.v2Dashboard.chartIds'),
      );
    expect(chartIds.length, 'the migrated dashboard lists the chart it holds').toBeGreaterThan(0);
    for (const chartId of chartIds) {
      const res = await v2Delete(t, w, chartPath(applicationId, v2.id, chartId), API_KEY);
      // §4.16 shows no status for the v2 calls: any success.
      expect(
        successStatus(res.status),
        `the host removes chart ${chartId} through v2: ${res.status} ${res.text.slice(0, 200)}`,
      ).toBe(true);
    }
    const live = await openHub(t, dashboardPath(v2.id, { jwt: w.viewer.token }));
    await expectCount(live.thing('filterBar'), 1, 'the v2 dashboard is shown');
    await expectCount(
      live.thing('chart', { title: w.board.chartTitle }),
      0,
      'the v2 dashboard lost the chart',
    );
    await live.close();
    // The pages that are the v1 component, as the profile states them (hub.v1Component).
    const component = hubProfile(t).v1Component;
    const pages: (readonly [string, string])[] = [
      ['the dashboard page, v1 id', dashboardPath(w.board.dashboardId, { jwt: w.viewer.token })],
    ];
    if (component === 'dashboard-and-application-pages')
      pages.push([
        'the application page, v1 workspace id',
        applicationPath(w.board.workspaceId, {
          jwt: w.viewer.token,
          dashboardId: w.board.dashboardId,
        }),
      ]);
    for (const [what, path] of pages) {
      const v1 = await openHub(t, path);
      await expectCount(
        v1.thing('chart', { title: w.board.chartTitle }),
        1,
        `${what}: the v1 component still shows it`,
      );
      await v1.close();
    }
  },
  { timeout: HUB_TIMEOUT, parts, needs: migrating, relies: [...V2_KEY, 'hub.v1-component.page'] },
);
