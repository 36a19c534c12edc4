import {
  buildWorld,
  createRole,
  registerOrganization,
  type Given,
  type World,
} from '../harness/given/accounts.ts';
import { createDashboard, createWorkspace, sharedDashboard } from '../harness/given/dashboards.ts';
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

/** The run's world: one account (the shared builder's) and what the clients act on. */
interface Workload extends World {
  readonly apiKey: string;
  readonly projectOrganizationId: string;
  readonly roles: readonly { readonly id: string; readonly init: RoleState }[];
  /** A role one client deletes halfway through while the others list it. */
  readonly doomed: { readonly id: string; readonly init: RoleState } | null;
  readonly workspaceId: string;
  readonly dashboards: readonly string[];
  /** Charts of the account, made on a dashboard of another workspace; client c owns a slice. */
  readonly charts: readonly string[];
}

/** Roles with no flag set, and a project organization for the users (identity entities). */
async function identityParts(t: Given, account: World, settings: Settings) {
  const role = async () => {
    const permissions = Object.fromEntries(FLAGS.map((f) => [f, false]));
    const made = await createRole(t, account, permissions);
    return { id: made.id, init: { name: made.name, permissions: flagsOf(permissions) } };
  };
  const roles = [];
  for (let r = 0; r < settings.roles; r++) roles.push(await role());
  const doomed = settings.entities.includes('roles') ? await role() : null;
  const { projectOrganizationId } = await registerOrganization(t, account);
  return { roles, doomed, projectOrganizationId };
}

/** Empty dashboards of one workspace to edit, and the clients' charts on a shelf of their own. */
async function layoutParts(t: Given, account: World, settings: Settings) {
  const edited = await createWorkspace(t, account);
  const dashboards = [edited.dashboardId];
  while (dashboards.length < settings.dashboards)
    dashboards.push(
      (await createDashboard(t, account, edited.workspaceId, `board ${dashboards.length}`))
        .dashboardId,
    );
  // The charts live on a dashboard of another workspace, so the edited ones start empty.
  const shelf = await sharedDashboard(t, account, settings.clients * settings.chartsPerClient);
  return {
    workspaceId: edited.workspaceId,
    dashboards,
    charts: shelf.charts.map((chart) => chart.chartId),
  };
}

/** The world, built with the shared builders (suites/harness/given/). */
async function buildWorkload(t: Given, settings: Settings): Promise<Workload> {
  const account = await buildWorld(t);
  const identity = settings.entities.includes('roles') || settings.entities.includes('users');
  return {
    ...account,
    apiKey: account.creds().apiKey,
    ...(identity
      ? await identityParts(t, account, settings)
      : { roles: [], doomed: null, projectOrganizationId: '' }),
    ...(settings.entities.includes('layouts')
      ? await layoutParts(t, account, settings)
      : { workspaceId: '', dashboards: [], charts: [] }),
  };
}

/** One entity's history, keyed for the checker. */
interface Recorded<I, O> {
  readonly key: string;
  readonly op: Operation<I, O>;
}

/** What the steps of one run share: its world, the target's shapes and what was recorded. */
interface Run {
  readonly t: Given;
  readonly shapes: Shapes;
  readonly settings: Settings;
  readonly world: Workload;
  /** Every role the clients see, the doomed one included. */
  readonly allRoles: Workload['roles'];
  /** The user ids each client registers (seeded). */
  readonly users: readonly (readonly string[])[];
  readonly everyUser: readonly string[];
  readonly roleOps: Recorded<RoleInput, RoleOutput>[];
  readonly userOps: Recorded<UserInput, UserOutput>[];
  readonly layoutOps: Recorded<LayoutInput, LayoutOutput>[];
  readonly anomalies: string[];
}

