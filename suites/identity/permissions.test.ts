import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { EDITING_FLAGS, effectivePermissions } from '../../spec/machines/permissions.ts';
import {
  PERMISSION_FLAGS,
  type PermissionFlag,
  type RolePermissions,
} from '../../spec/schemas/permissions.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import {
  buildWorld,
  createRole,
  registerUser,
  userToken,
  type World,
} from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { rolesPath, rolePath } from '../harness/paths.ts';
import { expectClientError, expectSuccess } from '../harness/expect.ts';

// §2.2 and §4.1: the twenty permission flags, how a role update stores them, and the effective
// permissions a user on the role gets. Effective permissions are read from the token's `perm`
// claim, which is the reference's decision (tokens.claims); a target without it is not judged.
const needs = ['accounts', 'projects', 'roles'] as const;

const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

/** The clause that states each flag's default (§2.2 table, last column). */
const DEFAULT_CLAUSE: Readonly<Record<PermissionFlag, ClauseId>> = {
  addChart: 'permissions.default.add-chart',
  addFilter: 'permissions.default.add-filter',
  createChart: 'permissions.default.create-chart',
  createChartSQL: 'permissions.default.create-chart-sql',
  editCharts: 'permissions.default.edit-charts',
  removeChart: 'permissions.default.remove-chart',
  disableTabs: 'permissions.default.disable-tabs',
  hideHeader: 'permissions.default.hide-header',
  hideDownloadButton: 'permissions.default.hide-download-button',
  aiCharts: 'permissions.default.ai-charts',
  editMarketplace: 'permissions.default.edit-marketplace',
  readOnly: 'permissions.default.read-only',
  aiInsight: 'permissions.default.ai-insight',
  drillDown: 'permissions.default.drill-down',
  enableScheduleReport: 'permissions.default.enable-schedule-report',
  canDuplicateDashboard: 'permissions.default.can-duplicate-dashboard',
  canSetDefaultDashboard: 'permissions.default.can-set-default-dashboard',
  canEditChartFromSession: 'permissions.default.can-edit-chart-from-session',
  hideFilters: 'permissions.default.hide-filters',
  addDashboard: 'permissions.default.add-dashboard',
};

/**
 * §2.2 "Default when unset", written out from the table rather than taken from the model, so
 * the two check each other. `viewOnly: 'open'` marks the editing defaults, which the document
 * states only for a role that grants editing (decision: false, permissions.effective.non-editing-role).
 */
const DEFAULTS: Readonly<Record<PermissionFlag, { editing: boolean; viewOnly: boolean | 'open' }>> =
  {
    addChart: { editing: true, viewOnly: 'open' },
    addFilter: { editing: true, viewOnly: 'open' },
    createChart: { editing: true, viewOnly: 'open' },
    createChartSQL: { editing: false, viewOnly: false },
    editCharts: { editing: false, viewOnly: false },
    removeChart: { editing: true, viewOnly: 'open' },
    disableTabs: { editing: false, viewOnly: false },
    hideHeader: { editing: false, viewOnly: false },
    hideDownloadButton: { editing: false, viewOnly: false },
    aiCharts: { editing: false, viewOnly: false },
    editMarketplace: { editing: false, viewOnly: false },
    readOnly: { editing: false, viewOnly: false },
    aiInsight: { editing: false, viewOnly: false },
    drillDown: { editing: false, viewOnly: false },
    enableScheduleReport: { editing: false, viewOnly: false },
    canDuplicateDashboard: { editing: true, viewOnly: 'open' },
    canSetDefaultDashboard: { editing: true, viewOnly: true },
    canEditChartFromSession: { editing: true, viewOnly: true },
    hideFilters: { editing: false, viewOnly: false },
    addDashboard: { editing: true, viewOnly: 'open' },
  };

/** Any subset of the twenty flags, each true or false. */
const permissionSet: fc.Arbitrary<RolePermissions> = fc.record(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, fc.boolean()])) as Record<
    PermissionFlag,
    fc.Arbitrary<boolean>
  >,
  { requiredKeys: [] },
);

const isFlag = (key: string): boolean => (PERMISSION_FLAGS as readonly string[]).includes(key);

