import { expect } from 'vitest';
import { CloneDashboardResponse } from '../../spec/schemas/dashboard.ts';
import { conformance, probe } from '../harness/conformance.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  chartsOf,
  dashboardsOf,
  dashboardsWorld,
  entry,
  layoutOf,
  sharedDashboard,
  tenantToken,
  v1AddCharts,
  v1Post,
  type Item,
} from '../harness/given/dashboards.ts';
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// §2.2 rule 3 and §2.8: a tenant's v1 edit of a shared dashboard never changes the shared
// dashboard; it lands on the tenant's own copy, which takes the shared one's place in that
// tenant's list (one entry per dashboard) and which nobody else sees.
const parts = ['v1-dashboards', 'tenant-flow'] as const;
const relies = [...READ_BACK, ...TENANT_FIELDS];
/**
 * A tenant's first edit names a chart of the shared dashboard by its id: that the copy the edit
 * makes still holds that id is the decision dashboards.copy.chart-ids, not the document's.
 */
const byChartIds = [...relies, 'dashboards.copy.chart-ids'] as const;
const EDITOR = { addChart: true, removeChart: true, canDuplicateDashboard: true };

/**
 * The entries standing where the shared dashboard stood: those that are none of the caller's
 * other dashboards before the edit (ids only; a target need not list names).
 */
function inPlaceOf(items: readonly Item[], before: readonly Item[], sharedId: string): Item[] {
  const others = new Set(before.map((d) => d.id).filter((id) => id !== sharedId));
  return items.filter((d) => !others.has(d.id));
}

conformance(
  ['permissions.editing.edits-go-to-own-copy'],
  "a tenant's removal of a chart leaves the shared dashboard as it was",
  async (t) => {
    const w = await dashboardsWorld(t);
    // The shared dashboard's own entry: what else an API key lists is open
    // (dashboards.v1-list.api-key-view).
    const shared = async () =>
      layoutOf([
        entry(await dashboardsOf(t, w, w.board.workspaceId), w.board.dashboardId, 'the shared'),
      ]);
    const before = await shared();
    const token = await tenantToken(t, w, EDITOR);
    const res = await v1Post(t, REMOVE, token, {
      dashboardId: w.board.dashboardId,
      chartIds: [w.board.charts[0]?.chartId],
    });
    expect(res.status, `the tenant's edit succeeds: ${res.text.slice(0, 300)}`).toBe(200);
    expect(await shared(), 'the shared dashboard, as the host sees it, has not changed').toBe(
      before,
    );
  },
  { needs: CONTENT, parts, relies: byChartIds },
);

