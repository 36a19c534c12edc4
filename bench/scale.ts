/**
 * How the reference scales with the records it holds (issue 7, part 0). Through the HTTP API
 * of a freshly started reference (its own process, so its RSS is its own):
 *
 * - users: one account, one project, a few roles, 100 project organizations, then users
 *   registered against them by externalId; a user-token p50 at each size;
 * - dashboards: in the same account, 100 workspaces (host hook) each holding 100 dashboards
 *   (the workspace's primary one and 99 more, dashboards hook) of 5 charts (charts hook):
 *   10k dashboards, 50k charts; a p50 of v1 list-workspace-dashboards at each size, always on
 *   a full workspace (100 dashboards, 500 charts), so the list's own size stays the same and
 *   only the account's grows.
 *
 * Each latency figure is taken beside a control: a second reference process that stays small
 * (1k users, one workspace of 100 dashboards) answers the same request in alternating blocks.
 * Other work on this shared machine slows both alike; what the records cost shows in the
 * ratio measured/control, which is what the flatness goals are judged on (the raw p50 is
 * recorded beside it). Figures go to bench/results/scale.json under the run's label; nothing
 * here asserts a time.
 *
 *   npx tsx bench/scale.ts [--users 100000] [--dashboards 10000] [--max-seconds 300] [--label current]
 *
 * Goals (issue 7): the cost of one operation flat within 1.5x from 1k to 100k records, 100k
 * users in under 30 s, the reference's RSS under 300 MB.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    organizations: { type: 'string', default: '100' },
    dashboards: { type: 'string', default: '10000' },
    'max-seconds': { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '12' },
    label: { type: 'string', default: 'current' },
  },
});
const USERS = Number(args.users);
const ORGANIZATIONS = Number(args.organizations);
const DASHBOARDS = Number(args.dashboards);
const MAX_MS = Number(args['max-seconds']) * 1000;
const CONCURRENCY = Number(args.concurrency);
const ROLES = 5;
/** Latency samples per checkpoint, taken in blocks alternating with the control's. */
const SAMPLES = 500;
const SAMPLE_BLOCK = 25;
const SAMPLE_WARM_UP = 50;
/** Token issues in the warm-up account. */
const WARM_UP_TOKENS = 2_000;
/** Users registered in a throwaway account first, so the JIT is warm when counting starts. */
const WARM_UP_USERS = 10_000;
/** Full workspaces built in the warm-up account (the dashboards and charts hooks, the list). */
const WARM_UP_WORKSPACES = 5;
const WARM_UP_LISTS = 500;
/** The control reference's users. */
const CONTROL_USERS = 1_000;
/** Registrations between two readings of the reference's CPU time. */
const BATCH = 1_000;
const DASHBOARDS_PER_WORKSPACE = 100;
const CHARTS_PER_DASHBOARD = 5;
/** Workspaces filled between two readings of the reference's CPU time (1k dashboards). */
const WORKSPACES_PER_CHECKPOINT = 10;
const GOALS = {
  flatWithin: 1.5,
  users: 100_000,
  secondsFor100k: 30,
  rssMb: 300,
  dashboards: 10_000,
  charts: 50_000,
};

/** Sizes at which a checkpoint is taken: 1k, then every 10k. */
const checkpoints = [1_000, ...Array.from({ length: 10 }, (_, i) => (i + 1) * 10_000)].filter(
  (n) => n <= USERS,
);
if (!checkpoints.includes(USERS)) checkpoints.push(USERS);

// ── The reference, in a child process that reports its own memory over IPC ──

/** What the reference's process reports about itself. */
interface Usage {
  readonly memory: { readonly rss: number; readonly heapUsed: number };
  /** CPU time of the whole process (all threads, GC included), in microseconds. */
  readonly cpu: { readonly user: number; readonly system: number };
}
interface Reference {
  readonly url: string;
  usage(): Promise<Usage>;
  /** A full GC in the reference, then its usage: the next figure starts from a clean heap. */
  settle(): Promise<Usage>;
  close(): Promise<void>;
}

