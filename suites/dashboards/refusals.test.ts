import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { registerUser, userToken } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import type { Reply } from '../harness/http.ts';
import { authorization } from '../harness/authorization.ts';
import { accountSnapshot } from '../harness/readback.ts';
import {
  CONTENT,
  READ_BACK,
  TENANT_FIELDS,
  dashboardsOf,
  dashboardsWorld,
  layoutOf,
  openEndpoint,
  sharedDashboard,
  tenantToken,
  type DashboardsWorld,
  type Shared,
} from '../harness/given/dashboards.ts';
import type { WriteKind } from '../harness/replacements.ts';
import { APPEND, CLONE, REMOVE } from '../harness/paths.ts';

// The inventory "a refused request changes nothing" for the five v1 dashboard writes (§4.10–
// §4.12, §4.16's create and add-charts): each write × each way it can be refused, sent on a
// world where the write would otherwise work. Whether a server refuses a given case is mostly
// open (a connectionId, a project-user token, an unknown chart among known ones), so nothing
// here requires the refusal; what is required (security clauses errors.refused.changes-nothing
// and auth.refused.changes-nothing) is that a request answered with an error leaves the
// account as it was: both workspaces' v1 lists (ids and layouts) and, where the target offers
// it, the snapshot hook's state.
// After finalize, every write refused 410 changing nothing is migration.v1-write.410's (the
// migration tests).

