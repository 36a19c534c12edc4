import { expect } from 'vitest';
import type { World } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import {
  chartsOf,
  createWorkspace,
  dashboardsWorld,
  hookLayout,
  v1Post,
  layoutRead,
  type Shared,
} from '../harness/given/dashboards.ts';
import {
  API_KEY,
  EDITOR,
  finalize,
  legacyLanding,
  needs,
  objectWith,
  objectsIn,
  projectUser,
  success,
  v2Get,
  v2Post,
  type PortableObject,
} from '../harness/given/v2.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  userToken,
} from '../harness/given/accounts.ts';
import {
  APPLICATIONS,
  dashboardsPath,
  appendChartsPath,
  chartPath,
  clonePath,
  CLONE,
  rolePath,
  userPath,
} from '../harness/paths.ts';
import {
  expectClientError,
  expectError,
  expectOpenSuccess,
  expectSuccess,
  successStatus,
} from '../harness/expect.ts';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';

const Cloned = CloneDashboardResponse.shape.data;

// §4.16 rows, §2.8 fields and §9, checked only as far as the document goes: every call carries
// the project-user token in `Authorization: Bearer` (§5 table, v2 calls), every list is read
// for the success envelope of the preamble and, wherever it sits in `data`, an object with the
// §2.8 field names; a write, whose answer §4.16 does not show, for any 2xx with no body or the
// envelope. Nothing here leans on a decided envelope member, path or API-key carrier, so these
// verdicts hold on any server.

type Json = PortableObject;

interface Setting {
  readonly w: World;
  readonly board: Shared;
  /** The project user with the editing flags, and its role. */
  readonly user: { readonly userId: string; readonly roleId?: string };
  readonly bearer: { headers: Record<string, string> };
  readonly applicationId: string;
  readonly templateId: string;
}

/** A finalized account, a project user with editing flags (§2.2) and a space (§7 403). */
async function setting(t: Conformance): Promise<Setting> {
  const w = await dashboardsWorld(t, 2);
  await finalize(t, w);
  const user = await projectUser(t, w, EDITOR);
  const bearer = { headers: { authorization: `Bearer ${user.token}` } };
  const apps = success(await t.http.get(APPLICATIONS, bearer), 'listing applications');
  const app = objectWith(apps, 'legacyWorkspaceId', w.board.workspaceId, 'the applications');
  const applicationId = String(app['applicationId']);
  const listed = success(
    await t.http.get(dashboardsPath(applicationId), bearer),
    'listing the dashboards',
  );
  const template = objectWith(listed, 'legacyDashboardId', w.board.dashboardId, 'the dashboards');
  return { w, board: w.board, user, bearer, applicationId, templateId: String(template['id']) };
}

const bearerOf = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The user's own dashboards ('dashboard' kind, §2.8) as the user's list shows them. */
async function ownOf(t: Conformance, s: Setting): Promise<Json[]> {
  const data = success(await t.http.get(dashboardsPath(s.applicationId), s.bearer), 'the list');
  return objectsIn(data).filter((o) => o['kind'] === 'dashboard' && typeof o['id'] === 'string');
}

conformance(
  [
    'v2.applications.list.path',
    'v2.application.fields',
    'migration.workspace-to-application',
    'migration.legacy-ids-kept',
  ],
  'GET /v2/api/applications with a project-user token lists the application the v1 workspace became, with the four §2.8 fields',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    await finalize(t, w);
    const user = await projectUser(t, w, EDITOR);
    const res = await t.http.get(APPLICATIONS, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const app = objectWith(
      success(res, 'GET /v2/api/applications'),
      'legacyWorkspaceId',
      w.board.workspaceId,
      'the applications',
    );
    for (const field of ['applicationId', 'name', 'defaultDashboardId', 'legacyWorkspaceId'])
      expect(Object.keys(app), `the application carries ${field}`).toContain(field);
    expect(app['applicationId'], 'an application id of its own').not.toBe(w.board.workspaceId);
  },
  { needs, parts: ['v2', 'identity'] },
);

conformance(
  [
    'v2.dashboards.list.path',
    'v2.dashboard.fields',
    'v2.dashboard.kind-template',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
  ],
  "GET .../dashboards with a project-user token lists the shared v1 dashboard as a 'template' keeping its v1 id",
  async (t) => {
    const s = await setting(t);
    const listed = success(
      await t.http.get(dashboardsPath(s.applicationId), s.bearer),
      'GET .../dashboards',
    );
    const template = objectWith(listed, 'legacyDashboardId', s.board.dashboardId, 'the list');
    for (const field of ['id', 'legacyDashboardId', 'kind', 'ownerProjectUserId'])
      expect(Object.keys(template), `the dashboard carries ${field}`).toContain(field);
    expect(template['kind'], 'a shared dashboard').toBe('template');
  },
  { needs, parts: ['v2', 'identity'] },
);

