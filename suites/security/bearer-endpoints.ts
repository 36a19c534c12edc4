import type { ClauseId } from '../../spec/clauses/index.ts';
import type { ProfilePart } from '../../spec/profile.ts';
import type { ReliedClause } from '../../spec/reliance.ts';
import { chartConfig } from '../harness/builders.ts';
import type { World } from '../harness/given/accounts.ts';
import type { Conformance } from '../harness/conformance.ts';
import { authorization } from '../harness/authorization.ts';
import { API_KEY, v2Get } from '../harness/given/v2.ts';
import type { Reply } from '../harness/http.ts';
import { APPLICATIONS, SAVE_FROM_CHAT, chatPath } from '../harness/paths.ts';
import { states } from '../harness/conformance.ts';

/** One request that carries a project-user token as `Authorization: Bearer` (§5 table). */
export interface BearerRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
}

/**
 * An endpoint §5 says takes a project-user token. `request` builds a call that a genuine token
 * should get a 2xx from, or says why it cannot against this target (an id the world does not
 * hold). Tests present the genuine token first: where it is not accepted, the case is not-run,
 * so the table holds on any server whatever it serves.
 */
export interface BearerEndpoint {
  readonly name: string;
  /** The part of the document the endpoint belongs to: unserved, its row is not-run. */
  readonly part: ProfilePart;
  /** Unspecified clauses the row leans on (the form of the authorization header). */
  readonly relies?: readonly ClauseId[];
  /**
   * The decision under which a user holding no role may make the call. Where the profile
   * follows it the token's user holds none (the test relies on it); otherwise the user holds a
   * role granting every editing flag of §2.2, so the call is one a user may make however the
   * target checks it (a genuine token still refused leaves the case not-run).
   */
  readonly anyRole?: ReliedClause;
  request(t: Conformance, world: World): Promise<BearerRequest | string> | BearerRequest | string;
}

/** Every `applicationId` (§2.8) in an answer, wherever it sits (§4.16 leaves shapes open). */
function applicationIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(applicationIds);
  if (typeof value !== 'object' || value === null) return [];
  const own = (value as Record<string, unknown>)['applicationId'];
  return [
    ...(typeof own === 'string' ? [own] : []),
    ...Object.values(value).flatMap(applicationIds),
  ];
}

/**
 * An application of the world: one a credentials file lists, or, on an unshared world whose
 * target has the workspaces and migration hooks, the one a finalized workspace becomes (§9),
 * as the account's key lists it on v2.
 */
async function applicationOf(t: Conformance, w: World): Promise<string | undefined> {
  const listed = w.provisioned.applications?.[0];
  if (listed !== undefined || w.shared) return listed;
  if (!t.hooks.has('workspaces') || !t.hooks.has('migration')) return undefined;
  const org = w.account.organizationId;
  const made = await t.http.post(
    `/accounts/${org}/workspaces`,
    { name: `${t.faker.commerce.department()} workspace`, projectId: w.projectId },
    { base: 'hooks' },
  );
  const done = await t.http.post(`/accounts/${org}/migration/finalize`, {}, { base: 'hooks' });
  if (made.status >= 300 || done.status >= 300) return undefined;
  return applicationIds((await v2Get(t, w, APPLICATIONS, API_KEY)).body)[0];
}

/**
 * A project agent of the world: one a credentials file lists, or, where the target has the
 * connections and agents hooks, a new agent of the world's project reading a one-row table
 * with no row filter, so a genuine token is answered whatever properties its user has
 * (row-level security may refuse a user who lacks one, §1, §2.4).
 */
async function agentOf(t: Conformance, w: World): Promise<string | undefined> {
  const listed = w.provisioned.agents?.[0];
  if (listed !== undefined) return listed;
  if (!t.hooks.has('connections') || !t.hooks.has('agents')) return undefined;
  const org = w.account.organizationId;
  const { connectionId } = await t.hooks.createConnection(org, {
    name: 'forged tokens (eac)',
    table: { name: 'tally', columns: [{ name: 'n', type: 'integer' }], rows: [{ n: 1 }] },
  });
  const { agentId } = await t.hooks.createAgent(org, w.projectId, {
    name: 'Tally analyst',
    connectionId,
  });
  return agentId;
}

/**
 * §4.15 chat, the §4.16 v2 calls and save-from-chat (§5 rule 4). Rows that need an
 * application or an agent take it from the world (a credentials file, or hooks that make one);
 * the other v2 writes join the table with the worlds that hold their ids.
 */
export const BEARER_ENDPOINTS: readonly BearerEndpoint[] = [
  {
    name: `GET ${APPLICATIONS}`,
    part: 'v2',
    // Before finalize, that the list answers a 2xx is a decision: where the profile does not
    // follow it, the world's workspace is finalized first (§9), as for the row below.
    request: async (t, w) => {
      if (states(t, 'v2.applications.list.before-finalize'))
        t.relyOn('v2.applications.list.before-finalize');
      else if ((await applicationOf(t, w)) === undefined)
        return 'the world holds no finalized workspace (a credentials file lists no application, and the target lacks the workspaces or migration hook)';
      return { method: 'GET', path: APPLICATIONS };
    },
  },
  {
    name: `GET ${APPLICATIONS}/{applicationId}/dashboards`,
    part: 'v2',
    request: async (t, w) => {
      const applicationId = await applicationOf(t, w);
      if (applicationId === undefined) return 'the world holds no application id';
      return { method: 'GET', path: `${APPLICATIONS}/${applicationId}/dashboards` };
    },
  },
  {
    name: 'POST /v1/api/project-agents/{agentId}/chat',
    part: 'chat',
    request: async (t, w) => {
      const agentId = await agentOf(t, w);
      if (agentId === undefined)
        return 'the world holds no project agent id (a credentials file lists none, and the target lacks the connections or agents hook)';
      return {
        method: 'POST',
        path: chatPath(agentId),
        body: {
          messages: [{ role: 'user', content: 'How many rows are there?' }],
          payload: { agent_id: agentId },
        },
      };
    },
  },
  {
    // §5 rule 4: save-from-chat takes a project-user JWT in the authorization header. A
    // genuine call saves a chart; the forged one must be refused (that it then saved nothing
    // is clause errors.refused.changes-nothing, checked by the protocol suite).
    name: 'POST /v1/api/chart/save-from-chat',
    part: 'v1-dashboards',
    relies: ['auth.header.format'],
    anyRole: 'charts.save-from-chat.permissions',
    request: (t) => ({
      method: 'POST',
      path: SAVE_FROM_CHAT,
      body: { chartConfig: chartConfig(t.faker), name: `${t.faker.word.adjective()} chart` },
    }),
  },
];

/** Presents a token: `Authorization: Bearer <token>`, as every row of §5 takes a JWT. */
export function withBearer(t: Conformance, request: BearerRequest, token: string): Promise<Reply> {
  return t.http.call(request.method, request.path, {
    headers: authorization(t, token),
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}
