import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import type { ChatResult } from '../../spec/schemas/chat.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { v1Post } from '../harness/given/dashboards.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import { updateUser } from '../harness/readback.ts';
import {
  beyondVisible,
  chartAnswers,
  chartQuestions,
  chatWorld,
  leaks,
  parts,
  userOf,
  type ChatUser,
  type ChatWorld,
} from './kit.ts';
import { tokenFor } from '../harness/given/accounts.ts';
import { CHAT } from '../harness/chat.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';
import { cause } from '../harness/causes.ts';

// Row-level security and chart data for any agent, a language model included (issue 23,
// parts 2 and 3): nothing here knows how the agent words, computes or draws its answers. The
// agent reaches a table whose hidden rows hold values no visible row holds (given/chat.ts), and is
// asked a seeded few plain questions plus the chart questions the profile states; every chart
// it answers is held to what the user may see, and to the SQL the chart itself carries.

/** Fewer chart answers than this and a check is not-run: too little was checked. */
const LEAST_CHARTS = 3;

const needsSaved: readonly HookName[] = [...CHAT, 'chart-data'];
const savedParts = [...parts, 'v1-dashboards'] as const;

/** The users asked: the one whose amounts are small (any large number is another's), and one of the other tenant. */
const askers = (w: ChatWorld): ChatUser[] => [userOf(w, 0, 0), userOf(w, 1, 1)];

/** What of `rows` the user may not see, as findings for an assertion message. */
function outside(w: ChatWorld, user: ChatUser, rows: readonly Record<string, unknown>[]): string[] {
  return [
    ...leaks(w, user, rows).map((v) => `value of a hidden row: ${v}`),
    ...beyondVisible(w, user, rows).map(
      (v) => `number no aggregate of the user's rows makes: ${v}`,
    ),
  ];
}

const who = (user: ChatUser) => `${user.properties.tenant}/${user.properties.region}`;

conformance(
  [
    'resources.properties.row-level-security',
    'chat.auth.token-scopes-data',
    'security.data.rows-of-the-user',
  ],
  "every row of every chart any agent answers lies within the asking user's rows",
  async (t) => {
    const w = await chatWorld(t);
    for (const user of askers(w)) {
      const answers = await chartAnswers(t, w, user, chartQuestions(t), LEAST_CHARTS);
      for (const { question, charts } of answers)
        for (const chart of charts) {
          expect(
            outside(w, user, chart.chartData),
            `"${question}" asked by ${who(user)}: chartData holds rows hidden from the user`,
          ).toEqual([]);
        }
    }
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

/** Saves a chat result as received (§4.14) and gives its chart id. */
async function save(t: Conformance, w: ChatWorld, chart: ChatResult): Promise<string> {
  const sql = chart.chartConfig.sqlOverride;
  const saved = expectSuccess(
    await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: chart.chartConfig,
      connectionId: w.connectionId,
      agentId: w.agentId,
      ...(sql === undefined ? {} : { sql }),
      name: chart.chartConfig.title ?? 'Chart from chat',
    }),
    SaveFromChatResponse.shape.data,
    'save-from-chat',
  );
  return saved.chartId;
}

/** The chart results of the answers that carry the SQL powering them (§2.6 sqlOverride). */
async function chartsWithSql(t: Conformance, w: ChatWorld, user: ChatUser) {
  const answers = await chartAnswers(t, w, user, chartQuestions(t), LEAST_CHARTS);
  const withSql = answers.flatMap(({ question, charts }) =>
    charts
      .filter((chart) => typeof chart.chartConfig.sqlOverride === 'string')
      .map((chart) => ({ question, chart })),
  );
  if (withSql.length < LEAST_CHARTS)
    t.notRun(
      `${withSql.length} of the agent's chart answers carry chartConfig.sqlOverride; the check needs ${LEAST_CHARTS}`,
      cause.other('too few agent charts carry sqlOverride'),
    );
  return withSql;
}

conformance(
  [
    'resources.properties.row-level-security',
    'charts.config.sql-override-kept',
    'security.data.rows-of-the-user',
  ],
  "the SQL of every chart any agent answers, saved and run for the user, yields only the user's rows",
  async (t) => {
    const w = await chatWorld(t);
    const org = w.account.organizationId;
    for (const user of askers(w)) {
      for (const { question, chart } of await chartsWithSql(t, w, user)) {
        const chartId = await save(t, w, chart);
        const loaded = await t.hooks.chartRows(org, chartId, user.token);
        expect(
          outside(w, user, loaded.rows),
          `"${question}" asked by ${who(user)}: the saved chart's SQL yields rows hidden from the user`,
        ).toEqual([]);
      }
    }
  },
  { needs: needsSaved, parts: savedParts, timeout: 60_000 },
);

/**
 * A row as the multiset of its values, whatever its members are called (the chart's rows and
 * the SQL's may name them otherwise): numbers (and strings that spell a number) apart from
 * other values, each list sorted.
 */
function valuesOf(row: Record<string, unknown>): { numbers: number[]; others: string[] } {
  const numbers: number[] = [];
  const others: string[] = [];
  for (const value of Object.values(row)) {
    if (typeof value === 'number') numbers.push(value);
    else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
      numbers.push(Number(value));
    else others.push(JSON.stringify(value));
  }
  return { numbers: numbers.sort((a, b) => a - b), others: others.sort() };
}