/** One client: its seeded choices, its users and charts, and where it put them. */
interface Client {
  readonly c: number;
  readonly next: () => number;
  readonly mine: readonly string[];
  readonly charts: readonly string[];
  /** Where this client believes its charts are (it alone adds and removes them). */
  readonly placed: Set<string>;
  registered: number;
  serial: number;
}

const pick = <T>(client: Client, xs: readonly T[]): T =>
  xs[Math.floor(client.next() * xs.length)] as T;

/** A request's answer with the client's timing: when it was sent and when the answer came. */
interface Timed {
  readonly answer: Reply;
  readonly sent: number;
  readonly back: number;
}

/** Sends one request and gives its answer with the client's timing; a 5xx is an anomaly. */
async function timed(
  run: Run,
  what: string,
  method: string,
  path: string,
  options: CallOptions,
): Promise<Timed> {
  const sent = performance.now();
  const answer = await run.t.http.call(method, path, options);
  const back = performance.now();
  if (answer.status >= 500)
    run.anomalies.push(`${what}: ${method} ${path} answered ${answer.status}`);
  return { answer, sent, back };
}

/** An operation of a client, timed as its request was. */
const operation = <I, O>(client: Client, at: Timed, input: I, output: O): Operation<I, O> => ({
  client: client.c,
  input,
  output,
  call: at.sent,
  ret: at.back,
});

/** A read that could not be read: the anomaly it is. */
const unreadable = (run: Run, what: string, at: Timed) =>
  run.anomalies.push(
    `${what} answered ${at.answer.status}: ${JSON.stringify(at.answer.body).slice(0, 200)}`,
  );

type Step = 'role update' | 'role list' | 'user' | 'token' | 'chart' | 'list';

/** Picks a step by its weight among those of the run's entities. */
function chooser(settings: Settings): (x: number) => Step | undefined {
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
  return (x) => {
    let at = x * total;
    for (const [name, , weight] of choices) {
      if (at < weight) return name;
      at -= weight;
    }
    return choices.at(-1)?.[0];
  };
}

/** §4.3: the doomed role goes while the others keep listing it. */
async function deleteDoomedRole(run: Run, client: Client): Promise<void> {
  const doomed = run.world.doomed as { readonly id: string };
  const at = await timed(run, 'role delete', 'DELETE', rolePath(run.world, doomed.id), {
    query: { apiKey: run.world.apiKey },
  });
  run.roleOps.push({
    key: doomed.id,
    op: operation(client, at, { kind: 'delete' }, { kind: 'delete', ok: ok(at.answer) }),
  });
}

/** §4.1: a new name (unique to this write) and the four flags, all set. */
async function updateRole(run: Run, client: Client): Promise<void> {
  const role = pick(client, run.world.roles);
  const name = `c${client.c}-${client.serial++}`;
  const permissions = Object.fromEntries(FLAGS.map((f) => [f, client.next() < 0.5]));
  const at = await timed(run, 'role update', 'PUT', rolePath(run.world, role.id), {
    body: { apiKey: run.world.apiKey, name, permissions },
  });
  const answered = data(at.answer)?.['name'];
  run.roleOps.push({
    key: role.id,
    op: operation(
      client,
      at,
      { kind: 'update', name, permissions: flagsOf(permissions) },
      {
        kind: 'update',
        ok: ok(at.answer),
        ...(typeof answered === 'string' ? { name: answered } : {}),
      },
    ),
  });
}

/** §4.2: one read of every role at once, split into one read per role. */
async function listRoles(run: Run, client: Client): Promise<void> {
  const at = await timed(run, 'role list', 'GET', rolesPath(run.world), {
    query: { apiKey: run.world.apiKey },
  });
  const listed = data(at.answer)?.['userRoles'];
  if (!ok(at.answer) || !Array.isArray(listed)) return void unreadable(run, 'role list', at);
  for (const role of run.allRoles) {
    const found = (listed as Record<string, unknown>[]).find((r) => r['id'] === role.id);
    run.roleOps.push({
      key: role.id,
      op: operation(
        client,
        at,
        { kind: 'read' },
        {
          kind: 'read',
          role:
            found === undefined
              ? null
              : { name: String(found['name']), permissions: flagsOf(found['permissions']) },
        },
      ),
    });
  }
}

