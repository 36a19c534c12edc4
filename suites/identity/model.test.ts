import fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  applyIdentity,
  emptyIdentity,
  rolesOf,
  type IdentityCommand,
  type IdentityState,
} from '../../spec/machines/identity.ts';
import { PERMISSION_FLAGS, type RolePermissions } from '../../spec/schemas/permissions.ts';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Uuid } from '../../spec/schemas/common.ts';
import {
  buildWorld,
  createRole,
  expectOwnProject,
  inProject,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import {
  REGISTER_ORGANIZATION,
  REGISTER_USER,
  rolePath,
  rolesPath,
  userPath,
} from '../harness/paths.ts';

// Model-based (STYLE 7): random sequences of identity calls run against the target and, in
// step, against the pure identity machine of spec/machines, which is the oracle. After each
// step what the target shows must be what the model holds.

interface Model {
  state: IdentityState;
  /**
   * Ids the target issued, per project (same order as Real.worlds) and in creation order, so
   * commands can point at them by index.
   */
  readonly roles: string[][];
  readonly users: string[][];
  readonly externalIds: string[][];
  /** Whether decisions bind the target; if not, no step leans on one (e.g. externalId upsert). */
  readonly decisions: boolean;
}

/**
 * The target side: one account seen in each of its projects. Worlds vary in shape (one to
 * three projects, organizations and users made by the commands) so that a target mixing up
 * siblings (one project's roles for another's, one organization for another) leaves step.
 */
interface Real {
  readonly t: Conformance;
  readonly worlds: readonly World[];
}

/** The project a command's index points at: its world and its slot in the model's lists. */
function projectAt(real: Real, index: number): { w: World; k: number } {
  const k = index % real.worlds.length;
  return { w: real.worlds[k] as World, k };
}

const AnyData = z.record(z.string(), z.unknown());
const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

function step(model: Model, command: IdentityCommand): void {
  const applied = applyIdentity(model.state, command, Date.now());
  if (!applied.ok) throw new Error(`the model refused ${command.type}: ${applied.error.message}`);
  model.state = applied.state;
}

/**
 * Compares a user as the target shows it with the model. §4.6 leaves the update answer's
 * fields open, so only the fields the target shows are compared; with no answer at hand, a
 * name-only update (which changes nothing) reads the user back.
 */
async function expectUserInStep(
  m: Model,
  t: Conformance,
  w: World,
  userId: string,
  after: string,
  answer?: unknown,
) {
  const held = m.state.users[userId];
  let body = answer;
  if (body === undefined) {
    const res = await t.http.put(userPath(w, userId), {
      ...w.creds(),
      name: held?.name,
    });
    body = expectSuccess(res, AnyData, `reading back the user after ${after}`);
  } else body = (body as { data?: unknown }).data;
  const data = AnyData.parse(body);
  const shown = (['userRoleId', 'projectOrganizationId', 'properties'] as const).filter(
    (k) => k in data,
  );
  if (shown.length === 0) {
    t.notRun(
      'the target shows none of userRoleId, projectOrganizationId, properties in the user update answer (§4.6)',
    );
  }
  for (const key of shown) {
    if (key in data) expect(data[key], `the user's ${key} after ${after}`).toEqual(held?.[key]);
  }
}

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

class CreateRole implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly permissions: RolePermissions,
  ) {}
  check = (m: Readonly<Model>) => m.roles.flat().length < 8;
  async run(m: Model, real: Real) {
    const { w, k } = projectAt(real, this.project);
    const role = await createRole(real.t, w, this.permissions);
    m.roles[k]?.push(role.id);
    const { projectId } = w;
    step(m, {
      type: 'createRole',
      projectId,
      roleId: role.id,
      name: role.name,
      permissions: this.permissions,
    });
  }
  toString = () =>
    `hook: create role in project#${this.project} ${JSON.stringify(this.permissions)}`;
}

class UpdateRole implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly index: number,
    readonly permissions: RolePermissions | undefined,
    readonly name: string | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.roles.flat().length > 0;
  async run(m: Model, real: Real) {
    const { t } = real;
    const { w, k } = projectAt(real, this.project);
    const roleId = pick(m.roles[k] ?? [], this.index);
    if (roleId === undefined) return;
    const body = {
      ...w.creds(),
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.permissions === undefined ? {} : { permissions: this.permissions }),
    };
    const res = await t.http.put(rolePath(w, roleId), body);
    const role = expectSuccess(res, ProjectUserRole, this.toString());
    step(m, {
      type: 'updateRole',
      projectId: w.projectId,
      roleId,
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.permissions === undefined ? {} : { permissions: this.permissions }),
    });
    const expected = m.state.roles[roleId];
    expect(
      { name: role.name, permissions: role.permissions },
      'the answer is the role the model holds',
    ).toEqual({
      name: expected?.name,
      permissions: expected?.permissions,
    });
  }
  toString = () =>
    `PUT project#${this.project} role#${this.index} ${JSON.stringify({ name: this.name, permissions: this.permissions })}`;
}

