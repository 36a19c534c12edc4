import { cause } from './causes.ts';
import { authorization } from './authorization.ts';
import type { Conformance } from './conformance.ts';
import type { Reply } from './http.ts';
import { APPLICATIONS, SAVE_FROM_CHAT, chatPath } from './paths.ts';

/**
 * Whether a target accepts a project-user token, judged on an endpoint the document requires
 * to accept one (§5 table: agent chat and v2 calls; §5 rule 4: save-from-chat), in a world
 * built for it: the token's
 * user must belong to a project organization (§2.4, §7: without one a v2 call may answer 403).
 * A 2xx is accepted; a 401 or 403 refused (§7 leaves the status of an authentication failure
 * open, and the world is built so that an accepted token has nothing else to be forbidden);
 * anything else is neither and fails the check that asked.
 */
export interface Acceptor {
  /** Which call judges, for messages. */
  readonly via: string;
  /** True where the same header also takes API keys (§5: save-from-chat), so a value that is
   *  not a JWT at all may be read as a key. */
  readonly takesApiKeys?: boolean;
  present(token: string): Promise<Reply>;
}

export type Verdict = 'accepted' | 'refused' | 'other';

export function verdictOf(res: Reply): Verdict {
  if (res.status >= 200 && res.status < 300) return 'accepted';
  return res.status === 401 || res.status === 403 ? 'refused' : 'other';
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Why no acceptor could be had, for the not-run reason. */
const NONE =
  'no endpoint the document requires to accept a project-user token is available: agent chat ' +
  '(profile part chat and the agents and connections hooks), a v2 call after finalize (part v2 and the ' +
  'migration hook) or save-from-chat (part v1-dashboards); token liveness is not judged';

/**
 * What the acceptor leans on when it judges through save-from-chat, the last resort: the token
 * goes in an `authorization` header whose form is the profile's answer (auth.header.format), in
 * a body of the fields the reference decided are enough (charts.save-from-chat.required-fields).
 * Declared by the acceptor when it takes that path (Conformance.relyOn), so a test judged through
 * chat or v2 relies on neither.
 */
const SAVE_FROM_CHAT_RELIES = [
  'auth.header.format',
  'charts.save-from-chat.required-fields',
] as const;

interface Options {
  /**
   * For probes only: when neither required endpoint is available, fall back to the reference's
   * decision that GET /v2/api/applications takes a project-user token before finalize
   * (v2.applications.list.before-finalize, which the acceptor then declares).
   */
  readonly decided?: boolean;
  /**
   * Only the acceptors whose request the document fixes (agent chat, v2 after finalize): no
   * save-from-chat fallback, so a test asking this declares no ACCEPTOR_RELIES and ends not-run
   * where neither is available.
   */
  readonly portable?: boolean;
}

/**
 * An acceptor for the account of `organizationId`/`projectId`, set up before the token's
 * user is registered. Chat is preferred (a project agent of the project), then v2 after the
 * account's migration is finalized, then save-from-chat; otherwise the test ends not-run.
 * The reliances of the path it takes are declared here, where it is taken.
 */
export async function tokenAcceptor(
  t: Conformance,
  world: { readonly account: { readonly organizationId: string }; readonly projectId: string },
  options: Options = {},
): Promise<Acceptor> {
  const serves = t.profile.serves;
  const { organizationId } = world.account;
  if (serves.includes('chat') && t.hooks.has('agents') && t.hooks.has('connections')) {
    // The agent reads a one-row table with no row filter, so the answer cannot hinge on the
    // user's properties (row-level security may refuse a user who lacks one, §1, §2.4).
    const connection = await t.http.post(
      `/accounts/${organizationId}/connections`,
      {
        name: 'liveness',
        table: { name: 'liveness', columns: [{ name: 'n', type: 'integer' }], rows: [{ n: 1 }] },
      },
      { base: 'hooks' },
    );
    const connectionId = (connection.body as { data?: { connectionId?: unknown } }).data
      ?.connectionId;
    if (connection.status >= 300 || typeof connectionId !== 'string')
      throw new Error(
        `host hook "connections" failed: ${connection.status} ${connection.text.slice(0, 300)}`,
      );
    const made = await t.http.post(
      `/accounts/${organizationId}/projects/${world.projectId}/agents`,
      { name: 'liveness', connectionId },
      { base: 'hooks' },
    );
    const agentId = (made.body as { data?: { agentId?: unknown } }).data?.agentId;
    if (made.status >= 300 || typeof agentId !== 'string')
      throw new Error(`host hook "agents" failed: ${made.status} ${made.text.slice(0, 300)}`);
    return {
      via: `POST /v1/api/project-agents/${agentId}/chat`,
      present: (token) =>
        t.http.post(
          chatPath(agentId),
          {
            messages: [{ role: 'user', content: 'How many rows are there?' }],
            payload: { agent_id: agentId },
          },
          { headers: { ...bearer(token), accept: 'text/event-stream' } },
        ),
    };
  }
  if (serves.includes('v2') && t.hooks.has('migration')) {
    const done = await t.http.post(
      `/accounts/${organizationId}/migration/finalize`,
      {},
      { base: 'hooks' },
    );
    if (done.status >= 300)
      throw new Error(`host hook "migration" failed: ${done.status} ${done.text.slice(0, 300)}`);
    return {
      via: 'GET /v2/api/applications after finalize',
      present: (token) => t.http.get(APPLICATIONS, { headers: bearer(token) }),
    };
  }
  if (serves.includes('v1-dashboards') && options.portable !== true) {
    t.relyOn(...SAVE_FROM_CHAT_RELIES);
    return {
      via: 'POST /v1/api/chart/save-from-chat',
      takesApiKeys: true,
      present: (token) =>
        t.http.post(
          SAVE_FROM_CHAT,
          {
            chartConfig: { title: 'Liveness', type: 'bar' },
            name: 'liveness check',
          },
          { headers: authorization(t, token) },
        ),
    };
  }
  if (options.decided === true && serves.includes('v2')) {
    t.relyOn('v2.applications.list.before-finalize');
    return {
      via: 'GET /v2/api/applications before finalize (decision)',
      present: (token) => t.http.get(APPLICATIONS, { headers: bearer(token) }),
    };
  }
  if (options.portable === true)
    return t.notRun(
      'no endpoint the document fixes the request of accepts a project-user token here: agent chat (profile part chat and the agents and connections hooks) or a v2 call after finalize (part v2 and the migration hook)',
      cause.part('chat'),
    );
  // Of the three, the part alone is enough: it needs no hook.
  return t.notRun(NONE, cause.part('v1-dashboards'));
}
