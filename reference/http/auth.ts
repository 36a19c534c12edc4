import type { FastifyRequest } from 'fastify';
import { specError, type SpecError } from '../../spec/errors.ts';
import { tenantById } from '../../spec/machines/identity.ts';
import type { Done } from '../done.ts';
import type { Principal } from '../store/actors.ts';
import type { Store } from '../store/store.ts';
import { TokenService } from '../tokens/jwt.ts';

/**
 * §5: where a credential may ride. An endpoint lists the carriers it accepts; a key found
 * only in a carrier the endpoint does not accept is refused as misplaced (decision
 * auth.api-key.misplaced).
 */
export type Carrier = 'body-key' | 'query-key' | 'header' | 'bearer-token';

export interface AuthContext {
  readonly store: Store;
  readonly tokens: TokenService;
}

type Bag = Record<string, unknown>;
const bag = (v: unknown): Bag => (typeof v === 'object' && v !== null ? (v as Bag) : {});
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

const unauthorized = (reason: string, message: string) =>
  specError('UNAUTHORIZED', message, { reason });

function headerValue(req: FastifyRequest): string | undefined {
  const raw = req.headers.authorization;
  if (!nonEmpty(raw)) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(raw.trim());
  return m?.[1] ?? raw.trim();
}

const looksLikeJwt = (value: string) => value.split('.').length === 3;

/**
 * Which carriers are present on the request at all. A JWT-shaped header value is a bearer
 * token; any other `Bearer` value is an API key only where the endpoint takes keys in the
 * header (decision auth.header.format), and elsewhere a token that will not verify.
 */
function present(req: FastifyRequest, accepts: readonly Carrier[]): Record<Carrier, boolean> {
  const header = headerValue(req);
  const bearerScheme = /^Bearer\s/i.test(req.headers.authorization?.trim() ?? '');
  const token =
    header !== undefined && (looksLikeJwt(header) || (bearerScheme && !accepts.includes('header')));
  return {
    'body-key': nonEmpty(bag(req.body)['apiKey']),
    'query-key': nonEmpty(bag(req.query)['apiKey']),
    header: header !== undefined && !token,
    'bearer-token': token,
  };
}

function keyPrincipal(ctx: AuthContext, key: string, organizationId: unknown): Done<Principal> {
  const owner = ctx.store.keyOwner(key);
  if (owner === undefined) return fail(unauthorized('invalid-api-key', 'the API key is not known'));
  if (owner.kind === 'org-bound') {
    // §5 rule 3: an organization-bound key names its organization; organizationId is ignored
    // whatever it holds (route() drops it before validation).
    const account = ctx.store.account(owner.organizationId);
    if (account === undefined)
      return fail(unauthorized('invalid-api-key', 'the API key is not known'));
    return { ok: true, value: { account, via: 'org-bound-key' } };
  }
  // §5 rules 1 and 3: a user-scoped key needs organizationId, and membership is checked.
  if (organizationId === undefined) {
    return fail(
      unauthorized('organization-id-required', 'a user-scoped API key needs organizationId'),
    );
  }
  // Not a member, whatever the value: an unknown id, another account's, or not a UUID at all.
  // Ids are read in lower case, as route() reads every UUID (clause errors.validation.uuid-case).
  const account =
    typeof organizationId === 'string'
      ? ctx.store.account(organizationId.toLowerCase())
      : undefined;
  if (account === undefined || !owner.hubUser.memberships.has(account.organizationId)) {
    return fail(
      specError('FORBIDDEN', 'the key\u2019s user is not a member of that organization', {
        reason: 'not-a-member',
      }),
    );
  }
  return { ok: true, value: { account, via: 'user-scoped-key' } };
}

async function tokenPrincipal(ctx: AuthContext, token: string): Promise<Done<Principal>> {
  const org = TokenService.claimedOrganization(token);
  const account = org === undefined ? undefined : ctx.store.account(org);
  if (account === undefined) return fail(unauthorized('invalid-token', 'the token is invalid'));
  const verified = await ctx.tokens.verify(token, ctx.store.now(account));
  if (!verified.ok) return verified;
  const via = verified.claims.kind === 'tenant' ? 'tenant-token' : 'project-user-token';
  if (via === 'project-user-token' && account.identity.users[verified.sub] === undefined) {
    return fail(unauthorized('invalid-token', 'the token\u2019s user no longer exists'));
  }
  if (via === 'tenant-token' && tenantById(account.identity, verified.sub) === undefined) {
    return fail(unauthorized('invalid-token', 'the token\u2019s tenant no longer exists'));
  }
  return { ok: true, value: { account, via, subject: verified.sub, claims: verified.claims } };
}

function fail(error: SpecError): Done<Principal> {
  return { ok: false, error };
}

/** Finds the caller among the carriers an endpoint accepts (§5 table and rules). */
export async function authenticate(
  ctx: AuthContext,
  req: FastifyRequest,
  accepts: readonly Carrier[],
): Promise<Done<Principal>> {
  const has = present(req, accepts);
  const body = bag(req.body);
  const query = bag(req.query);
  for (const carrier of accepts) {
    if (!has[carrier]) continue;
    switch (carrier) {
      case 'body-key':
        return keyPrincipal(ctx, body['apiKey'] as string, body['organizationId']);
      case 'query-key':
        return keyPrincipal(ctx, query['apiKey'] as string, query['organizationId']);
      case 'header': {
        // Only POST routes take a key in the header, so organizationId always comes from the body.
        const organizationId =
          req.method === 'GET' || req.method === 'DELETE'
            ? query['organizationId']
            : body['organizationId'];
        return keyPrincipal(ctx, headerValue(req) as string, organizationId);
      }
      case 'bearer-token':
        return tokenPrincipal(ctx, headerValue(req) as string);
    }
  }
  const elsewhere = (Object.keys(has) as Carrier[]).filter((c) => has[c]);
  if (elsewhere.length > 0) {
    const names: Record<Carrier, string> = {
      'body-key': 'apiKey in the JSON body',
      'query-key': 'apiKey in the query',
      header: 'the authorization header',
      'bearer-token': 'a bearer token',
    };
    const accepted = accepts.map((c) => names[c]).join(' or ');
    const sent = elsewhere.map((c) => names[c]).join(' or ');
    return fail(
      specError('UNAUTHORIZED', `this endpoint takes credentials as ${accepted}, not as ${sent}`, {
        reason: 'api-key-misplaced',
        accepted: accepts,
      }),
    );
  }
  return fail(unauthorized('missing-credentials', 'no credentials were sent'));
}
