import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import { expectedEffective, isEditingFlag } from '../../fixtures/oracles/index.ts';
import {
  applyIdentity,
  emptyIdentity,
  rolesOf,
  type IdentityCommand,
  type IdentityState,
} from '../../spec/machines/identity.ts';
import { Uuid } from '../../spec/schemas/common.ts';
import { PERMISSION_FLAGS, type RolePermissions } from '../../spec/schemas/permissions.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import { CLAIMS_DECISION, claimAt, permissionsClaim } from '../harness/claims.ts';
import { conformance, type Conformance, states } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import {
  buildWorld,
  createRole,
  expectOwnProject,
  inProject,
  type World,
} from '../harness/given/accounts.ts';
import type { Reply } from '../harness/http.ts';
import {
  budgetLine,
  modelRuns,
  type Budget,
  type ModelCommand,
  type Verdict,
} from '../harness/model-run.ts';
import {
  REGISTER_ORGANIZATION,
  REGISTER_USER,
  USER_TOKEN,
  rolePath,
  rolesPath,
  userPath,
} from '../harness/paths.ts';

// Model-based (STYLE 7, issue 34) on the shared runner (harness/model-run.ts): random
// sequences of identity calls in a world of two accounts, each with two projects, project
// organizations, several users and several tokens per user, run against the target and, in
// step, against the pure identity machine of spec/machines (one per account), the oracle.
// Commands aim at ids of their own project, of the sibling project, of the other account, or
// (against the reference) of a deleted role; the model's refusals are expected refusals.
// Users have no read endpoint: a user is seen through the project-user tokens issued for it
// (§4.7: generated from the stored user), read at the claim paths the profile states. After
// every command each project's role list must be the model's.

const ACCOUNTS = 2;
const PROJECTS = 2;
const BUDGET: Budget = { runs: 4, commands: 20 };

interface Account {
  state: IdentityState;
  /** One World per project of the account (the first is the account's own). */
  readonly projects: readonly World[];
  /** Per project, in creation order: live role ids, deleted role ids, user ids, organizations. */
  readonly roles: string[][];
  readonly gone: string[][];
  readonly users: string[][];
  readonly organizations: { readonly id: string; readonly externalId: string }[][];
  /** Every token issued for a user, in order. */
  readonly tokens: Record<string, string[]>;
}

interface Model {
  readonly accounts: Account[];
  /** Against the reference: refusals of our decisions (an unknown role) are drawn too. */
  readonly decisions: boolean;
  /** The profile follows users.update.absent-fields-unchanged: updates may leave fields out. */
  readonly absentKept: boolean;
  /** A counter for fresh externalIds and names. */
  made: number;
}

interface Real {
  readonly t: Conformance;
}

/**
 * Where a command takes an id from: its own project, the sibling project of its account, the
 * other account's project of the same index, or a role of its own project deleted earlier.
 */
type From = 'own' | 'sibling' | 'foreign' | 'gone';
interface Ref {
  readonly from: From;
  readonly index: number;
}

const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];

const accountAt = (m: Model, a: number): Account => m.accounts[a % m.accounts.length] as Account;

/** The account and project a reference points into. */
function sourceOf(m: Model, a: number, p: number, from: From): { acct: Account; p: number } {
  if (from === 'foreign') return { acct: accountAt(m, a + 1), p };
  if (from === 'sibling') return { acct: accountAt(m, a), p: (p + 1) % PROJECTS };
  return { acct: accountAt(m, a), p };
}

function roleRef(m: Model, a: number, p: number, ref: Ref): string | undefined {
  const { acct, p: q } = sourceOf(m, a, p, ref.from);
  return pick((ref.from === 'gone' ? acct.gone : acct.roles)[q] ?? [], ref.index);
}

function userRef(m: Model, a: number, p: number, ref: Ref): string | undefined {
  if (ref.from === 'gone') return undefined;
  const { acct, p: q } = sourceOf(m, a, p, ref.from);
  return pick(acct.users[q] ?? [], ref.index);
}

