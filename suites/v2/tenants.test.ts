import { expect } from 'vitest';
import { documentedStatus } from '../../fixtures/oracles/index.ts';
import { conformance, probe } from '../harness/conformance.ts';
import { CLAIMS_DECISION, claimAt, permissionsClaim } from '../harness/claims.ts';
import { expectError, successStatus } from '../harness/expect.ts';
import {
  dashboardsWorld,
  TENANT_FIELDS,
  tenantToken,
  v1Post,
} from '../harness/given/dashboards.ts';
import {
  V2_SHAPES,
  dashboardsOf,
  entryOf,
  lookUpPath,
  migratedWorld,
  needs,
  parts,
  v2Get,
  v2Post,
  writtenDashboard,
} from '../harness/given/v2.ts';
import { REMOVE, APPLICATIONS, dashboardsPath } from '../harness/paths.ts';

// §5 rule 6: a tenant JWT issued before finalize still works on v2 afterwards, as the project
// user made for the tenant; §4.9 and §9: register-tenant then returns a project-user token for
// the same end user; §7: a tenant JWT the migration has not mapped gets 401 TENANT_NOT_MIGRATED.
const relies = [...V2_SHAPES, ...TENANT_FIELDS] as const;
const EDITS = {
  addDashboard: true,
  addChart: true,
  removeChart: true,
  canDuplicateDashboard: true,
};
const NOT_MIGRATED = 'TENANT_NOT_MIGRATED';

conformance(
  ['errors.tenant-not-migrated'],
  'before finalize a tenant JWT on a v2 call gets 401 TENANT_NOT_MIGRATED: the application list, an application path, the look-up',
  async (t) => {
    const w = await dashboardsWorld(t, 1);
    const token = await tenantToken(t, w, EDITS);
    // Before finalize no application exists, so any id will do: the credential is refused
    // before the application is looked up (decision v2.refusals.not-found).
    const anyId = t.faker.string.uuid();
    const calls: [string, string | undefined][] = [
      ['the application list', APPLICATIONS],
      ["an application's dashboards", dashboardsPath(anyId)],
      ['the look-up', lookUpPath(t, anyId)],
    ];
    for (const [what, path] of calls) {
      if (path === undefined) continue; // the profile states no look-up path
      expectError(
        await v2Get(t, w, path, { token }),
        documentedStatus(NOT_MIGRATED),
        `${what} with a tenant not mapped yet`,
        NOT_MIGRATED,
      );
    }
  },
  {
    needs,
    parts: [...parts, 'tenant-flow'],
    relies: [...TENANT_FIELDS, 'v2.refusals.not-found', 'v2.dashboards.lookup-path'],
  },
);

conformance(
  [
    'auth.tenant-jwt.accepted-after-migration',
    'auth.tenant-jwt.translated',
    'migration.register-tenant.after',
    'tenants.register.after-finalize-project-user-token',
  ],
  "a tenant JWT from before finalize acts on v2 as the tenant's project user, the same user register-tenant's new token names",
  async (t) => {
    const columns = { customer_id: t.faker.string.alphanumeric(10) };
    let old = '';
    const m = await migratedWorld(t, async ({ w }) => {
      old = await tenantToken(t, w, EDITS, columns);
    });
    const as = { token: old };
    const before = await dashboardsOf(t, m.w, m.applicationId, as);
    const made = await writtenDashboard(
      t,
      m.w,
      await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Tenant board' }),
      { call: 'v2.create', applicationId: m.applicationId, as, before },
      'create with the old tenant JWT',
    );
    expect(made.kind, "it lands in a user's space").toBe('dashboard');
    expect(made.ownerProjectUserId, 'owned by a project user').toMatch(/\S/);
    const fresh = await tenantToken(t, m.w, EDITS, columns);
    expect(fresh, 'register-tenant after finalize gives a new token').not.toBe(old);
    const seen = await dashboardsOf(t, m.w, m.applicationId, { token: fresh });
    const mine = entryOf(seen, made.id, 'the new token sees the same space');
    expect(mine.ownerProjectUserId).toBe(made.ownerProjectUserId);
  },
  { needs, parts: [...parts, 'tenant-flow'], relies },
);

