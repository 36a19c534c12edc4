import { describe, expect, it } from 'vitest';
import { parseVary } from '../../latitude/choice.ts';
import type { Given } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { resolveTarget } from '../target.ts';
import { discover, discoverSpec } from './index.ts';
import { pagingOf } from './v1-paging.ts';
import { Watch } from './watch.ts';

// The v1 part of discover, checked against targets whose choices are known: the reference as it
// is, and behind the latitude proxy with the entries that move what the v1 part reads. The
// expected values are written from those entries' descriptions (spec/latitude.ts), never read
// from a printed profile.

/** A list of `items` answered `size` at a time, the next page named as `form` says. */
function pagedList(
  items: readonly string[],
  size: number,
  form: { member?: string; parameter: string; link?: boolean },
) {
  return (extra: Readonly<Record<string, string>>): Promise<Reply> => {
    const from = Number(extra[form.parameter] ?? '0');
    const to = from + size;
    const more = to < items.length ? String(to) : null;
    const data: Record<string, unknown> = { roles: items.slice(from, to).map((id) => ({ id })) };
    if (form.member !== undefined) data[form.member] = more;
    const body = { status: 'success', data };
    const headers: Record<string, string> =
      form.link === true && more !== null
        ? { link: `</x?${form.parameter}=${more}>; rel="next"` }
        : {};
    return Promise.resolve({ status: 200, headers, body, text: JSON.stringify(body) });
  };
}

describe('finding how a list pages', () => {
  const made = ['r1', 'r2', 'r3', 'r4', 'r5'];
  const watch = () => new Watch({} as Given);

  it('says nothing of a list answered whole', async () => {
    const w = watch();
    expect(await pagingOf(w, 'roles', new Set(made), pagedList(made, 10, { parameter: 'x' }))).toBe(
      undefined,
    );
  });

  it('finds the cursor member and the parameter that gets the rest', async () => {
    const w = watch();
    const ask = pagedList(made, 2, { member: 'nextPageToken', parameter: 'pageToken' });
    expect(await pagingOf(w, 'roles', new Set(made), ask)).toEqual({
      cursor: { pointer: '/data/nextPageToken', parameter: 'pageToken' },
    });
  });

  it('states a paged list without a cursor, and says so, when no member gets the rest', async () => {
    const w = watch();
    // The next page is named only in a Link header, which shapes.paging cannot state; the
    // parameter is one no member suggests and the common names do not hold.
    const ask = pagedList(made, 2, { parameter: 'skip', link: true });
    expect(await pagingOf(w, 'roles', new Set(made), ask)).toEqual({});
    expect(w.undecided.join('\n')).toMatch(/shapes\.paging\.cursor.*2 of the 5.*Link header/);
  });

  it('does not take a member that answers the first page again as a cursor', async () => {
    const w = watch();
    // The list reads only `skip`: asked with any other parameter it answers the first page again.
    const ask = pagedList(made, 2, { member: 'total', parameter: 'skip' });
    expect(await pagingOf(w, 'roles', new Set(made), ask)).toEqual({});
  });

  it('does not take a cursor whose pages end before every item made was seen', async () => {
    const w = watch();
    // Any further page is empty and the last: following it ends with three items unseen.
    const ask = (extra: Readonly<Record<string, string>>): Promise<Reply> => {
      const first = Object.keys(extra).length === 0;
      const body = {
        status: 'success',
        data: {
          roles: first ? made.slice(0, 2).map((id) => ({ id })) : [],
          ...(first ? { nextCursor: 'abc' } : {}),
        },
      };
      return Promise.resolve({ status: 200, headers: {}, body, text: JSON.stringify(body) });
    };
    expect(await pagingOf(w, 'roles', new Set(made), ask)).toEqual({});
  });
});

describe('eac profile discover, the v1 part', () => {
  it('reads the reference: its paths, its list items, its filters, no paging', async () => {
    const found = await discoverSpec({ checkDecisions: false }, 5);
    const shapes = found.profile.shapes;
    expect(shapes.endpoints).toMatchObject({
      v1CreateDashboard: 'POST /v1/api/dashboard/create',
      v1AddCharts: 'POST /v1/api/dashboard/add-charts',
      v1ListWorkspaceDashboards: 'GET /v1/api/dashboard/list-workspace-dashboards',
    });
    expect(shapes.v1Dashboard).toEqual({
      name: 'name',
      workspaceId: 'workspaceId',
      chartIds: 'chartIds',
    });
    expect(shapes.workspaceItem).toMatchObject({
      workspaceId: 'workspace_id',
      dashboardId: 'dashboard_id',
      dashboardName: 'dashboard_name',
    });
    expect(shapes.listWorkspacesFilters).toEqual({ team: 'teamId', project: 'projectId' });
    expect(shapes.paging).toBeUndefined();
  }, 60_000);

  it('behind the proxy: paged lists, renamed items and filters, minimal records, empty answers', async () => {
    const found = await discoverSpec(
      {
        checkDecisions: false,
        latitude: parseVary(
          'lists.paged,requests.renamed,workspaces.renamed,v1.record-minimal,bodies.none,endpoints.templated',
        ),
      },
      5,
    );
    const shapes = found.profile.shapes;
    // lists.paged: two items a page, data.nextCursor, asked for with ?cursor=.
    expect(shapes.paging).toEqual({ cursor: { pointer: '/data/nextCursor', parameter: 'cursor' } });
    // workspaces.renamed: id, title, primaryDashboardId, primaryDashboardName.
    expect(shapes.workspaceItem).toEqual({
      workspaceId: 'id',
      name: 'title',
      dashboardId: 'primaryDashboardId',
      dashboardName: 'primaryDashboardName',
    });
    // requests.renamed: the filters are team and project.
    expect(shapes.listWorkspacesFilters).toEqual({ team: 'team', project: 'project' });
    // v1.record-minimal: a list item holds §2.8's members alone.
    expect(shapes.v1Dashboard).toBeUndefined();
    // (the v2 part adds the look-up's path beside them)
    expect(
      Object.keys(shapes.endpoints ?? {})
        .filter((k) => k.startsWith('v1'))
        .sort(),
    ).toEqual(['v1AddCharts', 'v1CreateDashboard', 'v1ListWorkspaceDashboards']);
  }, 90_000);

  it('states no add-charts path where no layout can be read, and no layout route it did not see', async () => {
    // Behind v1.record-minimal a list item holds no chart ids; without the dashboard-charts
    // hook the layout is read nowhere (the reference has no route of its own for it).
    const resolved = await resolveTarget(
      { checkDecisions: false, latitude: parseVary('v1.record-minimal') },
      5,
    );
    try {
      const { target } = resolved;
      const found = await discover({
        ...target,
        hooks: target.hooks.filter((h) => h !== 'dashboard-charts'),
      });
      const endpoints = found.profile.shapes.endpoints ?? {};
      expect(endpoints.v1ListWorkspaceDashboards).toBeDefined();
      expect(endpoints.v1CreateDashboard).toBeDefined();
      expect(endpoints.v1AddCharts).toBeUndefined();
      expect(endpoints.dashboardCharts).toBeUndefined();
      expect(found.undecided.join('\n')).toMatch(/shapes\.endpoints\.dashboardCharts/);
      expect(found.undecided.join('\n')).toMatch(/shapes\.endpoints\.v1AddCharts: no layout/);
    } finally {
      await resolved.close();
    }
  }, 90_000);
});