/** A permissions value §4.1 does not allow: an unknown key, a non-boolean flag, or not an object. */
const badPermissions: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(
      permissionSet,
      fc.string({ minLength: 1 }).filter((k) => !isFlag(k)),
      fc.oneof(fc.boolean(), fc.string()),
    )
    .map(([set, key, value]) => ({ ...set, [key]: value })),
  fc
    .tuple(
      permissionSet,
      fc.constantFrom(...PERMISSION_FLAGS),
      fc.oneof(fc.constantFrom('true', 'false', 1, 0, null, [], {}), fc.string(), fc.integer()),
    )
    .map(([set, flag, value]) => ({ ...set, [flag]: value })),
  fc.constantFrom('all', 42, true, [], [{ addChart: true }], null),
);

async function listedRole(
  t: Conformance,
  w: World,
  roleId: string,
): Promise<ProjectUserRole | undefined> {
  const res = await t.http.get(rolesPath(w), { query: w.creds() });
  return expectSuccess(res, UserRoles, 'listing roles').userRoles.find((r) => r.id === roleId);
}

/** The effective permissions in a fresh token of the user; not-run when the token has no `perm` claim. */
async function tokenPermissions(
  t: Conformance,
  w: World,
  userId: string,
): Promise<Record<string, unknown>> {
  const issued = expectSuccess(await userToken(t, w, userId), Token, 'user-token');
  let perm: unknown;
  try {
    perm = decodeJwt(issued.token)['perm'];
  } catch {
    perm = undefined;
  }
  if (typeof perm !== 'object' || perm === null) {
    t.notRun(
      'the target\u2019s tokens carry no perm claim (token contents are unspecified, §5 rule 8)',
    );
  }
  return perm as Record<string, unknown>;
}

/** A user holding a fresh role with the given permissions, and the effective set its token shows. */
async function effectiveOnRole(t: Conformance, w: World, permissions: RolePermissions) {
  const role = await createRole(t, w, permissions);
  const { userId } = await registerUser(t, w, { userRoleId: role.id });
  return tokenPermissions(t, w, userId);
}

conformance(
  [
    'roles.update.replaces-permissions',
    'resources.role.permissions-object',
    'permissions.flags.optional-booleans',
  ],
  'a role update stores and answers exactly the permission set it was sent',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w, { hideHeader: true, addChart: false });
    await fc.assert(
      fc.asyncProperty(permissionSet, async (permissions) => {
        const res = await t.http.put(rolePath(w, role.id), { ...w.creds(), permissions });
        const updated = expectSuccess(
          res,
          ProjectUserRole,
          `updating to ${JSON.stringify(permissions)}`,
        );
        expect(updated.permissions, 'the answer should hold exactly the flags sent').toEqual(
          permissions,
        );
        const listed = await listedRole(t, w, role.id);
        expect(listed?.permissions, 'the listed role should hold exactly the flags sent').toEqual(
          permissions,
        );
      }),
      {
        ...t.fc(25),
        examples: [[{}], [PERMISSION_FLAGS.reduce((all, f) => ({ ...all, [f]: true }), {})]],
      },
    );
  },
  { needs },
);

conformance(
  ['roles.update.permissions-only-known-flags', 'resources.role.permissions-no-extra-keys'],
  'a role update with an unknown flag, a non-boolean value or a non-object is refused and changes nothing',
  async (t) => {
    const w = await buildWorld(t);
    const stored: RolePermissions = { addFilter: true, drillDown: false };
    const role = await createRole(t, w, stored);
    await fc.assert(
      fc.asyncProperty(badPermissions, async (permissions) => {
        const what = `permissions ${JSON.stringify(permissions)}`;
        const res = await t.http.put(rolePath(w, role.id), {
          ...w.creds(),
          name: `${role.name} x`,
          permissions,
        });
        expectClientError(res, `refusing ${what}`);
        const listed = await listedRole(t, w, role.id);
        expect(
          listed?.permissions,
          `refusing ${what} should leave the permissions as they were`,
        ).toEqual(stored);
        expect(listed?.name, `refusing ${what} should leave the name as it was`).toBe(role.name);
      }),
      t.fc(25),
    );
  },
  { needs },
);