function organizationRef(m: Model, a: number, p: number, ref: Ref, byExternalId: boolean) {
  if (ref.from === 'gone') return undefined;
  const { acct, p: q } = sourceOf(m, a, p, ref.from);
  const o = pick(acct.organizations[q] ?? [], ref.index);
  return o === undefined ? undefined : byExternalId ? o.externalId : o.id;
}

/** A reference the model can aim with: resolvable, and a deleted role only on the reference. */
const aimable = (m: Model, ref: Ref | null | undefined, id: string | undefined) =>
  ref === null || ref === undefined || (id !== undefined && (ref.from !== 'gone' || m.decisions));

/** The refusal the command's references make portable, in words; undefined for our decision. */
function isolation(refs: readonly (Ref | null | undefined)[]): string | undefined {
  if (refs.some((r) => r?.from === 'foreign'))
    return "an id of another account's project (auth.isolation.other-account-refused)";
  if (refs.some((r) => r?.from === 'sibling'))
    return 'an id of the sibling project (auth.isolation.sibling-project-refused)';
  return undefined;
}

/**
 * The verdict of the account's machine on a command: allowed, with the next state kept for
 * `then`; or refused, with why (isolation, or the machine's own refusal).
 */
function machineVerdict(
  acct: Account,
  command: IdentityCommand,
  refs: readonly (Ref | null | undefined)[],
  then: (res: Reply, next: IdentityState) => Promise<void> | void,
  status = 200,
): Verdict {
  const applied = applyIdentity(acct.state, command, Date.now());
  if (!applied.ok)
    return {
      kind: 'refused',
      code: applied.error.code,
      why: isolation(refs) ?? `${applied.error.code}: ${applied.error.message}`,
    };
  return {
    kind: 'allowed',
    status,
    then: (res) => then(res, applied.state),
  };
}

function step(acct: Account, command: IdentityCommand): void {
  const applied = applyIdentity(acct.state, command, Date.now());
  if (!applied.ok) throw new Error(`the model refused ${command.type}: ${applied.error.message}`);
  acct.state = applied.state;
}

/**
 * A token as the model holds its user (§4.7: generated from the stored user; §3: role changes
 * reach the next token), read at the claim paths the profile states (tokens.claims).
 */
function expectTokenInStep(
  t: Conformance,
  acct: Account,
  userId: string,
  token: string,
  what: string,
) {
  const user = acct.state.users[userId];
  if (user === undefined) throw new Error(`the model holds no user ${userId}`);
  const shape = t.profile.shapes.tokenClaims ?? {};
  const role = user.userRoleId === null ? undefined : acct.state.roles[user.userRoleId];
  if (shape.subject !== undefined)
    expect(claimAt(t, token, 'subject'), `${what}: the token's user`).toBe(userId);
  if (shape.role !== undefined)
    expect(
      claimAt(t, token, 'role', { absentMeansNone: true }) ?? null,
      `${what}: the token's role is the user's role now`,
    ).toBe(user.userRoleId);
  if (shape.projectOrganization !== undefined)
    expect(
      claimAt(t, token, 'projectOrganization', { absentMeansNone: true }) ?? null,
      `${what}: the token's project organization`,
    ).toBe(user.projectOrganizationId);
  if (shape.properties !== undefined)
    expect(
      claimAt(t, token, 'properties', { absentMeansNone: true }) ?? {},
      `${what}: the token's properties are the stored set`,
    ).toEqual(user.properties);
  if (shape.permissions !== undefined && shape.permissionsForm !== 'other') {
    const claim = permissionsClaim(t, token);
    // §2.2 rule 2: a user with no role is view-only; its other flags are open
    // (permissions.effective.no-role), so only the editing ones are compared then.
    const wrong = Object.entries(expectedEffective(role?.permissions ?? null))
      .filter(([flag]) => role !== undefined || isEditingFlag(flag))
      .filter(([flag, on]) => (claim[flag] === true) !== on)
      .map(([flag, on]) => `${flag} should be ${on ? 'on' : 'off'}`);
    expect(wrong, `${what}: the effective permissions of the role the user holds now`).toEqual([]);
  }
}

