import { specError, type AuthReason } from '../../spec/errors.ts';
import type { ReferenceContext } from '../http/context.ts';
import type { AccountRecord, Done } from '../store/world.ts';
import { projectUserFacts } from '../tokens/claims.ts';
import { TokenService } from '../tokens/jwt.ts';

/** The project user a token stands for, with the properties it carries (decision T3). */
export interface ProjectUserCaller {
  readonly account: AccountRecord;
  readonly userId: string;
  readonly projectId: string | null;
  readonly projectOrganizationId: string | null;
  /** Read by row-level security as `{{user.<key>}}` (§1, §2.4). */
  readonly properties: Readonly<Record<string, unknown>>;
}

const unauthorized = (reason: AuthReason, message: string) =>
  specError('UNAUTHORIZED', message, { reason });

/** The token of an `Authorization: Bearer` header, if any. */
export function bearer(header: string | undefined): string | undefined {
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/**
 * §4.15, §5: only a project-user token carries a user whose properties decide the rows; an
 * API key, a tenant token, an expired or forged one is refused (401) before anything runs.
 */
export async function projectUserOf(
  ctx: Pick<ReferenceContext, 'world' | 'tokens'>,
  token: string | undefined,
): Promise<Done<ProjectUserCaller>> {
  if (token === undefined || token === '')
    return {
      ok: false,
      error: unauthorized('missing-credentials', 'send a project-user token as Bearer'),
    };
  const org = TokenService.claimedOrganization(token);
  const account = org === undefined ? undefined : ctx.world.account(org);
  if (account === undefined)
    return {
      ok: false,
      error: unauthorized('invalid-token', 'the token is invalid'),
    };
  const verified = await ctx.tokens.verify(token, ctx.world.now(account));
  if (!verified.ok) return verified;
  if (verified.claims.kind !== 'project-user') {
    return {
      ok: false,
      // Decision auth.token.invalid: a token of the service of another kind (a tenant JWT) is
      // no token for this call.
      error: unauthorized('invalid-token', 'this call takes a project-user token'),
    };
  }
  const user = account.identity.users[verified.sub];
  if (user === undefined)
    return {
      ok: false,
      error: unauthorized('invalid-token', 'the token\u2019s user no longer exists'),
    };
  const facts = projectUserFacts(verified.claims);
  const props = facts.properties;
  const pog = facts.projectOrganization;
  return {
    ok: true,
    value: {
      account,
      userId: verified.sub,
      projectId: user.projectId,
      projectOrganizationId: typeof pog === 'string' ? pog : null,
      properties:
        typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : {},
    },
  };
}
