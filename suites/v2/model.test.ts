import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  isShared,
  type Actor,
  type DashboardRecord,
  type DashboardsCommand,
} from '../../spec/machines/dashboards.ts';
import {
  BEFORE_FINALIZE,
  applyMigration,
  type MigrationState,
} from '../../spec/machines/migration.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { CONTENT, READ_BACK } from '../harness/given/dashboards.ts';
import {
  accountAt,
  aimFields,
  bind,
  chartOf,
  expectListAsModel,
  pick,
  recordWrite,
  refusal,
  secondRolesOf,
  sharedContent,
  v2NewId,
  v2Write,
  writeCommand,
  type Mirror,
  type Real,
  type WriteAim,
  type Who,
} from '../harness/given/model-world.ts';
import {
  EDITOR,
  API_KEY,
  V2_KEY,
  applicationsOf,
  dashboardsOf,
  finalize,
  lookUpPath,
  projectUser,
  v2Get,
  type As,
  type WriteSite,
} from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import { budgetLine, modelRuns, type Budget, type ModelCommand } from '../harness/model-run.ts';

// Model-based (STYLE 7, issue 34) on the shared runner: random v2 writes and look-ups in a
// world of two migrated accounts, each with an application of two templates (v1 dashboards
// the host made, then the migration hook) and three project users: an editor, one of a few
// lesser roles, and an editor with no project organization. The oracle is the pure dashboards
// and migration machines of spec/machines. After each command every caller's list (the API
// key and the two users with an organization, in both accounts) must be what the model holds;
// ids the target issues are bound to the model's as they first appear (by legacyDashboardId,
// by position in a layout, or as the one new entry of a list), as in the migration model.
// A call naming the other account's application or dashboard is drawn where the profile
// follows v2.refusals.not-found (a refusal); a look-up where the profile states its path.

const BUDGET: Budget = { runs: 3, commands: 14 };
const USERS = 3;
interface User {
  readonly userId: string;
  readonly token: string;
  readonly permissions: RolePermissions | null;
  readonly organized: boolean;
}

interface Account extends Mirror {
  readonly w: World;
  migration: MigrationState;
  /** The application: the model's id and the target's. */
  readonly applicationId: string;
  readonly realApplicationId: string;
  readonly users: readonly User[];
  /** The v1 ids of the templates (§9: kept as legacyDashboardId), model v2 id -> v1 id. */
  readonly legacy: Map<string, string>;
}

interface Model {
  readonly accounts: readonly Account[];
  readonly decisions: boolean;
  /** The profile follows v2.refusals.not-found: calls at the other account are refused. */
  readonly foreignRefused: boolean;
  /** The profile states the look-up's path. */
  readonly lookUp: boolean;
}

type Cmd = ModelCommand<Model, Real>;

function actorOf(acct: Account, who: Who): Actor {
  if (who === 'api') return { kind: 'api-key' };
  const user = acct.users[who % USERS] as User;
  return {
    kind: 'project-user',
    userId: user.userId,
    permissions: user.permissions,
    projectOrganizationId: user.organized ? `organization of ${user.userId}` : null,
  };
}

const asOf = (acct: Account, who: Who): As =>
  who === 'api' ? API_KEY : { token: (acct.users[who % USERS] as User).token };

const modelList = (acct: Account, who: Who): DashboardRecord[] =>
  dashboardsFor(acct.state, acct.applicationId, actorOf(acct, who));

/** A caller's list as the model holds it, binding ids the target issued on their first showing. */
async function expectListInStep(t: Conformance, acct: Account, who: Who, after: string) {
  const what = `after ${after}, the list of ${who === 'api' ? 'the API key' : `user ${who}`} in ${acct.w.account.organizationId}`;
  const shown = await dashboardsOf(t, acct.w, acct.realApplicationId, asOf(acct, who));
  // §9: a migrated dashboard keeps its v1 id as legacyDashboardId.
  const known = (s: (typeof shown)[number], left: ReadonlySet<string>) => {
    if (!s.legacyDashboardId) return undefined;
    const v2 = [...acct.legacy.entries()].find(([, v1]) => v1 === s.legacyDashboardId)?.[0];
    return v2 !== undefined && left.has(v2) ? v2 : undefined;
  };
  expectListAsModel(acct, shown, modelList(acct, who), what, {
    chartIds: true,
    known,
    entry: (s, d, label) => {
      // §2.8: 'template' for a shared dashboard, 'dashboard' for one in a user's space.
      expect(s.kind, `${label}: kind`).toBe(isShared(d) ? 'template' : 'dashboard');
      expect(s.legacyDashboardId ?? null, `${label}: legacyDashboardId`).toBe(
        acct.legacy.get(d.dashboardId) ?? null,
      );
    },
  });
}

interface Aim extends WriteAim {
  /** The call names the other account's application (and its dashboard). */
  readonly foreign: boolean;
}