/**
 * After a change, what the document lets us see of the users it may reach: a fresh token for
 * each (§4.7: built from the stored user; §3: a role's change reaches the next token),
 * compared with the model. At most three, to bound the cost.
 */
async function observeUsers(
  t: Conformance,
  acct: Account,
  userIds: readonly string[],
  what: string,
): Promise<void> {
  const w = acct.projects[0] as World;
  for (const userId of userIds.slice(0, 3)) {
    const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId });
    const said = `${what}: a fresh token of user ${userId}`;
    const { token } = expectSuccess(res, Token, said);
    expectTokenInStep(t, acct, userId, token, said);
    acct.tokens[userId]?.push(token);
  }
}

const holders = (state: IdentityState, roleId: string) =>
  Object.values(state.users)
    .filter((u) => u.userRoleId === roleId)
    .map((u) => u.id);

const RoleAnswer = ProjectUserRole;
const Registered = z.object({ userId: Uuid, message: z.string() });
const OrganizationAnswer = z.object({ projectOrganizationId: Uuid, externalId: z.string() });
const Deleted = z.object({ message: z.string() });

const flagSet: fc.Arbitrary<RolePermissions> = fc.record(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, fc.boolean()])) as Record<
    (typeof PERMISSION_FLAGS)[number],
    fc.Arbitrary<boolean>
  >,
  { requiredKeys: [] },
);
const props = fc.dictionary(
  fc.constantFrom('region', 'tier', 'team'),
  fc.constantFrom('eu', 'us', 'gold', 'a'),
  { maxKeys: 2 },
);
const account = fc.nat({ max: ACCOUNTS - 1 });
const project = fc.nat({ max: PROJECTS - 1 });
const ref: fc.Arbitrary<Ref> = fc.record({
  // Own ids are drawn most: they keep the model moving; the others are refusals.
  from: fc.constantFrom<From>('own', 'own', 'own', 'sibling', 'foreign', 'gone'),
  index: fc.nat({ max: 7 }),
});

type Cmd = ModelCommand<Model, Real>;
const where = (a: number, p: number) => `account#${a} project#${p}`;

const createRoleCmd = (a: number, p: number, permissions: RolePermissions): Cmd => ({
  kind: 'world',
  label: `hook: create role in ${where(a, p)} ${JSON.stringify(permissions)}`,
  pre: (m) => m.accounts.flatMap((x) => x.roles.flat()).length < 12,
  act: async (m, { t }) => {
    const acct = accountAt(m, a);
    const w = acct.projects[p] as World;
    const role = await createRole(t, w, permissions);
    step(acct, {
      type: 'createRole',
      projectId: w.projectId,
      roleId: role.id,
      name: role.name,
      permissions,
    });
    acct.roles[p]?.push(role.id);
  },
});

const updateRoleCmd = (
  a: number,
  p: number,
  r: Ref,
  name: string | undefined,
  permissions: RolePermissions | undefined,
): Cmd => ({
  kind: 'call',
  label: `PUT ${where(a, p)} role(${r.from}#${r.index}) ${JSON.stringify({ name, permissions })}`,
  pre: (m) => aimable(m, r, roleRef(m, a, p, r)),
  verdict: (m, { t }) => {
    const acct = accountAt(m, a);
    const roleId = roleRef(m, a, p, r) ?? '';
    const projectId = (acct.projects[p] as World).projectId;
    return machineVerdict(
      acct,
      {
        type: 'updateRole',
        projectId,
        roleId,
        ...(name === undefined ? {} : { name }),
        ...(permissions === undefined ? {} : { permissions }),
      },
      [r],
      async (res, next) => {
        acct.state = next;
        const shown = expectSuccess(res, RoleAnswer, 'the role update answer (§4.1)');
        const held = next.roles[roleId];
        // §4.1: the answer is the role with every §2.1 field; §3: permissions replaced whole.
        expect(
          {
            id: shown.id,
            name: shown.name,
            permissions: shown.permissions,
            project_id: shown.project_id,
          },
          'the answer is the role the model holds',
        ).toEqual({
          id: roleId,
          name: held?.name,
          permissions: held?.permissions,
          project_id: projectId,
        });
        await observeUsers(t, acct, holders(next, roleId), 'after the role update');
      },
    );
  },
  call: (m, { t }) => {
    const acct = accountAt(m, a);
    return t.http.put(rolePath(acct.projects[p] as World, roleRef(m, a, p, r) ?? ''), {
      ...(acct.projects[p] as World).creds(),
      ...(name === undefined ? {} : { name }),
      ...(permissions === undefined ? {} : { permissions }),
    });
  },
});

