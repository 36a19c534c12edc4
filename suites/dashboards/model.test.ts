import fc from 'fast-check';
import { expect } from 'vitest';
import { SaveFromChatResponse } from '../../spec/schemas/chart.ts';
import {
  applyDashboards,
  dashboardsFor,
  emptyDashboards,
  isShared,
  writeRefusal,
  type Actor,
  type DashboardRecord,
  type DashboardsCommand,
  type WriteKind,
} from '../../spec/machines/dashboards.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import {
  CONTENT,
  READ_BACK,
  dashboardsOf,
  openEndpoint,
  tenantToken,
  v1Post,
  type CreateSite,
  type Reader,
} from '../harness/given/dashboards.ts';
import {
  WRITE_KINDS,
  accountAt,
  bind,
  chartOf,
  copyUnfollowed,
  expectListAsModel,
  pick,
  recordWrite,
  secondRolesOf,
  sharedContent,
  step,
  v1NewId,
  v1Status,
  v1Write,
  v1FollowsOf,
  writeCommand,
  type Mirror,
  type Real,
  type V1Follows,
  type Who,
} from '../harness/given/model-world.ts';
import { EDITOR } from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import { budgetLine, modelRuns, type Budget, type ModelCommand } from '../harness/model-run.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';

// Model-based (STYLE 7, issue 34) on the shared runner, for the v1 dashboards before any
// migration (§2.2, §2.8, §4.10–§4.12, §4.14, §4.16): random v1 writes, charts saved from chat
// and list reads in a world of two accounts, each with a workspace of two shared dashboards
// and three tenants (an editor, one of a few lesser roles, another editor) holding two JWTs
// each. The oracle is the pure dashboards machine of spec/machines. Refusals are drawn too:
// another account's dashboard or workspace, another tenant's own dashboard, an id nobody
// issued, a role without the flag. After each command every caller's v1 list in both accounts
// (the tenants' with their first JWT, the API key's where the profile follows its view) must be
// what the model holds: ids, owners, names where shown, and layouts, read through what the
// profile states (the list's chart ids, else the dashboard-charts hook or route, else not-run).
// Where the profile does not follow a decision a comparison rests on, the commands that would
// rest on it are left out, never failed.

const BUDGET: Budget = { runs: 3, commands: 20 };
const TENANTS = 3;
/** Tokens issued per tenant (the same columns registered again): writes use any of them. */
const TOKENS = 2;

interface Tenant {
  readonly tenantId: string;
  readonly permissions: RolePermissions;
  readonly tokens: readonly string[];
}

interface Account extends Mirror {
  readonly w: World;
  /** The workspace: the target's id is the model's (made through the hook). */
  readonly workspaceId: string;
  readonly tenants: readonly Tenant[];
}

/** Which of our decisions the profile follows: each gates the commands resting on it. */
interface Follows extends V1Follows {
  /** charts.save-from-chat.permissions: a tenant whose role may not add charts saves one. */
  readonly savingChecked: boolean;
}

interface Model {
  readonly accounts: readonly Account[];
  readonly follows: Follows;
}

type Cmd = ModelCommand<Model, Real>;
/** What a write names: the caller's own world, or something it may not reach. */
type Reach = 'own' | 'other-account' | 'other-tenant' | 'unknown';

const tenantAt = (acct: Account, k: number) => acct.tenants[k % TENANTS] as Tenant;

function actorOf(acct: Account, who: Who): Actor {
  if (who === 'api') return { kind: 'api-key' };
  const { tenantId, permissions } = tenantAt(acct, who);
  return { kind: 'tenant', tenantId, permissions };
}

/** The secret a call carries: the API key, or one of the tenant's JWTs. */
const secretOf = (acct: Account, who: Who, token = 0): string =>
  who === 'api' ? acct.w.creds().apiKey : (tenantAt(acct, who).tokens[token % TOKENS] ?? '');

const readerOf = (acct: Account, who: Who, token = 0): Reader =>
  who === 'api' ? { apiKey: secretOf(acct, who) } : { token: secretOf(acct, who, token) };

const whoText = (who: Who) => (who === 'api' ? 'the API key' : `tenant ${who}`);

const modelList = (acct: Account, who: Who): DashboardRecord[] =>
  dashboardsFor(acct.state, acct.workspaceId, actorOf(acct, who), 'v1');

type Shown = Awaited<ReturnType<typeof dashboardsOf>>;