conformance(
  [
    'permissions.editing.grant-flags',
    'permissions.editing.read-only-overrides',
    'permissions.editing.empty-is-view-only',
    'permissions.create-chart-sql.needs-create-chart',
    'permissions.drill-down.off-when-read-only',
    'states.role.update-next-token',
    ...PERMISSION_FLAGS.map((f) => DEFAULT_CLAUSE[f]),
  ],
  'the token of a user on a role carries the §2.2 effective permissions of its flags',
  async (t) => {
    const w = await buildWorld(t);
    const role = await createRole(t, w);
    const { userId } = await registerUser(t, w, { userRoleId: role.id });
    await tokenPermissions(t, w, userId);
    await fc.assert(
      fc.asyncProperty(permissionSet, async (permissions) => {
        const res = await t.http.put(rolePath(w, role.id), { ...w.creds(), permissions });
        expectSuccess(res, ProjectUserRole, `updating to ${JSON.stringify(permissions)}`);
        const perm = await tokenPermissions(t, w, userId);
        expect(perm, `effective permissions of ${JSON.stringify(permissions)}`).toEqual(
          effectivePermissions(permissions),
        );
      }),
      {
        ...t.fc(30),
        examples: [
          [{}],
          [{ readOnly: true, addChart: true, drillDown: true }],
          [{ createChartSQL: true }],
          [{ createChart: false, createChartSQL: true, addChart: true }],
          [{ editCharts: true }],
        ],
      },
    );
  },
  { needs },
);

conformance(
  ['permissions.editing.no-role-view-only'],
  'a user with no role gets a token that grants no editing',
  async (t) => {
    const w = await buildWorld(t);
    await createRole(t, w, { addChart: true });
    const { userId } = await registerUser(t, w);
    const perm = await tokenPermissions(t, w, userId);
    expect(
      EDITING_FLAGS.filter((f) => perm[f] !== false),
      'a user with no role is view-only: every flag that grants editing should be off',
    ).toEqual([]);
  },
  { needs },
);

probe(
  ['permissions.effective.no-role'],
  'the effective permissions of a user with no role',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const perm = await tokenPermissions(t, w, userId);
    const on = Object.keys(perm).filter((f) => perm[f] === true);
    const expected = effectivePermissions(null);
    t.observe(`flags on: [${on.sort().join(', ')}]`, isSame(perm, expected));
  },
  { needs },
);

function isSame(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}

// The editing rules of §2.2 on hand-picked roles, with the expected values written out here
// rather than computed by the model, so a slip in the model cannot hide a slip in the target.
const RULE_EXAMPLES: readonly {
  readonly clauses: readonly [ClauseId, ...ClauseId[]];
  readonly name: string;
  readonly role: RolePermissions;
  readonly expected: Partial<Record<PermissionFlag, boolean>>;
}[] = [
  {
    clauses: ['permissions.editing.grant-flags'],
    name: 'one editing flag set true turns on the editing defaults',
    role: { canDuplicateDashboard: true },
    expected: {
      addChart: true,
      addFilter: true,
      createChart: true,
      removeChart: true,
      addDashboard: true,
    },
  },
  {
    clauses: [
      'permissions.editing.read-only-overrides',
      'permissions.drill-down.off-when-read-only',
    ],
    name: 'readOnly switches off every editing flag and drill-down, even ones set true',
    role: { readOnly: true, addChart: true, editCharts: true, addDashboard: true, drillDown: true },
    expected: {
      readOnly: true,
      addChart: false,
      addFilter: false,
      createChart: false,
      editCharts: false,
      removeChart: false,
      addDashboard: false,
      canDuplicateDashboard: false,
      drillDown: false,
    },
  },
  {
    clauses: ['permissions.editing.empty-is-view-only'],
    name: 'an empty role grants no editing flag',
    role: {},
    expected: {
      addChart: false,
      addFilter: false,
      createChart: false,
      editCharts: false,
      removeChart: false,
      addDashboard: false,
      canDuplicateDashboard: false,
    },
  },
  {
    clauses: ['permissions.editing.empty-is-view-only'],
    name: 'a role with only non-editing flags grants no editing flag',
    role: { aiCharts: true, drillDown: true, hideFilters: true, addChart: false },
    expected: {
      addChart: false,
      createChart: false,
      addDashboard: false,
      aiCharts: true,
      drillDown: true,
    },
  },
  {
    clauses: ['permissions.create-chart-sql.needs-create-chart'],
    name: 'createChartSQL is off while createChart is off',
    role: { addChart: true, createChart: false, createChartSQL: true },
    expected: { createChart: false, createChartSQL: false },
  },
  {
    clauses: ['permissions.create-chart-sql.needs-create-chart'],
    name: 'createChartSQL holds when createChart is on by default',
    role: { removeChart: true, createChartSQL: true },
    expected: { createChart: true, createChartSQL: true },
  },
];

