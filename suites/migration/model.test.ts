import fc from 'fast-check';
import { expect } from 'vitest';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  isShared,
  type Actor,
  type DashboardRecord,
  type DashboardsCommand,
  type WriteKind,
} from '../../spec/machines/dashboards.ts';
import {
  BEFORE_FINALIZE,
  applyMigration,
  migratedWrite,
  type MigrationState,
} from '../../spec/machines/migration.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import {
  CONTENT,
  READ_BACK,
  dashboardsOf as v1DashboardsOf,
  tenantToken,
  type CreateSite,
} from '../harness/given/dashboards.ts';
import {
  accountAt,
  aimFields,
  chartOf,
  copyUnfollowed,
  expectListAsModel,
  pick,
  recordWrite,
  refusal,
  secondRolesOf,
  sharedContent,
  v1NewId,
  v1Status,
  v1Write,
  v2NewId,
  v2Write,
  v1FollowsOf,
  writeCommand,
  type Mirror,
  type Real,
  type V1Follows,
  type WriteAim,
  type Who,
} from '../harness/given/model-world.ts';
import {
  V2_REPLACEMENT,
  namedReplacements,
  type WriteKind as V1WriteKind,
} from '../harness/replacements.ts';
import { errorText } from './kit.ts';
import {
  EDITOR,
  API_KEY,
  V2_KEY,
  applicationsOf,
  dashboardsOf as v2DashboardsOf,
  finalize,
  type As,
  type WriteSite,
} from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import { budgetLine, modelRuns, type Budget, type ModelCommand } from '../harness/model-run.ts';

// Model-based (STYLE 7, issue 34) on the shared runner, for the migration (§3 last row, §5 rule
// 6, §9, §4.16): two accounts, each a workspace of two shared dashboards and three tenants
// (an editor, one of a few lesser roles, another editor); random v1 writes by the API key and
// the tenants, the finalize of either account when drawn, v1 writes after it (410
// MIGRATED_TO_V2 naming the v2 call that replaces them) and v2 writes by the API key and the
// tenants' earlier JWTs, which then act as their project users (§5 rule 6). The oracle is the
// pure dashboards and migration machines of spec/machines. After each command every caller's
// list in both accounts must be what the model holds: the v1 list before that account's
// finalize, its application's v2 list after it (migrated dashboards found by legacyDashboardId).
// Ids the target issues are bound to the model's as they first appear. Commands and reads
// resting on a decision the profile does not follow are left out, never failed.

const BUDGET: Budget = { runs: 3, commands: 20 };
const TENANTS = 3;
const V1_KIND: Readonly<Record<WriteKind, V1WriteKind>> = {
  create: 'create',
  clone: 'clone',
  addCharts: 'add-charts',
  appendCharts: 'append-charts-from',
  removeCharts: 'remove-charts',
};

interface Tenant {
  readonly permissions: RolePermissions;
  readonly token: string;
}

interface Account extends Mirror {
  readonly w: World;
  migration: MigrationState;
  /** The v1 workspace (the model's id is the target's) and, after finalize, its application. */
  readonly workspaceId: string;
  applicationId: string;
  realApplicationId: string;
  readonly tenants: readonly Tenant[];
}

/** Which of our decisions the profile follows: each gates the commands and reads resting on it. */
interface Follows extends V1Follows {
  /** migration.tenant-users: after finalize a tenant's JWT acts as its project user. */
  readonly tenantUsers: boolean;
  /**
   * migration.chart-ids-kept: a migrated dashboard's charts keep their ids, so chart ids are
   * compared after finalize and v2 calls name charts; else only how many charts a layout holds.
   */
  readonly chartIdsKept: boolean;
}

interface Model {
  readonly accounts: readonly Account[];
  readonly follows: Follows;
}

