import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess, successStatus } from '../harness/expect.ts';
import {
  chartsOf,
  createWorkspace,
  dashboardsOf,
  entry,
  v1AddCharts,
  v1Post,
} from '../harness/given/dashboards.ts';
import { chatWorld, leaks, parts, userOf, type ChatWorld } from './kit.ts';
import { CHAT, chat, chatBody, expectStream } from '../harness/chat.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// §4.14 chat side, end to end: a chart the chat produced, saved exactly as received and added
// to a dashboard, loads (hook chart-data) the rows the chat showed to the same user, because
// its sqlOverride (§2.6) was kept and is run under that user's properties; a user with other
// properties gets other rows, none of the first user's.

const needs: readonly HookName[] = [...CHAT, 'workspaces', 'chart-data'];
const saveParts = [...parts, 'v1-dashboards'] as const;

/** Rows as a sorted list of canonical JSON texts: the same rows in any order. */
function canonicalRows(rows: readonly Record<string, unknown>[]): string[] {
  return rows
    .map((r) =>
      JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))),
    )
    .sort();
}

async function savedChart(t: Conformance, w: ChatWorld) {
  const user = userOf(w, 0, 0);
  const answer = expectStream(
    await chat(
      t,
      w.agentId,
      user.token,
      chatBody(w.agentId, { question: 'What is the total amount by product?' }),
    ),
    'the chart question',
  );
  const last = answer.charts.at(-1);
  if (last === undefined) t.notRun('the agent answered that question with no chart');
  const result = ChatResult.parse(last);
  const saved = expectSuccess(
    await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: result.chartConfig,
      connectionId: w.connectionId,
      agentId: w.agentId,
      ...(result.chartConfig.sqlOverride === undefined
        ? {}
        : { sql: result.chartConfig.sqlOverride }),
      name: result.chartConfig.title ?? 'Chart from chat',
    }),
    SaveFromChatResponse.shape.data,
    'save-from-chat',
  );
  const ws = await createWorkspace(t, w);
  const added = await v1AddCharts(t, w.creds().apiKey, ws.dashboardId, [saved.chartId]);
  // §4.16 shows no status for the v1 add-charts: any 2xx success.
  expect(
    successStatus(added.status),
    `add-charts with the saved chart: ${added.status} ${added.text.slice(0, 300)}`,
  ).toBe(true);
  return {
    result,
    chartId: saved.chartId,
    workspaceId: ws.workspaceId,
    dashboardId: ws.dashboardId,
  };
}

conformance(
  [
    'charts.config.sql-override-kept',
    'charts.save-from-chat.chart-config-as-received',
    'charts.save-from-chat.chart-id-usable',
    'resources.properties.row-level-security',
    'security.data.rows-of-the-user',
  ],
  'a chart saved from chat and put on a dashboard loads the rows the chat showed, and other rows for another user',
  async (t) => {
    const w = await chatWorld(t);
    const { result, chartId } = await savedChart(t, w);
    const org = w.account.organizationId;
    const same = await t.hooks.chartRows(org, chartId, userOf(w, 0, 0).token);
    expect(canonicalRows(same.rows), 'the saved chart loads the rows the chat showed').toEqual(
      canonicalRows(result.chartData),
    );
    const otherUser = userOf(w, 0, 1);
    const other = await t.hooks.chartRows(org, chartId, otherUser.token);
    expect(canonicalRows(other.rows), 'another region gets other rows').not.toEqual(
      canonicalRows(same.rows),
    );
    expect(leaks(w, otherUser, other.rows), "the first user's rows for another user").toEqual([]);
    const otherTenant = userOf(w, 1, 1);
    const foreign = await t.hooks.chartRows(org, chartId, otherTenant.token);
    expect(leaks(w, otherTenant, foreign.rows), 'rows of another tenant').toEqual([]);
  },
  { needs, parts: saveParts },
);

conformance(
  ['charts.config.sql-override-kept', 'charts.save-from-chat.chart-config-as-received'],
  "the dashboard's chart keeps the chat's chartConfig, sqlOverride included",
  async (t) => {
    const w = await chatWorld(t);
    const { result, chartId, workspaceId, dashboardId } = await savedChart(t, w);
    const layout = entry(await dashboardsOf(t, w, workspaceId), dashboardId, 'the dashboard');
    expect(layout.chartIds, 'the saved chart is on the layout').toContain(chartId);
    // The document shows no chart record: the configuration is read where the target shows it.
    const charts = await chartsOf(t, w, dashboardId);
    if (charts === undefined)
      return t.notRun(
        "reading a chart's configuration back needs the dashboard-charts host hook",
        cause.hook('dashboard-charts'),
      );
    const chart = charts.find((c) => c.chartId === chartId);
    expect(chart?.chartConfig, 'the chartConfig as the chat result gave it').toEqual(
      result.chartConfig,
    );
  },
  {
    needs,
    parts: saveParts,
    relies: ['dashboards.v1-shapes.not-shown'],
  },
);