/** A caller's v1 list as the model holds it, binding ids the target issued on first showing. */
function expectListInStep(acct: Account, who: Who, shown: Shown, after: string): void {
  const what = `after ${after}, the v1 list of ${whoText(who)} in ${acct.w.account.organizationId}`;
  // At most one dashboard is new to a list per step (a tenant's copy made by its first edit).
  expectListAsModel(acct, shown, modelList(acct, who), what, {
    chartIds: true,
    entry: (s, d, label) => {
      // §2.8: tenantId is set on a tenant's own dashboard (its copies included), null on a shared one.
      expect(s.tenantId !== null, `${label}: the tenant's own dashboard or a shared one`).toBe(
        !isShared(d),
      );
    },
  });
}

interface Aim {
  readonly a: number;
  readonly who: Who;
  readonly token: number;
  readonly kind: WriteKind;
  readonly reach: Reach;
  readonly entry: number;
  readonly chart: number;
  readonly source: number;
}

/** What a write aims at in the model; undefined when the model has nothing to aim at. */
function resolve(m: Model, aim: Aim) {
  const acct = accountAt(m, aim.a);
  const list = modelList(acct, aim.who);
  const bound = (d: DashboardRecord | undefined) =>
    d !== undefined && acct.toReal.has(d.dashboardId);
  let target = pick(list, aim.entry);
  const source = pick(list, aim.source);
  let at = acct;
  if (aim.reach === 'other-account') {
    at = accountAt(m, aim.a + 1);
    target = pick(modelList(at, 'api'), aim.entry);
  } else if (aim.reach === 'other-tenant') {
    if (aim.who === 'api') return undefined;
    // Another tenant's own dashboard (made by it, or its copy): not there for this tenant.
    const other = (aim.who + 1 + (aim.entry % (TENANTS - 1))) % TENANTS;
    target = pick(
      modelList(acct, other).filter((d) => !isShared(d)),
      aim.entry,
    );
    if (target === undefined) return undefined;
  }
  if (!bound(target) || !bound(source) || target === undefined || source === undefined)
    return undefined;
  const chart = chartOf(at, aim.kind, target, aim.chart);
  if (chart === undefined) return undefined;
  return { acct, at, target, source, chart };
}

/** Whether the write rests on a decision the profile does not follow (then it is left out). */
function restsOnUnfollowed(m: Model, aim: Aim): boolean {
  const f = m.follows;
  if (aim.who !== 'api' && !f.tenants) return true;
  if (aim.kind === 'appendCharts' && !f.appendCopies) return true;
  if (aim.who === 'api' || aim.reach !== 'own') return false;
  const aimed = resolve(m, aim);
  if (aimed === undefined || !isShared(aimed.target)) return false;
  return copyUnfollowed(f, aim.kind);
}

const writeCmd = (aim: Aim): Cmd => {
  let created: CreateSite | undefined;
  let command: ((id: string) => DashboardsCommand) | undefined;
  /** A fresh id of nothing: what `unknown` names. */
  const nobody = crypto.randomUUID();
  let allowed = false;
  const name = `Board ${aim.a}.${aim.entry}.${aim.source}`;
  const label = `v1 ${aim.kind} in account#${aim.a} by ${whoText(aim.who)} (token#${aim.token}) at ${aim.reach} entry#${aim.entry} chart#${aim.chart} source#${aim.source}`;
  /** The target's ids of what the call names. */
  const ids = (m: Model) => {
    const aimed = resolve(m, aim);
    if (aimed === undefined) throw new Error('unreachable: checked by pre');
    const { acct, at, target, source, chart } = aimed;
    const unknown = aim.reach === 'unknown';
    return {
      ...aimed,
      workspaceId: unknown ? nobody : at.workspaceId,
      target: unknown ? nobody : (at.toReal.get(target.dashboardId) ?? ''),
      source: acct.toReal.get(source.dashboardId) ?? '',
      chart: at.toReal.get(chart) ?? '',
      model: { target, source, chart },
    };
  };
  return {
    kind: 'call',
    label,
    // What rests on an unfollowed decision first: without tenants there is no tenant to resolve.
    pre: (m) =>
      !restsOnUnfollowed(m, aim) &&
      resolve(m, aim) !== undefined &&
      !(aim.kind === 'create' && aim.reach === 'other-tenant'),
    verdict: (m, { t }) => {
      const { acct, model } = ids(m);
      created = undefined;
      allowed = false;
      if (aim.reach === 'other-account')
        return { kind: 'refused', why: "the other account's dashboard or workspace (§5)" };
      const unknown = aim.reach === 'unknown';
      command = writeCommand(
        aim.kind,
        {
          workspaceId: unknown ? nobody : acct.workspaceId,
          target: unknown ? nobody : model.target.dashboardId,
          source: model.source.dashboardId,
          chart: model.chart,
        },
        name,
        actorOf(acct, aim.who),
        'v1',
      );
      const trial = applyDashboards(acct.state, command(crypto.randomUUID()), Date.now());
      // §2.2 leaves the status of a refused write open (dashboards.write-refusal.status), and
      // the document gives no status to an unknown id: a 4xx, the code only on the reference.
      if (!trial.ok)
        return {
          kind: 'refused',
          code: trial.error.code,
          why: `${trial.error.code}: ${trial.error.message}`,
        };
      allowed = true;
      return {
        kind: 'allowed',
        ...v1Status(aim.kind),
        then: async (res: Reply) => {
          const id = await v1NewId(t, acct.w, res, aim.kind, created, label);
          if (command === undefined) throw new Error('unreachable: set by the verdict');
          recordWrite(acct, aim.kind, command, id, label);
          if (aim.kind === 'clone')
            // §4.10: without a name, the clone's is the source's followed by " (Copy)".
            expect(
              (res.body as { data: { name: string } }).data.name,
              `${label}: the clone's name`,
            ).toBe(acct.state.dashboards[id]?.name);
        },
      };
    },
    call: async (m, { t }) => {
      const { acct, workspaceId, target, source, chart } = ids(m);
      const secret = secretOf(acct, aim.who, aim.token);
      const real = { workspaceId, target, source, chart };
      const sent = await v1Write(t, acct.w, aim.kind, secret, real, name, allowed);
      created = sent.created;
      return sent.res;
    },
  };
};