/** What a write aims at in the model; undefined when the model has nothing to aim at. */
function resolve(m: Model, aim: Aim) {
  const acct = accountAt(m, aim.a);
  const at = aim.foreign ? accountAt(m, aim.a + 1) : acct;
  const list = modelList(at, aim.foreign ? 'api' : aim.who);
  const target = pick(list, aim.entry);
  const source = pick(list, aim.source);
  if (target === undefined || source === undefined) return undefined;
  const chart = chartOf(at, aim.kind, target, aim.chart);
  if (chart === undefined) return undefined;
  if (!at.toReal.has(target.dashboardId) || !at.toReal.has(source.dashboardId)) return undefined;
  return { acct, at, target, source, chart };
}

const writeCmd = (aim: Aim): Cmd => {
  let made: WriteSite | undefined;
  let command: ((id: string) => DashboardsCommand) | undefined;
  /** Whether the model allows the write: only then is the caller's list read before it. */
  let allowed = false;
  const name = `Board ${aim.a}.${aim.entry}.${aim.source}`;
  const label = `v2 ${aim.kind} in account#${aim.a} by ${String(aim.who)}${aim.foreign ? " at the other account's application" : ''} on entry#${aim.entry} chart#${aim.chart} source#${aim.source}`;
  return {
    kind: 'call',
    label,
    pre: (m) => resolve(m, aim) !== undefined && (!aim.foreign || m.foreignRefused),
    verdict: (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, target, source, chart } = aimed;
      made = undefined;
      allowed = false;
      const why = "the other account's application (v2.refusals.not-found)";
      // A user with no organization may be refused for that first (v2.no-organization.calls).
      if (aim.foreign)
        return aim.who !== 'api' && !(acct.users[aim.who % USERS] as User).organized
          ? { kind: 'refused', why }
          : { kind: 'refused', code: 'NOT_FOUND', why };
      const actor = actorOf(acct, aim.who);
      const ids = {
        workspaceId: acct.applicationId,
        target: target.dashboardId,
        source: source.dashboardId,
        chart,
      };
      command = writeCommand(aim.kind, ids, name, actor, 'v2');
      const trial = applyDashboards(acct.state, command(crypto.randomUUID()), Date.now());
      if (!trial.ok) {
        const why = `${trial.error.code}: ${trial.error.message}`;
        // A user with no organization editing a template meets §7's 403 and its 409 at once:
        // which answers is open (v2.no-organization.calls), so then only a 4xx is expected.
        const both =
          actor.kind === 'project-user' &&
          actor.projectOrganizationId === null &&
          !['create', 'clone'].includes(aim.kind) &&
          isShared(target) &&
          !states(t, 'v2.no-organization.calls');
        return both ? { kind: 'refused', why } : refusal(trial.error.code, why);
      }
      allowed = true;
      return {
        kind: 'allowed',
        then: async (res: Reply) => {
          const id = await v2NewId(t, acct.w, res, made, label);
          if (command === undefined) throw new Error('unreachable: set by the verdict');
          recordWrite(acct, aim.kind, command, id, label);
        },
      };
    },
    call: async (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, at, target, source, chart } = aimed;
      const real = {
        target: at.toReal.get(target.dashboardId) ?? '',
        source: at.toReal.get(source.dashboardId) ?? '',
        chart: at.toReal.get(chart) ?? '',
      };
      const app = at.realApplicationId;
      const sent = await v2Write(
        t,
        acct.w,
        aim.kind,
        app,
        asOf(acct, aim.who),
        real,
        name,
        allowed,
      );
      made = sent.made;
      return sent.res;
    },
  };
};

const Found = z.object({ applicationId: z.string(), dashboardId: z.string() });

/** §4.16 last row: a look-up turns a v1 or v2 id into the application and the v2 id. */
const lookUpCmd = (a: number, entry: number, legacy: boolean, foreign: boolean): Cmd => {
  const aimed = (m: Model) => {
    const acct = accountAt(m, a);
    const at = foreign ? accountAt(m, a + 1) : acct;
    const d = pick(modelList(at, 'api'), entry);
    if (d === undefined || !at.toReal.has(d.dashboardId)) return undefined;
    const v1 = at.legacy.get(d.dashboardId);
    if (legacy && v1 === undefined) return undefined;
    return { acct, at, d, id: legacy ? (v1 ?? '') : (at.toReal.get(d.dashboardId) ?? '') };
  };
  return {
    kind: 'call',
    label: `look up ${foreign ? "the other account's " : ''}${legacy ? 'v1' : 'v2'} id of entry#${entry} with account#${a}'s key`,
    pre: (m) => m.lookUp && aimed(m) !== undefined && (!foreign || m.foreignRefused),
    verdict: (m) => {
      const { at, d } = aimed(m) ?? { at: undefined, d: undefined };
      if (foreign)
        return {
          kind: 'refused',
          code: 'NOT_FOUND',
          why: "the other account's dashboard (v2.refusals.not-found)",
        };
      return {
        kind: 'allowed',
        then: (res) => {
          const found = Found.safeParse((res.body as { data?: unknown } | undefined)?.data);
          if (!found.success)
            expect.fail(
              `the look-up answer has no {applicationId, dashboardId}: ${res.text.slice(0, 300)}`,
            );
          expect(found.data, 'the look-up names the application and the v2 id').toEqual({
            applicationId: at?.realApplicationId,
            dashboardId: at?.toReal.get(d?.dashboardId ?? ''),
          });
        },
      };
    },
    call: (m, { t }) => {
      const { acct, id } = aimed(m) ?? { acct: accountAt(m, a), id: '' };
      return v2Get(t, acct.w, lookUpPath(t, id) ?? '', API_KEY);
    },
  };
};