const deleteRoleCmd = (a: number, p: number, r: Ref): Cmd => ({
  kind: 'call',
  label: `DELETE ${where(a, p)} role(${r.from}#${r.index})`,
  pre: (m) => aimable(m, r, roleRef(m, a, p, r)),
  verdict: (m, { t }) => {
    const acct = accountAt(m, a);
    const roleId = roleRef(m, a, p, r) ?? '';
    return machineVerdict(
      acct,
      { type: 'deleteRole', projectId: (acct.projects[p] as World).projectId, roleId },
      [r],
      async (res, next) => {
        expectSuccess(res, Deleted, 'the role delete answer (§4.3)');
        const held = holders(acct.state, roleId);
        acct.state = next;
        const live = acct.roles[p] ?? [];
        live.splice(live.indexOf(roleId), 1);
        acct.gone[p]?.push(roleId);
        // §3: its users are left with no role, from their next token on.
        await observeUsers(t, acct, held, 'after the role delete');
      },
    );
  },
  call: (m, { t }) => {
    const w = accountAt(m, a).projects[p] as World;
    return t.http.delete(rolePath(w, roleRef(m, a, p, r) ?? ''), { query: w.creds() });
  },
});

const registerOrganizationCmd = (a: number, p: number): Cmd => {
  // Each externalId is fresh in the whole world: sending one again is our decision (upsert).
  let externalId = '';
  let name = '';
  return {
    kind: 'call',
    label: `POST register-organization in ${where(a, p)}`,
    pre: () => true,
    verdict: (m) => {
      m.made += 1;
      externalId = `org-${m.made}-a${a}p${p}`;
      name = `Organization ${m.made}`;
      const acct = accountAt(m, a);
      const projectId = (acct.projects[p] as World).projectId;
      return {
        kind: 'allowed',
        status: 200,
        then: (res) => {
          const data = expectSuccess(res, OrganizationAnswer, 'the register-organization answer');
          expect(data.externalId, 'the answer echoes the externalId (§4.4)').toBe(externalId);
          step(acct, {
            type: 'registerOrganization',
            projectId,
            newId: data.projectOrganizationId,
            name,
            externalId,
          });
          acct.organizations[p]?.push({ id: data.projectOrganizationId, externalId });
        },
      };
    },
    call: (m, { t }) => {
      const w = accountAt(m, a).projects[p] as World;
      return t.http.post(REGISTER_ORGANIZATION, {
        ...w.creds(),
        projectId: w.projectId,
        name,
        externalId,
      });
    },
  };
};