class DeleteRole implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly index: number,
  ) {}
  check = (m: Readonly<Model>) => m.roles.flat().length > 0;
  async run(m: Model, real: Real) {
    const { w, k } = projectAt(real, this.project);
    const roles = m.roles[k] ?? [];
    const roleId = pick(roles, this.index);
    if (roleId === undefined) return;
    const res = await real.t.http.delete(rolePath(w, roleId), {
      query: w.creds(),
    });
    expectSuccess(res, z.object({ message: z.string() }), this.toString());
    roles.splice(roles.indexOf(roleId), 1);
    step(m, { type: 'deleteRole', projectId: w.projectId, roleId });
  }
  toString = () => `DELETE project#${this.project} role#${this.index}`;
}

class RegisterOrganization implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly externalId: string,
    readonly name: string,
  ) {}
  // Without decisions an externalId is used once in the whole account: whether it may name
  // an organization in two projects, or twice in one, is the reference's decision.
  check = (m: Readonly<Model>) => m.decisions || !m.externalIds.flat().includes(this.externalId);
  async run(m: Model, real: Real) {
    const { w, k } = projectAt(real, this.project);
    const res = await real.t.http.post(REGISTER_ORGANIZATION, {
      ...w.creds(),
      projectId: w.projectId,
      name: this.name,
      externalId: this.externalId,
    });
    const data = expectSuccess(
      res,
      z.object({ projectOrganizationId: Uuid, externalId: z.string() }),
      this.toString(),
    );
    step(m, {
      type: 'registerOrganization',
      projectId: w.projectId,
      newId: data.projectOrganizationId,
      name: this.name,
      externalId: this.externalId,
    });
    // Decision orgs.register.external-id-upsert (an externalId names one organization of a project)
    // only binds the reference.
    if (m.decisions) {
      const held = Object.values(m.state.organizations).find(
        (o) => o.projectId === w.projectId && o.externalId === this.externalId,
      );
      expect(data.projectOrganizationId, 'the same externalId names the same organization').toBe(
        held?.projectOrganizationId,
      );
    }
    const known = m.externalIds[k] ?? [];
    if (!known.includes(this.externalId)) known.push(this.externalId);
  }
  toString = () => `POST register-organization project#${this.project} ${this.externalId}`;
}

class RegisterUser implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly role: number | null,
    readonly organization: number | null,
    readonly properties: Record<string, string>,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const { t } = real;
    const { w, k } = projectAt(real, this.project);
    const users = m.users[k] ?? [];
    const roleId = this.role === null ? undefined : pick(m.roles[k] ?? [], this.role);
    const externalId =
      this.organization === null ? undefined : pick(m.externalIds[k] ?? [], this.organization);
    const name = `user ${k}.${users.length}`;
    const res = await t.http.post(REGISTER_USER, {
      ...w.creds(),
      projectId: w.projectId,
      name,
      properties: this.properties,
      ...(roleId === undefined ? {} : { userRoleId: roleId }),
      ...(externalId === undefined ? {} : { projectOrganizationId: externalId }),
    });
    const { userId } = expectSuccess(
      res,
      z.object({ userId: Uuid, message: z.string() }),
      this.toString(),
    );
    users.push(userId);
    step(m, {
      type: 'registerUser',
      projectId: w.projectId,
      userId,
      name,
      properties: this.properties,
      ...(roleId === undefined ? {} : { userRoleId: roleId }),
      ...(externalId === undefined ? {} : { projectOrganizationId: externalId }),
    });
    await expectUserInStep(m, t, w, userId, this.toString());
  }
  toString = () =>
    `POST register-user project#${this.project} role#${String(this.role)} org#${String(this.organization)}`;
}

class UpdateUser implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly project: number,
    readonly index: number,
    /** undefined: leave the role; null: remove it; a number: that role of the user's project. */
    readonly role: number | null | undefined,
    readonly properties: Record<string, string> | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.users.flat().length > 0;
  async run(m: Model, real: Real) {
    const { t } = real;
    const { w, k } = projectAt(real, this.project);
    const userId = pick(m.users[k] ?? [], this.index);
    if (userId === undefined) return;
    const current = m.state.users[userId];
    const userRoleId =
      typeof this.role === 'number' ? pick(m.roles[k] ?? [], this.role) : this.role;
    if (typeof this.role === 'number' && userRoleId === undefined) return;
    const fields = {
      name: current?.name ?? 'someone',
      ...(userRoleId === undefined ? {} : { userRoleId }),
      ...(this.properties === undefined ? {} : { properties: this.properties }),
    };
    const res = await t.http.put(userPath(w, userId), {
      ...w.creds(),
      ...fields,
    });
    expectSuccess(res, AnyData, this.toString());
    step(m, { type: 'updateUser', projectId: w.projectId, userId, ...fields });
    await expectUserInStep(m, t, w, userId, this.toString(), res.body);
  }
  toString = () =>
    `PUT project#${this.project} user#${this.index} role=${this.role === undefined ? 'absent' : String(this.role)} properties=${JSON.stringify(this.properties)}`;
}