interface Sent {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A valid body of each write on the world: `w.board` is written, `other` is the source. */
const WRITES: Readonly<
  Record<WriteKind, (t: Conformance, w: DashboardsWorld, other: Shared) => Sent>
> = {
  create: (t, w) => ({
    path: openEndpoint(t, 'v1CreateDashboard', { workspaceId: w.board.workspaceId }).path,
    body: { workspaceId: w.board.workspaceId, name: 'Refused board' },
  }),
  clone: (_t, w) => ({ path: CLONE, body: { sourceDashboardId: w.board.dashboardId } }),
  'add-charts': (t, w, other) => ({
    path: openEndpoint(t, 'v1AddCharts', { targetDashboardId: w.board.dashboardId }).path,
    body: { targetDashboardId: w.board.dashboardId, charts: [other.charts[0]?.chartId] },
  }),
  'remove-charts': (_t, w) => ({
    path: REMOVE,
    body: { dashboardId: w.board.dashboardId, chartIds: [w.board.charts[0]?.chartId] },
  }),
  'append-charts-from': (_t, w, other) => ({
    path: APPEND,
    body: { sourceDashboardId: other.dashboardId, targetDashboardId: w.board.dashboardId },
  }),
};

/** Who sends: no credential at all, or the authorization header with a secret. */
type Secret = { readonly none: true } | { readonly secret: string };

interface Refusal {
  readonly name: string;
  /** The credential it carries, from the secrets the test holds. */
  readonly as: (s: Secrets) => Secret | undefined;
  /** The valid body turned into the refused one (per write), or undefined: not for this write. */
  readonly body: (
    kind: WriteKind,
    body: Record<string, unknown>,
    unknown: string,
  ) => Record<string, unknown> | undefined;
}

interface Secrets {
  readonly apiKey: string;
  readonly projectUser: string | undefined;
  readonly tenant: string | undefined;
}

const same = (_kind: WriteKind, body: Record<string, unknown>) => body;
const key = (s: Secrets): Secret => ({ secret: s.apiKey });

/** The id of the body that names what is written to, or read from, per write. */
const UNKNOWN_TARGET: Readonly<Record<WriteKind, string>> = {
  create: 'workspaceId',
  clone: 'sourceDashboardId',
  'add-charts': 'targetDashboardId',
  'remove-charts': 'dashboardId',
  'append-charts-from': 'sourceDashboardId',
};

/** Credential refusals (auth.refused.changes-nothing). */
const CREDENTIALS: readonly Refusal[] = [
  { name: 'no credential', as: () => ({ none: true }), body: same },
  { name: 'an unknown API key', as: () => ({ secret: 'eac-unknown-api-key-0000' }), body: same },
  {
    name: 'a project-user token',
    as: (s) => (s.projectUser === undefined ? undefined : { secret: s.projectUser }),
    body: same,
  },
  {
    name: 'a tenant JWT without editing permissions',
    as: (s) => (s.tenant === undefined ? undefined : { secret: s.tenant }),
    body: same,
  },
];

/** Refusals for what the body names (errors.refused.changes-nothing). */
const BODIES: readonly Refusal[] = [
  {
    name: 'an unknown id of the dashboard (or workspace) it names',
    as: key,
    body: (kind, body, unknown) => ({ ...body, [UNKNOWN_TARGET[kind]]: unknown }),
  },
  {
    name: 'an unknown target beside a known source',
    as: key,
    body: (kind, body, unknown) =>
      kind === 'clone'
        ? { ...body, targetWorkspaceId: unknown }
        : kind === 'append-charts-from'
          ? { ...body, targetDashboardId: unknown }
          : undefined,
  },
  {
    name: 'an unknown chart after a known one',
    as: key,
    body: (kind, body, unknown) =>
      kind === 'add-charts'
        ? { ...body, charts: [...(body['charts'] as unknown[]), unknown] }
        : kind === 'remove-charts'
          ? { ...body, chartIds: [...(body['chartIds'] as unknown[]), unknown] }
          : undefined,
  },
  {
    name: 'a connectionId the account has no connection of',
    as: key,
    body: (_kind, body, unknown) => ({ ...body, connectionId: unknown }),
  },
];

/** Everything the account shows: both workspaces' v1 lists, and the snapshot hook's state. */
async function stateOf(t: Conformance, w: DashboardsWorld, other: Shared): Promise<string> {
  return [
    layoutOf(await dashboardsOf(t, w, w.board.workspaceId)),
    layoutOf(await dashboardsOf(t, w, other.workspaceId)),
    (await accountSnapshot(t, w)) ?? '',
  ].join('\n');
}

function sendAs(t: Conformance, sent: Sent, as: Secret): Promise<Reply> {
  return 'none' in as
    ? t.http.post(sent.path, sent.body)
    : t.http.post(sent.path, sent.body, { headers: authorization(t, as.secret) });
}

/**
 * Each write × each refusal, sent on a world where the valid write would work: a case the
 * target accepted may have changed what the next case names (a chart removed), so the world is
 * built anew after one.
 */
async function inventory(
  t: Conformance,
  refusals: readonly Refusal[],
  secrets: (w: DashboardsWorld) => Promise<Secrets>,
): Promise<void> {
  const fresh = async () => {
    const w = await dashboardsWorld(t, 3);
    const other = await sharedDashboard(t, w, 2);
    return { w, other, held: await secrets(w) };
  };
  let world = await fresh();
  for (const kind of Object.keys(WRITES) as WriteKind[]) {
    for (const refusal of refusals) {
      const { w, other, held } = world;
      const as = refusal.as(held);
      const valid = WRITES[kind](t, w, other);
      const body = refusal.body(kind, valid.body, t.faker.string.uuid());
      if (as === undefined || body === undefined) continue;
      const before = await stateOf(t, w, other);
      const res = await sendAs(t, { path: valid.path, body }, as);
      const after = await stateOf(t, w, other);
      if (res.status >= 400)
        expect(
          after,
          `${kind} with ${refusal.name} was answered ${res.status} ${res.text.slice(0, 200)}, and changed the account`,
        ).toBe(before);
      else if (after !== before) world = await fresh();
    }
  }
}

const parts = ['v1-dashboards'] as const;

conformance(
  ['auth.refused.changes-nothing'],
  'each v1 write refused for its credential (none, an unknown key, a project-user token, a tenant JWT without editing permissions) changes nothing',
  async (t) => {
    const tenants = t.profile.serves.includes('tenant-flow');
    const users = t.profile.serves.includes('identity');
    await inventory(t, CREDENTIALS, async (w) => {
      let projectUser: string | undefined;
      if (users) {
        const { userId } = await registerUser(t, w);
        const res = await userToken(t, w, userId);
        const token = (res.body as { data?: { token?: unknown } }).data?.token;
        projectUser = typeof token === 'string' ? token : undefined;
      }
      return {
        apiKey: w.creds().apiKey,
        projectUser,
        tenant: tenants ? await tenantToken(t, w, {}) : undefined,
      };
    });
  },
  {
    needs: CONTENT,
    parts,
    relies: [...READ_BACK, ...TENANT_FIELDS],
    timeout: 120_000,
  },
);

conformance(
  ['errors.refused.changes-nothing'] satisfies ClauseId[],
  'each v1 write refused for what its body names (unknown ids, an unknown chart beside known ones, a connectionId the account lacks) changes nothing',
  async (t) => {
    await inventory(t, BODIES, (w) =>
      Promise.resolve({ apiKey: w.creds().apiKey, projectUser: undefined, tenant: undefined }),
    );
  },
  { needs: CONTENT, parts, relies: READ_BACK, timeout: 120_000 },
);