/** §4.5 with a userId of the client's own; once all are in, §4.6 updates of them. */
async function registerOrUpdateUser(run: Run, client: Client, i: number): Promise<void> {
  const { world } = run;
  if (client.registered < client.mine.length) {
    const userId = client.mine[client.registered++] as string;
    const at = await timed(run, 'register-user', 'POST', REGISTER_USER, {
      body: {
        apiKey: world.apiKey,
        projectId: world.projectId,
        userId,
        name: `user ${userId.slice(0, 8)}`,
        properties: { client: client.c },
        userRoleId: pick(client, world.roles).id,
        projectOrganizationId: world.projectOrganizationId,
      },
    });
    run.userOps.push({
      key: userId,
      op: operation(client, at, { kind: 'register' }, { ok: ok(at.answer) }),
    });
    return;
  }
  const userId = pick(client, client.mine);
  const at = await timed(run, 'user update', 'PUT', userPath(world, userId), {
    body: {
      apiKey: world.apiKey,
      name: `renamed ${client.serial++}`,
      properties: { client: client.c, at: i },
    },
  });
  run.userOps.push({
    key: userId,
    op: operation(client, at, { kind: 'update' }, { ok: ok(at.answer) }),
  });
}

/** §4.7 for any client's user, registered or not yet. */
async function askToken(run: Run, client: Client): Promise<void> {
  const userId = pick(client, run.everyUser);
  const at = await timed(run, 'user-token', 'POST', USER_TOKEN, {
    body: { apiKey: run.world.apiKey, userId },
  });
  run.userOps.push({
    key: userId,
    op: operation(client, at, { kind: 'token' }, { ok: ok(at.answer) }),
  });
}

/** One of the client's charts on or off one dashboard (v1 add-charts, §4.12 remove). */
async function moveChart(run: Run, client: Client): Promise<void> {
  const { shapes, world } = run;
  const dashboardId = pick(client, world.dashboards);
  const chartId = pick(client, client.charts);
  const where = `${dashboardId} ${chartId}`;
  const adding = !client.placed.has(where);
  const at = adding
    ? await timed(run, 'add-charts', 'POST', shapes.addChartsPath(dashboardId), {
        headers: shapes.authorization(world.apiKey),
        body: { targetDashboardId: dashboardId, charts: [chartId] },
      })
    : await timed(run, 'remove-charts', 'POST', REMOVE, {
        headers: shapes.authorization(world.apiKey),
        body: { dashboardId, chartIds: [chartId] },
      });
  if (ok(at.answer)) {
    if (adding) client.placed.add(where);
    else client.placed.delete(where);
  }
  const kind = adding ? 'add' : 'remove';
  run.layoutOps.push({
    key: dashboardId,
    op: operation(client, at, { kind, chartId }, { kind, ok: ok(at.answer) }),
  });
}

/** One dashboard's layout as the host hook shows it. */
async function readLayoutByHook(run: Run, client: Client): Promise<void> {
  const dashboardId = pick(client, run.world.dashboards);
  const at = await timed(
    run,
    'dashboard-charts',
    'GET',
    `/accounts/${run.world.account.organizationId}/dashboards/${dashboardId}/charts`,
    { base: 'hooks' },
  );
  const chartIds = data(at.answer)?.['chartIds'];
  if (!ok(at.answer) || !Array.isArray(chartIds))
    return void unreadable(run, 'dashboard-charts', at);
  run.layoutOps.push({
    key: dashboardId,
    op: operation(
      client,
      at,
      { kind: 'read' },
      { kind: 'read', layout: layoutOf(chartIds.map(String)) },
    ),
  });
}

