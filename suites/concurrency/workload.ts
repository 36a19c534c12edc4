import {
  buildWorld as buildAccount,
  createRole,
  registerOrganization,
  type Given,
} from '../harness/given/accounts.ts';
import { createChart, createDashboard, createWorkspace } from '../harness/given/dashboards.ts';
import type { CallOptions, Reply } from '../harness/http.ts';
import {
  REGISTER_USER,
  REMOVE,
  USER_TOKEN,
  rolePath,
  rolesPath,
  userPath,
} from '../harness/paths.ts';
import { seeded, uuidFrom } from '../harness/random.ts';
import {
  checkLinearizable,
  type Model,
  type Operation,
  type Verdict,
} from '../harness/linearizability.ts';
import {
  FLAGS,
  layoutModel,
  layoutOf,
  roleModel,
  userModel,
  type LayoutInput,
  type LayoutOutput,
  type LayoutState,
  type RoleInput,
  type RoleOutput,
  type RoleState,
  type UserInput,
  type UserOutput,
} from './models.ts';

/**
 * N clients acting at once on one account's roles, users, tokens and dashboards (issue 11,
 * part 5), each recording when it sent every request and when the answer came; then each
 * entity's history is checked for linearizability against its model (models.ts). Used by the
 * short conformance run (linearizable.test.ts) and the full one (tools/concurrency.ts): both
 * hand it the harness's HTTP client and hooks (a test's, or `givenFor` a target), and it builds
 * its world with the given/ builders.
 */

/** What the document leaves open and the target's profile states. */
export interface Shapes {
  /** Path of the v1 add-charts (`{targetDashboardId, charts}`) for a target dashboard. */
  readonly addChartsPath: (targetDashboardId: string) => string;
  /** Path of the v1 list-workspace-dashboards (query workspaceId) for a workspace. */
  readonly listDashboardsPath: (workspaceId: string) => string;
  /** The authorization header carrying an API key, as the v1 writes take it. */
  readonly authorization: (apiKey: string) => Record<string, string>;
  /**
   * Where a dashboard's layout is read: the member of the v1 list items the profile names
   * (one list read observes every dashboard), or the read-only dashboard-charts host hook
   * (one read a dashboard), since §2.8 shows no layout member.
   */
  readonly layout: { readonly listMember: string } | { readonly hook: true };
}

/** The entities a run acts on: roles (§4.1–§4.3), users and tokens (§4.5–§4.7), layouts. */
export type Entity = 'roles' | 'users' | 'layouts';

export interface Settings {
  readonly entities: readonly Entity[];
  readonly clients: number;
  readonly opsPerClient: number;
  readonly seed: number;
  /** Roles every client updates and lists. */
  readonly roles: number;
  /** Users each client registers (others ask tokens for them, registered or not yet). */
  readonly usersPerClient: number;
  /** Shared dashboards whose layouts the clients edit. */
  readonly dashboards: number;
  /** Charts each client adds to and removes from the dashboards (its own, so adds never repeat). */
  readonly chartsPerClient: number;
}

export const SHORT: Omit<Settings, 'seed' | 'entities'> = {
  clients: 4,
  opsPerClient: 100,
  roles: 2,
  usersPerClient: 8,
  dashboards: 2,
  chartsPerClient: 2,
};

export const FULL: Omit<Settings, 'seed' | 'entities'> = {
  clients: 16,
  opsPerClient: 1_000,
  roles: 4,
  usersPerClient: 40,
  dashboards: 4,
  chartsPerClient: 2,
};

export interface PartitionReport {
  readonly entity: 'role' | 'user' | 'layout';
  readonly key: string;
  readonly operations: number;
  readonly verdict: Verdict;
  readonly ms: number;
}

export interface Report {
  readonly operations: number;
  readonly seconds: number;
  /** Answers no model could take: 5xx, unreadable reads. Each one fails the run. */
  readonly anomalies: readonly string[];
  readonly partitions: readonly PartitionReport[];
  readonly checkerMs: number;
}

const ok = (a: Reply) => a.status >= 200 && a.status < 300;

function data(a: Reply): Record<string, unknown> | undefined {
  const d = (a.body as { data?: unknown } | null)?.data;
  return typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : undefined;
}

const flagsOf = (permissions: unknown): string => {
  const p = (typeof permissions === 'object' && permissions !== null ? permissions : {}) as Record<
    string,
    unknown
  >;
  return FLAGS.map((f) => `${f}:${p[f] === true ? 1 : 0}`).join(',');
};

