import { expect } from 'vitest';
import { z } from 'zod';
import { buildWorld, registerUser, userToken, type World } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, expectClientError, refusedAs } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { finalize } from '../harness/given/v2.ts';
import {
  CONTENT,
  TENANT_FIELDS,
  createWorkspace,
  openEndpoint,
  tenantToken,
} from '../harness/given/dashboards.ts';
import { LIST_WORKSPACES } from '../harness/paths.ts';
import { mentionsId } from '../harness/ids.ts';

// §4.13, §2.8: list-workspaces lists every workspace of the organization with its primary
// dashboard, takes an API key only (§5 rule 4), and two optional filters whose names the
// document leaves open (the profile's listWorkspacesFilters).
const parts = ['v1-dashboards'] as const;
const Workspaces = z.object({ workspaces: z.array(z.record(z.string(), z.unknown())) });

function listWorkspaces(t: Conformance, query: Record<string, string>): Promise<Reply> {
  return t.http.get(LIST_WORKSPACES, { query });
}

/** §4.13: `{status, data: {workspaces: [item]}}`; the items as they came. */
function workspacesOf(res: Reply, what: string): Record<string, unknown>[] {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(200);
  const data = Workspaces.safeParse((res.body as { data?: unknown }).data);
  if (!data.success) expect.fail(`${what}: data should be {workspaces: [...]}, got ${res.text}`);
  return data.data.workspaces;
}

/**
 * The members of a list-workspaces item under the names the profile states
 * (shapes.workspaceItem); not-run where it names none of the three.
 */
function itemNames(t: Conformance) {
  const n = t.profile.shapes.workspaceItem ?? {};
  if (n.workspaceId === undefined || n.dashboardId === undefined || n.dashboardName === undefined)
    return t.notRun(
      'the profile does not name the workspace, dashboard and dashboard name members of a list-workspaces item (shapes.workspaceItem)',
    );
  return { workspaceId: n.workspaceId, dashboardId: n.dashboardId, dashboardName: n.dashboardName };
}

/** Whether any member of an item holds the value (item fields are open, §2.8). */
const mentions = (item: Record<string, unknown>, value: string) =>
  Object.values(item).includes(value);

conformance(
  [
    'workspaces.list.path',
    'workspaces.list.response-shape',
    'workspaces.list.all-workspaces',
    'migration.list-workspaces.before',
  ],
  "the list holds every workspace of the organization and no other account's",
  async (t) => {
    const w = await buildWorld(t);
    const mine = [await createWorkspace(t, w), await createWorkspace(t, w)];
    const stranger = await buildWorld(t);
    const theirs = await createWorkspace(t, stranger);
    const items = workspacesOf(
      await listWorkspaces(t, { apiKey: w.creds().apiKey }),
      'list-workspaces',
    );
    expect(items, 'one item per workspace').toHaveLength(mine.length);
    for (const ws of mine) {
      expect(
        items.some((i) => mentions(i, ws.workspaceId)),
        `workspace ${ws.workspaceId} is listed`,
      ).toBe(true);
    }
    expect(
      items.some((i) => mentions(i, theirs.workspaceId)),
      "another account's workspace is not listed",
    ).toBe(false);
  },
  { needs: CONTENT, parts },
);

conformance(
  ['workspaces.list-item.primary-dashboard'],
  'each workspace is listed with its primary dashboard',
  async (t) => {
    const w = await buildWorld(t);
    const dashboardName = `${t.faker.commerce.department()} overview`;
    const ws = await createWorkspace(t, w, { dashboardName });
    const items = workspacesOf(
      await listWorkspaces(t, { apiKey: w.creds().apiKey }),
      'list-workspaces',
    );
    const n = itemNames(t);
    const item = items[0] ?? {};
    expect(item[n.workspaceId], `the workspace (${n.workspaceId})`).toBe(ws.workspaceId);
    expect(item[n.dashboardId], `the primary dashboard (${n.dashboardId})`).toBe(ws.dashboardId);
    expect(item[n.dashboardName], `its name (${n.dashboardName})`).toBe(dashboardName);
  },
  { needs: CONTENT, parts, relies: ['workspaces.list-item.fields'] },
);

