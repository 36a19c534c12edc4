import type { FastifyInstance } from 'fastify';
import { tenantIdentity } from '../../spec/machines/identity.ts';
import { RegisterTenantBody } from '../../spec/schemas/tenant.ts';
import { tenantClaims } from '../tokens/claims.ts';
import type { ReferenceContext } from './context.ts';
import { caller, errDone, okDone, route, unexpected } from './route.ts';

/** §4.9: the v1 tenant flow (field names: decision N1). */
export function tenantRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/tenant/register-tenant',
    auth: ['body-key'],
    body: RegisterTenantBody,
    handle: async ({ principal, body }) => {
      const { account } = caller(principal);
      const done = ctx.world.identity(account, {
        type: 'registerTenant',
        newTenantId: ctx.ids.uuid(),
        identity: tenantIdentity(body),
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.permissions === undefined ? {} : { permissions: body.permissions }),
        ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      });
      if (!done.ok) return done;
      if (done.value.kind !== 'tenant') return errDone(unexpected());
      const { tenant } = done.value;
      const claims = tenantClaims(account.identity, tenant);
      const issued = await ctx.tokens.issue(
        tenant.tenantId,
        claims,
        ctx.ids.uuid(),
        ctx.world.now(account),
        body.expiration,
      );
      return okDone({ message: 'The tenant was registered.', token: issued.token });
    },
  });
}
