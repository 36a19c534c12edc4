import { hookNotFound, withHookAccount } from './account.ts';
import type { FastifyInstance } from 'fastify';
import { iso } from '../../spec/machines/machine.ts';
import {
  AccountPath,
  AddMemberBody,
  AdvanceBody,
  CreateAccountBody,
  CreateProjectBody,
  CreateRoleBody,
  FreezeBody,
  HOOK_NAMES,
  HookProjectPath,
  type HookName,
} from '../../spec/schemas/hooks.ts';
import { utcInstant } from '../../spec/schemas/common.ts';
import type { ReferenceContext } from '../context.ts';
import { errDone, okDone, route } from '../http/route.ts';
import type { Done } from '../done.ts';
import type { AccountRecord } from '../store/store.ts';
import { accountSnapshot } from './snapshot.ts';
import { isDefault } from '../settings.ts';
import { DASHBOARD_HOOKS, dashboardHookRoutes } from './dashboards.ts';
import { CHAT_HOOKS, announcedHooks, chatHookRoutes } from './chat.ts';

export const HOOKS_PREFIX = '/__eac';

/**
 * Hooks this build serves (spec/hooks.openapi.yaml). The dashboards, charts, agents and
 * migration hooks arrive with their features; a test that needs one reports not-run.
 */
export const SERVED_HOOKS: readonly HookName[] = HOOK_NAMES.filter(
  (h) =>
    ['accounts', 'members', 'projects', 'roles', 'clock', 'reset', 'snapshot'].includes(h) ||
    DASHBOARD_HOOKS.includes(h) ||
    CHAT_HOOKS.includes(h),
);

/**
 * The host hooks: what the document leaves to the host (accounts and keys, projects, role
 * creation, time). Served only when the reference starts with hooks enabled.
 */
export function hookRoutes(
  app: FastifyInstance,
  ctx: ReferenceContext,
  version: string,
  announce?: string,
): void {
  const { store } = ctx;
  const withAccount = <T>(
    organizationId: string,
    fn: (a: AccountRecord) => Done<T> | Promise<Done<T>>,
  ) => withHookAccount(store, organizationId, fn);
  const clockView = (a: AccountRecord) => ({
    now: iso(store.now(a)),
    frozen: a.clock.frozenAt !== null,
  });

  route(app, ctx, {
    method: 'GET',
    url: `${HOOKS_PREFIX}/capabilities`,
    auth: 'none',
    // Behaving otherwise where the document leaves room makes it another implementation: the
    // reference's decisions no longer hold for it. A name given at start-up is announced as is.
    handle: () =>
      okDone({
        implementation:
          announce ?? (isDefault(ctx.settings) ? 'eac-reference' : 'eac-reference-latitude'),
        version,
        hooks: announcedHooks(SERVED_HOOKS, ctx.settings),
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts`,
    auth: 'none',
    body: CreateAccountBody,
    status: 201,
    handle: ({ body }) => {
      const { account, hubUser } = store.createAccount(body.name ?? 'EAC test account');
      return okDone({
        organizationId: account.organizationId,
        name: account.name,
        hubUserId: hubUser.hubUserId,
        userScopedKey: hubUser.key,
        orgBoundKey: account.orgBoundKey,
      });
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/members`,
    auth: 'none',
    params: AccountPath,
    body: AddMemberBody,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const owner = store.keyOwner(body.userScopedKey);
        if (owner?.kind !== 'user-scoped') {
          return errDone(hookNotFound('apiKey', 'userScopedKey'));
        }
        owner.hubUser.memberships.add(a.organizationId);
        return okDone({ organizationId: a.organizationId, hubUserId: owner.hubUser.hubUserId });
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/projects`,
    auth: 'none',
    params: AccountPath,
    body: CreateProjectBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const done = store.identity(a, {
          type: 'createProject',
          projectId: ctx.ids.uuid(),
          name: body.name ?? 'EAC test project',
        });
        if (!done.ok) return done;
        return okDone(done.value.project);
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/projects/:projectId/roles`,
    auth: 'none',
    params: HookProjectPath,
    body: CreateRoleBody,
    status: 201,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const done = store.identity(a, {
          type: 'createRole',
          projectId: params.projectId,
          roleId: ctx.ids.uuid(),
          name: body.name,
          permissions: body.permissions ?? {},
        });
        if (!done.ok) return done;
        return okDone(done.value.role);
      }),
  });

  route(app, ctx, {
    method: 'GET',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/clock`,
    auth: 'none',
    params: AccountPath,
    handle: ({ params }) => withAccount(params.organizationId, (a) => okDone(clockView(a))),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/clock/freeze`,
    auth: 'none',
    params: AccountPath,
    body: FreezeBody,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        // The schema let through only a date-time that names UTC, in any of its forms.
        const at = body.at === undefined ? undefined : utcInstant(body.at);
        const done = store.clock(a, at === undefined ? { type: 'freeze' } : { type: 'freeze', at });
        return done.ok ? okDone(clockView(a)) : done;
      }),
  });

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/clock/advance`,
    auth: 'none',
    params: AccountPath,
    body: AdvanceBody,
    handle: ({ params, body }) =>
      withAccount(params.organizationId, (a) => {
        const done = store.clock(a, { type: 'advance', seconds: body.seconds });
        return done.ok ? okDone(clockView(a)) : done;
      }),
  });

  // Read-only: a test compares two snapshots to see that a refused request changed nothing.
  route(app, ctx, {
    method: 'GET',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/snapshot`,
    auth: 'none',
    params: AccountPath,
    handle: ({ params }) =>
      withAccount(params.organizationId, (a) =>
        okDone({ organizationId: a.organizationId, state: accountSnapshot(a) }),
      ),
  });

  dashboardHookRoutes(app, ctx, HOOKS_PREFIX);
  chatHookRoutes(app, ctx, HOOKS_PREFIX);

  route(app, ctx, {
    method: 'POST',
    url: `${HOOKS_PREFIX}/accounts/:organizationId/reset`,
    auth: 'none',
    params: AccountPath,
    handle: ({ params }) =>
      withAccount(params.organizationId, async (a) => {
        await store.reset(a);
        return okDone({ organizationId: a.organizationId, reset: true });
      }),
  });
}
