import { openHub } from '../harness/browser.ts';
import { conformance } from '../harness/conformance.ts';
import { TENANT_FIELDS, tenantToken } from '../harness/given/dashboards.ts';
import {
  applicationPath,
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  needs,
  HUB_TIMEOUT,
  expectChart,
} from './kit.ts';

// §5 rule 6: a tenant JWT keeps working on API calls, but the embedded pages take a
// project-user token only. A tenant of the very account whose dashboard the page names, with
// every flag a page could need, still sees nothing of it.

conformance(
  ['auth.hub.project-user-token-only'],
  'a tenant JWT of the account opens none of its pages: neither the dashboard page nor the application page shows the dashboard',
  async (t) => {
    const w = await hubWorld(t);
    const tenant = await tenantToken(t, w, { addChart: true, removeChart: true, drillDown: true });
    // The same dashboard opens for the account's project user: the pages work, the token is what differs.
    const control = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await dashboardShown(control, w);
    await control.close();
    const cases = [
      ['the dashboard page', dashboardPath(w.board.dashboardId, { jwt: tenant })],
      ['the application page', applicationPath(w.board.workspaceId, { jwt: tenant })],
    ] as const;
    for (const [what, path] of cases) {
      const view = await openHub(t, path);
      await view.frame.waitForLoadState('load');
      if (view.names('chart'))
        await expectChart(view, w, 0, `${what} with a tenant JWT: no chart of the dashboard`);
      await expectCount(
        view.frame.getByText(w.board.name, { exact: true }),
        0,
        `${what} with a tenant JWT: not the dashboard's name`,
      );
      await view.close();
    }
  },
  {
    timeout: HUB_TIMEOUT,
    parts: ['hub', 'tenant-flow', 'v1-dashboards'],
    needs,
    relies: TENANT_FIELDS,
  },
);