const registerUserCmd = (
  a: number,
  p: number,
  role: Ref | null,
  organization: Ref | null,
  byExternalId: boolean,
  properties: Record<string, string>,
): Cmd => {
  let name = '';
  const fields = (m: Model) => {
    const roleId = role === null ? undefined : roleRef(m, a, p, role);
    const org =
      organization === null ? undefined : organizationRef(m, a, p, organization, byExternalId);
    return {
      ...(roleId === undefined ? {} : { userRoleId: roleId }),
      ...(org === undefined ? {} : { projectOrganizationId: org }),
    };
  };
  return {
    kind: 'call',
    label: `POST register-user in ${where(a, p)} role(${role === null ? 'none' : `${role.from}#${role.index}`}) organization(${organization === null ? 'none' : `${organization.from}#${organization.index} by ${byExternalId ? 'externalId' : 'id'}`}) ${JSON.stringify(properties)}`,
    pre: (m) =>
      aimable(m, role, role === null ? undefined : roleRef(m, a, p, role)) &&
      aimable(
        m,
        organization,
        organization === null ? undefined : organizationRef(m, a, p, organization, byExternalId),
      ),
    verdict: (m, { t }) => {
      m.made += 1;
      name = `user ${m.made}`;
      const acct = accountAt(m, a);
      const projectId = (acct.projects[p] as World).projectId;
      const refs = [role, organization];
      // The userId is the target's: the model's trial runs with a placeholder.
      const trial = machineVerdict(
        acct,
        {
          type: 'registerUser',
          projectId,
          userId: crypto.randomUUID(),
          name,
          properties,
          ...fields(m),
        },
        refs,
        () => undefined,
      );
      if (trial.kind === 'refused') return trial;
      return {
        kind: 'allowed',
        status: 200,
        then: async (res) => {
          const { userId } = expectSuccess(res, Registered, 'the register-user answer (§4.5)');
          step(acct, { type: 'registerUser', projectId, userId, name, properties, ...fields(m) });
          acct.users[p]?.push(userId);
          acct.tokens[userId] = [];
          await observeUsers(t, acct, [userId], 'after registering the user');
        },
      };
    },
    call: (m, { t }) => {
      const w = accountAt(m, a).projects[p] as World;
      return t.http.post(REGISTER_USER, {
        ...w.creds(),
        projectId: w.projectId,
        name,
        properties,
        ...fields(m),
      });
    },
  };
};

const updateUserCmd = (
  a: number,
  p: number,
  u: Ref,
  /** undefined: left out; null: removed; a reference: that role. */
  role: Ref | null | undefined,
  properties: Record<string, string> | undefined,
): Cmd => {
  const body = (m: Model) => {
    const userId = userRef(m, a, p, u) ?? '';
    const held = Object.values(m.accounts.map((x) => x.state.users[userId])).find(Boolean);
    const userRoleId = role === undefined || role === null ? role : roleRef(m, a, p, role);
    // Where the profile does not state that a left-out field is kept, the update names the
    // user's project organization as it stands, so no reading of a left-out one is assumed.
    const organization = m.absentKept ? undefined : held?.projectOrganizationId;
    return {
      userId,
      name: held?.name ?? 'someone',
      ...(userRoleId === undefined ? {} : { userRoleId }),
      ...(properties === undefined ? {} : { properties }),
      ...(organization === undefined || organization === null
        ? {}
        : { projectOrganizationId: organization }),
    };
  };
  return {
    kind: 'call',
    label: `PUT ${where(a, p)} user(${u.from}#${u.index}) role=${role === undefined ? 'absent' : role === null ? 'null' : `${role.from}#${role.index}`} properties=${JSON.stringify(properties)}`,
    pre: (m) =>
      aimable(m, u, userRef(m, a, p, u)) &&
      aimable(m, role, role === null || role === undefined ? undefined : roleRef(m, a, p, role)) &&
      // Leaving a field out keeps it only by our decision (users.update.absent-fields-unchanged).
      (m.absentKept || (role !== undefined && properties !== undefined)),
    verdict: (m, { t }) => {
      const acct = accountAt(m, a);
      const { userId, ...fields } = body(m);
      const projectId = (acct.projects[p] as World).projectId;
      return machineVerdict(
        acct,
        { type: 'updateUser', projectId, userId, ...fields },
        [u, role],
        async (res, next) => {
          expectSuccess(res, z.record(z.string(), z.unknown()), 'the user update answer (§4.6)');
          acct.state = next;
          await observeUsers(t, acct, [userId], 'after the user update');
        },
      );
    },
    call: (m, { t }) => {
      const w = accountAt(m, a).projects[p] as World;
      const { userId, ...fields } = body(m);
      return t.http.put(userPath(w, userId), { ...w.creds(), ...fields });
    },
  };
};