interface World {
  readonly organizationId: string;
  readonly apiKey: string;
  readonly projectId: string;
  readonly projectOrganizationId: string;
  readonly roles: readonly { readonly id: string; readonly init: RoleState }[];
  /** A role one client deletes halfway through while the others list it. */
  readonly doomed: { readonly id: string; readonly init: RoleState } | null;
  readonly workspaceId: string;
  readonly dashboards: readonly string[];
  /** Charts of the account, made on a dashboard of another workspace; client c owns a slice. */
  readonly charts: readonly string[];
}

async function buildWorld(t: Given, settings: Settings): Promise<World> {
  const account = await buildAccount(t);
  const { organizationId } = account.account;
  const { apiKey } = account.creds();
  const { projectId } = account;
  const role = async (permissions: Record<string, boolean>) => {
    const made = await createRole(t, account, permissions);
    return { id: made.id, init: { name: made.name, permissions: flagsOf(permissions) } };
  };
  const none = () => Object.fromEntries(FLAGS.map((f) => [f, false]));
  const identity = settings.entities.includes('roles') || settings.entities.includes('users');
  const roles = [];
  let doomed: World['doomed'] = null;
  let projectOrganizationId = '';
  if (identity) {
    for (let r = 0; r < settings.roles; r++) roles.push(await role(none()));
    if (settings.entities.includes('roles')) doomed = await role(none());
    projectOrganizationId = (await registerOrganization(t, account)).projectOrganizationId;
  }
  let workspaceId = '';
  const dashboards: string[] = [];
  const charts: string[] = [];
  if (settings.entities.includes('layouts')) {
    const workspace = await createWorkspace(t, account, { name: 'edited' });
    workspaceId = workspace.workspaceId;
    dashboards.push(workspace.dashboardId);
    while (dashboards.length < settings.dashboards)
      dashboards.push(
        (await createDashboard(t, account, workspaceId, `board ${dashboards.length}`)).dashboardId,
      );
    // The charts live on a dashboard of another workspace, so the edited ones start empty.
    const shelf = await createWorkspace(t, account, { name: 'chart shelf' });
    for (let c = 0; c < settings.clients * settings.chartsPerClient; c++)
      charts.push((await createChart(t, account, shelf.dashboardId, `chart ${c}`)).chartId);
  }
  return {
    organizationId,
    apiKey,
    projectId,
    projectOrganizationId,
    roles,
    doomed,
    workspaceId,
    dashboards,
    charts,
  };
}

/** One entity's history, keyed for the checker. */
interface Recorded<I, O> {
  readonly key: string;
  readonly op: Operation<I, O>;
}

