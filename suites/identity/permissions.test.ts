import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { PermissionFlag, RolePermissions } from '../../spec/schemas/permissions.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import {
  buildWorld,
  createRole,
  registerUser,
  userToken,
  type World,
} from '../harness/given/accounts.ts';
import { expectedEffective, expectedPermissions } from '../../fixtures/oracles/index.ts';
import { CLAIMS_DECISION, permissionsClaim } from '../harness/claims.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { rolesPath, rolePath } from '../harness/paths.ts';
import { expectClientError, expectSuccess } from '../harness/expect.ts';
import { memberName } from '../harness/property.ts';

// §2.2 and §4.1: the twenty permission flags, how a role update stores them, and the effective
// permissions a user on the role gets. Expected values come from the §2.2 data of
// fixtures/oracles. Effective permissions are read from the token at the claim path of the
// target's profile: token contents are our decision (tokens.claims, §5 rule 8), so those tests
// rely on it, and a target whose profile names no such claim is not judged by them.
const needs = ['accounts', 'projects', 'roles'] as const;
const throughClaims = { needs, relies: [CLAIMS_DECISION] } as const;

/** The twenty flags, from the §2.2 data. */
const FLAGS = expectedPermissions.flags as readonly PermissionFlag[];

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

/** Any subset of the twenty flags, each true or false. */
const permissionSet: fc.Arbitrary<RolePermissions> = fc.record(
  Object.fromEntries(FLAGS.map((f) => [f, fc.boolean()])) as Record<
    PermissionFlag,
    fc.Arbitrary<boolean>
  >,
  { requiredKeys: [] },
);

const isFlag = (key: string): boolean => expectedPermissions.flags.includes(key);

/** A permissions value §4.1 does not allow: an unknown key, a non-boolean flag, or not an object. */
const badPermissions: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(
      permissionSet,
      memberName({ minLength: 1 }).filter((k) => !isFlag(k)),
      fc.oneof(fc.boolean(), fc.string()),
    )
    .map(([set, key, value]) => ({ ...set, [key]: value })),
  fc
    .tuple(
      permissionSet,
      fc.constantFrom(...FLAGS),
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

/** The effective permissions in a fresh token of the user, at the profile's claim path. */
async function tokenPermissions(
  t: Conformance,
  w: World,
  userId: string,
): Promise<Record<string, unknown>> {
  const issued = expectSuccess(await userToken(t, w, userId), Token, 'user-token');
  return permissionsClaim(t, issued.token);
}

/** The flags whose on/off state differs from the §2.2 expectation (on means the value true). */
function wrongFlags(perm: Record<string, unknown>, expected: Record<string, boolean>): string[] {
  return Object.entries(expected)
    .filter(([flag, on]) => (perm[flag] === true) !== on)
    .map(
      ([flag, on]) => `${flag} should be ${on ? 'on' : 'off'}, is ${JSON.stringify(perm[flag])}`,
    );
}

/** The flags that grant editing (§2.2 rule 1) that a permissions claim has on. */
const editingOn = (perm: Record<string, unknown>) =>
  expectedPermissions.grantsEditing.filter((flag) => perm[flag] === true);

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
        examples: [[{}], [FLAGS.reduce((all, f) => ({ ...all, [f]: true }), {})]],
      },
    );
  },
  { needs },
);

conformance(
  [
    'roles.update.permissions-only-known-flags',
    'resources.role.permissions-no-extra-keys',
    'errors.refused.changes-nothing',
  ],
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
    ...FLAGS.map((f) => DEFAULT_CLAUSE[f]),
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
        expect(
          wrongFlags(perm, expectedEffective(permissions)),
          `effective permissions of ${JSON.stringify(permissions)}`,
        ).toEqual([]);
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
  throughClaims,
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
      editingOn(perm),
      'a user with no role is view-only: every flag that grants editing should be off',
    ).toEqual([]);
  },
  throughClaims,
);