// Who calls: the API key, or tenant k (its project user after finalize).
type Cmd = ModelCommand<Model, Real>;
const after = (acct: Account) => acct.migration.phase === 'after';
/** The v1 id a migrated dashboard kept, and the v2 id of a v1 dashboard (§9); none before. */
const legacyOf = (acct: Account, id: string): string | undefined =>
  acct.migration.phase === 'after' ? acct.migration.legacyIdOf[id] : undefined;
const v2Of = (acct: Account, v1: string): string | undefined =>
  acct.migration.phase === 'after' ? acct.migration.v2IdOf[v1] : undefined;
const whoText = (who: Who) => (who === 'api' ? 'the API key' : `tenant ${who}`);

function actorOf(acct: Account, who: Who): Actor {
  if (who === 'api') return { kind: 'api-key' };
  const k = who % TENANTS;
  const permissions = acct.tenants[k]?.permissions ?? null;
  return after(acct)
    ? {
        kind: 'project-user',
        userId: `user-${k}`,
        permissions,
        projectOrganizationId: `organization-${k}`,
      }
    : { kind: 'tenant', tenantId: `tenant-${k}`, permissions };
}

const secretOf = (acct: Account, who: Who) =>
  who === 'api' ? acct.w.creds().apiKey : (acct.tenants[who % TENANTS]?.token ?? '');

/** The model's list for a caller: the v1 workspace before finalize, its application after. */
const modelList = (acct: Account, who: Who): DashboardRecord[] =>
  after(acct)
    ? dashboardsFor(acct.state, acct.applicationId, actorOf(acct, who))
    : dashboardsFor(acct.state, acct.workspaceId, actorOf(acct, who), 'v1');

interface Shown {
  readonly id: string;
  readonly name: string | undefined;
  readonly own: boolean;
  readonly chartIds: readonly string[];
  readonly legacyDashboardId?: string | null;
}

async function realList(t: Conformance, acct: Account, who: Who): Promise<Shown[]> {
  const token = who === 'api' ? undefined : secretOf(acct, who);
  if (!after(acct)) {
    const items = await v1DashboardsOf(
      t,
      acct.w,
      acct.workspaceId,
      token === undefined ? undefined : { token },
    );
    return items.map((d) => ({
      id: d.id,
      name: d.name,
      own: d.tenantId !== null,
      chartIds: d.chartIds,
    }));
  }
  const items = await v2DashboardsOf(
    t,
    acct.w,
    acct.realApplicationId,
    token === undefined ? API_KEY : { token },
  );
  return items.map((d) => ({
    id: d.id,
    name: d.name,
    own: d.kind === 'dashboard',
    chartIds: d.chartIds ?? [],
    legacyDashboardId: d.legacyDashboardId,
  }));
}

/** A caller's list is the model's, binding ids the target issued on their first showing. */
function expectListInStep(
  acct: Account,
  who: Who,
  shown: readonly Shown[],
  after_: string,
  chartIds: boolean,
): void {
  const where = after(acct) ? 'v2' : 'v1';
  const what = `after ${after_}, the ${where} list of ${whoText(who)} in ${acct.w.account.organizationId}`;
  expectListAsModel(acct, shown, modelList(acct, who), what, {
    chartIds,
    // §9: a migrated dashboard keeps its v1 id as legacyDashboardId.
    known: (s) => {
      if (!after(acct) || !s.legacyDashboardId) return undefined;
      const v1 = acct.toModel.get(s.legacyDashboardId);
      return v1 === undefined ? undefined : v2Of(acct, v1);
    },
    entry: (s, d, label) => {
      expect(s.own, `${label}: the caller's own dashboard or a shared one`).toBe(!isShared(d));
      if (after(acct) && s.legacyDashboardId !== undefined) {
        const legacy = legacyOf(acct, d.dashboardId);
        expect(s.legacyDashboardId ?? null, `${label}: legacyDashboardId`).toBe(
          legacy === undefined ? null : (acct.toReal.get(legacy) ?? legacy),
        );
      }
    },
  });
}

/** A write as the model sees it: which entry of the caller's list, which chart, which source. */
type Aim = WriteAim;