/** Runs the clients, then checks every entity's history. */
export async function runConcurrency(
  t: Given,
  shapes: Shapes,
  settings: Settings,
): Promise<Report> {
  const world = await buildWorld(t, settings);
  const { apiKey, projectId } = world;
  const roleOps: Recorded<RoleInput, RoleOutput>[] = [];
  const userOps: Recorded<UserInput, UserOutput>[] = [];
  const layoutOps: Recorded<LayoutInput, LayoutOutput>[] = [];
  const anomalies: string[] = [];
  const allRoles = world.doomed === null ? world.roles : [...world.roles, world.doomed];
  const users = Array.from({ length: settings.clients }, (_, c) => {
    const next = seeded(settings.seed * 7919 + c * 104729 + 1);
    return Array.from({ length: settings.usersPerClient }, () => uuidFrom(next));
  });
  const everyUser = users.flat();

  /** Sends one request and gives its answer with the client's timing. */
  const timed = async (what: string, method: string, path: string, options: CallOptions) => {
    const sent = performance.now();
    const answer = await t.http.call(method, path, options);
    const back = performance.now();
    if (answer.status >= 500)
      anomalies.push(`${what}: ${method} ${path} answered ${answer.status}`);
    return { answer, sent, back };
  };

  const choices = (
    [
      ['role update', 'roles', 18],
      ['role list', 'roles', 15],
      ['user', 'users', 15],
      ['token', 'users', 18],
      ['chart', 'layouts', 18],
      ['list', 'layouts', 16],
    ] as const
  ).filter(([, entity]) => settings.entities.includes(entity));
  const total = choices.reduce((n, [, , weight]) => n + weight, 0);
  const choose = (x: number) => {
    let at = x * total;
    for (const [name, , weight] of choices) {
      if (at < weight) return name;
      at -= weight;
    }
    return choices.at(-1)?.[0];
  };
  const doomedBy = (c: number, i: number) =>
    settings.entities.includes('roles') && c === 0 && i === Math.floor(settings.opsPerClient / 2);

  const client = async (c: number) => {
    const next = seeded(settings.seed * 31 + c + 1);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const mine = users[c] ?? [];
    let registered = 0;
    const charts = world.charts.slice(
      c * settings.chartsPerClient,
      (c + 1) * settings.chartsPerClient,
    );
    /** Where this client believes its charts are (it alone adds and removes them). */
    const placed = new Set<string>();
    let serial = 0;
    for (let i = 0; i < settings.opsPerClient; i++) {
      const op = choose(next());
      if (doomedBy(c, i)) {
        // §4.3: the doomed role goes while the others keep listing it.
        const doomed = world.doomed as { readonly id: string };
        const t = await timed('role delete', 'DELETE', rolePath(world, doomed.id), {
          query: { apiKey },
        });
        roleOps.push({
          key: doomed.id,
          op: {
            client: c,
            input: { kind: 'delete' },
            output: { kind: 'delete', ok: ok(t.answer) },
            call: t.sent,
            ret: t.back,
          },
        });
      } else if (op === 'role update') {
        // §4.1: a new name (unique to this write) and the four flags, all set.
        const role = pick(world.roles);
        const name = `c${c}-${serial++}`;
        const permissions = Object.fromEntries(FLAGS.map((f) => [f, next() < 0.5]));
        const t = await timed('role update', 'PUT', rolePath(world, role.id), {
          body: { apiKey, name, permissions },
        });
        const answered = data(t.answer)?.['name'];
        roleOps.push({
          key: role.id,
          op: {
            client: c,
            input: { kind: 'update', name, permissions: flagsOf(permissions) },
            output: {
              kind: 'update',
              ok: ok(t.answer),
              ...(typeof answered === 'string' ? { name: answered } : {}),
            },
            call: t.sent,
            ret: t.back,
          },
        });
      } else if (op === 'role list') {
        // §4.2: one read of every role at once, split into one read per role.
        const t = await timed('role list', 'GET', rolesPath(world), {
          query: { apiKey },
        });
        const listed = data(t.answer)?.['userRoles'];
        if (!ok(t.answer) || !Array.isArray(listed)) {
          anomalies.push(
            `role list answered ${t.answer.status}: ${JSON.stringify(t.answer.body).slice(0, 200)}`,
          );
          continue;
        }
        for (const role of allRoles) {
          const found = (listed as Record<string, unknown>[]).find((r) => r['id'] === role.id);
          roleOps.push({
            key: role.id,
            op: {
              client: c,
              input: { kind: 'read' },
              output: {
                kind: 'read',
                role:
                  found === undefined
                    ? null
                    : { name: String(found['name']), permissions: flagsOf(found['permissions']) },
              },
              call: t.sent,
              ret: t.back,
            },
          });
        }
      } else if (op === 'user') {
        // §4.5 with a userId of the client's own; once all are in, §4.6 updates of them.
        if (registered < mine.length) {
          const userId = mine[registered++] as string;
          const t = await timed('register-user', 'POST', REGISTER_USER, {
            body: {
              apiKey,
              projectId,
              userId,
              name: `user ${userId.slice(0, 8)}`,
              properties: { client: c },
              userRoleId: pick(world.roles).id,
              projectOrganizationId: world.projectOrganizationId,
            },
          });
          userOps.push({
            key: userId,
            op: {
              client: c,
              input: { kind: 'register' },
              output: { ok: ok(t.answer) },
              call: t.sent,
              ret: t.back,
            },
          });
        } else {
          const userId = pick(mine);
          const t = await timed('user update', 'PUT', userPath(world, userId), {
            body: { apiKey, name: `renamed ${serial++}`, properties: { client: c, at: i } },
          });
          userOps.push({
            key: userId,
            op: {
              client: c,
              input: { kind: 'update' },
              output: { ok: ok(t.answer) },
              call: t.sent,
              ret: t.back,
            },
          });
        }
      } else if (op === 'token') {
        // §4.7 for any client's user, registered or not yet.
        const userId = pick(everyUser);
        const t = await timed('user-token', 'POST', USER_TOKEN, {
          body: { apiKey, userId },
        });
        userOps.push({
          key: userId,
          op: {
            client: c,
            input: { kind: 'token' },
            output: { ok: ok(t.answer) },
            call: t.sent,
            ret: t.back,
          },
        });
      } else if (op === 'chart') {
        // One of the client's charts on or off one dashboard (v1 add-charts, §4.12 remove).
        const dashboardId = pick(world.dashboards);
        const chartId = pick(charts);
        const where = `${dashboardId} ${chartId}`;
        const adding = !placed.has(where);
        const t = adding
          ? await timed('add-charts', 'POST', shapes.addChartsPath(dashboardId), {
              headers: shapes.authorization(apiKey),
              body: { targetDashboardId: dashboardId, charts: [chartId] },
            })
          : await timed('remove-charts', 'POST', REMOVE, {
              headers: shapes.authorization(apiKey),
              body: { dashboardId, chartIds: [chartId] },
            });
        if (ok(t.answer)) {
          if (adding) placed.add(where);
          else placed.delete(where);
        }
        const kind = adding ? 'add' : 'remove';
        layoutOps.push({
          key: dashboardId,
          op: {
            client: c,
            input: { kind, chartId },
            output: { kind, ok: ok(t.answer) },
            call: t.sent,
            ret: t.back,
          },
        });
      } else if ('hook' in shapes.layout) {
        // One dashboard's layout as the host hook shows it.
        const dashboardId = pick(world.dashboards);
        const t = await timed(
          'dashboard-charts',
          'GET',
          `/accounts/${world.organizationId}/dashboards/${dashboardId}/charts`,
          { base: 'hooks' },
        );
        const chartIds = data(t.answer)?.['chartIds'];
        if (!ok(t.answer) || !Array.isArray(chartIds)) {
          anomalies.push(
            `dashboard-charts answered ${t.answer.status}: ${JSON.stringify(t.answer.body).slice(0, 200)}`,
          );
          continue;
        }
        layoutOps.push({
          key: dashboardId,
          op: {
            client: c,
            input: { kind: 'read' },
            output: { kind: 'read', layout: layoutOf(chartIds.map(String)) },
            call: t.sent,
            ret: t.back,
          },
        });
      } else {
        // The workspace's dashboards with their layouts, one read per dashboard.
        const member = shapes.layout.listMember;
        const t = await timed(
          'list-workspace-dashboards',
          'GET',
          shapes.listDashboardsPath(world.workspaceId),
          { query: { apiKey, workspaceId: world.workspaceId } },
        );
        const listed = data(t.answer)?.['dashboards'];
        if (!ok(t.answer) || !Array.isArray(listed)) {
          anomalies.push(
            `list-workspace-dashboards answered ${t.answer.status}: ${JSON.stringify(t.answer.body).slice(0, 200)}`,
          );
          continue;
        }
        for (const dashboardId of world.dashboards) {
          const found = (listed as Record<string, unknown>[]).find((d) => d['id'] === dashboardId);
          const chartIds = found?.[member];
          layoutOps.push({
            key: dashboardId,
            op: {
              client: c,
              input: { kind: 'read' },
              output: {
                kind: 'read',
                layout: Array.isArray(chartIds) ? layoutOf(chartIds.map(String)) : null,
              },
              call: t.sent,
              ret: t.back,
            },
          });
        }
      }
    }
  };

  const began = performance.now();
  await Promise.all(Array.from({ length: settings.clients }, (_, c) => client(c)));
  const seconds = (performance.now() - began) / 1000;

  const partitions: PartitionReport[] = [];
  const checkAll = <S, I, O>(
    entity: PartitionReport['entity'],
    model: Model<S, I, O>,
    initial: (key: string) => S,
    recorded: readonly Recorded<I, O>[],
  ) => {
    const byKey = new Map<string, Operation<I, O>[]>();
    for (const { key, op } of recorded) {
      const ops = byKey.get(key);
      if (ops === undefined) byKey.set(key, [op]);
      else ops.push(op);
    }
    for (const [key, ops] of byKey) {
      const t0 = performance.now();
      const verdict = checkLinearizable(model, initial(key), ops);
      partitions.push({ entity, key, operations: ops.length, verdict, ms: performance.now() - t0 });
    }
  };
  const checking = performance.now();
  const initialRole = (key: string): RoleState => allRoles.find((r) => r.id === key)?.init ?? null;
  checkAll('role', roleModel, initialRole, roleOps);
  checkAll('user', userModel, () => false, userOps);
  checkAll<LayoutState, LayoutInput, LayoutOutput>('layout', layoutModel, () => '', layoutOps);
  return {
    operations: settings.clients * settings.opsPerClient,
    seconds,
    anomalies,
    partitions,
    checkerMs: performance.now() - checking,
  };
}

/** The partitions no sequential order explains (or the checker could not decide), for a report. */
export function findings(report: Report): string[] {
  return report.partitions
    .filter((p) => p.verdict.result !== 'linearizable')
    .map((p) => {
      const v = p.verdict;
      if (v.result === 'unknown') return `${p.entity} ${p.key}: undecided (${v.reason})`;
      if (v.result === 'linearizable') return '';
      return [
        `${p.entity} ${p.key}: no sequential order explains its ${p.operations} operations; ${v.explained} explained, the last of them:`,
        ...v.lastExplained.map((line) => `    ${line}`),
        `  then nothing explains: ${v.unexplained}`,
      ].join('\n');
    });
}