const issueTokenCmd = (a: number, p: number, u: Ref, expiration: string | undefined): Cmd => ({
  kind: 'call',
  label: `POST user-token account#${a} for user(${u.from}#${u.index} of project#${p})${expiration === undefined ? '' : ` ${expiration}`}`,
  pre: (m) => aimable(m, u, userRef(m, a, p, u)),
  verdict: (m, { t }) => {
    const acct = accountAt(m, a);
    const userId = userRef(m, a, p, u) ?? '';
    // §4.7: the userId of a registered user of the account (the body names no project).
    if (acct.state.users[userId] === undefined)
      return {
        kind: 'refused',
        why: "another account's user (auth.isolation.other-account-refused)",
      };
    return {
      kind: 'allowed',
      status: 200,
      then: (res) => {
        const { token } = expectSuccess(res, Token, 'the user-token answer (§4.7)');
        expectTokenInStep(t, acct, userId, token, `a token of user ${userId}`);
        acct.tokens[userId]?.push(token);
      },
    };
  },
  call: (m, { t }) => {
    const w = accountAt(m, a).projects[p] as World;
    return t.http.post(USER_TOKEN, {
      ...w.creds(),
      userId: userRef(m, a, p, u) ?? '',
      ...(expiration === undefined ? {} : { expiration }),
    });
  },
});

const listRolesCmd = (a: number, p: number, foreign: boolean): Cmd => ({
  kind: 'call',
  label: `GET user-roles of ${foreign ? `account#${a + 1}'s` : ''} project#${p} with the keys of account#${a}`,
  pre: () => true,
  verdict: (m) => {
    if (foreign)
      return {
        kind: 'refused',
        why: "another account's project (auth.isolation.other-account-refused)",
      };
    const acct = accountAt(m, a);
    return {
      kind: 'allowed',
      status: 200,
      then: (res) => {
        expectRolesInStep(res, acct, p, 'the listed roles');
      },
    };
  },
  call: (m, { t }) => {
    const mine = accountAt(m, a).projects[p] as World;
    const listed = foreign ? (accountAt(m, a + 1).projects[p] as World) : mine;
    return t.http.get(rolesPath(listed), { query: mine.creds() });
  },
});

const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

/** §4.2: the project's roles, in any order, are the model's (id, name, permissions). */
function expectRolesInStep(res: Reply, acct: Account, p: number, what: string) {
  const listed = expectSuccess(res, UserRoles, what).userRoles;
  const shape = (r: { id: string; name: string; permissions: unknown }) => ({
    id: r.id,
    name: r.name,
    permissions: r.permissions,
  });
  const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
  const projectId = (acct.projects[p] as World).projectId;
  expect(listed.map(shape).sort(byId), `${what}: the roles the model holds`).toEqual(
    rolesOf(acct.state, projectId).map(shape).sort(byId),
  );
}

const commands: fc.Arbitrary<Cmd>[] = [
  fc.tuple(account, project, flagSet).map(([a, p, f]) => createRoleCmd(a, p, f)),
  fc
    .tuple(
      account,
      project,
      ref,
      fc.option(fc.constantFrom('Editors', 'Viewers'), { nil: undefined }),
      flagSet,
    )
    .map(([a, p, r, n, f]) => updateRoleCmd(a, p, r, n, f)),
  fc.tuple(account, project, ref).map(([a, p, r]) => deleteRoleCmd(a, p, r)),
  fc.tuple(account, project).map(([a, p]) => registerOrganizationCmd(a, p)),
  fc
    .tuple(
      account,
      project,
      fc.option(ref, { nil: null }),
      fc.option(ref, { nil: null }),
      fc.boolean(),
      props,
    )
    .map(([a, p, r, o, e, pr]) => registerUserCmd(a, p, r, o, e, pr)),
  fc
    .tuple(
      account,
      project,
      ref,
      fc.oneof(fc.constant(undefined), fc.constant(null), ref),
      fc.option(props, { nil: undefined }),
    )
    .map(([a, p, u, r, pr]) => updateUserCmd(a, p, u, r, pr)),
  fc
    .tuple(account, project, ref, fc.option(fc.constantFrom('5m', '1h', '7d'), { nil: undefined }))
    .map(([a, p, u, e]) => issueTokenCmd(a, p, u, e)),
  fc.tuple(account, project, fc.boolean()).map(([a, p, f]) => listRolesCmd(a, p, f)),
];

/**
 * One account of the world: its projects (the projects hook makes the second), a role, a
 * project organization and two users in each (one holding the role and the organization),
 * each user with a token; every step mirrored in the account's model.
 */