class ListRoles implements fc.AsyncCommand<Model, Real> {
  constructor(readonly project: number) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const { w } = projectAt(real, this.project);
    const res = await real.t.http.get(rolesPath(w), {
      query: w.creds(),
    });
    const listed = expectSuccess(res, UserRoles, this.toString()).userRoles;
    const shape = (r: { id: string; name: string; permissions: unknown }) => ({
      id: r.id,
      name: r.name,
      permissions: r.permissions,
    });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(
      listed.map(shape).sort(byId),
      'the listed roles are the roles the model holds for this project',
    ).toEqual(rolesOf(m.state, w.projectId).map(shape).sort(byId));
  }
  toString = () => `GET project#${this.project} user-roles`;
}

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
  {
    maxKeys: 2,
  },
);
const index = fc.nat({ max: 7 });
/** Which project of the world a command acts in (taken modulo the world's projects). */
const project = fc.nat({ max: 2 });

const commands = [
  fc.tuple(project, flagSet).map(([j, p]) => new CreateRole(j, p)),
  fc
    .tuple(
      project,
      index,
      fc.option(flagSet, { nil: undefined }),
      fc.option(fc.constantFrom('Editors', 'Viewers'), { nil: undefined }),
    )
    .map(([j, i, p, n]) => new UpdateRole(j, i, p, n)),
  fc.tuple(project, index).map(([j, i]) => new DeleteRole(j, i)),
  fc
    .tuple(
      project,
      fc.constantFrom('acme', 'globex', 'initech', 'umbrella'),
      fc.constantFrom('Acme', 'Globex Ltd'),
    )
    .map(([j, e, n]) => new RegisterOrganization(j, e, n)),
  fc
    .tuple(project, fc.option(index, { nil: null }), fc.option(index, { nil: null }), props)
    .map(([j, r, o, p]) => new RegisterUser(j, r, o, p)),
  fc
    .tuple(
      project,
      index,
      fc.oneof(fc.constant(undefined), fc.constant(null), index),
      fc.option(props, { nil: undefined }),
    )
    .map(([j, u, r, p]) => new UpdateUser(j, u, r, p)),
  project.map((j) => new ListRoles(j)),
];

/** The account's projects for one run: the world's own, then new ones (hook, or listed in a credentials file). */
async function projectsOf(t: Conformance, w: World, count: number): Promise<World[]> {
  const ids = [w.projectId];
  while (ids.length < count) {
    ids.push(
      (await t.hooks.createProject(w.account.organizationId, `model ${ids.length}`)).projectId,
    );
  }
  return ids.map((id) => inProject(w, id));
}

conformance(
  [
    'states.role.update-replaces',
    'states.user.role-deleted',
    'roles.delete.users-lose-role',
    'users.update.properties-replace',
    'users.update.role-null-removes',
    'users.register.organization-by-external-id',
    'roles.list.response-shape',
  ],
  'random sequences of identity calls keep the target in step with the identity machine',
  async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.commands(commands, { maxCommands: 25 }),
        async (projectCount, cmds) => {
          const w = await buildWorld(t);
          // The model holds every role of its projects, so they must hold nothing else.
          expectOwnProject(t, w);
          const worlds = await projectsOf(t, w, projectCount);
          const model: Model = {
            state: emptyIdentity(w.account.organizationId),
            roles: worlds.map(() => []),
            users: worlds.map(() => []),
            externalIds: worlds.map(() => []),
            decisions: t.target.checkDecisions,
          };
          for (const [k, world] of worlds.entries())
            step(model, { type: 'createProject', projectId: world.projectId, name: `model ${k}` });
          await fc.asyncModelRun(() => ({ model, real: { t, worlds } }), cmds);
        },
      ),
      t.fc(30),
    );
  },
  {
    needs: ['accounts', 'projects', 'roles'],
    // Users are compared through the update answer, and an update that leaves userRoleId out
    // keeps the role: both our decisions (§4.6). Against the reference, an externalId sent
    // again names the same organization (decision; other targets never send one twice).
    relies: [
      'users.update.response-fields',
      'users.update.absent-fields-unchanged',
      'orgs.register.external-id-upsert',
    ],
    timeout: 120_000,
  },
);