/** §4.14: a chart saved from chat, by the API key or a tenant; its id then goes on layouts. */
const saveCmd = (a: number, who: Who, token: number): Cmd => {
  const label = `save-from-chat in account#${a} by ${whoText(who)} (token#${token})`;
  const chartName = `Saved ${a}.${String(who)}.${token}`;
  const config = { title: chartName, type: 'bar' };
  return {
    kind: 'call',
    label,
    // Where the profile does not follow charts.save-from-chat.permissions, only a caller that
    // both readings let save: the API key, or a tenant whose role may add charts.
    pre: (m) => {
      if (who === 'api') return true;
      const acct = accountAt(m, a);
      return (
        m.follows.tenants &&
        (m.follows.savingChecked ||
          writeRefusal(actorOf(acct, who), 'addCharts', 'v1') === undefined)
      );
    },
    verdict: (m) => {
      const acct = accountAt(m, a);
      const actor = actorOf(acct, who);
      const trial = applyDashboards(
        acct.state,
        { type: 'createChart', chartId: crypto.randomUUID(), name: chartName, config, actor },
        Date.now(),
      );
      if (!trial.ok) return { kind: 'refused', code: trial.error.code, why: trial.error.message };
      return {
        kind: 'allowed',
        status: 200,
        then: (res) => {
          const parsed = SaveFromChatResponse.safeParse(res.body);
          if (!parsed.success) expect.fail(`${label}: no {chartId, name}: ${res.text}`);
          const { chartId } = parsed.data.data;
          step(acct, { type: 'createChart', chartId, name: chartName, config, actor });
          bind(acct, chartId, chartId, label);
        },
      };
    },
    call: (m, { t }) =>
      v1Post(t, SAVE_FROM_CHAT, secretOf(accountAt(m, a), who, token), {
        chartConfig: config,
        name: chartName,
      }),
  };
};

/** §5: one account's API key reading the other account's workspace list is refused. */
const foreignListCmd = (a: number): Cmd => ({
  kind: 'call',
  label: `v1 list of account#${a + 1}'s workspace with account#${a}'s API key`,
  pre: () => true,
  verdict: () => ({ kind: 'refused', why: "the other account's workspace (§5)" }),
  call: (m, { t }) => {
    const other = accountAt(m, a + 1);
    const { path } = openEndpoint(t, 'v1ListWorkspaceDashboards', {
      workspaceId: other.workspaceId,
    });
    return t.http.get(path, {
      query: { apiKey: accountAt(m, a).w.creds().apiKey, workspaceId: other.workspaceId },
    });
  },
});

