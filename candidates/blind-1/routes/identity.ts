import { z } from 'zod';
import { bodyKeyActor, projectOf, queryKeyActor } from '../auth.ts';
import { conflict, notFound } from '../errors.ts';
import { parse } from '../http.ts';
import type { Router } from '../http.ts';
import {
  issueUserToken,
  resolveOrganization,
  roleInProject,
  roleView,
  userView,
} from '../identity.ts';
import { Credentials, Expiration, Permissions, Properties, Uuid } from '../schemas.ts';
import type { Account, ProjectOrganization, ProjectUser, Store } from '../store.ts';
import { newId } from '../util.ts';

/** §4.1–§4.8: roles, project organizations, project users, user and embed tokens. */

const RolePath = z.object({ projectId: Uuid, projectUserRoleId: Uuid });
const ProjectPath = z.object({ projectId: Uuid });
const UserPath = z.object({ projectId: Uuid, projectUserId: Uuid });

const UpdateRole = z.looseObject({
  ...Credentials,
  name: z.string().min(1).optional(),
  permissions: Permissions.optional(),
});

const RegisterOrganization = z.looseObject({
  ...Credentials,
  name: z.string().min(1),
  projectId: Uuid,
  properties: Properties.optional(),
  externalId: z.string().min(1).optional(),
});

const RegisterUser = z.looseObject({
  ...Credentials,
  name: z.string(),
  properties: Properties.optional(),
  projectId: Uuid,
  userRoleId: Uuid.nullable().optional(),
  projectOrganizationId: z.string().min(1).nullable().optional(),
  userId: Uuid.optional(),
});

const UpdateUser = z.looseObject({
  ...Credentials,
  name: z.string().min(1),
  properties: Properties.optional(),
  payload: Properties.optional(),
  userRoleId: Uuid.nullable().optional(),
  projectOrganizationId: z.string().min(1).nullable().optional(),
});

const UserToken = z.looseObject({
  ...Credentials,
  userId: Uuid,
  expiration: Expiration.default('1h'),
});

const EmbedToken = z.looseObject({
  ...Credentials,
  projectId: Uuid,
  organization: z.looseObject({
    externalId: z.string().min(1),
    displayName: z.string().min(1).optional(),
    properties: Properties.optional(),
  }),
  user: z.looseObject({
    userId: Uuid.optional(),
    displayName: z.string().optional(),
    properties: Properties.optional(),
    userRoleId: Uuid.nullable().optional(),
  }),
  expiration: Expiration.default('1h'),
});

const Body = z.record(z.string(), z.unknown());

function body(value: unknown): Record<string, unknown> {
  return parse(Body, value ?? {});
}

/** Places a new or existing user id: ids are global, so one held elsewhere is a conflict. */
function claimUserId(
  store: Store,
  account: Account,
  projectId: string,
  userId: string,
): ProjectUser | null {
  const owner = store.userIndex.get(userId);
  if (owner === undefined) return null;
  const existing = account.users.get(userId);
  if (owner !== account.id || !existing || existing.projectId !== projectId)
    throw conflict('That userId is already held by another project user.', { field: 'userId' });
  return existing;
}

export function upsertOrganization(
  account: Account,
  projectId: string,
  externalId: string | undefined,
  name: string | undefined,
  properties: Record<string, unknown> | undefined,
): ProjectOrganization {
  if (externalId !== undefined) {
    for (const org of account.organizations.values())
      if (org.projectId === projectId && org.externalId === externalId) {
        if (name !== undefined) org.name = name;
        if (properties !== undefined) org.properties = properties;
        return org;
      }
  }
  const id = newId();
  const org: ProjectOrganization = {
    id,
    projectId,
    externalId: externalId ?? id,
    name: name ?? externalId ?? id,
    properties: properties ?? {},
  };
  account.organizations.set(id, org);
  return org;
}