async function accountWorld(t: Conformance, a: number, made: { n: number }): Promise<Account> {
  const w = await buildWorld(t);
  // The model holds every role of its projects, so they must hold nothing else.
  expectOwnProject(t, w);
  const projects = [w];
  while (projects.length < PROJECTS) {
    const { projectId } = await t.hooks.createProject(w.account.organizationId, `model ${a}`);
    projects.push(inProject(w, projectId));
  }
  const acct: Account = {
    state: emptyIdentity(w.account.organizationId),
    projects,
    roles: projects.map(() => []),
    gone: projects.map(() => []),
    users: projects.map(() => []),
    organizations: projects.map(() => []),
    tokens: {},
  };
  for (const [p, world] of projects.entries()) {
    step(acct, { type: 'createProject', projectId: world.projectId, name: `model ${p}` });
  }
  const model: Model = { accounts: [acct], decisions: false, absentKept: false, made: made.n };
  const real: Real = { t };
  const build: Cmd[] = projects.flatMap((_, p) => [
    createRoleCmd(0, p, { addChart: true, aiInsight: true }),
    registerOrganizationCmd(0, p),
    registerUserCmd(0, p, { from: 'own', index: 0 }, { from: 'own', index: 0 }, p === 1, {
      region: 'eu',
    }),
    registerUserCmd(0, p, null, null, false, {}),
    issueTokenCmd(0, p, { from: 'own', index: 0 }, undefined),
    issueTokenCmd(0, p, { from: 'own', index: 1 }, undefined),
  ]);
  for (const c of build) {
    if (c.kind === 'world') await c.act(model, real);
    else if (c.kind === 'call') {
      const verdict = c.verdict(model, real);
      const res = await c.call(model, real);
      if (verdict.kind !== 'allowed' || res.status !== 200)
        throw new Error(
          `world building: ${c.label} answered ${res.status} ${res.text.slice(0, 200)}`,
        );
      await verdict.then?.(res);
    }
  }
  made.n = model.made;
  return acct;
}

conformance(
  [
    'roles.update.replaces-permissions',
    'roles.update.renames',
    'roles.update.response-fields',
    'roles.delete.response-message',
    'roles.delete.users-lose-role',
    'roles.list.response-shape',
    'states.role.delete-removes',
    'states.role.update-replaces',
    'states.role.update-next-token',
    'states.user.role-deleted',
    'states.user.role-cleared-next-token',
    'states.user.role-assigned-next-token',
    'orgs.register.response-shape',
    'users.register.response-shape',
    'users.register.organization-by-external-id',
    'users.update.properties-replace',
    'users.update.role-null-removes',
    'users.update.role-set',
    'tokens.user-token.response-shape',
    'tokens.user-token.from-stored-user',
    'auth.isolation.other-account-refused',
    'auth.isolation.sibling-project-refused',
    'auth.isolation.refused-changes-nothing',
  ],
  `model runs over identity in two accounts of two projects each, refusals included (${budgetLine('identity', BUDGET)})`,
  async (t) => {
    await modelRuns<Model, Real>(t, {
      area: 'identity',
      budget: BUDGET,
      commands,
      world: async () => {
        const made = { n: 0 };
        const accounts: Account[] = [];
        for (let a = 0; a < ACCOUNTS; a++) accounts.push(await accountWorld(t, a, made));
        return {
          model: {
            accounts,
            decisions: t.target.checkDecisions,
            absentKept: states(t, 'users.update.absent-fields-unchanged'),
            made: made.n,
          },
          real: { t },
        };
      },
      // Every project's role list, after every command: a refused request changed none.
      inStep: async (m, { t }) => {
        for (const acct of m.accounts)
          for (const [p, w] of acct.projects.entries())
            expectRolesInStep(
              await t.http.get(rolesPath(w), { query: w.creds() }),
              acct,
              p,
              `the roles of ${w.projectId}`,
            );
      },
    });
  },
  {
    id: 'model-runs',
    needs: ['accounts', 'projects', 'roles'],
    // Users are seen through their tokens' claims, at the paths the profile states.
    relies: [CLAIMS_DECISION],
    timeout: 120_000,
  },
);