/** One migrated account, its content mirrored in the model, with three project users. */
async function accountWorld(t: Conformance, second: RolePermissions): Promise<Account> {
  const w = await buildWorld(t);
  // The host's content, stepped into a model of its own until the migration takes it over.
  const content: Mirror = { state: emptyDashboards(), toModel: new Map(), toReal: new Map() };
  const { workspaceId, chartIds } = await sharedContent(t, w, content, false);
  await finalize(t, w);
  const done = applyMigration(
    BEFORE_FINALIZE,
    { type: 'finalize', dashboards: content.state, tenants: [] },
    Date.now(),
  );
  if (!done.ok || done.result.migration.phase !== 'after')
    throw new Error('the model did not finalize');
  const migration = done.result.migration;
  const app = (await applicationsOf(t, w)).find((x) => x.legacyWorkspaceId === workspaceId);
  if (app === undefined) expect.fail('after finalize: no application for the v1 workspace');
  const users: User[] = [];
  for (const [k, permissions] of [EDITOR, second, EDITOR].entries()) {
    const organized = k < 2;
    const { userId, token } = await projectUser(t, w, permissions, organized);
    users.push({ userId, token, permissions, organized });
  }
  const acct: Account = {
    w,
    state: done.result.dashboards,
    migration,
    applicationId: migration.applicationOf[workspaceId] ?? '',
    realApplicationId: app.applicationId,
    users,
    toModel: new Map(),
    toReal: new Map(),
    legacy: new Map(Object.entries(migration.legacyIdOf)),
  };
  // Chart ids are kept by the migration (migration.chart-ids-kept).
  for (const id of chartIds) bind(acct, id, id, 'the migrated charts');
  return acct;
}

const aim: fc.Arbitrary<Aim> = fc.record({
  ...aimFields(USERS),
  foreign: fc.nat({ max: 7 }).map((n) => n === 0),
});

conformance(
  [
    'v2.dashboards.create.path',
    'v2.dashboards.clone.path',
    'v2.dashboards.add-charts.path',
    'v2.dashboards.remove-chart.path',
    'v2.dashboards.append-charts.path',
    'v2.dashboards.lookup',
    'v2.dashboard.kind-template',
    'v2.dashboard.kind-dashboard',
    'dashboards.clone.deep-copy',
    'permissions.editing.edits-go-to-own-copy',
    'dashboards.copy.one-entry',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
    'errors.shared-dashboard-read-only',
    'errors.user-without-organization',
  ],
  `model runs over v2 dashboards, copies and look-ups in two migrated accounts (${budgetLine('v2', BUDGET)})`,
  async (t) => {
    let run = 0;
    await modelRuns<Model, Real>(t, {
      area: 'v2',
      budget: BUDGET,
      commands: [
        aim.map(writeCmd),
        aim.map(writeCmd),
        aim.map(writeCmd),
        fc
          .tuple(fc.nat({ max: 1 }), fc.nat({ max: 7 }), fc.boolean(), fc.nat({ max: 5 }))
          .map(([a, e, l, f]) => lookUpCmd(a, e, l, f === 0)),
      ],
      world: async () => {
        // The second user's role differs from run to run (and between the two accounts).
        run += 1;
        const [first, second] = secondRolesOf(run);
        const accounts = [await accountWorld(t, first), await accountWorld(t, second)];
        return {
          model: {
            accounts,
            decisions: t.target.checkDecisions,
            foreignRefused: states(t, 'v2.refusals.not-found'),
            lookUp: states(t, 'v2.dashboards.lookup-path'),
          },
          real: { t },
        };
      },
      inStep: async (m, { t }, after) => {
        for (const acct of m.accounts)
          for (const who of ['api', 0, 1] as Who[]) await expectListInStep(t, acct, who, after);
      },
    });
  },
  {
    id: 'model-runs',
    needs: [...CONTENT, 'roles', 'migration'],
    parts: ['v2', 'v1-dashboards', 'identity'],
    relies: [
      ...READ_BACK,
      ...V2_KEY,
      'dashboards.copy.chart-ids',
      'dashboards.copy.clone-beside',
      'dashboards.append-charts-from.copies',
      'migration.chart-ids-kept',
    ],
    timeout: 180_000,
  },
);
