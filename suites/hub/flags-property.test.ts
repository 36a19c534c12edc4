import fc from 'fast-check';
import { unstatedReliances } from '../../spec/reliance.ts';
import { expect } from 'vitest';
import { expectedEffective, expectedPermissions } from '../../fixtures/oracles/index.ts';
import type { HubThing } from '../../spec/hub-profile.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { openHub } from '../harness/browser.ts';
import { conformance } from '../harness/conformance.ts';
import {
  dashboardPath,
  hubWorld,
  needsData,
  parts,
  viewer,
  HUB_TIMEOUT,
  TOOLS,
  expectChart,
} from './kit.ts';

// §2.2 as a property: for arbitrary sets of the twenty flags, what the page offers (found
// through the profile's hub section) is what the flags give, with the defaults and the
// editing rules of §2.2 (expected values: fixtures/oracles).

/**
 * Where a thing must be, may be, or must not be, from the flags §2.2 gives a role, on the
 * world's dashboard (no chart saved from chat on it).
 */
function expectations(role: RolePermissions, tabsShown: boolean): [HubThing, boolean | 'either'][] {
  const on = expectedEffective(role);
  // Without a header, a control the document does not place may have gone with it.
  const shown = (flag: boolean): boolean | 'either' =>
    flag ? (on['hideHeader'] ? 'either' : true) : false;
  return [
    ['header', !on['hideHeader']],
    ['download', shown(!on['hideDownloadButton'])],
    // Tabs on the dashboard page come with the navigation the document leaves open there
    // (hub.dashboard.navigation): off with disableTabs always, on only where the profile says.
    ['tabs', on['disableTabs'] ? false : tabsShown ? shown(true) : 'either'],
    ['filterBar', shown(!on['hideFilters'])],
    // §2.2: the Schedule Report button is in the header, and only with the flag; whether the
    // organization has the feature is the profile's to say, so with the flag it may be either
    // (flags.test.ts judges it where the profile says).
    ['scheduleReport', on['enableScheduleReport'] === true && !on['hideHeader'] ? 'either' : false],
    ['setDefault', shown(on['canSetDefaultDashboard'] === true)],
    ['duplicate', shown(on['canDuplicateDashboard'] === true)],
    ['aiInsight', shown(on['aiInsight'] === true)],
    ['aiCharts', shown(on['aiCharts'] === true)],
    // §2.2 ties canEditChartFromSession to charts the agent chat generated, and this dashboard
    // holds none: the control may be there or not (flags.test.ts checks it on such a chart).
    ['editFromSession', 'either'],
    ...TOOLS.map(([thing, flag]): [HubThing, boolean | 'either'] => [
      thing,
      shown(on[flag] === true),
    ]),
    ['drillDown', shown(on['drillDown'] === true)],
  ];
}

const flagsArb = fc.record(
  Object.fromEntries(
    expectedPermissions.flags.map((f) => [f, fc.option(fc.boolean(), { nil: undefined })]),
  ),
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, boolean | undefined>>;

conformance(
  [
    'permissions.hide-header.effect',
    'permissions.hide-download-button.effect',
    'permissions.disable-tabs.effect',
    'permissions.hide-filters.effect',
    'permissions.read-only.no-editing-tools',
    'permissions.drill-down.off-when-read-only',
    'permissions.editing.grant-flags',
    'permissions.edit-marketplace.no-effect',
  ],
  'for arbitrary sets of the twenty flags, what the page offers follows §2.2',
  async (t) => {
    const tabsShown = unstatedReliances(t.profile, ['hub.dashboard.navigation']).length === 0;
    const w = await hubWorld(t, { data: true });
    await fc.assert(
      fc.asyncProperty(flagsArb, async (flags) => {
        const role = Object.fromEntries(
          Object.entries(flags).filter(([, v]) => v !== undefined),
        ) as RolePermissions;
        const v = await viewer(t, w, role);
        const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: v.token }));
        await expectChart(view, w, 1, 'the page shows the chart');
        // The page is ready (its chart is shown): count every thing at once.
        const checks = expectations(role, tabsShown).filter(
          (c): c is [HubThing, boolean] => c[1] !== 'either' && view.names(c[0]),
        );
        const counts = await Promise.all(
          checks.map(([thing]) =>
            view.thing(thing, thing === 'drillDown' ? { value: 'Anvil' } : undefined).count(),
          ),
        );
        for (const [i, [thing, expected]] of checks.entries())
          expect(
            (counts[i] ?? 0) > 0,
            `role ${JSON.stringify(role)}: ${thing} should be ${expected ? 'offered' : 'absent'}`,
          ).toBe(expected);
        await view.close();
      }),
      t.fc(4),
    );
  },
  {
    timeout: 2 * HUB_TIMEOUT,
    parts,
    needs: needsData,
  },
);