/** Resolves an aim against the model; undefined when it has nothing to aim at yet. */
function resolve(m: Model, aim: Aim) {
  const acct = accountAt(m, aim.a);
  const list = modelList(acct, aim.who);
  const target = pick(list, aim.entry);
  const source = pick(list, aim.source);
  if (target === undefined || source === undefined) return undefined;
  if (!acct.toReal.has(target.dashboardId) || !acct.toReal.has(source.dashboardId))
    return undefined;
  const chart = chartOf(acct, aim.kind, target, aim.chart);
  if (chart === undefined) return undefined;
  return { acct, target, source, chart };
}

/** Whether a write the model would carry out rests on a decision the profile does not follow. */
function restsOnUnfollowed(m: Model, aim: Aim, via: 'v1' | 'v2'): boolean {
  const f = m.follows;
  const acct = accountAt(m, aim.a);
  if (aim.who !== 'api' && !(after(acct) ? f.tenantUsers : f.tenants)) return true;
  // After finalize every v1 write is refused: nothing it would have done is compared.
  if (via === 'v1' && after(acct)) return false;
  if (aim.kind === 'appendCharts' && !f.appendCopies) return true;
  const aimed = resolve(m, aim);
  if (aim.who === 'api' || via === 'v2' || aimed === undefined || !isShared(aimed.target))
    return false;
  return copyUnfollowed(f, aim.kind);
}

/** The command a write is to the model, for a given new id. */
function commandOf(
  acct: Account,
  aim: Aim,
  aimed: NonNullable<ReturnType<typeof resolve>>,
  via: 'v1' | 'v2',
  name: string,
): (id: string) => DashboardsCommand {
  const { target, source, chart } = aimed;
  const ids = {
    workspaceId: via === 'v1' ? acct.workspaceId : acct.applicationId,
    target: target.dashboardId,
    source: source.dashboardId,
    chart,
  };
  return writeCommand(aim.kind, ids, name, actorOf(acct, aim.who), via);
}

const v1WriteCmd = (aim: Aim): Cmd => {
  let created: CreateSite | undefined;
  let allowed = false;
  const name = `Board ${aim.a}.${aim.entry}.${aim.source}`;
  const label = `v1 ${aim.kind} in account#${aim.a} by ${whoText(aim.who)} on entry#${aim.entry} chart#${aim.chart} source#${aim.source}`;
  /** The target's v1 id of a model dashboard: after finalize, the v1 id it kept. */
  const v1Id = (acct: Account, id: string) => acct.toReal.get(legacyOf(acct, id) ?? id) ?? '';
  return {
    kind: 'call',
    label,
    pre: (m) => resolve(m, aim) !== undefined && !restsOnUnfollowed(m, aim, 'v1'),
    verdict: (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, target } = aimed;
      created = undefined;
      allowed = false;
      // §9: after finalize every v1 write answers 410, whatever the model would say of it.
      const gone = migratedWrite(acct.migration, aim.kind, {
        workspaceId: acct.workspaceId,
        dashboardId: legacyOf(acct, target.dashboardId) ?? target.dashboardId,
      });
      if (gone !== undefined) {
        const kind = V1_KIND[aim.kind];
        return {
          ...refusal(gone.code, gone.message),
          // §4.16, §7: the 410 names the v2 call that replaces this write, and no other's.
          also: (res: Reply) =>
            expect(
              [...namedReplacements(errorText(res))],
              `${label}: the 410 names ${V2_REPLACEMENT[kind].join(' ')}: ${errorText(res).slice(0, 300)}`,
            ).toEqual([kind]),
        };
      }
      const command = commandOf(acct, aim, aimed, 'v1', name);
      const trial = applyDashboards(acct.state, command(crypto.randomUUID()), Date.now());
      if (!trial.ok)
        return refusal(trial.error.code, `${trial.error.code}: ${trial.error.message}`);
      allowed = true;
      return {
        kind: 'allowed',
        ...v1Status(aim.kind),
        then: async (res: Reply) => {
          const id = await v1NewId(t, acct.w, res, aim.kind, created, label);
          recordWrite(acct, aim.kind, command, id, label);
        },
      };
    },
    call: async (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, target, source, chart } = aimed;
      const real = {
        workspaceId: acct.workspaceId,
        target: v1Id(acct, target.dashboardId),
        source: v1Id(acct, source.dashboardId),
        chart: acct.toReal.get(chart) ?? '',
      };
      const secret = secretOf(acct, aim.who);
      const sent = await v1Write(t, acct.w, aim.kind, secret, real, name, allowed);
      created = sent.created;
      return sent.res;
    },
  };
};

