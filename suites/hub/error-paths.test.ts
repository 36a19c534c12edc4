import { expect } from 'vitest';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { expectedStrings } from '../../fixtures/oracles/index.ts';
import { openHub } from '../harness/browser.ts';
import { conformance } from '../harness/conformance.ts';
import { TENANT_FIELDS, createWorkspace, tenantToken } from '../harness/given/dashboards.ts';
import {
  V2_KEY,
  dashboardsOf,
  finalize,
  projectUser,
  v2Post,
  writtenDashboard,
} from '../harness/given/v2.ts';
import {
  applicationPath,
  dashboardPath,
  dashboardShown,
  expectCount,
  hubWorld,
  needs,
  parts,
  tokenOf,
  type HubWorld,
  HUB_TIMEOUT,
  migratedBoard,
} from './kit.ts';
import { dashboardsPath } from '../harness/paths.ts';
import type { Conformance } from '../harness/conformance.ts';

// §4.17 (its two texts) and §5 rule 6 (pages take a project-user token only): every page ×
// every way its jwt is refused shows 'Invalid or missing token.' and nothing of the dashboard;
// every id in the viewer's own account the token may not see shows 'Dashboard not found.',
// not the token text. The pages: the dashboard page, the application page, and the
// application page with dashboardId. Each refused token is tried on ids a good token opens.
const { dashboardNotFound, invalidToken } = expectedStrings.hub;

/** The three pages of a dashboard (and its application), a jwt given or not. */
type Pages = (jwt: string | undefined) => readonly (readonly [string, string])[];

const pagesOf =
  (applicationId: string, dashboardId: string): Pages =>
  (jwt) => [
    ['the dashboard page', dashboardPath(dashboardId, { jwt })],
    ['the application page', applicationPath(applicationId, { jwt })],
    ['the application page with dashboardId', applicationPath(applicationId, { jwt, dashboardId })],
  ];

/** The page shows `text` (at least once: a title may repeat it), not `absent` and not `other`. */
async function expectPage(
  t: Conformance,
  what: string,
  path: string,
  text: string,
  other: string,
  absent: string,
): Promise<void> {
  const view = await openHub(t, path);
  await expectCount(view.frame.getByText(text, { exact: true }).first(), 1, `${what}: '${text}'`);
  await expectCount(view.frame.getByText(other, { exact: true }), 0, `${what}: not '${other}'`);
  await expectCount(
    view.frame.getByText(absent, { exact: true }),
    0,
    `${what}: nothing of the dashboard ('${absent}')`,
  );
  await view.close();
}

/** Each refused token on each page: the token text, not the not-found one. */
async function refusedEverywhere(
  t: Conformance,
  pages: Pages,
  tokens: readonly (readonly [string, string | undefined])[],
  board: string,
): Promise<void> {
  for (const [kind, jwt] of tokens)
    await Promise.all(
      pages(jwt).map(([page, path]) =>
        expectPage(t, `${kind}, ${page}`, path, invalidToken, dashboardNotFound, board),
      ),
    );
}

/**
 * The viewer's own token opens all three pages: the ids are good, only the token differs. The
 * application page without dashboardId opens on a dashboard of its own choosing (the primary
 * one here, without charts), so there the sign is that neither error text is shown.
 */
async function opensWith(t: Conformance, pages: Pages, jwt: string, w: HubWorld): Promise<void> {
  for (const [page, path] of pages(jwt)) {
    const view = await openHub(t, path);
    if (page === 'the application page') await view.frame.waitForLoadState('load');
    else await dashboardShown(view, w);
    for (const text of [invalidToken, dashboardNotFound])
      await expectCount(view.frame.getByText(text, { exact: true }), 0, `${page}: not '${text}'`);
    await view.close();
  }
}

conformance(
  ['hub.dashboard.jwt-required', 'hub.errors.invalid-token-text'],
  "every page, without a jwt or with one that is no token of the service, shows 'Invalid or missing token.', not 'Dashboard not found.'",
  async (t) => {
    const w = await hubWorld(t);
    const pages = pagesOf(w.board.workspaceId, w.board.dashboardId);
    await opensWith(t, pages, w.viewer.token, w);
    const [head = '', body = '', signature = ''] = w.viewer.token.split('.');
    const forged = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await refusedEverywhere(
      t,
      pages,
      [
        ['no jwt', undefined],
        ['an empty jwt', ''],
        ['a jwt that is no token', 'not-a-token'],
        ['a jwt with a forged signature', forged],
      ],
      w.board.name,
    );
  },
  { timeout: HUB_TIMEOUT * 2, parts, needs },
);

conformance(
  ['hub.errors.invalid-token-text'],
  "every page with an expired jwt shows 'Invalid or missing token.', not 'Dashboard not found.'",
  async (t) => {
    const w = await hubWorld(t);
    const org = w.account.organizationId;
    await t.hooks.freeze(org);
    const token = await tokenOf(t, w, w.viewer.userId, '5m');
    const pages = pagesOf(w.board.workspaceId, w.board.dashboardId);
    await opensWith(t, pages, token, w);
    await t.hooks.advance(org, 5 * 60 + 1);
    await refusedEverywhere(t, pages, [['an expired jwt', token]], w.board.name);
  },
  { timeout: HUB_TIMEOUT * 2, parts, needs: [...needs, 'clock'] },
);

const migrating: readonly HookName[] = [...needs, 'migration'];

/** The tenant's flags in the tests below: editing ones, which the pages must not honour. */
const TENANT_FLAGS = { addChart: true, removeChart: true, addDashboard: true, drillDown: true };