conformance(
  [
    'dashboards.copy.replaces-shared',
    'dashboards.copy.one-entry',
    'dashboards.v1-record.tenant-id-own',
  ],
  "the tenant's copy replaces the shared dashboard in the tenant's list, once",
  async (t) => {
    const w = await dashboardsWorld(t);
    const token = await tenantToken(t, w, EDITOR);
    const listedBefore = await dashboardsOf(t, w, w.board.workspaceId, { token });
    const [gone, ...kept] = w.board.charts.map((c) => c.chartId);
    const res = await v1Post(t, REMOVE, token, {
      dashboardId: w.board.dashboardId,
      chartIds: [gone],
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const listed = await dashboardsOf(t, w, w.board.workspaceId, { token });
    expect(listed, 'as many entries as before the edit').toHaveLength(listedBefore.length);
    const mine = inPlaceOf(listed, listedBefore, w.board.dashboardId);
    expect(mine, 'one entry for the dashboard, never the shared one and the copy').toHaveLength(1);
    expect(mine[0]?.chartIds, 'the entry shows the edit').toEqual(kept);
    // §2.8: a non-null tenantId marks the user's own, so the one entry is the copy, not the
    // shared dashboard.
    expect(mine[0]?.tenantId, "the entry is the tenant's own (tenantId set)").not.toBeNull();
  },
  { needs: CONTENT, parts, relies: byChartIds },
);

conformance(
  ['dashboards.copy.replaces-shared', 'permissions.editing.edits-go-to-own-copy'],
  "a second edit through the shared dashboard's id lands on the same copy",
  async (t) => {
    const w = await dashboardsWorld(t);
    const source = await sharedDashboard(t, w, 1);
    const token = await tenantToken(t, w, EDITOR);
    const listedBefore = await dashboardsOf(t, w, w.board.workspaceId, { token });
    const [gone, ...kept] = w.board.charts.map((c) => c.chartId);
    const first = await v1Post(t, REMOVE, token, {
      dashboardId: w.board.dashboardId,
      chartIds: [gone],
    });
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    const second = await v1Post(t, APPEND, token, {
      sourceDashboardId: source.dashboardId,
      targetDashboardId: w.board.dashboardId,
    });
    expect(second.status, second.text.slice(0, 300)).toBe(200);
    const mine = inPlaceOf(
      await dashboardsOf(t, w, w.board.workspaceId, { token }),
      listedBefore,
      w.board.dashboardId,
    );
    expect(mine, 'still one entry').toHaveLength(1);
    const copy = mine[0] as Item;
    expect(copy.chartIds.slice(0, kept.length), 'the first edit is kept').toEqual(kept);
    expect(copy.chartIds.slice(kept.length), 'and the second edit is on top of it').toHaveLength(
      source.charts.length,
    );
    // Which charts were appended, by name, where the target shows chart names.
    const charts = await chartsOf(t, w, copy.id);
    if (charts !== undefined) {
      expect(
        charts.slice(kept.length).map((c) => c.name),
        "the appended charts are the source's, in its order",
      ).toEqual(source.charts.map((c) => c.name));
    }
  },
  { needs: CONTENT, parts, relies: byChartIds },
);

conformance(
  ['permissions.editing.edits-go-to-own-copy', 'dashboards.copy.one-entry'],
  "other tenants never see a tenant's copy",
  async (t) => {
    const w = await dashboardsWorld(t);
    const editor = await tenantToken(t, w, EDITOR);
    const other = await tenantToken(t, w, EDITOR);
    const editorBefore = await dashboardsOf(t, w, w.board.workspaceId, { token: editor });
    const otherBefore = layoutOf(await dashboardsOf(t, w, w.board.workspaceId, { token: other }));
    const res = await v1Post(t, REMOVE, editor, {
      dashboardId: w.board.dashboardId,
      chartIds: [w.board.charts[0]?.chartId],
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const copy = inPlaceOf(
      await dashboardsOf(t, w, w.board.workspaceId, { token: editor }),
      editorBefore,
      w.board.dashboardId,
    )[0];
    const seenByOther = await dashboardsOf(t, w, w.board.workspaceId, { token: other });
    expect(layoutOf(seenByOther), "the other tenant's list is as it was").toBe(otherBefore);
    expect(
      seenByOther.map((d) => d.id),
      "the copy's id is not in the other tenant's list",
    ).not.toContain(copy?.id);
  },
  { needs: CONTENT, parts, relies: byChartIds },
);

probe(
  ['dashboards.copy.clone-beside'],
  "a tenant's clone of a shared dashboard, in the tenant's list",
  async (t) => {
    const w = await dashboardsWorld(t);
    const token = await tenantToken(t, w, EDITOR);
    const res = await v1Post(t, CLONE, token, { sourceDashboardId: w.board.dashboardId });
    const clone = CloneDashboardResponse.shape.data.safeParse(
      (res.body as { data?: unknown }).data,
    );
    if (!clone.success)
      return t.notRun(
        `the clone failed: ${res.text.slice(0, 200)}`,
        cause.other('the clone failed'),
      );
    const ids = (await dashboardsOf(t, w, w.board.workspaceId, { token })).map((d) => d.id);
    const shared = ids.includes(w.board.dashboardId);
    const copy = ids.includes(clone.data.dashboardId);
    t.observe(
      `shared dashboard ${shared ? 'listed' : 'not listed'}, clone ${copy ? 'listed' : 'not listed'}`,
      shared && copy,
    );
  },
  { needs: CONTENT, parts, relies },
);

probe(
  ['dashboards.copy.chart-ids', 'dashboards.v1-list.api-key-view'],
  "the chart ids of a tenant's copy, and what the host's key lists afterwards",
  async (t) => {
    const w = await dashboardsWorld(t);
    // The edit adds a chart of a shared dashboard of another workspace: it names no chart of
    // the one copied.
    const spare = await sharedDashboard(t, w, 1);
    const token = await tenantToken(t, w, EDITOR);
    const before = await dashboardsOf(t, w, w.board.workspaceId, { token });
    const added = spare.charts[0]?.chartId ?? '';
    await v1AddCharts(t, token, w.board.dashboardId, [added]);
    const copy = inPlaceOf(
      await dashboardsOf(t, w, w.board.workspaceId, { token }),
      before,
      w.board.dashboardId,
    )[0];
    const hostSees = (await dashboardsOf(t, w, w.board.workspaceId)).map((d) => d.id);
    const kept = [...w.board.charts.map((c) => c.chartId), added];
    const sameIds = JSON.stringify(copy?.chartIds) === JSON.stringify(kept);
    const hostSharedOnly =
      hostSees.length === 1 && hostSees[0] === w.board.dashboardId && copy?.id !== undefined;
    t.observe(
      `the copy ${sameIds ? "keeps the shared dashboard's chart ids" : 'has new chart ids'}; the key lists ${hostSees.length} dashboard(s)`,
      sameIds && hostSharedOnly,
    );
  },
  { needs: CONTENT, parts, relies },
);