// §2.8 gives the v1 item names only as seen in the migration mapping, and §4.13 says that
// after finalize the list answers that mapping: applications in the v1 shape, keyed by the v1
// workspace. Which item members carry the ids is the decision workspaces.list-item.fields.
conformance(
  ['workspaces.list-item.names-seen', 'workspaces.list.after-finalize-applications'],
  'after finalize, each item names its v1 workspace, primary dashboard and dashboard name as workspace_id, dashboard_id and dashboard_name',
  async (t) => {
    const w = await buildWorld(t);
    const made: { workspace_id: string; dashboard_id: string; dashboard_name: string }[] = [];
    for (const kind of ['overview', 'report']) {
      const dashboardName = `${t.faker.commerce.department()} ${kind}`;
      const ws = await createWorkspace(t, w, { dashboardName });
      made.push({
        workspace_id: ws.workspaceId,
        dashboard_id: ws.dashboardId,
        dashboard_name: dashboardName,
      });
    }
    await finalize(t, w);
    const items = workspacesOf(
      await listWorkspaces(t, { apiKey: w.creds().apiKey }),
      'list-workspaces after finalize',
    );
    const n = itemNames(t);
    const named = items.map((i) => ({
      workspace_id: i[n.workspaceId],
      dashboard_id: i[n.dashboardId],
      dashboard_name: i[n.dashboardName],
    }));
    expect(
      named.sort((a, b) => String(a.workspace_id).localeCompare(String(b.workspace_id))),
      'one item per v1 workspace with the names of the mapping',
    ).toEqual(made.sort((a, b) => a.workspace_id.localeCompare(b.workspace_id)));
  },
  { needs: [...CONTENT, 'migration'], parts, relies: ['workspaces.list-item.fields'] },
);

conformance(
  ['workspaces.list.filters'],
  'the team and project filters each narrow the list to matching workspaces',
  async (t) => {
    const { team: teamName, project: projectName } = t.profile.shapes.listWorkspacesFilters ?? {};
    if (teamName === undefined || projectName === undefined)
      return t.notRun(
        'the profile does not name the list-workspaces filters (listWorkspacesFilters)',
      );
    const w = await buildWorld(t);
    // §4.13 may be read as typing both filters uuid: a team id that is one suits every reading.
    const team = t.faker.string.uuid();
    const inTeam = await createWorkspace(t, w, { teamId: team });
    const inProject = await createWorkspace(t, w, { projectId: w.projectId });
    const neither = await createWorkspace(t, w);
    const key = w.creds().apiKey;
    const ids = (items: Record<string, unknown>[]) =>
      [inTeam, inProject, neither]
        .filter((ws) => items.some((i) => mentions(i, ws.workspaceId)))
        .map((ws) => ws.workspaceId);
    const byTeam = workspacesOf(
      await listWorkspaces(t, { apiKey: key, [teamName]: team }),
      'filtered by team',
    );
    expect(ids(byTeam), 'only the team’s workspace').toEqual([inTeam.workspaceId]);
    const byProject = workspacesOf(
      await listWorkspaces(t, { apiKey: key, [projectName]: w.projectId }),
      'filtered by project',
    );
    expect(ids(byProject), 'only the project’s workspace').toEqual([inProject.workspaceId]);
    const unfiltered = workspacesOf(await listWorkspaces(t, { apiKey: key }), 'unfiltered');
    expect(ids(unfiltered), 'without filters, all three').toHaveLength(3);
  },
  { needs: CONTENT, parts, relies: ['workspaces.list.filter-names'] },
);

