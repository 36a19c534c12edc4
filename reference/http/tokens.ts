import type { FastifyInstance } from 'fastify';
import { specError } from '../../spec/errors.ts';
import { EmbedTokenBody, UserTokenBody } from '../../spec/schemas/token.ts';
import { projectUserClaims } from '../tokens/claims.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, errDone, okDone, route } from './route.ts';

/** §4.7, §4.8 and the public keys (decision tokens.claims; none when signed with a secret). */
export function tokenRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/projects/user-token',
    auth: ['body-key'],
    body: UserTokenBody,
    handle: async ({ principal, body }) => {
      const { account } = caller(principal);
      const user = account.identity.users[body.userId];
      if (user === undefined) {
        return errDone(
          specError('NOT_FOUND', 'no user with that id here', {
            resource: 'user',
            field: 'userId',
          }),
        );
      }
      const claims = projectUserClaims(account.identity, user, ctx.settings.noRolePermissions);
      return okDone(
        await ctx.tokens.issue(
          user.id,
          claims,
          ctx.ids.uuid(),
          ctx.store.now(account),
          body.expiration,
        ),
      );
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/projects/embed-token',
    auth: ['body-key'],
    body: EmbedTokenBody,
    handle: async ({ principal, body }) => {
      const { account } = caller(principal);
      const done = ctx.store.identity(account, {
        type: 'embedSignIn',
        projectId: body.projectId,
        newOrganizationId: ctx.ids.uuid(),
        organization: body.organization,
        userId: body.user.id ?? ctx.ids.uuid(),
        user: body.user,
        existing: ctx.settings.embedSignIn,
        absent: ctx.settings.embedAbsent,
      });
      if (!done.ok) return done;
      const { user, organization } = done.value;
      const claims = projectUserClaims(account.identity, user, ctx.settings.noRolePermissions);
      const issued = await ctx.tokens.issue(
        user.id,
        claims,
        ctx.ids.uuid(),
        ctx.store.now(account),
        body.expiration,
      );
      return okDone({
        ...issued,
        userId: user.id,
        projectOrganizationId: organization.projectOrganizationId,
      });
    },
  });

  const jwks = ctx.tokens.jwks();
  if (jwks !== undefined) app.get('/.well-known/jwks.json', () => jwks);
}
