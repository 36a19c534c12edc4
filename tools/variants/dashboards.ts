import type { Variant } from './variant.ts';

/**
 * Wrong variants of the v1 dashboards (§2.2, §2.8, §4.10–§4.14): the machine and the HTTP
 * glue, each a rule the dashboards suites must see broken.
 */
export const dashboardsVariants: readonly Variant[] = [
  {
    name: 'a clone shares chart ids with its source',
    file: 'spec/machines/dashboards.ts',
    from: "const chartId = derivedUuid('eac-chart-copy', seed, index, id);",
    to: 'const chartId = id;',
    only: ['dashboards'],
  },
  {
    name: 'a clone\u2019s default name lacks " (Copy)"',
    file: 'spec/machines/dashboards.ts',
    from: 'name: command.name ?? `${source.name} (Copy)`,',
    to: 'name: command.name ?? source.name,',
    only: ['dashboards'],
  },
  {
    name: 'a user\u2019s edit changes the shared dashboard',
    file: 'spec/machines/dashboards.ts',
    from: "  actor.kind !== 'api-key' && isShared(seen) && via !== 'v2';",
    to: "  actor.kind === 'project-user' && isShared(seen) && via !== 'v2';",
    only: ['dashboards'],
  },
  {
    name: 'a list shows both the shared dashboard and the user\u2019s copy',
    file: 'spec/machines/dashboards.ts',
    from: 'else if (ownedBy(d, actor) && d.copyOf === null) out.push({ at: d, shown: d });',
    to: 'else if (ownedBy(d, actor)) out.push({ at: d, shown: d });',
    only: ['dashboards'],
  },
  {
    name: 'a write check reads the permissions the token carried (readOnly checked only at issue)',
    decision: 'dashboards.tenant-permissions.read-at-write',
    file: 'reference/store/actors.ts',
    from: 'const permissions = tenantById(account.identity, subject)?.permissions ?? null;',
    to: 'const permissions = tenantById(account.identity, subject) && (principal.claims?.perm as never);',
    only: ['dashboards'],
  },
  {
    name: 'a saved chart loses its sqlOverride',
    file: 'reference/http/dashboards.ts',
    from: '        config: raw,',
    to: "        config: Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'sqlOverride')),",
    only: ['dashboards'],
  },
  {
    name: 'a write needs only a role that grants editing, not its own flag',
    file: 'spec/machines/dashboards.ts',
    from: 'if (!effectivePermissions(actor.permissions)[flag]) {',
    to: 'if (!grantsEditing(actor.permissions)) {',
    only: ['dashboards'],
  },
  {
    // The writer check Stryker's sample found untested on append-charts-from
    // (reference/http/dashboards.ts:198): a project-user token acts there like a tenant.
    name: 'append-charts-from lets a project-user token through',
    file: 'reference/http/dashboards.ts',
    from: "url: '/v1/api/dashboard/append-charts-from',\n    auth: V1_WRITE,\n    body: AppendChartsFromBody,\n    handle: ({ principal, body }) => {\n      const who = v1Writer(caller(principal));",
    to: "url: '/v1/api/dashboard/append-charts-from',\n    auth: V1_WRITE,\n    body: AppendChartsFromBody,\n    handle: ({ principal, body }) => {\n      const p = caller(principal);\n      const u = p.account.identity.users[p.subject ?? ''];\n      const who = p.via !== 'project-user-token' ? v1Writer(p) : okDone({ account: p.account, actor: { kind: 'project-user' as const, userId: p.subject ?? '', permissions: (u?.userRoleId == null ? undefined : p.account.identity.roles[u.userRoleId])?.permissions ?? null, projectOrganizationId: u?.projectOrganizationId ?? null } });",
    only: ['dashboards.v1-writes.credentials'],
    decision: 'dashboards.v1-writes.credentials',
  },
  {
    name: 'remove-charts does not answer 410 after finalize',
    file: 'reference/http/dashboards.ts',
    from: "const gone = migrated(who.value.account, 'removeCharts', { dashboardId: body.dashboardId });",
    to: "const gone = migrated(who.value.account, 'removeCharts', { dashboardId: body.dashboardId }) && undefined;",
    only: ['dashboards'],
  },
  {
    name: 'a 410 that names no v2 endpoint',
    file: 'spec/machines/migration.ts',
    from: "return specError('MIGRATED_TO_V2', `this organization is migrated to v2: use ${endpoint}`, {\n    replacement: V2_REPLACEMENT[write],\n    v2Endpoint: endpoint,",
    to: "return specError('MIGRATED_TO_V2', 'this organization is migrated to v2', {",
    only: ['dashboards'],
  },
  {
    name: 'a finalize that also migrates another organization',
    file: 'reference/hooks/dashboards.ts',
    from: 'const done = store.finalize(a, tenants);',
    to: "const done = store.finalize(a, tenants);\n        for (const other of (store as unknown as { accounts: Map<string, AccountRecord> }).accounts.values()) if (other !== a && other.migration.phase === 'before') store.finalize(other, []);",
    only: ['dashboards'],
  },
  {
    name: 'a user-scoped key acts on an organization its holder is not a member of',
    file: 'reference/http/auth.ts',
    from: 'if (account === undefined || !owner.hubUser.memberships.has(account.organizationId)) {',
    to: 'if (account === undefined) {',
    only: ['dashboards'],
  },
  {
    name: 'migration: add-charts after finalize applies the write to the v2 dashboard, then answers 410',
    file: 'reference/http/dashboards.ts',
    from: "      if (gone !== undefined) return gone;\n      const done = dashboardOf(\n        store.dashboards(who.value.account, {\n          type: 'addCharts',",
    to: "      const applied = store.dashboards(who.value.account, { type: 'addCharts', dashboardId: (who.value.account.migration as { v2IdOf?: Record<string, string> }).v2IdOf?.[body.targetDashboardId] ?? body.targetDashboardId, chartIds: body.charts, actor: who.value.actor, via: 'v1' });\n      if (gone !== undefined && applied !== undefined) return gone;\n      const done = dashboardOf(\n        store.dashboards(who.value.account, {\n          type: 'addCharts',",
    only: ['migration'],
  },
  {
    name: 'migration: v1 create does not answer 410 after finalize',
    file: 'reference/http/dashboards.ts',
    from: "const gone = migrated(who.value.account, 'create', { workspaceId: body.workspaceId });",
    to: "const gone = migrated(who.value.account, 'create', { workspaceId: body.workspaceId }) && undefined;",
    only: ['migration'],
  },
  {
    name: 'migration: v1 remove-charts is checked as a v2 write (a tenant gets 409, no copy)',
    file: 'reference/http/dashboards.ts',
    from: "          chartIds: body.chartIds,\n          actor: who.value.actor,\n          via: 'v1',",
    to: "          chartIds: body.chartIds,\n          actor: who.value.actor,\n          via: 'v2',",
    only: ['migration'],
  },
  {
    name: 'after finalize list-workspaces names the primary dashboard by its v2 id',
    file: 'reference/http/dashboards.ts',
    from: 'dashboard_id: primary === undefined ? null : v1IdOf(account, primary.dashboardId),',
    to: 'dashboard_id: primary === undefined ? null : primary.dashboardId,',
    only: ['dashboards'],
  },
  {
    name: 'after finalize a tenant JWT on list-workspace-dashboards acts as the tenant, not as its project user',
    file: 'reference/store/actors.ts',
    from: 'const mapped = migratedUserOf(account, subject);',
    to: 'const mapped: string | undefined = undefined;',
    only: ['migration.list-workspace-dashboards.after'],
  },
  {
    name: 'the 410 of clone after finalize leaves the ids of its v2 endpoint unfilled',
    decision: 'errors.migrated-to-v2.details',
    file: 'reference/http/dashboards.ts',
    from: "migrated(who.value.account, 'clone', { dashboardId: body.sourceDashboardId });",
    to: "migrated(who.value.account, 'clone', {});",
    only: ['errors.migrated-to-v2.details'],
  },
  {
    name: 'the 410 of v1 create after finalize leaves the application id of its v2 endpoint unfilled',
    decision: 'errors.migrated-to-v2.details',
    file: 'reference/http/dashboards.ts',
    from: "migrated(who.value.account, 'create', { workspaceId: body.workspaceId });",
    to: "migrated(who.value.account, 'create', {});",
    only: ['errors.migrated-to-v2.details'],
  },
  {
    name: 'append-charts-from carries out a write naming an unknown connectionId',
    decision: 'dashboards.connection-id.guest',
    file: 'reference/http/dashboards.ts',
    from: "      if (refused !== undefined) return errDone(refused);\n      const gone = migrated(who.value.account, 'appendCharts', {",
    to: "      const gone = migrated(who.value.account, 'appendCharts', {",
    only: ['dashboards.connection-id.guest'],
  },
  {
    name: 'v1 add-charts carries out a write naming an unknown connectionId',
    decision: 'dashboards.connection-id.guest',
    file: 'reference/http/dashboards.ts',
    from: "      if (refused !== undefined) return errDone(refused);\n      const gone = migrated(who.value.account, 'addCharts', {",
    to: "      const gone = migrated(who.value.account, 'addCharts', {",
    only: ['dashboards.connection-id.guest'],
  },
  {
    name: 'the 404 for an unknown connectionId names no field',
    decision: 'errors.not-found.status',
    file: 'spec/machines/dashboards.ts',
    from: "    field: 'connectionId',",
    to: "    field: '',",
    only: ['dashboards.connection-id.guest'],
  },
  {
    name: 'the 404 of list-workspace-dashboards for an unknown workspace names no resource',
    decision: 'errors.not-found.status',
    file: 'reference/http/dashboards.ts',
    from: "            resource: 'workspace',",
    to: "            resource: '',",
    only: ['errors.not-found.status'],
  },
  {
    name: 'a chart saved with neither a name nor a title is called ""',
    decision: 'charts.save-from-chat.required-fields',
    file: 'reference/http/dashboards.ts',
    from: "name: body.name ?? title ?? 'Chart from chat',",
    to: "name: body.name ?? title ?? '',",
    only: ['charts.save-from-chat.required-fields'],
  },
  // Issue 23 part 6: §4.10's default target workspace, broken as a server might break it.
  {
    name: 'clone default: without targetWorkspaceId a clone lands in the newest workspace of the organization',
    file: 'spec/machines/dashboards.ts',
    from: 'const workspaceId = command.targetWorkspaceId ?? source.workspaceId;',
    to: 'const workspaceId = command.targetWorkspaceId ?? Object.values(state.workspaces).at(-1)?.workspaceId ?? source.workspaceId;',
    only: ['dashboards.clone.target-workspace-default'],
  },
  {
    name: 'clone default: without targetWorkspaceId a clone lands in the first workspace of the organization',
    file: 'spec/machines/dashboards.ts',
    from: 'const workspaceId = command.targetWorkspaceId ?? source.workspaceId;',
    to: 'const workspaceId = command.targetWorkspaceId ?? Object.values(state.workspaces)[0]?.workspaceId ?? source.workspaceId;',
    only: ['dashboards.clone.target-workspace-default'],
  },
  // Issue 34, the inventories "a 410 names its own replacement" and "a refused request changes
  // nothing" (suites/dashboards/migration.test.ts, suites/dashboards/refusals.test.ts).
  {
    name: "after finalize, clone's 410 names the v2 create endpoint instead of the v2 clone",
    file: 'reference/http/dashboards.ts',
    from: "migrated(who.value.account, 'clone', { dashboardId: body.sourceDashboardId })",
    to: "migrated(who.value.account, 'create', { dashboardId: body.sourceDashboardId })",
    only: ['errors.migrated-to-v2.names-endpoint'],
  },
  {
    name: 'create checks connectionId only after the dashboard was made: a refused create leaves a dashboard behind',
    file: 'reference/http/dashboards.ts',
    from: `      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) return errDone(refused);
      const gone = migrated(who.value.account, 'create', { workspaceId: body.workspaceId });`,
    to: `      const refused = connectionRefusal(who.value.account.dashboards, body.connectionId);
      if (refused !== undefined) {
        store.dashboards(who.value.account, { type: 'createDashboard', dashboardId: ctx.ids.uuid(), workspaceId: body.workspaceId, name: body.name, actor: who.value.actor, via: 'v1' });
        return errDone(refused);
      }
      const gone = migrated(who.value.account, 'create', { workspaceId: body.workspaceId });`,
    only: ['errors.refused.changes-nothing'],
  },
];