conformance(
  ['v2.dashboards.clone.path', 'v2.dashboard.kind-dashboard', 'auth.v2.user-token-own-space'],
  "POST .../clone {name} with a project-user token puts a 'dashboard' in that user's space",
  async (t) => {
    const s = await setting(t);
    const before = (await ownOf(t, s)).map((o) => o['id']);
    const res = await t.http.post(
      clonePath(s.applicationId, s.templateId),
      { name: 'My copy' },
      s.bearer,
    );
    expectOpenSuccess(res, 'v2.clone', 'POST .../clone');
    const made = (await ownOf(t, s)).filter((o) => !before.includes(o['id']));
    expect(made, "one new 'dashboard' in the user's list").toHaveLength(1);
    expect(typeof made[0]?.['ownerProjectUserId'], "it is in the user's space").toBe('string');
  },
  { needs, parts: ['v2', 'identity'] },
);

conformance(
  ['v2.dashboards.create.path', 'v2.dashboard.kind-dashboard', 'auth.v2.user-token-own-space'],
  "POST .../dashboards {name} with a project-user token creates a 'dashboard' in that user's space",
  async (t) => {
    const s = await setting(t);
    const before = (await ownOf(t, s)).map((o) => o['id']);
    const res = await t.http.post(dashboardsPath(s.applicationId), { name: 'Mine' }, s.bearer);
    expectOpenSuccess(res, 'v2.create', 'POST .../dashboards');
    const made = (await ownOf(t, s)).filter((o) => !before.includes(o['id']));
    expect(made, "one new 'dashboard' in the user's list").toHaveLength(1);
    expect(typeof made[0]?.['ownerProjectUserId'], "it is in the user's space").toBe('string');
  },
  { needs, parts: ['v2', 'identity'] },
);

/** Setting up: the user clones the template; the id of the clone, as the user's list names it. */
async function userClone(t: Conformance, s: Setting): Promise<string> {
  expectOpenSuccess(
    await t.http.post(clonePath(s.applicationId, s.templateId), { name: 'Work board' }, s.bearer),
    'v2.clone',
    'setting up: the user clones the template',
  );
  const [mine] = await ownOf(t, s);
  if (mine === undefined) expect.fail("the clone is not in the user's list");
  return String(mine['id']);
}

conformance(
  ['v2.dashboards.append-charts.path'],
  "POST .../append-charts {sourceDashboardId} with a project-user token adds the source's charts after the user's own",
  async (t) => {
    const s = await setting(t);
    const mineId = await userClone(t, s);
    // The user's dashboard first loses a chart, so that it no longer matches the source.
    const [dropped] = await layoutRead(t, s.w, mineId);
    if (dropped === undefined) expect.fail("the user's clone holds no chart");
    expectOpenSuccess(
      await t.http.delete(chartPath(s.applicationId, mineId, dropped), s.bearer),
      'v2.remove-chart',
      'setting up: the user removes a chart from the clone',
    );
    const before = await layoutRead(t, s.w, mineId);
    const source = await layoutRead(t, s.w, s.templateId);
    expect(before, 'the removal took the chart off').not.toContain(dropped);
    const res = await t.http.post(
      appendChartsPath(s.applicationId, mineId),
      { sourceDashboardId: s.templateId },
      s.bearer,
    );
    expectOpenSuccess(res, 'v2.append-charts', 'POST .../append-charts');
    const after = await layoutRead(t, s.w, mineId);
    expect(after.slice(0, before.length), "the user's dashboard keeps its charts first").toEqual(
      before,
    );
    expect(after.slice(before.length), 'then one chart per chart of the source').toHaveLength(
      source.length,
    );
    // Copies or the source's own charts is open (v2 follows §4.11 there); the names tell.
    const charts = await chartsOf(t, s.w, mineId);
    const sourceCharts = await chartsOf(t, s.w, s.templateId);
    if (charts !== undefined && sourceCharts !== undefined) {
      expect(
        charts.slice(before.length).map((c) => c.name),
        "the appended charts are the source's, in its order",
      ).toEqual(sourceCharts.map((c) => c.name));
    }
  },
  { needs, parts: ['v2', 'identity'] },
);

/** Tests that read a layout through the read-only dashboard-charts hook. */
const needsLayout = [...needs, 'dashboard-charts'] as const;