probe(
  ['permissions.effective.no-role'],
  'the effective permissions of a user with no role',
  async (t) => {
    const w = await buildWorld(t);
    const { userId } = await registerUser(t, w);
    const perm = await tokenPermissions(t, w, userId);
    const on = Object.keys(perm).filter((f) => perm[f] === true);
    // Decided: exactly the twenty booleans of an empty role.
    t.observe(`flags on: [${on.sort().join(', ')}]`, isSame(perm, expectedEffective({})));
  },
  throughClaims,
);

function isSame(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}

// The editing rules of §2.2 on hand-picked roles, with the expected values written out here
// rather than computed, so a slip in fixtures/oracles cannot hide a slip in the target.
/** The seven editing flags of §2.2 rule 1, each off: what a view-only role grants. */
const EDITING_OFF = {
  addChart: false,
  addFilter: false,
  createChart: false,
  editCharts: false,
  removeChart: false,
  addDashboard: false,
  canDuplicateDashboard: false,
} as const;
const RULE_EXAMPLES: readonly {
  readonly clauses: readonly [ClauseId, ...ClauseId[]];
  readonly name: string;
  readonly role: RolePermissions;
  readonly expected: Readonly<Partial<Record<PermissionFlag, boolean>>>;
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
    expected: { readOnly: true, ...EDITING_OFF, drillDown: false },
  },
  {
    clauses: ['permissions.editing.empty-is-view-only'],
    name: 'an empty role grants no editing flag',
    role: {},
    expected: EDITING_OFF,
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
      expect(
        wrongFlags(perm, expected),
        `effective permissions of ${JSON.stringify(role)}`,
      ).toEqual([]);
    },
    throughClaims,
  );
}

// One scenario per flag: its default on a role that grants editing, and on a view-only one.
for (const flag of FLAGS) {
  // A role that grants editing through one flag other than the one under test.
  const editingRole: RolePermissions = {
    [flag === 'editCharts' ? 'addChart' : 'editCharts']: true,
  };
  // A role that grants nothing, with one harmless flag set so it is not the empty object.
  const viewOnlyRole: RolePermissions = {
    [flag === 'hideHeader' ? 'hideFilters' : 'hideHeader']: true,
  };
  const onWhenEditing = expectedEffective(editingRole)[flag] === true;
  const onWhenViewOnly = expectedEffective(viewOnlyRole)[flag] === true;

  conformance(
    [DEFAULT_CLAUSE[flag]],
    `${flag} left unset on a role that grants editing is ${onWhenEditing ? 'on' : 'off'}`,
    async (t) => {
      const w = await buildWorld(t);
      const perm = await effectiveOnRole(t, w, editingRole);
      expect(perm[flag] === true, `${flag} on ${JSON.stringify(editingRole)}`).toBe(onWhenEditing);
    },
    throughClaims,
  );

  // §2.2 gives the 'editing' defaults only for a role that grants editing; on a view-only role
  // rule 2 keeps them off, and how "off" is written is our decision.
  const editingDefault = expectedPermissions.defaults[flag] === 'editing';
  conformance(
    [editingDefault ? 'permissions.editing.empty-is-view-only' : DEFAULT_CLAUSE[flag]],
    `${flag} left unset on a view-only role is ${onWhenViewOnly ? 'on' : 'off'}`,
    async (t) => {
      const w = await buildWorld(t);
      const perm = await effectiveOnRole(t, w, viewOnlyRole);
      expect(perm[flag] === true, `${flag} on ${JSON.stringify(viewOnlyRole)}`).toBe(
        onWhenViewOnly,
      );
    },
    throughClaims,
  );

  if (editingDefault) {
    probe(
      ['permissions.effective.non-editing-role'],
      `how ${flag} left unset on a view-only role is written`,
      async (t) => {
        const w = await buildWorld(t);
        const perm = await effectiveOnRole(t, w, viewOnlyRole);
        t.observe(
          `${flag} ${JSON.stringify(perm[flag])} on ${JSON.stringify(viewOnlyRole)}`,
          perm[flag] === false,
        );
      },
      throughClaims,
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
  throughClaims,
);
