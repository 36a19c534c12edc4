import { expectedStrings } from '../../fixtures/oracles/index.ts';
import { buildWorld } from '../harness/given/accounts.ts';
import { openHub } from '../harness/browser.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import {
  applicationPath,
  dashboardPath,
  expectCount,
  hubWorld,
  needs,
  parts,
  tokenOf,
  viewer,
  HUB_TIMEOUT,
  expectChart,
} from './kit.ts';

// §4.17: the two pages, their required jwt, and the texts for a bad token or an unseen id.
const { dashboardNotFound, invalidToken } = expectedStrings.hub;

/** Each page, opened, shows the error text and not the name of the dashboard it names. */
async function errorPages(
  t: Conformance,
  cases: readonly (readonly [what: string, path: string])[],
  text: string,
  dashboardName: string,
): Promise<void> {
  await Promise.all(
    cases.map(async ([what, path]) => {
      const view = await openHub(t, path);
      await expectCount(
        // The text at least once: a page may also repeat it (a title beside the body).
        view.frame.getByText(text, { exact: true }).first(),
        1,
        `${what}: the text '${text}'`,
      );
      await expectCount(
        view.frame.getByText(dashboardName, { exact: true }),
        0,
        `${what}: nothing of the dashboard`,
      );
      await view.close();
    }),
  );
}