conformance(
  ['v2.dashboards.remove-chart.path'],
  "DELETE .../charts/{chartId} with a project-user token takes that one chart off the user's dashboard",
  async (t) => {
    const s = await setting(t);
    const mineId = await userClone(t, s);
    const before = await hookLayout(t, s.w, mineId);
    const [gone] = before;
    if (gone === undefined || before.length < 2)
      expect.fail(`the user's clone should hold the template's two charts: ${before.join()}`);
    expectOpenSuccess(
      await t.http.delete(chartPath(s.applicationId, mineId, gone), s.bearer),
      'v2.remove-chart',
      'DELETE .../charts/{chartId}',
    );
    expect(
      await hookLayout(t, s.w, mineId),
      'only the chart named went, the rest kept in order',
    ).toEqual(before.slice(1));
  },
  { needs: needsLayout, parts: ['v2', 'identity'] },
);

conformance(
  ['errors.shared-dashboard-read-only'],
  "a project user removing a chart of the shared 'template' gets 409 SHARED_DASHBOARD_READ_ONLY, and the template keeps it",
  async (t) => {
    const s = await setting(t);
    const before = await hookLayout(t, s.w, s.templateId);
    const [first] = before;
    if (first === undefined) expect.fail('the template holds no chart');
    expectError(
      await t.http.delete(chartPath(s.applicationId, s.templateId, first), s.bearer),
      409,
      "removing a chart of the template with the user's token",
      'SHARED_DASHBOARD_READ_ONLY',
    );
    expect(await hookLayout(t, s.w, s.templateId), 'the template keeps its charts').toEqual(before);
  },
  { needs: needsLayout, parts: ['v2', 'identity'] },
);