const v2WriteCmd = (aim: Aim): Cmd => {
  let made: WriteSite | undefined;
  let allowed = false;
  const name = `Board ${aim.a}.${aim.entry}.${aim.source}`;
  const label = `v2 ${aim.kind} in account#${aim.a} by ${whoText(aim.who)} on entry#${aim.entry} chart#${aim.chart} source#${aim.source}`;
  const asOf = (acct: Account): As =>
    aim.who === 'api' ? API_KEY : { token: secretOf(acct, aim.who) };
  return {
    kind: 'call',
    label,
    pre: (m) =>
      after(accountAt(m, aim.a)) &&
      (m.follows.chartIdsKept || (aim.kind !== 'addCharts' && aim.kind !== 'removeCharts')) &&
      resolve(m, aim) !== undefined &&
      !restsOnUnfollowed(m, aim, 'v2'),
    verdict: (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct } = aimed;
      made = undefined;
      allowed = false;
      const command = commandOf(acct, aim, aimed, 'v2', name);
      const trial = applyDashboards(acct.state, command(crypto.randomUUID()), Date.now());
      if (!trial.ok)
        return refusal(trial.error.code, `${trial.error.code}: ${trial.error.message}`);
      allowed = true;
      return {
        kind: 'allowed',
        then: async (res: Reply) => {
          const id = await v2NewId(t, acct.w, res, made, label);
          recordWrite(acct, aim.kind, command, id, label);
        },
      };
    },
    call: async (m, { t }) => {
      const aimed = resolve(m, aim);
      if (aimed === undefined) throw new Error('unreachable: checked by pre');
      const { acct, target, source, chart } = aimed;
      const real = {
        target: acct.toReal.get(target.dashboardId) ?? '',
        source: acct.toReal.get(source.dashboardId) ?? '',
        chart: acct.toReal.get(chart) ?? '',
      };
      const app = acct.realApplicationId;
      const sent = await v2Write(t, acct.w, aim.kind, app, asOf(acct), real, name, allowed);
      made = sent.made;
      return sent.res;
    },
  };
};

/** The migration hook finalizes one account; the model's migration machine does the same. */
const finalizeCmd = (a: number): Cmd => ({
  kind: 'world',
  label: `hook: finalize account#${a}`,
  pre: (m) => !after(accountAt(m, a)),
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    await finalize(t, acct.w);
    const tenants = acct.tenants.map((_, k) => ({
      tenantId: `tenant-${k}`,
      projectUserId: `user-${k}`,
    }));
    const done = applyMigration(
      acct.migration,
      { type: 'finalize', dashboards: acct.state, tenants },
      Date.now(),
    );
    if (!done.ok) throw new Error(`the model refused finalize: ${done.error.message}`);
    acct.migration = done.result.migration;
    acct.state = done.result.dashboards;
    if (acct.migration.phase !== 'after') throw new Error('the model did not finalize');
    acct.applicationId = acct.migration.applicationOf[acct.workspaceId] ?? '';
    const app = (await applicationsOf(t, acct.w)).find(
      (x) => x.legacyWorkspaceId === acct.workspaceId,
    );
    if (app === undefined) expect.fail('after finalize: no application for the v1 workspace');
    acct.realApplicationId = app.applicationId;
  },
});

