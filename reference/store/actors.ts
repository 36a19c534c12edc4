import { specError, type AuthReason } from '../../spec/errors.ts';
import { rulesOf, tenantWritePermissions, type Actor } from '../../spec/machines/dashboards.ts';
import { roleOf, tenantById } from '../../spec/machines/identity.ts';
import { errDone, okDone, type Done } from '../done.ts';
import { projectUserFacts, tenantPermissionsClaimed, type EacClaims } from '../tokens/claims.ts';
import { TokenService } from '../tokens/jwt.ts';
import type { Settings } from '../settings.ts';
import type { AccountRecord, Store } from './store.ts';

/** Who presented which credential (reference/http/auth.ts finds them, §5). */
export interface Principal {
  readonly account: AccountRecord;
  readonly via: 'user-scoped-key' | 'org-bound-key' | 'project-user-token' | 'tenant-token';
  /** userId (project-user token) or tenantId (tenant token). */
  readonly subject?: string;
  /**
   * What a token said of its subject when it was issued (decisions tokens.claims and
   * states.role.issued-token-unchanged); never read for a check.
   */
  readonly claims?: EacClaims;
}

/**
 * A project user, with the role the store holds *now* (§3: the write checks read the role at
 * once, never what a token carried when it was issued); undefined once the user is gone.
 */
function projectUser(account: AccountRecord, userId: string): Actor | undefined {
  const user = account.identity.users[userId];
  if (user === undefined) return undefined;
  const role = roleOf(account.identity, user);
  return {
    kind: 'project-user',
    userId,
    permissions: role?.permissions ?? null,
    projectOrganizationId: user.projectOrganizationId,
  };
}

/** §5 rule 6: after finalize a tenant is the project user the migration made for it. */
function migratedUserOf(account: AccountRecord, tenantId: string): string | undefined {
  return account.migration.phase === 'after'
    ? account.migration.projectUserOf[tenantId]
    : undefined;
}

/**
 * §5 rule 4 names an API key or a tenant JWT for clone; the reference holds every v1 write to
 * the same pair (decision dashboards.v1-writes.credentials): a project user works in v2, unless
 * the rules take its token on the calls other than clone (`call`). The
 * tenant acts with the permissions the store holds now (decision
 * dashboards.tenant-permissions.read-at-write; the other rule reads its token's), as the project
 * user it became once migrated.
 */
export function v1Writer(
  principal: Principal,
  call: 'clone' | 'other' = 'other',
): Done<{ account: AccountRecord; actor: Actor }> {
  const { account } = principal;
  const subject = principal.subject ?? '';
  if (principal.via === 'project-user-token') {
    // A service taking the token elsewhere than clone lets the user act in their own space.
    if (call === 'other' && rulesOf(account.dashboards).v1ProjectUsers === 'taken')
      return v2Actor(principal);
    return errDone(
      specError('FORBIDDEN', 'v1 dashboard writes take an API key or a tenant JWT', {
        reason: 'project-user-token-on-v1',
        accepted: ['api-key', 'tenant-token'],
      }),
    );
  }
  if (principal.via !== 'tenant-token') return okDone({ account, actor: { kind: 'api-key' } });
  const permissions = tenantWritePermissions(
    account.dashboards,
    tenantById(account.identity, subject)?.permissions ?? null,
    tenantPermissionsClaimed(principal.claims ?? {}),
  );
  const mapped = migratedUserOf(account, subject);
  return okDone({
    account,
    actor:
      mapped === undefined
        ? { kind: 'tenant', tenantId: subject, permissions }
        : { kind: 'project-user', userId: mapped, permissions, projectOrganizationId: null },
  });
}

/**
 * Who acts on v2 (§4.16, decision v2.credentials.api-key-carrier): an API key acts on templates, a
 * project-user token as its user, and a tenant JWT as the project user the migration mapped
 * its tenant to (§5 rule 6), or is refused 401 when it has not (§7).
 */
export function v2Actor(principal: Principal): Done<{ account: AccountRecord; actor: Actor }> {
  const { account } = principal;
  if (principal.via === 'user-scoped-key' || principal.via === 'org-bound-key') {
    return okDone({ account, actor: { kind: 'api-key' } });
  }
  let userId = principal.subject ?? '';
  if (principal.via === 'tenant-token') {
    const mapped = migratedUserOf(account, userId);
    if (mapped === undefined) {
      return errDone(
        specError(
          'TENANT_NOT_MIGRATED',
          'this tenant is not migrated yet; ask register-tenant for a new token',
          { remedy: 'POST /v1/api/tenant/register-tenant' },
        ),
      );
    }
    userId = mapped;
  }
  const actor = projectUser(account, userId);
  if (actor === undefined) {
    return errDone(specError('UNAUTHORIZED', 'the token\u2019s user no longer exists', {}));
  }
  if (principal.via !== 'tenant-token' || actor.kind !== 'project-user')
    return okDone({ account, actor });
  // A tenant JWT acts as its project user with that user's role as stored, or (the other rule of
  // dashboards.tenant-permissions.read-at-write) with the permissions the token was issued with.
  const permissions = tenantWritePermissions(
    account.dashboards,
    actor.permissions,
    tenantPermissionsClaimed(principal.claims ?? {}),
  );
  return okDone({ account, actor: { ...actor, permissions } });
}

/**
 * The project user a token stands for, with the properties it carries (decision
 * tokens.user-token.properties-after-update).
 */
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

/**
 * §4.15, §5: only a project-user token carries a user whose properties decide the rows; an
 * API key, a tenant token, an expired or forged one is refused (401) before anything runs.
 */
export async function projectUserOf(
  ctx: {
    readonly store: Store;
    readonly tokens: TokenService;
    readonly settings: Pick<Settings, 'tokenReads'>;
  },
  token: string | undefined,
): Promise<Done<ProjectUserCaller>> {
  if (token === undefined || token === '')
    return {
      ok: false,
      error: unauthorized('missing-credentials', 'send a project-user token as Bearer'),
    };
  const org = TokenService.claimedOrganization(token);
  const account = org === undefined ? undefined : ctx.store.account(org);
  if (account === undefined)
    return {
      ok: false,
      error: unauthorized('invalid-token', 'the token is invalid'),
    };
  const verified = await ctx.tokens.verify(token, ctx.store.now(account));
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
  // Decisions tokens.user-token.properties-after-update and states.role.issued-token-unchanged
  // read what the token carried at issue; a server taking `live` reads the user.
  const facts = projectUserFacts(verified.claims);
  const live = ctx.settings.tokenReads === 'live';
  const props = live ? user.properties : facts.properties;
  const pog = live ? user.projectOrganizationId : facts.projectOrganization;
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

/**
 * Who saves a chart from chat (§4.14: any of the three credentials of §5 rule 4): an API key, a
 * tenant as v1Writer reads it, a project user as on v2.
 */
export function chartSaver(principal: Principal): Done<{ account: AccountRecord; actor: Actor }> {
  return principal.via === 'project-user-token' ? v2Actor(principal) : v1Writer(principal);
}
