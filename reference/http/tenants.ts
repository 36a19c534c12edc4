import type { FastifyInstance } from 'fastify';
import { tenantProjectUserId } from '../../spec/machines/identity.ts';
import { registerTenantBody, tenantIdentityOf } from '../tenants/identity.ts';
import { projectUserClaims, tenantClaims } from '../tokens/claims.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, okDone, route } from './route.ts';

/** §4.9: the v1 tenant flow (field names: decision tenants.register.field-names). */
export function tenantRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/tenant/register-tenant',
    auth: ['body-key'],
    body: registerTenantBody(ctx.settings.tenantSplit),
    handle: async ({ principal, body }) => {
      const { account } = caller(principal);
      const done = ctx.store.identity(account, {
        type: 'registerTenant',
        newTenantId: ctx.ids.uuid(),
        identity: tenantIdentityOf(body, ctx.settings.tenantIdentity),
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.permissions === undefined ? {} : { permissions: body.permissions }),
        ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      });
      if (!done.ok) return done;
      const { tenant } = done.value;
      // §4.9, §9 register-tenant row: after finalize the token is a project-user token for
      // the same end user, the project user the tenant became (mapped now if it is new).
      let subject = tenant.tenantId;
      let claims = tenantClaims(account.identity, tenant);
      if (account.migration.phase === 'after') {
        const userId = tenantProjectUserId(account.organizationId, tenant.tenantId);
        const mapped = ctx.store.mapTenant(account, tenant.tenantId, userId);
        if (!mapped.ok) return mapped;
        subject = userId;
        claims = projectUserClaims(account.identity, mapped.value, ctx.settings.noRolePermissions);
      }
      const issued = await ctx.tokens.issue(
        subject,
        claims,
        ctx.ids.uuid(),
        ctx.store.now(account),
        body.expiration,
      );
      return okDone({ message: 'The tenant was registered.', token: issued.token });
    },
  });
}