conformance(
  ['hub.dashboard.page', 'hub.query.jwt'],
  'the dashboard page opens the dashboard, its chart shown',
  async (t) => {
    const w = await hubWorld(t);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await expectChart(view, w, 1, "the dashboard's chart is shown");
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

// §4.17 says the dashboard page opens the dashboard's application, which a reader may take as
// the application with its navigation or as the dashboard alone (clause hub.dashboard.navigation).
probe(
  ['hub.dashboard.navigation'],
  "the dashboard page shows the application's navigation",
  async (t) => {
    const w = await hubWorld(t);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
    await expectChart(view, w, 1, "the dashboard's chart is shown");
    const nav = view.thing('navigation');
    const listed = [];
    if ((await nav.count()) === 1)
      for (const name of [w.board.name, w.primary.name])
        if ((await view.thingIn(nav, 'navigationEntry', { name }).count()) === 1) listed.push(name);
    t.observe(
      listed.length === 2
        ? 'the application with its navigation, both dashboards listed'
        : (await nav.count()) === 0
          ? 'the dashboard alone, no navigation'
          : `a navigation listing ${listed.length} of the two dashboards`,
      listed.length === 2,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.application.page'],
  'the application page embeds the whole application: navigation between its dashboards',
  async (t) => {
    const w = await hubWorld(t);
    const view = await openHub(t, applicationPath(w.board.workspaceId, { jwt: w.viewer.token }));
    const nav = view.thing('navigation');
    await expectCount(nav, 1, 'the application page has its navigation');
    for (const name of [w.primary.name, w.board.name])
      await expectCount(
        view.thingIn(nav, 'navigationEntry', { name }),
        1,
        `the navigation lists ${name}`,
      );
    await view.thingIn(nav, 'navigationEntry', { name: w.board.name }).click();
    await expectChart(view, w, 1, 'navigating shows the chosen dashboard');
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.application.dashboard-id'],
  'the application page with dashboardId shows exactly that dashboard, without sidebar or tabs',
  async (t) => {
    const w = await hubWorld(t);
    const view = await openHub(
      t,
      applicationPath(w.board.workspaceId, {
        jwt: w.viewer.token,
        dashboardId: w.board.dashboardId,
      }),
    );
    await expectChart(view, w, 1, "that dashboard's chart is shown");
    await expectCount(view.thing('navigation'), 0, 'no sidebar');
    await expectCount(view.thing('tabs'), 0, 'no tabs');
    await expectCount(
      view.frame.getByText(w.primary.name, { exact: true }),
      0,
      'no other dashboard is named',
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.dashboard.jwt-required', 'hub.errors.invalid-token-text'],
  "without a jwt, or with one that is not a token of the service, the pages show 'Invalid or missing token.' and nothing of the dashboard",
  async (t) => {
    const w = await hubWorld(t);
    const [head = '', body = '', signature = ''] = w.viewer.token.split('.');
    const tampered = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const cases = [
      ['no jwt, dashboard page', dashboardPath(w.board.dashboardId, {})],
      ['no jwt, application page', applicationPath(w.board.workspaceId, {})],
      ['an empty jwt', dashboardPath(w.board.dashboardId, { jwt: '' })],
      ['a jwt that is no token', dashboardPath(w.board.dashboardId, { jwt: 'not-a-token' })],
      ['a jwt with a forged signature', dashboardPath(w.board.dashboardId, { jwt: tampered })],
    ] as const;
    await errorPages(t, cases, invalidToken, w.board.name);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

conformance(
  ['hub.errors.invalid-token-text'],
  "an expired jwt shows 'Invalid or missing token.', not the dashboard",
  async (t) => {
    const w = await hubWorld(t);
    const org = w.account.organizationId;
    await t.hooks.freeze(org);
    const token = await tokenOf(t, w, w.viewer.userId, '5m');
    const fresh = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: token }));
    await expectChart(fresh, w, 1, 'the token opens the page while valid');
    await fresh.close();
    await t.hooks.advance(org, 5 * 60 + 1);
    const view = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: token }));
    await expectCount(
      // The text at least once: a page may also repeat it (a title beside the body).
      view.frame.getByText(invalidToken, { exact: true }).first(),
      1,
      `the text '${invalidToken}'`,
    );
    await expectChart(view, w, 0, 'no chart of the dashboard');
  },
  { timeout: HUB_TIMEOUT, parts, needs: [...needs, 'clock'] },
);

conformance(
  ['hub.errors.not-found-text'],
  "an id the token cannot see shows 'Dashboard not found.': an unknown id (as the path's id or as dashboardId), and another account's dashboard",
  async (t) => {
    const w = await hubWorld(t);
    const other = await hubWorld(t);
    const unknown = t.faker.string.uuid();
    const cases = [
      ['an unknown dashboard id', dashboardPath(unknown, { jwt: w.viewer.token })],
      [
        "another account's dashboard",
        dashboardPath(other.board.dashboardId, { jwt: w.viewer.token }),
      ],
      ['an unknown application id', applicationPath(unknown, { jwt: w.viewer.token })],
      [
        "another account's application",
        applicationPath(other.board.workspaceId, { jwt: w.viewer.token }),
      ],
      [
        'a dashboardId of another application',
        applicationPath(w.board.workspaceId, {
          jwt: w.viewer.token,
          dashboardId: other.board.dashboardId,
        }),
      ],
      [
        'an unknown dashboardId',
        applicationPath(w.board.workspaceId, { jwt: w.viewer.token, dashboardId: unknown }),
      ],
    ] as const;
    await errorPages(t, cases, dashboardNotFound, other.board.name);
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

probe(
  ['hub.errors.status'],
  'the HTTP status of the two error pages',
  async (t) => {
    const w = await buildWorld(t);
    const v = await viewer(t, w, {});
    const notFound = await fetch(
      `${t.target.hubUrl}${dashboardPath(t.faker.string.uuid(), { jwt: v.token })}`,
    );
    const missing = await fetch(`${t.target.hubUrl}${dashboardPath(t.faker.string.uuid(), {})}`);
    t.observe(
      `not found: ${notFound.status}; invalid or missing token: ${missing.status}`,
      notFound.status === 404 && missing.status === 401,
    );
  },
  { timeout: HUB_TIMEOUT, parts, needs },
);

// §4.17's two hiding parameters: each hides one thing of the page, which is there without it.
for (const [clause, title, hidden, param, offered, gone] of [
  [
    'hub.query.hide-header',
    'hideHeader=true hides the header; without it the header is there',
    'header',
    'hideHeader',
    'the page has its header',
    'no header with hideHeader=true',
  ],
  [
    'hub.query.hide-download-button',
    'hideDownloadButton=true hides the download control; without it the control is there',
    'download',
    'hideDownloadButton',
    'the page offers the download',
    'no download with hideDownloadButton=true',
  ],
] as const)
  conformance(
    [clause],
    title,
    async (t) => {
      const w = await hubWorld(t);
      const shown = await openHub(t, dashboardPath(w.board.dashboardId, { jwt: w.viewer.token }));
      await expectCount(shown.thing(hidden), 1, offered);
      const without = await openHub(
        t,
        dashboardPath(w.board.dashboardId, { jwt: w.viewer.token, [param]: 'true' }),
      );
      await expectChart(without, w, 1, 'the dashboard is shown');
      await expectCount(without.thing(hidden), 0, gone);
    },
    { timeout: HUB_TIMEOUT, parts, needs },
  );
