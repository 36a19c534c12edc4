import { z } from 'zod';
import { bodyKeyActor } from '../auth.ts';
import { notFound } from '../errors.ts';
import { parse } from '../http.ts';
import type { Router } from '../http.ts';
import { issueUserToken } from '../identity.ts';
import { isMigrated, mapTenant } from '../dashboards.ts';
import { Credentials, Expiration, Permissions, Properties } from '../schemas.ts';
import type { Store, Tenant } from '../store.ts';
import { sign } from '../tokens.ts';
import { canonical, newId } from '../util.ts';

/**
 * §4.9, the v1 tenant flow. Field names of this service: tenantName, splitColumns (column ->
 * tenant value), splitSchema, uniqueKey (deprecated), permissions, connectionOverride,
 * metadata, expiresIn. A tenant is named by its split columns and schema, or by its unique key.
 */

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

const RegisterTenant = z
  .looseObject({
    ...Credentials,
    tenantName: z.string().min(1).optional(),
    splitColumns: z.record(z.string().min(1), Scalar).optional(),
    splitSchema: z.string().min(1).optional(),
    uniqueKey: z.string().min(1).optional(),
    permissions: Permissions.optional(),
    connectionOverride: z.string().min(1).optional(),
    metadata: Properties.optional(),
    expiresIn: Expiration.default('1h'),
  })
  .refine((b) => b.splitColumns !== undefined || b.uniqueKey !== undefined, {
    message: 'give splitColumns (or the deprecated uniqueKey)',
    path: ['splitColumns'],
  });

export function registerTenantRoutes(router: Router, store: Store): void {
  router.add('POST', '/v1/api/tenant/register-tenant', async (req) => {
    const input = parse(RegisterTenant, parse(z.record(z.string(), z.unknown()), req.body ?? {}));
    const actor = bodyKeyActor(store, req);
    const account = actor.account;
    if (
      input.connectionOverride !== undefined &&
      !account.connections.has(input.connectionOverride)
    )
      throw notFound('connection', 'connectionOverride');
    const columns = input.splitColumns ?? {};
    const identity =
      input.uniqueKey !== undefined
        ? `key:${input.uniqueKey}`
        : `cols:${input.splitSchema ?? ''}:${JSON.stringify(canonical(columns))}`;
    const found = [...account.tenants.values()].find((t) => t.identity === identity);
    const created = !found;
    let tenant: Tenant;
    if (!found) {
      tenant = {
        id: newId(),
        identity,
        name:
          input.tenantName ??
          (Object.values(columns).map(String).join(' / ') || (input.uniqueKey ?? 'tenant')),
        columns,
        schema: input.splitSchema ?? null,
        uniqueKey: input.uniqueKey ?? null,
        permissions: input.permissions ?? {},
        connectionOverride: input.connectionOverride ?? null,
        metadata: input.metadata ?? {},
        projectUserId: null,
      } satisfies Tenant;
      account.tenants.set(tenant.id, tenant);
    } else {
      tenant = found;
      if (input.tenantName !== undefined) tenant.name = input.tenantName;
      if (input.splitColumns !== undefined) tenant.columns = columns;
      if (input.permissions !== undefined) tenant.permissions = input.permissions;
      if (input.connectionOverride !== undefined)
        tenant.connectionOverride = input.connectionOverride;
      if (input.metadata !== undefined) tenant.metadata = input.metadata;
    }
    if (isMigrated(account)) {
      const user = mapTenant(store, account, tenant);
      const role = user.userRoleId ? account.roles.get(user.userRoleId) : undefined;
      if (role && input.permissions !== undefined) {
        role.permissions = { ...input.permissions };
        role.updatedAt = store.now(account);
      }
      user.name = tenant.name;
      user.properties = { ...tenant.metadata, ...tenant.columns };
      const issued = await issueUserToken(store, account, user, input.expiresIn);
      return {
        data: {
          message: created
            ? 'Tenant registered as a project user.'
            : 'Tenant signed in as its project user.',
          token: issued.token,
        },
      };
    }
    const { token } = await sign(
      { knd: 'tn', sub: tenant.id, acct: account.id },
      store.now(account),
      input.expiresIn,
    );
    return { data: { message: created ? 'Tenant registered.' : 'Tenant updated.', token } };
  });
}