/** One account: a workspace of two shared dashboards mirrored in the model, and its tenants. */
async function accountWorld(
  t: Conformance,
  second: RolePermissions,
  tenants: boolean,
): Promise<Account> {
  const w = await buildWorld(t);
  const acct: Account = {
    w,
    state: emptyDashboards(),
    migration: BEFORE_FINALIZE,
    workspaceId: '',
    applicationId: '',
    realApplicationId: '',
    tenants: [],
    toModel: new Map(),
    toReal: new Map(),
  };
  const { workspaceId } = await sharedContent(t, w, acct, true);
  const made: Tenant[] = [];
  if (tenants)
    for (const permissions of [EDITOR, second, EDITOR])
      made.push({
        permissions,
        token: await tenantToken(t, w, permissions as Record<string, boolean>),
      });
  return { ...acct, state: acct.state, workspaceId, tenants: made };
}

const aim: fc.Arbitrary<Aim> = fc.record(aimFields(TENANTS));

conformance(
  [
    'dashboards.clone.deep-copy',
    'dashboards.append-charts-from.effect',
    'dashboards.remove-charts.removes-from-layout',
    'permissions.editing.edits-go-to-own-copy',
    'dashboards.copy.one-entry',
    'migration.v1-write.before',
    'migration.v1-write.410',
    'errors.migrated-to-v2',
    'errors.migrated-to-v2.names-endpoint',
    'migration.dashboard-to-application-dashboard',
    'migration.legacy-ids-kept',
    'errors.shared-dashboard-read-only',
    'auth.tenant-jwt.translated',
  ],
  `model runs over v1 writes, the finalize of either of two accounts, the 410s after it and v2 writes (${budgetLine('migration', BUDGET)})`,
  async (t) => {
    const v1 = v1FollowsOf(t);
    const { tenants } = v1;
    const follows: Follows = {
      ...v1,
      tenantUsers: tenants && states(t, 'migration.tenant-users'),
      chartIdsKept: states(t, 'migration.chart-ids-kept'),
    };
    let run = 0;
    await modelRuns<Model, Real>(t, {
      area: 'migration',
      budget: BUDGET,
      // Writes outnumber the finalizes, so that both phases see several steps.
      commands: [
        aim.map(v1WriteCmd),
        aim.map(v1WriteCmd),
        aim.map(v1WriteCmd),
        aim.map(v2WriteCmd),
        aim.map(v2WriteCmd),
        fc.nat({ max: 1 }).map(finalizeCmd),
      ],
      world: async () => {
        // The second tenant's role differs from run to run (and between the two accounts).
        run += 1;
        const [first, second] = secondRolesOf(run);
        const accounts = [
          await accountWorld(t, first, tenants),
          await accountWorld(t, second, tenants),
        ];
        return { model: { accounts, follows }, real: { t } };
      },
      inStep: async (m, { t }, what) => {
        // Every list is read at once (nothing changes between the reads), then compared in turn.
        const reads: { acct: Account; reader: Who }[] = [];
        for (const acct of m.accounts) {
          // The API key's v1 view is a decision; its v2 list is the document's (§4.16).
          const readers: Who[] = [
            ...(after(acct) || m.follows.apiKeyView ? (['api'] as const) : []),
            ...((after(acct) ? m.follows.tenantUsers : m.follows.tenants)
              ? Array.from({ length: TENANTS }, (_, k) => k)
              : []),
          ];
          reads.push(...readers.map((reader) => ({ acct, reader })));
        }
        const shown = await Promise.all(reads.map(({ acct, reader }) => realList(t, acct, reader)));
        reads.forEach(({ acct, reader }, i) => {
          const chartIds = !after(acct) || m.follows.chartIdsKept;
          expectListInStep(acct, reader, shown[i] ?? [], what, chartIds);
        });
      },
    });
  },
  {
    id: 'model-runs',
    needs: [...CONTENT, 'dashboards', 'migration'],
    parts: ['v1-dashboards', 'v2'],
    relies: [...READ_BACK, ...V2_KEY],
    timeout: 180_000,
  },
);