conformance(
  ['workspaces.list.query-credentials'],
  'a user-scoped key with organizationId in the query lists the workspaces',
  async (t) => {
    const w = await buildWorld(t);
    const ws = await createWorkspace(t, w);
    const { apiKey, organizationId } = w.creds('user-scoped');
    const items = workspacesOf(
      await listWorkspaces(t, { apiKey, organizationId: organizationId ?? '' }),
      'list-workspaces with a user-scoped key',
    );
    expect(items.some((i) => mentions(i, ws.workspaceId))).toBe(true);
  },
  { needs: CONTENT, parts },
);

conformance(
  ['auth.list-workspaces.api-key-only'],
  'list-workspaces refuses a tenant JWT',
  async (t) => {
    const w: World = await buildWorld(t);
    const ws = await createWorkspace(t, w);
    const token = await tenantToken(t, w, { addChart: true });
    const res = await t.http.get(LIST_WORKSPACES, {
      headers: { authorization: `Bearer ${token}` },
    });
    expectClientError(res, 'list-workspaces with a tenant JWT');
    expect(mentionsId(res.text, ws.workspaceId), 'the refusal shows no workspace').toBe(false);
  },
  { needs: CONTENT, parts: [...parts, 'tenant-flow'], relies: TENANT_FIELDS },
);

conformance(
  ['auth.list-workspaces.api-key-only'],
  'list-workspaces refuses a project-user token, and answers the same call made with the API key',
  async (t) => {
    const w: World = await buildWorld(t);
    const ws = await createWorkspace(t, w);
    const { userId } = await registerUser(t, w);
    const issued = await userToken(t, w, userId);
    const token = (issued.body as { data?: { token?: unknown } }).data?.token;
    if (issued.status !== 200 || typeof token !== 'string')
      expect.fail(`user-token: ${issued.status} ${issued.text.slice(0, 200)}`);
    const res = await t.http.get(LIST_WORKSPACES, {
      headers: { authorization: `Bearer ${token}` },
    });
    expectClientError(res, 'list-workspaces with a project-user token');
    expect(res.text, 'the refusal shows no workspace').not.toContain(ws.workspaceId);
    const items = workspacesOf(
      await listWorkspaces(t, { apiKey: w.creds().apiKey }),
      'list-workspaces with the API key',
    );
    expect(
      items.some((i) => mentions(i, ws.workspaceId)),
      'the API key lists the workspace',
    ).toBe(true);
  },
  { needs: CONTENT, parts: [...parts, 'identity'] },
);

probe(
  ['workspaces.list.filter-names'],
  'a team filter no workspace matches',
  async (t) => {
    const teamName = t.profile.shapes.listWorkspacesFilters?.team;
    if (teamName === undefined)
      return t.notRun(
        'the profile does not name the list-workspaces team filter (listWorkspacesFilters)',
      );
    const w = await buildWorld(t);
    await createWorkspace(t, w);
    const res = await listWorkspaces(t, {
      apiKey: w.creds().apiKey,
      [teamName]: `team-${t.faker.string.alphanumeric(8)}`,
    });
    const count = (res.body as { data?: { workspaces?: unknown[] } }).data?.workspaces?.length;
    t.observe(
      `${describeAnswer(res)}; ${String(count)} workspace(s)`,
      res.status === 200 && count === 0,
    );
  },
  { needs: CONTENT, parts },
);

// Decision errors.not-found.status: an unknown id is 404 NOT_FOUND naming the resource; the v1
// list of a workspace's dashboards (path decided, dashboards.v1-shapes.not-shown) names a workspace.
probe(
  ['errors.not-found.status', 'dashboards.v1-shapes.not-shown'],
  'list-workspace-dashboards of a workspace the account does not have is 404 naming a workspace',
  async (t) => {
    const w = await buildWorld(t);
    const workspaceId = t.faker.string.uuid();
    const { path } = openEndpoint(t, 'v1ListWorkspaceDashboards', { workspaceId });
    const res = await t.http.get(path, { query: { apiKey: w.creds().apiKey, workspaceId } });
    t.observe(describeAnswer(res), refusedAs(res, 404, 'NOT_FOUND', { resource: 'workspace' }));
  },
  { needs: ['accounts'], parts },
);
