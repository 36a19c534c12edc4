import { PERMISSION_FLAGS, type EffectivePermissions } from '../../spec/schemas/permissions.ts';
import type { ReferenceContext } from '../context.ts';
import type { AccountRecord } from '../store/store.ts';
import { projectUserFacts } from '../tokens/claims.ts';
import { TokenService } from '../tokens/jwt.ts';

/** Who opens a hub page: the project user of the page's `jwt` (§4.17, §5 rule 6). */
export interface Viewer {
  readonly account: AccountRecord;
  readonly userId: string;
  /**
   * The §2.2 flags as the token carries them (decision states.role.issued-token-unchanged: the
   * effective permissions at issue time), so a role update shows on the user's next token (§3) and
   * not before.
   */
  readonly flags: EffectivePermissions;
  /** §2.4 properties, read by row-level security as `{{user.<key>}}`. */
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * A claim the reference's own signing gave as an object (reference/tokens/claims.ts, either
 * layout): only its signed tokens get past the check, so the claim is taken as it is, absent
 * read as empty.
 */
const claimed = (v: unknown): Readonly<Record<string, unknown>> =>
  (v ?? {}) as Readonly<Record<string, unknown>>;

/**
 * The viewer of a page, or undefined for a missing, malformed, expired or foreign token, a
 * tenant JWT (§5 rule 6: embedded pages need a project-user token) and a token whose user is
 * gone. Lifetime is read on the account's clock, like every token check of the reference.
 */
export async function viewerOf(
  ctx: ReferenceContext,
  given: string | undefined,
): Promise<Viewer | undefined> {
  // A missing jwt is read as an empty one: neither names an organization.
  const jwt = given ?? '';
  const org = TokenService.claimedOrganization(jwt);
  const account = ctx.store.account(org ?? '');
  if (account === undefined) return undefined;
  const verified = await ctx.tokens.verify(jwt, ctx.store.now(account));
  if (!verified.ok || verified.claims.kind !== 'project-user') return undefined;
  if (account.identity.users[verified.sub] === undefined) return undefined;
  const facts = projectUserFacts(verified.claims);
  const perm = claimed(facts.permissions);
  const flags = Object.fromEntries(
    PERMISSION_FLAGS.map((flag) => [flag, perm[flag] === true]),
  ) as EffectivePermissions;
  return {
    account,
    userId: verified.sub,
    flags,
    properties: claimed(facts.properties),
  };
}