export function registerIdentityRoutes(router: Router, store: Store): void {
  router.add('PUT', '/v1/api/projects/:projectId/user-roles/:projectUserRoleId', async (req) => {
    const path = parse(RolePath, req.params, 'path');
    const input = parse(UpdateRole, body(req.body));
    const actor = bodyKeyActor(store, req);
    projectOf(actor, path.projectId);
    const role = roleInProject(
      actor.account,
      path.projectId,
      path.projectUserRoleId,
      'projectUserRoleId',
    );
    if (input.name !== undefined) role.name = input.name;
    if (input.permissions !== undefined) role.permissions = { ...input.permissions };
    role.updatedAt = Math.max(store.now(actor.account), role.updatedAt);
    return Promise.resolve({ data: roleView(actor.account, role) });
  });

  router.add('GET', '/v1/api/projects/:projectId/user-roles', async (req) => {
    const path = parse(ProjectPath, req.params, 'path');
    const actor = queryKeyActor(store, req);
    projectOf(actor, path.projectId);
    const roles = [...actor.account.roles.values()]
      .filter((r) => r.projectId === path.projectId)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    return Promise.resolve({ data: { userRoles: roles.map((r) => roleView(actor.account, r)) } });
  });

  router.add('DELETE', '/v1/api/projects/:projectId/user-roles/:projectUserRoleId', async (req) => {
    const path = parse(RolePath, req.params, 'path');
    const actor = queryKeyActor(store, req);
    projectOf(actor, path.projectId);
    const role = roleInProject(
      actor.account,
      path.projectId,
      path.projectUserRoleId,
      'projectUserRoleId',
    );
    let released = 0;
    for (const user of actor.account.users.values())
      if (user.userRoleId === role.id) {
        user.userRoleId = null;
        released++;
      }
    actor.account.roles.delete(role.id);
    return Promise.resolve({
      data: { message: `Role "${role.name}" deleted; ${released} user(s) left without a role.` },
    });
  });

  router.add('POST', '/v1/api/projects/register-organization', async (req) => {
    const input = parse(RegisterOrganization, body(req.body));
    const actor = bodyKeyActor(store, req);
    projectOf(actor, input.projectId);
    const org = upsertOrganization(
      actor.account,
      input.projectId,
      input.externalId,
      input.name,
      input.properties ?? {},
    );
    return Promise.resolve({ data: { projectOrganizationId: org.id, externalId: org.externalId } });
  });

  router.add('POST', '/v1/api/projects/register-user', async (req) => {
    const input = parse(RegisterUser, body(req.body));
    const actor = bodyKeyActor(store, req);
    const account = actor.account;
    projectOf(actor, input.projectId);
    if (input.userRoleId) roleInProject(account, input.projectId, input.userRoleId, 'userRoleId');
    const org = input.projectOrganizationId
      ? resolveOrganization(
          account,
          input.projectId,
          input.projectOrganizationId,
          'projectOrganizationId',
        )
      : null;
    const existing = input.userId
      ? claimUserId(store, account, input.projectId, input.userId)
      : null;
    const user: ProjectUser = existing ?? {
      id: input.userId ?? newId(),
      projectId: input.projectId,
      name: input.name,
      properties: {},
      userRoleId: null,
      projectOrganizationId: null,
      tenantId: null,
    };
    user.name = input.name;
    user.properties = input.properties ?? {};
    user.userRoleId = input.userRoleId ?? null;
    user.projectOrganizationId = org?.id ?? null;
    account.users.set(user.id, user);
    store.userIndex.set(user.id, account.id);
    return Promise.resolve({
      data: {
        message: existing ? 'Project user updated.' : 'Project user registered.',
        userId: user.id,
      },
    });
  });

  router.add('PUT', '/v1/api/projects/:projectId/users/:projectUserId', async (req) => {
    const path = parse(UserPath, req.params, 'path');
    const input = parse(UpdateUser, body(req.body));
    const actor = bodyKeyActor(store, req);
    const account = actor.account;
    projectOf(actor, path.projectId);
    const user = account.users.get(path.projectUserId);
    if (!user || user.projectId !== path.projectId) throw notFound('projectUser', 'projectUserId');
    if (input.userRoleId) roleInProject(account, path.projectId, input.userRoleId, 'userRoleId');
    const org =
      input.projectOrganizationId === undefined || input.projectOrganizationId === null
        ? input.projectOrganizationId
        : resolveOrganization(
            account,
            path.projectId,
            input.projectOrganizationId,
            'projectOrganizationId',
          );
    user.name = input.name;
    const properties = input.properties ?? input.payload;
    if (properties !== undefined) user.properties = properties;
    if (input.userRoleId !== undefined) user.userRoleId = input.userRoleId;
    if (org !== undefined) user.projectOrganizationId = org?.id ?? null;
    return Promise.resolve({ data: userView(user) });
  });

  router.add('POST', '/v1/api/projects/user-token', async (req) => {
    const input = parse(UserToken, body(req.body));
    const actor = bodyKeyActor(store, req);
    const user = actor.account.users.get(input.userId);
    if (!user) throw notFound('projectUser', 'userId');
    const issued = await issueUserToken(store, actor.account, user, input.expiration);
    return { data: issued };
  });

  router.add('POST', '/v1/api/projects/embed-token', async (req) => {
    const input = parse(EmbedToken, body(req.body));
    const actor = bodyKeyActor(store, req);
    const account = actor.account;
    projectOf(actor, input.projectId);
    if (input.user.userRoleId)
      roleInProject(account, input.projectId, input.user.userRoleId, 'user.userRoleId');
    const existing = input.user.userId
      ? claimUserId(store, account, input.projectId, input.user.userId)
      : null;
    const org = upsertOrganization(
      account,
      input.projectId,
      input.organization.externalId,
      input.organization.displayName,
      input.organization.properties,
    );
    const user: ProjectUser = existing ?? {
      id: input.user.userId ?? newId(),
      projectId: input.projectId,
      name: input.user.displayName ?? 'Embedded user',
      properties: {},
      userRoleId: null,
      projectOrganizationId: null,
      tenantId: null,
    };
    if (input.user.displayName !== undefined) user.name = input.user.displayName;
    if (input.user.properties !== undefined || !existing)
      user.properties = input.user.properties ?? {};
    if (input.user.userRoleId !== undefined || !existing)
      user.userRoleId = input.user.userRoleId ?? null;
    user.projectOrganizationId = org.id;
    account.users.set(user.id, user);
    store.userIndex.set(user.id, account.id);
    const issued = await issueUserToken(store, account, user, input.expiration);
    return {
      data: {
        accessToken: issued.token,
        expiresAt: issued.expiresAt,
        projectUserId: user.id,
        projectOrganizationId: org.id,
      },
    };
  });
}
