import type { Variant } from './variant.ts';

/** The accounts the reference holds, reached past its types (a variant is not type-checked). */
const ACCOUNTS =
  '[...(ctx.store as unknown as { accounts: Map<string, Parameters<typeof ctx.store.identity>[0]> }).accounts.values()]';

/**
 * Refusals that still write (§5 rules 2 and 3): the answer is a refusal, yet the request
 * changed another account. Only the suites' read-backs (the API, and the snapshot hook) can
 * tell these apart from a correct reference.
 */
export const refusalsVariants: readonly Variant[] = [
  {
    name: 'a 403 that still registers the organization in another account',
    file: 'reference/http/organizations.ts',
    within: 'handle',
    from: "      const done = ctx.store.identity(caller(principal).account, {\n        type: 'registerOrganization',",
    to: `      const owner = ${ACCOUNTS}.find((a) => a.identity.projects[body.projectId] !== undefined);
      if (owner !== undefined && owner !== caller(principal).account) {
        ctx.store.identity(owner, {
          type: 'registerOrganization',
          projectId: body.projectId,
          newId: ctx.ids.uuid(),
          name: body.name,
          ...(body.externalId === undefined ? {} : { externalId: body.externalId }),
        });
        return errDone({ code: 'FORBIDDEN', message: 'wrong on purpose', details: { reason: 'not-a-member' } });
      }
      const done = ctx.store.identity(caller(principal).account, {
        type: 'registerOrganization',`,
    only: ['identity'],
  },
  {
    name: 'a 404 that still deletes another account\u2019s role',
    file: 'reference/http/roles.ts',
    within: 'roleRoutes',
    from: "      const done = ctx.store.identity(caller(principal).account, {\n        type: 'deleteRole',",
    to: `      const owner = ${ACCOUNTS}.find((a) => a.identity.projects[params.projectId] !== undefined);
      if (owner !== undefined && owner !== caller(principal).account) {
        ctx.store.identity(owner, {
          type: 'deleteRole',
          projectId: params.projectId,
          roleId: params.projectUserRoleId,
        });
        return errDone({ code: 'NOT_FOUND', message: 'wrong on purpose', details: { resource: 'project' } });
      }
      const done = ctx.store.identity(caller(principal).account, {
        type: 'deleteRole',`,
    only: ['identity'],
  },
];

/** Credentials refused, yet the request ran (§5 rules 1 and 3). */
export const refusedCredentialsVariants: readonly Variant[] = [
  {
    name: 'a key refused as not a member still acts on the organization it named',
    file: 'reference/http/route.ts',
    within: 'handler',
    from: '        if (!who.ok) return sendError(reply, who.error);\n        principal = who.value;',
    to: `        if (!who.ok) {
          const fields = { ...(req.query as object), ...(req.body as object) } as Record<string, unknown>;
          const named = fields['organizationId'];
          const account = typeof named === 'string' ? ctx.store.account(named) : undefined;
          if (who.error.details?.['reason'] !== 'not-a-member' || account === undefined)
            return sendError(reply, who.error);
          principal = { account, via: 'user-scoped-key' } as Principal;
          const refusal = who.error;
          const original = reply.send.bind(reply);
          reply.send = ((_payload: unknown) => {
            reply.send = original;
            return sendError(reply, refusal);
          }) as typeof reply.send;
        } else principal = who.value;`,
    only: ['identity'],
  },
];

/** Bad input refused, yet written (§8 name lengths, §4.6 name required). */
export const refusedInputVariants: readonly Variant[] = [
  {
    name: 'a body refused by validation is still written',
    file: 'reference/http/route.ts',
    within: 'handler',
    from: '        if (!parsed.ok) return sendError(reply, parsed.error);',
    to: `        if (!parsed.ok) {
          const b = (req.body ?? {}) as Record<string, unknown>;
          const p = req.params as Record<string, string>;
          if (principal !== undefined && where === 'body' && spec.url.endsWith('register-organization'))
            ctx.store.identity(principal.account, {
              type: 'registerOrganization',
              projectId: String(b['projectId']),
              newId: crypto.randomUUID(),
              name: String(b['name']),
              ...(typeof b['externalId'] === 'string' ? { externalId: b['externalId'] } : {}),
            });
          if (principal !== undefined && where === 'body' && spec.url.endsWith('/users/:projectUserId'))
            ctx.store.identity(principal.account, {
              type: 'updateUser',
              projectId: String(p['projectId']),
              userId: String(p['projectUserId']),
              name: 'written anyway',
              properties: b['properties'] as Record<string, unknown>,
              userRoleId: b['userRoleId'] as string,
            });
          return sendError(reply, parsed.error);
        }`,
    only: ['identity'],
  },
];