/** Numbers agree within 0.01 or a millionth of their size, whichever is larger (rounding). */
const close = (a: number, b: number) =>
  Math.abs(a - b) <= Math.max(0.01, 1e-6 * Math.max(Math.abs(a), Math.abs(b)));

function sameRow(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const x = valuesOf(a);
  const y = valuesOf(b);
  return (
    x.numbers.length === y.numbers.length &&
    x.others.length === y.others.length &&
    x.others.every((v, i) => v === y.others[i]) &&
    x.numbers.every((v, i) => close(v, y.numbers[i] ?? Number.NaN))
  );
}

/** The rows of `part` not matched one for one by rows of `whole` (a multiset difference). */
function unmatched(
  part: readonly Record<string, unknown>[],
  whole: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  const left = [...whole];
  const missing: Record<string, unknown>[] = [];
  for (const row of part) {
    const at = left.findIndex((other) => sameRow(row, other));
    if (at === -1) missing.push(row);
    else left.splice(at, 1);
  }
  return missing;
}

conformance(
  ['chat.result.chart-data-from-sql', 'charts.config.sql-override-kept'],
  'every chart any agent answers shows the rows its own SQL yields for the asking user (cut at most to its page size or slice limit)',
  async (t) => {
    const w = await chatWorld(t);
    const org = w.account.organizationId;
    const user = userOf(w, 0, 1);
    for (const { question, chart } of await chartsWithSql(t, w, user)) {
      const chartId = await save(t, w, chart);
      const { rows } = await t.hooks.chartRows(org, chartId, user.token);
      const shown = chart.chartData;
      const stray = unmatched(shown, rows);
      expect(
        stray,
        `"${question}": chartData rows the chart's SQL does not yield (SQL rows: ${JSON.stringify(rows).slice(0, 400)})`,
      ).toEqual([]);
      const settings = chart.chartConfig.settings ?? {};
      const limits = [settings.pageSize, settings.sliceLimit].filter(
        (n): n is number => typeof n === 'number' && n > 0,
      );
      const cut = limits.length === 0 ? rows.length : Math.min(rows.length, ...limits);
      expect(
        shown.length,
        `"${question}": the chart shows ${shown.length} of the ${rows.length} rows its SQL yields` +
          (limits.length === 0 ? '' : ` (page size / slice limit ${limits.join(' / ')})`),
      ).toBeGreaterThanOrEqual(cut);
    }
  },
  { needs: needsSaved, parts: savedParts, timeout: 60_000 },
);

/**
 * User (0, 0) with a token issued before its properties are updated to those of user (0, 1)
 * (§4.6: the update's properties take the place of the stored ones), a token issued after,
 * and what user (0, 1)'s properties let see.
 */
async function movedUser(t: Conformance, field: 'properties' | 'payload' = 'properties') {
  const w = await chatWorld(t);
  const before = userOf(w, 0, 0);
  const moved = userOf(w, 0, 1);
  await updateUser(t, w, before.userId, { name: 'Moved user', [field]: moved.properties });
  const after: ChatUser = { ...before, token: await tokenFor(t, w, before.userId) };
  return { w, before, after, newRows: { ...moved, userId: before.userId } };
}

conformance(
  ['tokens.user-token.from-stored-user', 'resources.properties.row-level-security'],
  "a token issued after a properties update reaches only the rows of the user's new properties",
  async (t) => {
    const { w, after, newRows } = await movedUser(t);
    for (const { question, charts } of await chartAnswers(t, w, after, chartQuestions(t, 2), 1))
      for (const chart of charts)
        expect(
          outside(w, newRows, chart.chartData),
          `"${question}" with a token issued after the update: rows of other properties`,
        ).toEqual([]);
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

conformance(
  ['users.update.payload-alias', 'versioning.deprecated.payload'],
  'a properties update sent as the deprecated payload field reaches, from the next token, only the rows of the new properties',
  async (t) => {
    const { w, after, newRows } = await movedUser(t, 'payload');
    for (const { question, charts } of await chartAnswers(t, w, after, chartQuestions(t, 2), 1))
      for (const chart of charts)
        expect(
          outside(w, newRows, chart.chartData),
          `"${question}" with a token issued after the update by payload: rows of other properties`,
        ).toEqual([]);
  },
  { needs: CHAT, parts, timeout: 60_000 },
);

probe(
  ['tokens.user-token.properties-after-update'],
  'whose rows a token issued before a properties update reaches',
  async (t) => {
    const { w, before, newRows } = await movedUser(t);
    const seen = (await chartAnswers(t, w, before, chartQuestions(t, 2), 1)).flatMap((a) =>
      a.charts.map((c) => c.chartData),
    );
    const within = (user: ChatUser) => seen.every((rows) => outside(w, user, rows).length === 0);
    const reading = within(before)
      ? 'the properties it was issued with'
      : within(newRows)
        ? 'the properties stored since the update'
        : 'rows of neither';
    t.observe(`a token issued before the update reaches ${reading}`, within(before));
  },
  { needs: CHAT, parts, timeout: 60_000 },
);