for (const { clauses, name, role, expected } of RULE_EXAMPLES) {
  conformance(
    clauses,
    name,
    async (t) => {
      const w = await buildWorld(t);
      const perm = await effectiveOnRole(t, w, role);
      const wrong = Object.entries(expected)
        .filter(([flag, value]) => perm[flag] !== value)
        .map(
          ([flag, value]) => `${flag} should be ${String(value)}, is ${JSON.stringify(perm[flag])}`,
        );
      expect(wrong, `effective permissions of ${JSON.stringify(role)}`).toEqual([]);
    },
    { needs },
  );
}

// One scenario per flag: its default on a role that grants editing, and on a view-only one.
for (const flag of PERMISSION_FLAGS) {
  const { editing, viewOnly } = DEFAULTS[flag];
  // A role that grants editing through one flag other than the one under test.
  const editingRole: RolePermissions = {
    [flag === 'editCharts' ? 'addChart' : 'editCharts']: true,
  };
  // A role that grants nothing, with one harmless flag set so it is not the empty object.
  const viewOnlyRole: RolePermissions = {
    [flag === 'hideHeader' ? 'hideFilters' : 'hideHeader']: true,
  };

  conformance(
    [DEFAULT_CLAUSE[flag]],
    `${flag} left unset on a role that grants editing counts as ${String(editing)}`,
    async (t) => {
      const w = await buildWorld(t);
      const perm = await effectiveOnRole(t, w, editingRole);
      expect(perm[flag], `${flag} on ${JSON.stringify(editingRole)}`).toBe(editing);
    },
    { needs },
  );

  if (viewOnly === 'open') {
    probe(
      ['permissions.effective.non-editing-role'],
      `${flag} left unset on a view-only role`,
      async (t) => {
        const w = await buildWorld(t);
        const perm = await effectiveOnRole(t, w, viewOnlyRole);
        t.observe(
          `${flag} ${JSON.stringify(perm[flag])} on ${JSON.stringify(viewOnlyRole)}`,
          perm[flag] === false,
        );
      },
      { needs },
    );
  } else {
    conformance(
      [DEFAULT_CLAUSE[flag], 'permissions.editing.empty-is-view-only'],
      `${flag} left unset on a view-only role counts as ${String(viewOnly)}`,
      async (t) => {
        const w = await buildWorld(t);
        const perm = await effectiveOnRole(t, w, viewOnlyRole);
        expect(perm[flag], `${flag} on ${JSON.stringify(viewOnlyRole)}`).toBe(viewOnly);
      },
      { needs },
    );
  }
}

conformance(
  ['permissions.edit-marketplace.no-effect'],
  'editMarketplace changes nothing else a user may do',
  async (t) => {
    const w = await buildWorld(t);
    const without = (p: Record<string, unknown>) => {
      const { editMarketplace: _legacy, ...rest } = p;
      return rest;
    };
    for (const base of [{}, { addChart: true }, { readOnly: true, drillDown: true }]) {
      const plain = await createRole(t, w, base);
      const legacy = await createRole(t, w, { ...base, editMarketplace: true });
      const a = await registerUser(t, w, { userRoleId: plain.id });
      const b = await registerUser(t, w, { userRoleId: legacy.id });
      expect(
        without(await tokenPermissions(t, w, b.userId)),
        `adding editMarketplace to ${JSON.stringify(base)} must change no other permission`,
      ).toEqual(without(await tokenPermissions(t, w, a.userId)));
    }
  },
  { needs },
);
