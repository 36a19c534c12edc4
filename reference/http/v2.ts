import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CredentialFields } from '../../spec/schemas/common.ts';
import type { ReferenceContext } from './context.ts';
import { specError } from '../../spec/errors.ts';
import { caller, errDone, okDone, route } from './route.ts';

/**
 * §4.16 v2 endpoints. Applications come from the migration (§9), which lands with the
 * dashboards; until an organization is migrated it has none (decision V1).
 */
export function v2Routes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'GET',
    url: '/v2/api/applications',
    // §5 rule 7: a project-user token acts in the user's space, an API key on shared ones.
    auth: ['bearer-token', 'query-key'],
    query: z.object(CredentialFields),
    handle: ({ principal }) => {
      // §7, §5 rule 6: a tenant token works on v2 only once the migration has mapped its
      // tenant to a project user; mappings arrive with the migration, so none exists yet.
      if (caller(principal).via === 'tenant-token') {
        return errDone(
          specError(
            'TENANT_NOT_MIGRATED',
            'this tenant is not migrated yet; ask register-tenant for a new token',
            {
              remedy: 'POST /v1/api/tenant/register-tenant',
            },
          ),
        );
      }
      return okDone({ applications: [] });
    },
  });
}