/** One account: a workspace of two shared dashboards, mirrored in the model, and its tenants. */
async function accountWorld(
  t: Conformance,
  second: RolePermissions,
  tenants: boolean,
): Promise<Account> {
  const w = await buildWorld(t);
  const acct: Account = {
    w,
    state: emptyDashboards(),
    workspaceId: '',
    tenants: [],
    toModel: new Map(),
    toReal: new Map(),
  };
  const { workspaceId } = await sharedContent(t, w, acct, true);
  const made: Tenant[] = [];
  if (tenants)
    for (const [k, permissions] of [EDITOR, second, EDITOR].entries()) {
      // The same columns (and name) again: the same tenant, another JWT.
      const columns = { customer_id: t.faker.string.alphanumeric(10) };
      const tokens: string[] = [];
      for (let j = 0; j < TOKENS; j++)
        tokens.push(await tenantToken(t, w, permissions as Record<string, boolean>, columns));
      made.push({ tenantId: `tenant-${k}`, permissions, tokens });
    }
  return { ...acct, state: acct.state, workspaceId, tenants: made };
}

const who: fc.Arbitrary<Who> = fc.oneof(
  fc.constant<Who>('api'),
  fc.nat({ max: TENANTS - 1 }),
  fc.nat({ max: TENANTS - 1 }),
);
const aim: fc.Arbitrary<Aim> = fc.record({
  a: fc.nat({ max: 1 }),
  who,
  token: fc.nat({ max: TOKENS - 1 }),
  kind: WRITE_KINDS,
  reach: fc.constantFrom<Reach>(
    'own',
    'own',
    'own',
    'own',
    'own',
    'other-account',
    'other-tenant',
    'unknown',
  ),
  entry: fc.nat({ max: 7 }),
  chart: fc.nat({ max: 7 }),
  source: fc.nat({ max: 7 }),
});

conformance(
  [
    'dashboards.clone.deep-copy',
    'dashboards.clone.name-default-copy',
    'dashboards.clone.response-shape',
    'dashboards.append-charts-from.effect',
    'dashboards.remove-charts.removes-from-layout',
    'charts.save-from-chat.response-shape',
    'charts.save-from-chat.chart-id-usable',
    'permissions.editing.edits-go-to-own-copy',
    'permissions.editing.empty-is-view-only',
    'permissions.read-only.refuses-dashboard-writes',
    'dashboards.copy.replaces-shared',
    'dashboards.copy.one-entry',
    'dashboards.v1-record.tenant-id-own',
    'auth.isolation.refused-changes-nothing',
    'errors.refused.changes-nothing',
  ],
  `model runs over v1 dashboards, copies and charts saved from chat in two accounts (${budgetLine('v1', BUDGET)})`,
  async (t) => {
    let run = 0;
    const follows: Follows = {
      ...v1FollowsOf(t),
      savingChecked: states(t, 'charts.save-from-chat.permissions'),
    };
    await modelRuns<Model, Real>(t, {
      area: 'v1',
      budget: BUDGET,
      commands: [
        ...Array.from({ length: 6 }, () => aim.map(writeCmd)),
        fc
          .tuple(fc.nat({ max: 1 }), who, fc.nat({ max: TOKENS - 1 }))
          .map(([a, w, k]) => saveCmd(a, w, k)),
        fc.nat({ max: 1 }).map(foreignListCmd),
      ],
      world: async () => {
        // The second tenant's role differs from run to run (and between the two accounts).
        run += 1;
        const [first, second] = secondRolesOf(run);
        const accounts = [
          await accountWorld(t, first, follows.tenants),
          await accountWorld(t, second, follows.tenants),
        ];
        return { model: { accounts, follows }, real: { t } };
      },
      inStep: async (m, { t }, after) => {
        const readers: Who[] = [
          ...(m.follows.apiKeyView ? (['api'] as const) : []),
          ...(m.follows.tenants ? Array.from({ length: TENANTS }, (_, k) => k) : []),
        ];
        // Every list is read at once (nothing changes between the reads), then compared in turn.
        const reads = m.accounts.flatMap((acct) => readers.map((reader) => ({ acct, reader })));
        const shown = await Promise.all(
          reads.map(({ acct, reader }) =>
            dashboardsOf(t, acct.w, acct.workspaceId, readerOf(acct, reader)),
          ),
        );
        reads.forEach(({ acct, reader }, i) => {
          expectListInStep(acct, reader, shown[i] ?? [], after);
        });
      },
    });
  },
  {
    id: 'model-runs',
    needs: CONTENT,
    parts: ['v1-dashboards'],
    relies: READ_BACK,
    timeout: 180_000,
  },
);
