import type { Variant } from './variant.ts';

/** Wrong variants of the v2 API (§4.16, §5 rules 6 and 7) and the rest of the migration (§9). */
export const v2Variants: readonly Variant[] = [
  {
    name: 'v2: a project-user edit of a template changes the template',
    file: 'spec/machines/dashboards.ts',
    from: "if (actor.kind === 'api-key' || !isShared(seen)) return ok(state, { dashboard: seen });",
    to: "if (actor.kind === 'api-key' || !isShared(seen) || via === 'v2') return ok(state, { dashboard: seen });",
    only: ['v2'],
  },
  {
    name: 'v2: a finalize that maps no tenants',
    file: 'spec/machines/migration.ts',
    from: '  for (const t of command.tenants) projectUserOf = put(projectUserOf, t.tenantId, t.projectUserId);',
    to: '  for (const t of [] as typeof command.tenants) projectUserOf = put(projectUserOf, t.tenantId, t.projectUserId);',
    only: ['v2'],
  },
  {
    name: 'v2: a look-up that ignores v1 ids',
    file: 'reference/http/v2.ts',
    from: 'const v2Id = account.migration.v2IdOf[params.dashboardId] ?? params.dashboardId;',
    to: 'const v2Id = params.dashboardId;',
    only: ['v2'],
  },
  {
    name: 'v2: the migration keeps no legacy dashboard ids',
    file: 'spec/machines/migration.ts',
    from: 'legacyIdOf = put(legacyIdOf, v2Id, v1Id);',
    to: 'legacyIdOf = put(legacyIdOf, v2Id, v2Id);',
    only: ['v2'],
  },
  {
    name: 'migration: register-tenant after finalize still returns a tenant JWT',
    file: 'reference/http/tenants.ts',
    from: "      if (account.migration.phase === 'after') {",
    to: '      if (false) {',
    only: ['migration.register-tenant'],
  },
  {
    name: 'v2: the write checks ignore readOnly on the stored role',
    file: 'reference/http/v2.ts',
    from: '      permissions: role?.permissions ?? null,',
    to: '      permissions: role === undefined ? null : { ...role.permissions, readOnly: false },',
    only: ['v2'],
  },
  {
    // Issue 6: a role update whose new permissions the write checks never read (a stale cache).
    name: 'v2: the write checks keep the first permissions they read of a role',
    file: 'reference/http/v2.ts',
    from: '      permissions: role?.permissions ?? null,',
    to: "      permissions: ((c: Map<unknown, unknown>) => (c.has(user.userRoleId) ? c.get(user.userRoleId) : (c.set(user.userRoleId, role?.permissions ?? null), role?.permissions ?? null)))(((globalThis as Record<string, unknown>)['eacRoleCache'] ??= new Map()) as Map<unknown, unknown>) as never,",
    only: ['v2'],
  },
  {
    name: "v2: a project user sees every user's dashboards",
    file: 'spec/machines/dashboards.ts',
    from: "  if (actor.kind === 'project-user') return d.ownerProjectUserId === actor.userId;",
    to: "  if (actor.kind === 'project-user') return d.ownerProjectUserId !== null;",
    only: ['v2'],
  },
  {
    name: 'migration: list-workspace-dashboards after finalize drops dashboards made through v2',
    file: 'reference/http/dashboards.ts',
    from: '      return okDone({ dashboards: seen.map((d) => v1Item(account, d)) });',
    to: "      return okDone({ dashboards: seen.filter((d) => account.migration.phase !== 'after' || d.dashboardId in account.migration.legacyIdOf).map((d) => v1Item(account, d)) });",
    only: ['migration.list-workspace-dashboards'],
  },
  {
    name: 'v2: a user with no project organization is given a space anyway',
    file: 'reference/http/v2.ts',
    from: '      projectOrganizationId: user.projectOrganizationId,',
    to: '      projectOrganizationId: user.projectOrganizationId ?? user.id,',
    only: ['v2'],
  },
  {
    name: 'v2: an unmapped tenant JWT answers a plain 401 without TENANT_NOT_MIGRATED',
    file: 'reference/http/v2.ts',
    from: "          'TENANT_NOT_MIGRATED',",
    to: "          'UNAUTHORIZED',",
    only: ['v2'],
  },
  {
    name: 'migration: registering a tenant again after finalize leaves its role as it was',
    decision: 'dashboards.tenant-permissions.read-at-write',
    file: 'spec/machines/migration.ts',
    from: "        : { type: 'updateRole', projectId, roleId, permissions: tenant.permissions },",
    to: "        : { type: 'updateRole', projectId, roleId },",
    only: ['v2'],
  },
  {
    name: "migration: a tenant's copy loses its owner at finalize",
    file: 'spec/machines/migration.ts',
    from: 'const owner = d.tenantId !== null ? (projectUserOf[d.tenantId] ?? null) : d.ownerProjectUserId;',
    to: 'const owner = d.ownerProjectUserId;',
    only: ['migration'],
  },
  {
    name: 'v2: a clone checks addDashboard instead of canDuplicateDashboard',
    file: 'spec/machines/dashboards.ts',
    from: "  clone: 'canDuplicateDashboard',",
    to: "  clone: 'addDashboard',",
    only: ['v2'],
  },
  {
    name: 'v2: an application is listed without defaultDashboardId',
    file: 'reference/http/v2.ts',
    from: '          defaultDashboardId: a.defaultDashboardId,\n',
    to: '',
    only: ['v2'],
  },
  {
    // What the reference did before (the triage's note on reference/http/v2.ts:314:13): an
    // unknown source answered 404 before the target's write checks.
    name: 'v2: an unknown append-charts source is 404 before the write checks',
    decision: 'v2.refusals.not-found',
    file: 'reference/http/v2.ts',
    from: "      onDashboard(principal, params, (actor) => ({\n        type: 'appendCharts',",
    to: "      onDashboard(principal, params, (actor, account) =>\n        resolveFor(account.dashboards, body.sourceDashboardId, actor) === undefined\n          ? errDone(notFound('dashboard', 'sourceDashboardId'))\n          : ({\n        type: 'appendCharts',",
    only: ['v2.refusals.not-found'],
  },
  {
    // Stryker's sample (reference/http/v2.ts:315:35; that check is now the machine's).
    name: 'v2: the 404 for an unknown append-charts source names no resource',
    decision: 'v2.refusals.not-found',
    file: 'spec/machines/dashboards.ts',
    from: "          if (source === undefined) return fail(notFound('dashboard', 'sourceDashboardId'));",
    to: "          if (source === undefined) return fail(notFound('', 'sourceDashboardId'));",
    only: ['v2.refusals.not-found'],
  },
];