conformance(
  ['permissions.read-only.refuses-dashboard-writes', 'states.role.update-immediate-api-checks'],
  "a role update to readOnly refuses the user's v2 writes at once, with the token issued before it",
  async (t) => {
    const s = await setting(t);
    expectOpenSuccess(
      await t.http.post(dashboardsPath(s.applicationId), { name: 'Before' }, s.bearer),
      'v2.create',
      'a create before the role update',
    );
    const made = (await ownOf(t, s)).map((o) => o['id']);
    expect(made, "the create put one dashboard in the user's space").toHaveLength(1);
    const res = await t.http.put(rolePath(s.w, s.user.roleId ?? ''), {
      ...s.w.creds(),
      permissions: { ...EDITOR, readOnly: true },
    });
    expect(
      successStatus(res.status),
      `the role update: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBe(true);
    // §2.2 readOnly: the API refuses the user's dashboard writes; §3: at once, whatever the
    // token issued before the update carries.
    expectClientError(
      await t.http.post(dashboardsPath(s.applicationId), { name: 'After' }, s.bearer),
      'a create by a readOnly user',
    );
    expectClientError(
      await t.http.post(clonePath(s.applicationId, s.templateId), { name: 'After' }, s.bearer),
      'a clone by a readOnly user',
    );
    expect(
      (await ownOf(t, s)).map((o) => o['id']),
      "the refused writes put nothing in the user's space",
    ).toEqual(made);
  },
  { needs, parts: ['v2', 'identity'] },
);

conformance(
  [
    'errors.user-without-organization',
    'resources.user.no-organization-no-v2-dashboards',
    'users.update.organization-nullable',
    'resources.user.organization-nullable',
  ],
  'a user whose projectOrganizationId an update set to null gets 403 PROJECT_USER_WITHOUT_ORGANIZATION creating a v2 dashboard',
  async (t) => {
    const s = await setting(t);
    const role = await createRole(t, s.w, EDITOR);
    const org = await registerOrganization(t, s.w);
    const { userId, body } = await registerUser(t, s.w, {
      userRoleId: role.id,
      projectOrganizationId: org.projectOrganizationId,
    });
    const tokenNow = async () => {
      const res = await userToken(t, s.w, userId);
      const token = (res.body as { data?: { token?: unknown } }).data?.token;
      if (res.status !== 200 || typeof token !== 'string')
        expect.fail(`user-token: ${res.status} ${res.text.slice(0, 200)}`);
      return bearerOf(token);
    };
    expectOpenSuccess(
      await t.http.post(dashboardsPath(s.applicationId), { name: 'Mine' }, await tokenNow()),
      'v2.create',
      'a create by the user while it has a project organization',
    );
    // Every field of the user is sent again, so that no reading of an absent field is leaned on.
    const res = await t.http.put(userPath(s.w, userId), {
      ...s.w.creds(),
      name: body.name,
      properties: body.properties,
      userRoleId: role.id,
      projectOrganizationId: null,
    });
    expect(
      successStatus(res.status),
      `the user update: ${res.status} ${res.text.slice(0, 200)}`,
    ).toBe(true);
    expectError(
      await t.http.post(dashboardsPath(s.applicationId), { name: 'Nowhere' }, await tokenNow()),
      403,
      'a create by the user with no project organization',
      'PROJECT_USER_WITHOUT_ORGANIZATION',
    );
  },
  { needs, parts: ['v2', 'identity'] },
);

conformance(
  ['dashboards.clone.body-fields', 'dashboards.clone.target-workspace-default'],
  "clones made before finalize show after it in the application of the workspace they landed in: the target workspace given, else the source's",
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const other = await createWorkspace(t, w);
    const key = w.creds().apiKey;
    const name = `${t.faker.company.buzzNoun()} board`;
    const given = expectSuccess(
      await v1Post(t, CLONE, key, {
        sourceDashboardId: w.board.dashboardId,
        targetWorkspaceId: other.workspaceId,
        name,
      }),
      Cloned,
      'a clone given a name and a target workspace',
    );
    expect(given.name, 'the name sent').toBe(name);
    const plain = expectSuccess(
      await v1Post(t, CLONE, key, { sourceDashboardId: w.board.dashboardId }),
      Cloned,
      'a clone given no target workspace',
    );
    // §9: each workspace becomes an application and each dashboard one of its dashboards,
    // keeping its v1 id as legacyDashboardId; the lists are read through a project user's token.
    await finalize(t, w);
    const user = await projectUser(t, w, EDITOR);
    const bearer = bearerOf(user.token);
    const apps = success(await t.http.get(APPLICATIONS, bearer), 'listing applications');
    const legacyIn = async (workspaceId: string) => {
      const app = objectWith(apps, 'legacyWorkspaceId', workspaceId, 'the applications');
      const listed = success(
        await t.http.get(dashboardsPath(String(app['applicationId'])), bearer),
        'listing the dashboards of an application',
      );
      return objectsIn(listed).map((o) => o['legacyDashboardId']);
    };
    const there = await legacyIn(other.workspaceId);
    const home = await legacyIn(w.board.workspaceId);
    expect(there, 'the clone sent to the other workspace is there').toContain(given.dashboardId);
    expect(home, "and not in the source's").not.toContain(given.dashboardId);
    expect(home, "the clone given no target is in the source's workspace").toContain(
      plain.dashboardId,
    );
    expect(there, 'and not in the other').not.toContain(plain.dashboardId);
  },
  { needs, parts: ['v2', 'identity', 'v1-dashboards'] },
);

conformance(
  ['auth.v2.api-key-shared', 'auth.v2.organization-id-placement'],
  "an API key, org-bound or user-scoped (organizationId in the query of a GET, in the body of a POST), lists the application's dashboards and creates a 'template' there",
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    await finalize(t, w);
    const { applicationId } = await legacyLanding(t, w, w.board);
    for (const [as, what] of [
      [API_KEY, 'with the org-bound key'],
      [{ key: 'user-scoped' }, 'with the user-scoped key'],
    ] as const) {
      const listed = async (when: string): Promise<Json[]> =>
        objectsIn(
          success(
            await v2Get(t, w, dashboardsPath(applicationId), as),
            `GET .../dashboards ${what}, ${when}`,
          ),
        ).filter((o) => typeof o['id'] === 'string' && typeof o['kind'] === 'string');
      const before = await listed('before');
      expect(
        before.filter((o) => o['legacyDashboardId'] === w.board.dashboardId),
        `${what}: the shared dashboard is listed`,
      ).toHaveLength(1);
      const res = await v2Post(t, w, dashboardsPath(applicationId), as, {
        name: `${t.faker.commerce.department()} board`,
      });
      expectOpenSuccess(res, 'v2.create', `POST .../dashboards ${what}`);
      const ids = before.map((o) => o['id']);
      const made = (await listed('after the create')).filter((o) => !ids.includes(o['id']));
      expect(made, `${what}: one new dashboard in the list`).toHaveLength(1);
      expect(made[0]?.['kind'], `${what}: an API key acts on shared dashboards`).toBe('template');
    }
  },
  // Where a key travels on v2 is the profile's (shapes.v2ApiKey, or the decided apiKey member).
  { needs, parts: ['v2', 'identity'], relies: ['v2.credentials.api-key-carrier'] },
);
