import { expect } from 'vitest';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';
import { expectedStrings } from '../../fixtures/oracles/index.ts';
import { conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import {
  CONTENT,
  READ_BACK,
  createWorkspace,
  dashboardsOf,
  dashboardsWorld,
  entry,
  v1Post,
  type DashboardsWorld,
} from '../harness/given/dashboards.ts';
import { CLONE } from '../harness/paths.ts';

// §4.10's two defaults, read back through what any server offers: a clone sent without
// targetWorkspaceId lands in the source's workspace, whichever workspace of the organization
// that is (not the first, not the newest, not another one), and a clone sent without a name is
// stored under the original name followed by " (Copy)", not only answered so.
const parts = ['v1-dashboards'] as const;
const Cloned = CloneDashboardResponse.shape.data;

/** Three workspaces: the world's own (made first), a middle one and a newest one. */
async function threeWorkspaces(t: Parameters<typeof dashboardsWorld>[0], w: DashboardsWorld) {
  const middle = await createWorkspace(t, w);
  const newest = await createWorkspace(t, w);
  return [
    {
      what: 'the first workspace',
      workspaceId: w.board.workspaceId,
      dashboardId: w.board.dashboardId,
    },
    { what: 'a middle workspace', ...middle },
    { what: 'the newest workspace', ...newest },
  ];
}

conformance(
  ['dashboards.clone.target-workspace-default'],
  "a clone without a target workspace lands in its source's workspace, among three, wherever the source is",
  async (t) => {
    const w = await dashboardsWorld(t);
    const spaces = await threeWorkspaces(t, w);
    // The source in the first and in the middle workspace: a server that picks the first or the
    // newest workspace of the organization, or any fixed one, misses at least one of them.
    for (const source of spaces.slice(0, 2)) {
      const res = await v1Post(t, CLONE, w.creds().apiKey, {
        sourceDashboardId: source.dashboardId,
      });
      const { dashboardId } = expectSuccess(
        res,
        Cloned,
        `clone of the dashboard in ${source.what}`,
      );
      for (const space of spaces) {
        const ids = (await dashboardsOf(t, w, space.workspaceId)).map((d) => d.id);
        if (space.workspaceId === source.workspaceId)
          expect(ids, `a clone of the dashboard in ${source.what} is listed there`).toContain(
            dashboardId,
          );
        else
          expect(
            ids,
            `a clone of the dashboard in ${source.what} is not listed in ${space.what}`,
          ).not.toContain(dashboardId);
      }
    }
  },
  { needs: CONTENT, parts, relies: READ_BACK },
);

conformance(
  ['dashboards.clone.target-workspace-default'],
  "a clone without a target workspace names the source's workspace where the list shows one",
  async (t) => {
    if (t.profile.shapes.v1Dashboard?.workspaceId === undefined)
      return t.notRun("the profile's shapes.v1Dashboard names no workspace member");
    const w = await dashboardsWorld(t);
    const spaces = await threeWorkspaces(t, w);
    const source = spaces[1];
    if (source === undefined) throw new Error('three workspaces were made');
    const res = await v1Post(t, CLONE, w.creds().apiKey, { sourceDashboardId: source.dashboardId });
    const { dashboardId } = expectSuccess(res, Cloned, 'clone');
    const copy = entry(await dashboardsOf(t, w, source.workspaceId), dashboardId, 'the clone');
    expect(copy.workspaceId, "the clone's workspace").toBe(source.workspaceId);
  },
  { needs: CONTENT, parts, relies: [...READ_BACK, 'dashboards.v1-record.fields'] },
);

conformance(
  ['dashboards.clone.name-default-copy'],
  'a clone without a name is listed under the source name plus " (Copy)"',
  async (t) => {
    if (t.profile.shapes.v1Dashboard?.name === undefined)
      return t.notRun("the profile's shapes.v1Dashboard names no name member");
    const w = await dashboardsWorld(t);
    const res = await v1Post(t, CLONE, w.creds().apiKey, {
      sourceDashboardId: w.board.dashboardId,
    });
    const { dashboardId } = expectSuccess(res, Cloned, 'clone');
    const copy = entry(await dashboardsOf(t, w, w.board.workspaceId), dashboardId, 'the clone');
    expect(copy.name, 'the name the clone is stored under').toBe(
      `${w.board.name}${expectedStrings.cloneNameSuffix}`,
    );
  },
  { needs: CONTENT, parts, relies: [...READ_BACK, 'dashboards.v1-record.fields'] },
);
