import type { Faker } from '@faker-js/faker';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { chartConfig } from '../../fixtures/builders.ts';
import type { World } from '../../fixtures/world.ts';
import type { Conformance } from '../harness/conformance.ts';
import type { Reply } from '../harness/http.ts';
import { APPLICATIONS } from '../harness/paths.ts';

/** One request that carries a project-user token as `Authorization: Bearer` (§5 table). */
export interface BearerRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /**
   * `authorization` for the v1 writes of the §5 header row, whose form (with or without
   * `Bearer `) the profile states; else the token goes as `Authorization: Bearer`.
   */
  readonly carrier?: 'authorization';
}

/**
 * An endpoint §5 says takes a project-user token. `request` builds a call that a genuine token
 * should get a 2xx from, or says why it cannot against this target (an id the world does not
 * hold). Tests present the genuine token first: where it is not accepted, the case is not-run,
 * so the table holds on any server whatever it serves.
 */
export interface BearerEndpoint {
  readonly name: string;
  /** Unspecified clauses the row leans on (the form of the authorization header). */
  readonly relies?: readonly ClauseId[];
  request(world: World, faker: Faker): BearerRequest | string;
}

/**
 * §4.15 chat and the §4.16 v2 calls. Rows that need an application or an agent take it from
 * the world (today only a credentials file lists them; the dashboards and chat issues add
 * hooks). The other v2 writes join the table with the worlds that hold their ids.
 */
export const BEARER_ENDPOINTS: readonly BearerEndpoint[] = [
  {
    name: `GET ${APPLICATIONS}`,
    request: () => ({ method: 'GET', path: APPLICATIONS }),
  },
  {
    name: `GET ${APPLICATIONS}/{applicationId}/dashboards`,
    request: (w) => {
      const applicationId = w.provisioned.applications?.[0];
      if (applicationId === undefined) return 'the world holds no application id';
      return { method: 'GET', path: `${APPLICATIONS}/${applicationId}/dashboards` };
    },
  },
  {
    name: 'POST /v1/api/project-agents/{agentId}/chat',
    request: (w) => {
      const agentId = w.provisioned.agents?.[0];
      if (agentId === undefined) return 'the world holds no project agent id';
      return {
        method: 'POST',
        path: `/v1/api/project-agents/${agentId}/chat`,
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
    relies: ['auth.header.format'],
    request: (_w, faker) => ({
      method: 'POST',
      path: '/v1/api/chart/save-from-chat',
      carrier: 'authorization',
      body: { chartConfig: chartConfig(faker), name: `${faker.word.adjective()} chart` },
    }),
  },
];

export function withBearer(t: Conformance, request: BearerRequest, token: string): Promise<Reply> {
  const raw = request.carrier === 'authorization' && t.profile.shapes.authorizationHeader === 'raw';
  return t.http.call(request.method, request.path, {
    headers: { authorization: raw ? token : `Bearer ${token}` },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}
