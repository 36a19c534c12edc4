import { PERMISSION_FLAGS, type EffectivePermissions } from '../../spec/schemas/permissions.ts';
import type { ReferenceContext } from '../http/context.ts';
import type { AccountRecord } from '../store/world.ts';
import { TokenService } from '../tokens/jwt.ts';

/** Who opens a hub page: the project user of the page's `jwt` (§4.17, §5 rule 6). */
export interface Viewer {
  readonly account: AccountRecord;
  readonly userId: string;
  /**
   * The §2.2 flags as the token carries them (decision T3: the effective permissions at issue
   * time), so a role update shows on the user's next token (§3) and not before.
   */
  readonly flags: EffectivePermissions;
  /** §2.4 properties, read by row-level security as `{{user.<key>}}`. */
  readonly properties: Readonly<Record<string, unknown>>;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The viewer of a page, or undefined for a missing, malformed, expired or foreign token, a
 * tenant JWT (§5 rule 6: embedded pages need a project-user token) and a token whose user is
 * gone. Lifetime is read on the account's clock, like every token check of the reference.
 */
export async function viewerOf(
  ctx: ReferenceContext,
  jwt: string | undefined,
): Promise<Viewer | undefined> {
  if (jwt === undefined || jwt === '') return undefined;
  const org = TokenService.claimedOrganization(jwt);
  const account = org === undefined ? undefined : ctx.world.account(org);
  if (account === undefined) return undefined;
  const verified = await ctx.tokens.verify(jwt, ctx.world.now(account));
  if (!verified.ok || verified.claims.kind !== 'project-user') return undefined;
  if (account.identity.users[verified.sub] === undefined) return undefined;
  const perm = record(verified.claims['perm']);
  const flags = Object.fromEntries(
    PERMISSION_FLAGS.map((flag) => [flag, perm[flag] === true]),
  ) as EffectivePermissions;
  return {
    account,
    userId: verified.sub,
    flags,
    properties: record(verified.claims['props']),
  };
}
