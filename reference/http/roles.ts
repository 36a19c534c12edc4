import type { FastifyInstance } from 'fastify';
import { rolesOf } from '../../spec/machines/identity.ts';
import { ProjectPath, RolePath, RoleQuery, UpdateRoleBody } from '../../spec/schemas/role.ts';
import { specError } from '../../spec/errors.ts';
import type { ReferenceContext } from '../context.ts';
import { caller, errDone, okDone, route } from './route.ts';

/** §4.1–§4.3: the project user role endpoints. Creation is a host hook (§4.3 leaves it out). */
export function roleRoutes(app: FastifyInstance, ctx: ReferenceContext): void {
  route(app, ctx, {
    method: 'PUT',
    url: '/v1/api/projects/:projectId/user-roles/:projectUserRoleId',
    auth: ['body-key'],
    params: RolePath,
    body: UpdateRoleBody,
    handle: ({ principal, params, body }) => {
      const done = ctx.store.identity(caller(principal).account, {
        type: 'updateRole',
        projectId: params.projectId,
        roleId: params.projectUserRoleId,
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.permissions === undefined ? {} : { permissions: body.permissions }),
      });
      if (!done.ok) return done;
      return okDone(done.value.role);
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/v1/api/projects/:projectId/user-roles',
    auth: ['query-key'],
    params: ProjectPath,
    query: RoleQuery,
    handle: ({ principal, params }) => {
      const { identity } = caller(principal).account;
      if (identity.projects[params.projectId] === undefined) {
        return errDone(
          specError('NOT_FOUND', 'no project with that id here', { resource: 'project' }),
        );
      }
      return okDone({ userRoles: rolesOf(identity, params.projectId) });
    },
  });

  route(app, ctx, {
    method: 'DELETE',
    url: '/v1/api/projects/:projectId/user-roles/:projectUserRoleId',
    auth: ['query-key'],
    params: RolePath,
    query: RoleQuery,
    handle: ({ principal, params }) => {
      const done = ctx.store.identity(caller(principal).account, {
        type: 'deleteRole',
        projectId: params.projectId,
        roleId: params.projectUserRoleId,
      });
      if (!done.ok) return done;
      return okDone({ message: 'The role was deleted; its users now have no role.' });
    },
  });
}
