import type { FastifyInstance } from 'fastify';
import { RegisterOrganizationBody } from '../../spec/schemas/organization.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, okDone, route } from './route.ts';

/** §4.4 */
export function organizationRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/projects/register-organization',
    auth: ['body-key'],
    body: RegisterOrganizationBody,
    handle: ({ principal, body }) => {
      const done = ctx.store.identity(caller(principal).account, {
        type: 'registerOrganization',
        projectId: body.projectId,
        newId: ctx.ids.uuid(),
        name: body.name,
        ...(body.properties === undefined ? {} : { properties: body.properties }),
        ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
      });
      if (!done.ok) return done;
      const org = done.value.organization;
      // Decision orgs.register.external-id-echo: without an externalId, echo the service UUID.
      return okDone({
        projectOrganizationId: org.projectOrganizationId,
        externalId: org.externalId ?? org.projectOrganizationId,
      });
    },
  });
}