async function startReference(seed: number): Promise<Reference> {
  const server = new URL('../reference/server.ts', import.meta.url).href;
  const code = `
const { start } = await import(${JSON.stringify(server)});
const ref = await start({ hooks: true, seed: ${seed} });
process.on('message', async (m) => {
  if (m === 'settle') globalThis.gc();
  if (m === 'usage' || m === 'settle') process.send({ memory: process.memoryUsage(), cpu: process.cpuUsage() });
  if (m === 'close') { await ref.close(); process.disconnect(); }
});
process.send({ url: ref.url });
`;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', code],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const exited = (status: number | null) =>
        reject(new Error(`the reference exited (${String(status)})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m);
      });
    });
  const { url } = (await next()) as { url: string };
  return {
    url,
    async usage() {
      const answer = next();
      child.send('usage');
      return (await answer) as Usage;
    },
    async settle() {
      const answer = next();
      child.send('settle');
      return (await answer) as Usage;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}

// ── HTTP: one keep-alive pool per reference, a fixed number of requests in flight ──

// Other work on the machine takes cores from both ends; the load average says how much.
const loadAtStart = loadavg().map((x) => Number(x.toFixed(2)));

interface Client {
  readonly reference: Reference;
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  get(path: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function client(seed: number): Promise<Client> {
  const reference = await startReference(seed);
  const pool = new Pool(reference.url, { connections: CONCURRENCY, pipelining: 1 });
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await pool.request({
      method,
      path,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await res.body.json()) as { data?: Record<string, unknown> };
    if (res.statusCode >= 300) {
      throw new Error(`${method} ${path} answered ${res.statusCode}: ${JSON.stringify(json)}`);
    }
    return json.data ?? {};
  };
  return {
    reference,
    post: (path, body) => send('POST', path, body),
    get: (path) => send('GET', path),
    async close() {
      await pool.close();
      await reference.close();
    },
  };
}

/** Runs `count` operations, `CONCURRENCY` at a time; gives each one's latency in ms. */
async function inFlight(
  count: number,
  op: (i: number) => Promise<unknown>,
  concurrency = CONCURRENCY,
): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await op(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}
const round = (x: number, digits = 2) => Number(x.toFixed(digits));
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
const cpuMs = (u: Usage) => (u.cpu.user + u.cpu.system) / 1000;

// ── The world the users go into: an account, a project, roles, organizations ──

interface Account {
  readonly client: Client;
  readonly organizationId: string;
  readonly apiKey: string;
  readonly projectId: string;
  readonly roleIds: readonly string[];
}

async function provision(c: Client, name: string): Promise<Account> {
  const account = await c.post('/__eac/accounts', { name });
  const organizationId = String(account['organizationId']);
  const apiKey = String(account['orgBoundKey']);
  const project = await c.post(`/__eac/accounts/${organizationId}/projects`, { name });
  const projectId = String(project['projectId']);
  const roleIds: string[] = [];
  for (let r = 0; r < ROLES; r++) {
    const role = await c.post(`/__eac/accounts/${organizationId}/projects/${projectId}/roles`, {
      name: `role ${r}`,
      permissions: { addChart: r % 2 === 0, readOnly: r === 4 },
    });
    roleIds.push(String(role['id']));
  }
  await inFlight(ORGANIZATIONS, (o) =>
    c.post('/v1/api/projects/register-organization', {
      apiKey,
      projectId,
      name: `organization ${o}`,
      externalId: `org-${o}`,
      properties: { region: o % 3 === 0 ? 'eu' : 'us' },
    }),
  );
  return { client: c, organizationId, apiKey, projectId, roleIds };
}

/** Registers user number `i` of `account`, by its organization's externalId. */
async function registerUser(account: Account, i: number): Promise<string> {
  const data = await account.client.post('/v1/api/projects/register-user', {
    apiKey: account.apiKey,
    projectId: account.projectId,
    name: `user ${i}`,
    properties: { tier: i % 4 },
    userRoleId: account.roleIds[i % ROLES],
    projectOrganizationId: `org-${i % ORGANIZATIONS}`,
  });
  return String(data['userId']);
}

const tokenIssue = (account: Account, userIds: readonly string[]) => (k: number) =>
  account.client.post('/v1/api/projects/user-token', {
    apiKey: account.apiKey,
    userId: userIds[(k * 7919) % userIds.length],
  });

/**
 * A full workspace: the hook makes it with its primary dashboard; 99 more dashboards, then 5
 * charts on each. Gives the workspace id.
 */
async function fillWorkspace(account: Account, w: number): Promise<string> {
  const { client: c, organizationId } = account;
  const made = await c.post(`/__eac/accounts/${organizationId}/workspaces`, {
    name: `workspace ${w}`,
    projectId: account.projectId,
    teamId: `team-${w % 7}`,
  });
  const workspaceId = String(made['workspaceId']);
  const dashboardIds = [String(made['dashboardId'])];
  await inFlight(DASHBOARDS_PER_WORKSPACE - 1, async (d) => {
    const dashboard = await c.post(
      `/__eac/accounts/${organizationId}/workspaces/${workspaceId}/dashboards`,
      { name: `dashboard ${w}.${d + 1}` },
    );
    dashboardIds.push(String(dashboard['dashboardId']));
  });
  await inFlight(dashboardIds.length * CHARTS_PER_DASHBOARD, (k) =>
    c.post(
      `/__eac/accounts/${organizationId}/dashboards/${dashboardIds[k % dashboardIds.length]}/charts`,
      {
        name: `chart ${w}.${k}`,
        chartConfig: { title: `chart ${k}`, type: k % 2 === 0 ? 'bar' : 'line' },
      },
    ),
  );
  return workspaceId;
}

const listDashboards = (account: Account, workspaceIds: readonly string[]) => (k: number) =>
  account.client.get(
    `/v1/api/dashboard/list-workspace-dashboards?apiKey=${encodeURIComponent(account.apiKey)}&workspaceId=${workspaceIds[(k * 7919) % workspaceIds.length]}`,
  );

/** One at a time, so the figure is a request's latency, not a queue's. */
const sequential = (count: number, op: (k: number) => Promise<unknown>, from = 0) =>
  inFlight(count, (k) => op(from + k), 1);

interface Paired {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly controlP50Ms: number;
  /** p50 over the control's p50, taken in the same minutes: the size's own effect. */
  readonly p50VsControl: number;
  /** The measured reference's CPU time per operation (its blocks only). */
  readonly cpuMs: number;
  readonly controlCpuMs: number;
  readonly cpuVsControl: number;
}

/**
 * SAMPLES operations on the measured reference and as many on the control, in blocks of
 * SAMPLE_BLOCK that alternate (which side goes first alternates too), each side's CPU time
 * read around its own blocks.
 */
async function paired(
  measured: { reference: Reference; op: (k: number) => Promise<unknown> },
  control: { reference: Reference; op: (k: number) => Promise<unknown> },
  from: number,
): Promise<Paired> {
  type Side = typeof measured & { times: number[]; cpu: number };
  const sides: [Side, Side] = [
    { ...measured, times: [], cpu: 0 },
    { ...control, times: [], cpu: 0 },
  ];
  for (const side of sides) await sequential(SAMPLE_WARM_UP, side.op, from);
  for (let block = 0; block < SAMPLES / SAMPLE_BLOCK; block++) {
    const order = block % 2 === 0 ? sides : [sides[1], sides[0]];
    for (const side of order) {
      const before = await side.reference.usage();
      const at = from + SAMPLE_WARM_UP + block * SAMPLE_BLOCK;
      side.times.push(...(await sequential(SAMPLE_BLOCK, side.op, at)));
      side.cpu += cpuMs(await side.reference.usage()) - cpuMs(before);
    }
  }
  const [m, c] = sides;
  const p50 = percentile(m.times, 50);
  const controlP50 = percentile(c.times, 50);
  return {
    p50Ms: round(p50),
    p95Ms: round(percentile(m.times, 95)),
    controlP50Ms: round(controlP50),
    p50VsControl: round(p50 / controlP50),
    cpuMs: round(m.cpu / SAMPLES, 4),
    controlCpuMs: round(c.cpu / SAMPLES, 4),
    cpuVsControl: round(m.cpu / c.cpu),
  };
}

/** The whole run, warm-up included, stops at the first batch past MAX_MS. */
const began = performance.now();
const outOfTime = () => performance.now() - began > MAX_MS;

const main = await client(7);
const small = await client(8);

// Warm-up, in an account of its own (the measured one starts empty): the JIT has compiled
// the register, token, dashboard and list paths before anything is counted.
{
  const warmUp = await provision(main, 'scale bench warm-up');
  const ids: string[] = [];
  await inFlight(WARM_UP_USERS, async (i) => ids.push(await registerUser(warmUp, i)));
  await sequential(WARM_UP_TOKENS, tokenIssue(warmUp, ids));
  const workspaces: string[] = [];
  for (let w = 0; w < WARM_UP_WORKSPACES; w++) workspaces.push(await fillWorkspace(warmUp, w));
  await sequential(WARM_UP_LISTS, listDashboards(warmUp, workspaces));
}

// The control: small, and it stays small.
const control = await provision(small, 'scale bench control');
const controlUsers: string[] = [];
await inFlight(CONTROL_USERS, async (i) => controlUsers.push(await registerUser(control, i)));
const controlWorkspaces = [await fillWorkspace(control, 0)];
await sequential(WARM_UP_TOKENS, tokenIssue(control, controlUsers));
await sequential(WARM_UP_LISTS, listDashboards(control, controlWorkspaces));
await small.reference.settle();

// ── Users: registered by externalId, a user-token p50 at each checkpoint ──

interface Checkpoint {
  readonly users: number;
  /** Registrations since the previous checkpoint. */
  readonly segment: number;
  readonly segmentSeconds: number;
  readonly usersPerSecond: number;
  /** Wall time per registration with CONCURRENCY in flight. */
  readonly msPerUser: number;
  /**
   * The reference's CPU time per registration (all its threads, GC included): the median of
   * the segment's 1k batches, so a GC cycle or a stolen slice in one batch does not speak for
   * the whole segment; the mean is beside it.
   */
  readonly cpuMsPerUser: number;
  readonly cpuMsPerUserMean: number;
  /** The cheapest and the dearest 1k batch of the segment: how much a batch varies. */
  readonly cpuMsPerUserBatchRange: readonly [number, number];
  readonly registerP50Ms: number;
  readonly registerP95Ms: number;
  readonly tokenP50Ms: number;
  readonly tokenP95Ms: number;
  /** The control's token p50 in the same minutes, and the ratio. */
  readonly controlTokenP50Ms: number;
  readonly tokenP50VsControl: number;
  readonly cpuMsPerToken: number;
  readonly controlCpuMsPerToken: number;
  readonly tokenCpuVsControl: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
}

const measured = await provision(main, 'scale bench');
const userIds: string[] = [];
const results: Checkpoint[] = [];
let registeringMs = 0;
/** Time spent in the full GCs between segments: not in registeringMs. */
let settleMs = 0;
let stoppedEarly: string | null = null;

for (const size of checkpoints) {
  const from = userIds.length;
  const latencies: number[] = [];
  const batches: number[] = [];
  let segmentMs = 0;
  let segmentCpuMs = 0;
  for (let at = from; at < size; at += BATCH) {
    if (outOfTime()) {
      stoppedEarly = `time bound of ${MAX_MS / 1000} s reached at ${at} users`;
      break;
    }
    const batch = Math.min(BATCH, size - at);
    const before = await main.reference.usage();
    const t0 = performance.now();
    const times = await inFlight(batch, async (k) => {
      userIds.push(await registerUser(measured, at + k));
    });
    segmentMs += performance.now() - t0;
    const cpu = cpuMs(await main.reference.usage()) - cpuMs(before);
    segmentCpuMs += cpu;
    batches.push(cpu / batch);
    latencies.push(...times);
  }
  registeringMs += segmentMs;
  const held = userIds.length;
  if (held === from) break;

  const t1 = performance.now();
  await main.reference.settle();
  settleMs += performance.now() - t1;
  const tokens = await paired(
    { reference: main.reference, op: tokenIssue(measured, userIds) },
    { reference: small.reference, op: tokenIssue(control, controlUsers) },
    results.length * (SAMPLES + SAMPLE_WARM_UP),
  );
  const after = await main.reference.usage();
  const checkpoint: Checkpoint = {
    users: held,
    segment: held - from,
    segmentSeconds: round(segmentMs / 1000),
    usersPerSecond: Math.round(((held - from) * 1000) / segmentMs),
    msPerUser: round(segmentMs / (held - from), 4),
    cpuMsPerUser: round(percentile(batches, 50), 4),
    cpuMsPerUserMean: round(segmentCpuMs / (held - from), 4),
    cpuMsPerUserBatchRange: [round(Math.min(...batches), 4), round(Math.max(...batches), 4)],
    registerP50Ms: round(percentile(latencies, 50)),
    registerP95Ms: round(percentile(latencies, 95)),
    tokenP50Ms: tokens.p50Ms,
    tokenP95Ms: tokens.p95Ms,
    controlTokenP50Ms: tokens.controlP50Ms,
    tokenP50VsControl: tokens.p50VsControl,
    cpuMsPerToken: tokens.cpuMs,
    controlCpuMsPerToken: tokens.controlCpuMs,
    tokenCpuVsControl: tokens.cpuVsControl,
    rssMb: mb(after.memory.rss),
    heapUsedMb: mb(after.memory.heapUsed),
  };
  results.push(checkpoint);
  console.log(JSON.stringify(checkpoint));
}

// ── Dashboards: 100 per workspace, 5 charts each, a list p50 at each 1k dashboards ──

interface DashboardCheckpoint {
  readonly dashboards: number;
  readonly charts: number;
  /** Records made since the previous checkpoint: workspaces, dashboards and charts. */
  readonly segmentRecords: number;
  readonly segmentSeconds: number;
  readonly recordsPerSecond: number;
  /** The reference's CPU time per record made (hook calls, GC included). */
  readonly cpuMsPerRecord: number;
  readonly listP50Ms: number;
  readonly listP95Ms: number;
  readonly controlListP50Ms: number;
  readonly listP50VsControl: number;
  readonly cpuMsPerList: number;
  readonly controlCpuMsPerList: number;
  readonly listCpuVsControl: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
}

const workspaceIds: string[] = [];
const boards: DashboardCheckpoint[] = [];
let buildingMs = 0;
const workspaceGoal = Math.ceil(DASHBOARDS / DASHBOARDS_PER_WORKSPACE);
while (workspaceIds.length < workspaceGoal && stoppedEarly === null) {
  const segment = Math.min(WORKSPACES_PER_CHECKPOINT, workspaceGoal - workspaceIds.length);
  const before = await main.reference.usage();
  const t0 = performance.now();
  for (let w = 0; w < segment; w++) {
    if (outOfTime()) {
      stoppedEarly = `time bound of ${MAX_MS / 1000} s reached at ${workspaceIds.length} workspaces`;
      break;
    }
    workspaceIds.push(await fillWorkspace(measured, workspaceIds.length));
  }
  const ms = performance.now() - t0;
  buildingMs += ms;
  const cpu = cpuMs(await main.reference.usage()) - cpuMs(before);
  const dashboards = workspaceIds.length * DASHBOARDS_PER_WORKSPACE;
  const previous = boards.at(-1)?.dashboards ?? 0;
  const newDashboards = dashboards - previous;
  if (newDashboards === 0) break;
  const records =
    newDashboards / DASHBOARDS_PER_WORKSPACE + newDashboards * (1 + CHARTS_PER_DASHBOARD);
  const t1 = performance.now();
  await main.reference.settle();
  settleMs += performance.now() - t1;
  const lists = await paired(
    { reference: main.reference, op: listDashboards(measured, workspaceIds) },
    { reference: small.reference, op: listDashboards(control, controlWorkspaces) },
    boards.length * (SAMPLES + SAMPLE_WARM_UP),
  );
  const after = await main.reference.usage();
  const checkpoint: DashboardCheckpoint = {
    dashboards,
    charts: dashboards * CHARTS_PER_DASHBOARD,
    segmentRecords: records,
    segmentSeconds: round(ms / 1000),
    recordsPerSecond: Math.round((records * 1000) / ms),
    cpuMsPerRecord: round(cpu / records, 4),
    listP50Ms: lists.p50Ms,
    listP95Ms: lists.p95Ms,
    controlListP50Ms: lists.controlP50Ms,
    listP50VsControl: lists.p50VsControl,
    cpuMsPerList: lists.cpuMs,
    controlCpuMsPerList: lists.controlCpuMs,
    listCpuVsControl: lists.cpuVsControl,
    rssMb: mb(after.memory.rss),
    heapUsedMb: mb(after.memory.heapUsed),
  };
  boards.push(checkpoint);
  console.log(JSON.stringify(checkpoint));
}

await main.close();
await small.close();

// ── Summary ──

/** Highest over lowest: the strict reading of "flat within 1.5x". */
const spread = (xs: number[]) => (xs.length < 2 ? NaN : round(Math.max(...xs) / Math.min(...xs)));
/** Last over first: the trend a cost that grows with the records shows (noise aside). */
const growth = (xs: number[]) => (xs.length < 2 ? NaN : round((xs.at(-1) ?? NaN) / (xs[0] ?? NaN)));
/** Dearest over first: how far the cost ever rose above what it was at the smallest size. */
const rise = (xs: number[]) => (xs.length < 2 ? NaN : round(Math.max(...xs) / (xs[0] ?? NaN)));
const median = (xs: number[]) => percentile(xs, 50);
/**
 * Median of the last three sizes over the median of the first three: the trend, read so that
 * one checkpoint slowed by other work on the machine does not decide it either way.
 */
const trend = (xs: number[]) =>
  xs.length < 6 ? NaN : round(median(xs.slice(-3)) / median(xs.slice(0, 3)));
const figures = (xs: number[]) => ({
  spread: spread(xs),
  rise: rise(xs),
  growth: growth(xs),
  trend: trend(xs),
});

// The goal reads "from 1k to 100k records": the segment that ends at 1k is left out of the
// registration figures (its checkpoint still counts for the token figures).
const steady = results.filter((c) => c.users > 1_000);
const registered = results.at(-1)?.users ?? 0;
const built = boards.at(-1)?.dashboards ?? 0;
const summary = {
  usersRegistered: registered,
  registeringSeconds: round(registeringMs / 1000),
  fullGcSecondsBetweenSegments: round(settleMs / 1000),
  usersPerSecondOverall: Math.round((registered * 1000) / registeringMs),
  registerCpu: figures(steady.map((c) => c.cpuMsPerUser)),
  registerWall: figures(steady.map((c) => c.msPerUser)),
  tokenP50Raw: figures(results.map((c) => c.tokenP50Ms)),
  tokenP50VsControl: figures(results.map((c) => c.tokenP50VsControl)),
  tokenCpuRaw: figures(results.map((c) => c.cpuMsPerToken)),
  tokenCpuVsControl: figures(results.map((c) => c.tokenCpuVsControl)),
  dashboardsBuilt: built,
  chartsBuilt: built * CHARTS_PER_DASHBOARD,
  dashboardBuildSeconds: round(buildingMs / 1000),
  dashboardRecordsPerSecondOverall:
    buildingMs === 0
      ? NaN
      : Math.round(
          (boards.reduce((n, c) => n + c.segmentRecords, 0) * 1000) / Math.max(buildingMs, 1),
        ),
  dashboardRecordCpu: figures(boards.map((c) => c.cpuMsPerRecord)),
  listP50Raw: figures(boards.map((c) => c.listP50Ms)),
  listP50VsControl: figures(boards.map((c) => c.listP50VsControl)),
  listCpuRaw: figures(boards.map((c) => c.cpuMsPerList)),
  listCpuVsControl: figures(boards.map((c) => c.listCpuVsControl)),
  maxRssMb: Math.max(...results.map((c) => c.rssMb), ...boards.map((c) => c.rssMb)),
};
const within = (x: number) => x <= GOALS.flatWithin;
const run = {
  benchmark: 'reference scale: users, dashboards and charts made through the API',
  measuredAt: new Date().toISOString(),
  machine: {
    node: process.version,
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    loadAverage1m5m15m: { atStart: loadAtStart, atEnd: loadavg().map((x) => round(x)) },
  },
  settings: {
    users: USERS,
    organizations: ORGANIZATIONS,
    roles: ROLES,
    dashboards: DASHBOARDS,
    dashboardsPerWorkspace: DASHBOARDS_PER_WORKSPACE,
    chartsPerDashboard: CHARTS_PER_DASHBOARD,
    concurrency: CONCURRENCY,
    samples: SAMPLES,
    sampleBlock: SAMPLE_BLOCK,
    sampleWarmUp: SAMPLE_WARM_UP,
    batch: BATCH,
    warmUpUsers: WARM_UP_USERS,
    warmUpTokens: WARM_UP_TOKENS,
    warmUpWorkspaces: WARM_UP_WORKSPACES,
    controlUsers: CONTROL_USERS,
    maxSeconds: MAX_MS / 1000,
  },
  goals: GOALS,
  stoppedEarly,
  summary,
  // Cost is judged on the reference's CPU time per operation, on raw p50s and on each latency
  // over its control's (the same request to a small reference in the same minutes), in three
  // readings: trend (the last three sizes against the first three, medians), strict (dearest
  // over cheapest size, which noise in either direction can fail) and rising (dearest over the
  // smallest size). On a shared 2-core machine a single checkpoint moves with the load.
  meetsGoal: {
    flatRegisterCpuTrend: within(summary.registerCpu.trend),
    flatTokenP50RawTrend: within(summary.tokenP50Raw.trend),
    flatTokenCpuTrend: within(summary.tokenCpuRaw.trend),
    flatListP50RawTrend: within(summary.listP50Raw.trend),
    flatListCpuTrend: within(summary.listCpuRaw.trend),
    flatRegisterCpuStrict: within(summary.registerCpu.spread),
    flatRegisterCpuRising: within(summary.registerCpu.rise),
    flatTokenP50VsControlStrict: within(summary.tokenP50VsControl.spread),
    flatTokenP50VsControlRising: within(summary.tokenP50VsControl.rise),
    flatTokenP50RawRising: within(summary.tokenP50Raw.rise),
    flatTokenCpuRising: within(summary.tokenCpuRaw.rise),
    flatDashboardRecordCpuRising: within(summary.dashboardRecordCpu.rise),
    flatListP50VsControlStrict: within(summary.listP50VsControl.spread),
    flatListP50VsControlRising: within(summary.listP50VsControl.rise),
    flatListP50RawRising: within(summary.listP50Raw.rise),
    flatListCpuRising: within(summary.listCpuRaw.rise),
    users100kUnder30s:
      registered >= GOALS.users && summary.registeringSeconds < GOALS.secondsFor100k,
    dashboards10kWith50kCharts: built >= GOALS.dashboards,
    rssUnder300Mb: summary.maxRssMb < GOALS.rssMb,
  },
  users: results,
  dashboards: boards,
};

const file = new URL('./results/scale.json', import.meta.url);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const previous = existsSync(file)
  ? (JSON.parse(readFileSync(file, 'utf8')) as { notes?: unknown; runs?: Record<string, unknown> })
  : {};
// Notes written beside the runs (what was found, what changed) are kept as they are.
const runs = { ...(previous.runs ?? {}), [args.label]: run };
writeFileSync(file, `${JSON.stringify({ notes: previous.notes, runs }, null, 2)}\n`);
console.log(JSON.stringify({ label: args.label, summary, meetsGoal: run.meetsGoal }, null, 2));
