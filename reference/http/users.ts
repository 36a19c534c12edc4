import type { FastifyInstance } from 'fastify';
import { specError } from '../../spec/errors.ts';
import { RegisterUserBody, UpdateUserBody, UserPath } from '../../spec/schemas/user.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, errDone, okDone, route } from './route.ts';

/** §4.5, §4.6 */
export function userRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'POST',
    url: '/v1/api/projects/register-user',
    auth: ['body-key'],
    body: RegisterUserBody,
    handle: ({ principal, body }) => {
      const done = ctx.store.identity(caller(principal).account, {
        type: 'registerUser',
        projectId: body.projectId,
        userId: body.userId ?? ctx.ids.uuid(),
        name: body.name,
        ...(body.properties === undefined ? {} : { properties: body.properties }),
        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),
        ...(body.projectOrganizationId === undefined
          ? {}
          : { projectOrganizationId: body.projectOrganizationId }),
      });
      if (!done.ok) return done;
      // §4.5: no token here; the backend asks user-token for one.
      return okDone({
        message: done.value.created ? 'The user was registered.' : 'The user was updated.',
        userId: done.value.user.id,
      });
    },
  });

  route(app, ctx, {
    method: 'PUT',
    url: '/v1/api/projects/:projectId/users/:projectUserId',
    auth: ['body-key'],
    params: UserPath,
    body: UpdateUserBody,
    handle: ({ principal, params, body }) => {
      if (body.properties !== undefined && body.payload !== undefined) {
        // Decision users.update.payload-and-properties: the deprecated name and the new one
        // together are ambiguous.
        return errDone(
          specError(
            'VALIDATION_ERROR',
            'send properties or its deprecated name payload, not both',
            {
              issues: [
                {
                  path: ['body', 'payload'],
                  message: 'deprecated; use properties alone',
                  code: 'custom',
                },
              ],
            },
          ),
        );
      }
      const properties = body.properties ?? body.payload;
      const done = ctx.store.identity(caller(principal).account, {
        type: 'updateUser',
        projectId: params.projectId,
        userId: params.projectUserId,
        name: body.name,
        ...(properties === undefined ? {} : { properties }),
        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),
        ...(body.projectOrganizationId === undefined
          ? {}
          : { projectOrganizationId: body.projectOrganizationId }),
      });
      if (!done.ok) return done;
      return okDone(done.value.user);
    },
  });
}