/** The workspace's dashboards with their layouts, one read per dashboard. */
async function readLayoutsByList(run: Run, client: Client, member: string): Promise<void> {
  const { world } = run;
  const at = await timed(
    run,
    'list-workspace-dashboards',
    'GET',
    run.shapes.listDashboardsPath(world.workspaceId),
    { query: { apiKey: world.apiKey, workspaceId: world.workspaceId } },
  );
  const listed = data(at.answer)?.['dashboards'];
  if (!ok(at.answer) || !Array.isArray(listed))
    return void unreadable(run, 'list-workspace-dashboards', at);
  for (const dashboardId of world.dashboards) {
    const found = (listed as Record<string, unknown>[]).find((d) => d['id'] === dashboardId);
    const chartIds = found?.[member];
    run.layoutOps.push({
      key: dashboardId,
      op: operation(
        client,
        at,
        { kind: 'read' },
        { kind: 'read', layout: Array.isArray(chartIds) ? layoutOf(chartIds.map(String)) : null },
      ),
    });
  }
}

/** Client c's operations, one after another, each chosen by its seeded draws. */
async function runClient(run: Run, c: number): Promise<void> {
  const { settings, shapes } = run;
  const client: Client = {
    c,
    next: seeded(settings.seed * 31 + c + 1),
    mine: run.users[c] ?? [],
    charts: run.world.charts.slice(
      c * settings.chartsPerClient,
      (c + 1) * settings.chartsPerClient,
    ),
    placed: new Set(),
    registered: 0,
    serial: 0,
  };
  const choose = chooser(settings);
  const doomedAt = Math.floor(settings.opsPerClient / 2);
  for (let i = 0; i < settings.opsPerClient; i++) {
    const step = choose(client.next());
    if (settings.entities.includes('roles') && c === 0 && i === doomedAt)
      await deleteDoomedRole(run, client);
    else if (step === 'role update') await updateRole(run, client);
    else if (step === 'role list') await listRoles(run, client);
    else if (step === 'user') await registerOrUpdateUser(run, client, i);
    else if (step === 'token') await askToken(run, client);
    else if (step === 'chart') await moveChart(run, client);
    else if ('hook' in shapes.layout) await readLayoutByHook(run, client);
    else await readLayoutsByList(run, client, shapes.layout.listMember);
  }
}

/** Each entity's history, split by key and checked against its model. */
function checkHistories(run: Run): PartitionReport[] {
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
  const initialRole = (key: string): RoleState =>
    run.allRoles.find((r) => r.id === key)?.init ?? null;
  checkAll('role', roleModel, initialRole, run.roleOps);
  checkAll('user', userModel, () => false, run.userOps);
  checkAll<LayoutState, LayoutInput, LayoutOutput>('layout', layoutModel, () => '', run.layoutOps);
  return partitions;
}

/** Builds the world, runs the clients, then checks every entity's history. */
export async function runConcurrency(
  t: Given,
  shapes: Shapes,
  settings: Settings,
): Promise<Report> {
  const world = await buildWorkload(t, settings);
  const users = Array.from({ length: settings.clients }, (_, c) => {
    const next = seeded(settings.seed * 7919 + c * 104729 + 1);
    return Array.from({ length: settings.usersPerClient }, () => uuidFrom(next));
  });
  const run: Run = {
    t,
    shapes,
    settings,
    world,
    allRoles: world.doomed === null ? world.roles : [...world.roles, world.doomed],
    users,
    everyUser: users.flat(),
    roleOps: [],
    userOps: [],
    layoutOps: [],
    anomalies: [],
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: settings.clients }, (_, c) => runClient(run, c)));
  const seconds = (performance.now() - began) / 1000;
  const checking = performance.now();
  const partitions = checkHistories(run);
  return {
    operations: settings.clients * settings.opsPerClient,
    seconds,
    anomalies: run.anomalies,
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