conformance(
  [
    'v2.dashboard.kind-dashboard',
    'dashboards.copy.one-entry',
    'migration.dashboard-to-application-dashboard',
  ],
  "a tenant's v1 copy of a shared dashboard becomes, after finalize, a 'dashboard' owned by the tenant's project user, in place of the template",
  async (t) => {
    let token = '';
    let removed = '';
    const m = await migratedWorld(t, async ({ w, board }) => {
      token = await tenantToken(t, w, EDITS);
      removed = board.charts[0]?.chartId ?? '';
      const res = await v1Post(t, REMOVE, token, {
        dashboardId: board.dashboardId,
        chartIds: [removed],
      });
      if (res.status !== 200)
        expect.fail(`v1 remove-charts as a tenant: ${res.status} ${res.text}`);
    });
    const seen = await dashboardsOf(t, m.w, m.applicationId, { token });
    expect(
      seen.map((d) => d.id),
      'the template is replaced by the copy',
    ).not.toContain(m.template.id);
    const copies = seen.filter((d) => d.kind === 'dashboard');
    expect(copies, "one entry in the user's space").toHaveLength(1);
    expect(copies[0]?.ownerProjectUserId, 'owned by a project user').toMatch(/\S/);
    expect(copies[0]?.chartIds ?? [], "the tenant's edit is kept").not.toContain(removed);
    const template = entryOf(
      await dashboardsOf(t, m.w, m.applicationId),
      m.template.id,
      'template',
    );
    expect(template.chartIds, 'the template keeps the chart').toContain(removed);
  },
  {
    needs,
    parts: [...parts, 'tenant-flow', 'v1-dashboards'],
    // The v1 removal names a chart of the shared dashboard, and the v2 lists are read for that
    // chart id: dashboards.copy.chart-ids, migration.chart-ids-kept.
    relies: [
      ...relies,
      'auth.header.format',
      'dashboards.copy.chart-ids',
      'migration.chart-ids-kept',
    ],
  },
);

probe(
  ['migration.tenant-users'],
  "what the project users made for two tenants of the same permissions hold: a project organization and a role with the tenant's permissions, each its own",
  async (t) => {
    const m = await migratedWorld(t);
    const permissions = { addChart: true, readOnly: false };
    const token = await tenantToken(t, m.w, permissions);
    const other = await tenantToken(t, m.w, permissions);
    const pog = claimAt(t, token, 'projectOrganization', { absentMeansNone: true });
    const role = claimAt(t, token, 'role', { absentMeansNone: true });
    const flags = permissionsClaim(t, token);
    const otherPog = claimAt(t, other, 'projectOrganization', { absentMeansNone: true });
    const otherRole = claimAt(t, other, 'role', { absentMeansNone: true });
    const shares = (a: unknown, b: unknown) => (a == null ? 'none' : a === b ? 'shared' : 'own');
    t.observe(
      `projectOrganization ${shares(pog, otherPog)}, role ${shares(role, otherRole)}, addChart ${String(flags['addChart'])}`,
      typeof pog === 'string' &&
        typeof role === 'string' &&
        flags['addChart'] === true &&
        pog !== otherPog &&
        role !== otherRole,
    );
  },
  { needs, parts: [...parts, 'tenant-flow'], relies: [...TENANT_FIELDS, CLAIMS_DECISION] },
);

probe(
  ['dashboards.tenant-permissions.read-at-write'],
  "after finalize, registering a tenant again with readOnly refuses the next v2 write of the tenant's earlier JWT",
  async (t) => {
    const columns = { customer_id: t.faker.string.alphanumeric(10) };
    let old = '';
    const m = await migratedWorld(t, async ({ w }) => {
      old = await tenantToken(t, w, EDITS, columns);
    });
    const as = { token: old };
    const first = await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'First' });
    await tenantToken(t, m.w, { ...EDITS, readOnly: true }, columns);
    const second = await v2Post(t, m.w, dashboardsPath(m.applicationId), as, { name: 'Second' });
    t.observe(
      `before ${first.status}, after readOnly ${second.status}`,
      successStatus(first.status) && second.status >= 400 && second.status < 500,
    );
  },
  { needs, parts: [...parts, 'tenant-flow'], relies: TENANT_FIELDS },
);