conformance(
  ['auth.hub.project-user-token-only', 'hub.errors.invalid-token-text'],
  "a tenant JWT shows 'Invalid or missing token.' on every page, before finalize and after it (v1 and v2 ids), though v2 calls take it then",
  async (t) => {
    const w = await hubWorld(t);
    const tenant = await tenantToken(t, w, TENANT_FLAGS);
    const v1Pages = pagesOf(w.board.workspaceId, w.board.dashboardId);
    await refusedEverywhere(t, v1Pages, [['a tenant JWT before finalize', tenant]], w.board.name);
    await finalize(t, w);
    const { applicationId, v2 } = await migratedBoard(t, w);
    const v2Pages = pagesOf(applicationId, v2.id);
    await opensWith(t, v2Pages, w.viewer.token, w);
    // §5 rule 6: the same JWT acts on v2 calls as the project user the tenant became; the
    // pages still take a project-user token only.
    const listed = await dashboardsOf(t, w, applicationId, { token: tenant });
    expect(listed.length, 'a v2 call takes the tenant JWT after finalize').toBeGreaterThan(0);
    await refusedEverywhere(t, v2Pages, [['a tenant JWT after finalize', tenant]], w.board.name);
    await refusedEverywhere(
      t,
      (jwt) => [['the dashboard page, v1 id', dashboardPath(w.board.dashboardId, { jwt })]],
      [['a tenant JWT after finalize', tenant]],
      w.board.name,
    );
  },
  {
    timeout: HUB_TIMEOUT * 3,
    parts: ['hub', 'tenant-flow', 'v2'],
    needs: migrating,
    relies: [...TENANT_FIELDS, ...V2_KEY],
  },
);

// The same without the v2 read-backs: after finalize the v1 dashboard id (§4.17: the pages take
// v1 ids too) opens for the viewer's project-user token and not for the tenant's JWT.
conformance(
  ['auth.hub.project-user-token-only', 'hub.errors.invalid-token-text'],
  "a tenant JWT from before finalize shows 'Invalid or missing token.' on the dashboard page by its v1 id after finalize, where the viewer's token opens it",
  async (t) => {
    const w = await hubWorld(t);
    const tenant = await tenantToken(t, w, TENANT_FLAGS);
    await finalize(t, w);
    const page: Pages = (jwt) => [
      ['the dashboard page, v1 id', dashboardPath(w.board.dashboardId, { jwt })],
    ];
    await opensWith(t, page, w.viewer.token, w);
    await refusedEverywhere(t, page, [['a tenant JWT after finalize', tenant]], w.board.name);
  },
  { timeout: HUB_TIMEOUT, parts: ['hub', 'tenant-flow'], needs: migrating, relies: TENANT_FIELDS },
);

conformance(
  ['hub.errors.not-found-text'],
  "ids the token may not see show 'Dashboard not found.', not the token text: another application's dashboard of the viewer's own account, and a good token of another account",
  async (t) => {
    const w = await hubWorld(t);
    const other = await hubWorld(t);
    const second = await createWorkspace(t, w, { dashboardName: 'Second application board' });
    const cases = [
      [
        "a dashboardId of another application of the viewer's account",
        applicationPath(second.workspaceId, {
          jwt: w.viewer.token,
          dashboardId: w.board.dashboardId,
        }),
      ],
      [
        "another account's viewer, the dashboard page",
        dashboardPath(w.board.dashboardId, { jwt: other.viewer.token }),
      ],
      [
        "another account's viewer, the application page",
        applicationPath(w.board.workspaceId, { jwt: other.viewer.token }),
      ],
      [
        "another account's viewer, the application page with dashboardId",
        applicationPath(w.board.workspaceId, {
          jwt: other.viewer.token,
          dashboardId: w.board.dashboardId,
        }),
      ],
    ] as const;
    await Promise.all(
      cases.map(([what, path]) =>
        expectPage(t, what, path, dashboardNotFound, invalidToken, w.board.name),
      ),
    );
  },
  { timeout: HUB_TIMEOUT * 2, parts, needs },
);

conformance(
  ['hub.errors.not-found-text', 'auth.v2.user-token-own-space'],
  "another project user's own dashboard, in the viewer's account, shows 'Dashboard not found.' on the dashboard page and as dashboardId, not the token text",
  async (t) => {
    const w = await hubWorld(t);
    await finalize(t, w);
    const { applicationId } = await migratedBoard(t, w);
    const owner = await projectUser(t, w);
    const as = { token: owner.token };
    const before = await dashboardsOf(t, w, applicationId, as);
    const name = `Private board ${t.faker.string.alphanumeric(6)}`;
    const own = await writtenDashboard(
      t,
      w,
      await v2Post(t, w, dashboardsPath(applicationId), as, { name }),
      { call: 'v2.create', applicationId, as, before },
      "a project user's own dashboard",
    );
    // The owner's own token opens it: the id is good, only the viewer differs.
    const mine = await openHub(t, dashboardPath(own.id, { jwt: owner.token }));
    await mine.frame.waitForLoadState('load');
    for (const text of [dashboardNotFound, invalidToken])
      await expectCount(mine.frame.getByText(text, { exact: true }), 0, `its owner: not '${text}'`);
    await mine.close();
    const cases = [
      ['the dashboard page', dashboardPath(own.id, { jwt: w.viewer.token })],
      [
        'the application page with dashboardId',
        applicationPath(applicationId, { jwt: w.viewer.token, dashboardId: own.id }),
      ],
    ] as const;
    await Promise.all(
      cases.map(([what, path]) =>
        expectPage(
          t,
          `another user's own dashboard, ${what}`,
          path,
          dashboardNotFound,
          invalidToken,
          name,
        ),
      ),
    );
  },
  {
    timeout: HUB_TIMEOUT * 2,
    parts: ['hub', 'v2'],
    needs: [...migrating, 'roles'],
    relies: V2_KEY,
  },
);
