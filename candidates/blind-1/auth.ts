import { ApiError, forbidden, invalid, unauthorized } from './errors.ts';
import type { Req } from './http.ts';
import type { Account, ProjectUser, Store, Tenant } from './store.ts';
import { looksLikeJwt, peekAccount, verify } from './tokens.ts';
import type { UserClaims } from './tokens.ts';
import { isPlainObject, isUuid } from './util.ts';

/** Who is calling: the one place credentials are resolved. */
export type Actor =
  | { kind: 'api-key'; account: Account }
  | { kind: 'tenant'; account: Account; tenant: Tenant }
  | { kind: 'user'; account: Account; user: ProjectUser; claims: UserClaims };

export function apiKeyActor(store: Store, key: string, organizationId: unknown): Actor {
  const found = store.keys.get(key);
  if (!found) throw unauthorized('unknown-api-key', 'The API key is not known.');
  if (found.kind === 'org-bound') {
    const account = store.accounts.get(found.owner);
    if (!account) throw unauthorized('unknown-api-key', 'The API key is not known.');
    return { kind: 'api-key', account };
  }
  if (organizationId === undefined || organizationId === null || organizationId === '')
    throw unauthorized(
      'organization-required',
      'This API key belongs to a hub user: pass organizationId to choose the organization to act on.',
    );
  if (!isUuid(organizationId))
    throw invalid('organizationId must be a UUID.', { field: 'organizationId' });
  const memberOf = store.memberships.get(found.owner);
  const account = store.accounts.get(organizationId);
  if (!account || !memberOf?.has(organizationId))
    throw forbidden('The API key’s user is not a member of that organization.', {
      reason: 'not-a-member',
    });
  return { kind: 'api-key', account };
}

export async function tokenActor(store: Store, token: string): Promise<Actor> {
  const accountId = peekAccount(token);
  const account = accountId ? store.accounts.get(accountId) : undefined;
  if (!account) throw unauthorized('invalid-token', 'The token is not valid.');
  const claims = await verify(token, store.now(account));
  if (claims.knd === 'pu') {
    const user = account.users.get(claims.sub);
    if (!user) throw unauthorized('invalid-token', 'The token’s user no longer exists.');
    return { kind: 'user', account, user, claims };
  }
  const tenant = account.tenants.get(claims.sub);
  if (!tenant) throw unauthorized('invalid-token', 'The token’s tenant no longer exists.');
  return { kind: 'tenant', account, tenant };
}

function bodyField(req: Req, name: string): unknown {
  return isPlainObject(req.body) ? req.body[name] : undefined;
}

/** The credential of a POST or PUT: `apiKey` (and `organizationId`) in the JSON body. */
export function bodyKeyActor(store: Store, req: Req): Actor {
  const key = bodyField(req, 'apiKey');
  if (key === undefined || key === '')
    throw unauthorized('missing-credentials', 'Send apiKey in the JSON body.');
  if (typeof key !== 'string') throw invalid('apiKey must be a string.', { field: 'apiKey' });
  return apiKeyActor(store, key, bodyField(req, 'organizationId'));
}

/** The credential of a GET or DELETE: `apiKey` (and `organizationId`) in the query. */
export function queryKeyActor(store: Store, req: Req): Actor {
  const key = req.query.apiKey;
  if (key === undefined || key === '')
    throw unauthorized('missing-credentials', 'Send apiKey in the query.');
  return apiKeyActor(store, key, req.query.organizationId);
}

export interface Accept {
  apiKey: boolean;
  tenant: boolean;
  user: boolean;
}

/**
 * The `authorization` header (an API key, bare or after `Bearer `, or a JWT after `Bearer `),
 * falling back to a body or query `apiKey` where the call allows an API key.
 */
export async function headerActor(store: Store, req: Req, accept: Accept): Promise<Actor> {
  const header = req.headers.authorization;
  const orgId =
    req.method === 'GET' || req.method === 'DELETE'
      ? req.query.organizationId
      : bodyField(req, 'organizationId');
  if (typeof header === 'string' && header.trim() !== '') {
    const value = header.replace(/^bearer\s+/i, '').trim();
    if (looksLikeJwt(value)) {
      const actor = await tokenActor(store, value);
      if (actor.kind === 'tenant' && !accept.tenant)
        throw unauthorized('token-not-accepted', 'This endpoint does not take a tenant token.');
      if (actor.kind === 'user' && !accept.user)
        throw unauthorized(
          'token-not-accepted',
          'This endpoint does not take a project-user token.',
        );
      return actor;
    }
    if (!accept.apiKey)
      throw unauthorized('api-key-not-accepted', 'This endpoint needs a token, not an API key.');
    return apiKeyActor(store, value, orgId);
  }
  if (accept.apiKey) {
    const key =
      req.method === 'GET' || req.method === 'DELETE' ? req.query.apiKey : bodyField(req, 'apiKey');
    if (typeof key === 'string' && key !== '') return apiKeyActor(store, key, orgId);
  }
  throw unauthorized('missing-credentials', 'Send credentials in the authorization header.');
}

export function projectOf(actor: Actor, projectId: string): void {
  if (!actor.account.projects.has(projectId))
    throw new ApiError(
      404,
      'NOT_FOUND',
      'No project with that id is visible to these credentials.',
      {
        resource: 'project',
        field: 'projectId',
      },
    );
}
