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
import { buildWorld, createRole, type World } from '../../fixtures/world.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';

// Model-based (STYLE 7): random sequences of identity calls run against the target and, in
// step, against the pure identity machine of spec/machines, which is the oracle. After each
// step what the target shows must be what the model holds.

interface Model {
  state: IdentityState;
  /** Ids the target issued, in creation order, so commands can point at them by index. */
  readonly roles: string[];
  readonly users: string[];
  readonly externalIds: string[];
  /** Whether decisions bind the target; if not, no step leans on one (e.g. externalId upsert). */
  readonly decisions: boolean;
}

interface Real {
  readonly t: Conformance;
  readonly w: World;
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
    const res = await t.http.put(`/v1/api/projects/${w.projectId}/users/${userId}`, {
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
  constructor(readonly permissions: RolePermissions) {}
  check = (m: Readonly<Model>) => m.roles.length < 5;
  async run(m: Model, { t, w }: Real) {
    const role = await createRole(t, w, this.permissions);
    m.roles.push(role.id);
    const { projectId } = w;
    step(m, {
      type: 'createRole',
      projectId,
      roleId: role.id,
      name: role.name,
      permissions: this.permissions,
    });
  }
  toString = () => `hook: create role ${JSON.stringify(this.permissions)}`;
}

class UpdateRole implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly permissions: RolePermissions | undefined,
    readonly name: string | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.roles.length > 0;
  async run(m: Model, { t, w }: Real) {
    const roleId = pick(m.roles, this.index) ?? '';
    const body = {
      ...w.creds(),
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.permissions === undefined ? {} : { permissions: this.permissions }),
    };
    const res = await t.http.put(`/v1/api/projects/${w.projectId}/user-roles/${roleId}`, body);
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
    `PUT role#${this.index} ${JSON.stringify({ name: this.name, permissions: this.permissions })}`;
}

class DeleteRole implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.roles.length > 0;
  async run(m: Model, { t, w }: Real) {
    const roleId = pick(m.roles, this.index) ?? '';
    const res = await t.http.delete(`/v1/api/projects/${w.projectId}/user-roles/${roleId}`, {
      query: w.creds(),
    });
    expectSuccess(res, z.object({ message: z.string() }), this.toString());
    m.roles.splice(m.roles.indexOf(roleId), 1);
    step(m, { type: 'deleteRole', projectId: w.projectId, roleId });
  }
  toString = () => `DELETE role#${this.index}`;
}

class RegisterOrganization implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly externalId: string,
    readonly name: string,
  ) {}
  check = (m: Readonly<Model>) => m.decisions || !m.externalIds.includes(this.externalId);
  async run(m: Model, { t, w }: Real) {
    const res = await t.http.post('/v1/api/projects/register-organization', {
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
    // Decision O2 (an externalId names one organization) only binds the reference.
    if (m.decisions) {
      const held = Object.values(m.state.organizations).find(
        (o) => o.externalId === this.externalId,
      );
      expect(data.projectOrganizationId, 'the same externalId names the same organization').toBe(
        held?.projectOrganizationId,
      );
    }
    if (!m.externalIds.includes(this.externalId)) m.externalIds.push(this.externalId);
  }
  toString = () => `POST register-organization ${this.externalId}`;
}

class RegisterUser implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly role: number | null,
    readonly organization: number | null,
    readonly properties: Record<string, string>,
  ) {}
  check = () => true;
  async run(m: Model, { t, w }: Real) {
    const roleId = this.role === null ? undefined : pick(m.roles, this.role);
    const externalId =
      this.organization === null ? undefined : pick(m.externalIds, this.organization);
    const res = await t.http.post('/v1/api/projects/register-user', {
      ...w.creds(),
      projectId: w.projectId,
      name: `user ${m.users.length}`,
      properties: this.properties,
      ...(roleId === undefined ? {} : { userRoleId: roleId }),
      ...(externalId === undefined ? {} : { projectOrganizationId: externalId }),
    });
    const { userId } = expectSuccess(
      res,
      z.object({ userId: Uuid, message: z.string() }),
      this.toString(),
    );
    m.users.push(userId);
    step(m, {
      type: 'registerUser',
      projectId: w.projectId,
      userId,
      name: `user ${m.users.length - 1}`,
      properties: this.properties,
      ...(roleId === undefined ? {} : { userRoleId: roleId }),
      ...(externalId === undefined ? {} : { projectOrganizationId: externalId }),
    });
    await expectUserInStep(m, t, w, userId, this.toString());
  }
  toString = () => `POST register-user role#${String(this.role)} org#${String(this.organization)}`;
}

class UpdateUser implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    /** undefined: leave the role; null: remove it; a number: that role. */
    readonly role: number | null | undefined,
    readonly properties: Record<string, string> | undefined,
  ) {}
  check = (m: Readonly<Model>) =>
    m.users.length > 0 && (typeof this.role !== 'number' || m.roles.length > 0);
  async run(m: Model, { t, w }: Real) {
    const userId = pick(m.users, this.index) ?? '';
    const current = m.state.users[userId];
    const userRoleId = typeof this.role === 'number' ? pick(m.roles, this.role) : this.role;
    const fields = {
      name: current?.name ?? 'someone',
      ...(userRoleId === undefined ? {} : { userRoleId }),
      ...(this.properties === undefined ? {} : { properties: this.properties }),
    };
    const res = await t.http.put(`/v1/api/projects/${w.projectId}/users/${userId}`, {
      ...w.creds(),
      ...fields,
    });
    expectSuccess(res, AnyData, this.toString());
    step(m, { type: 'updateUser', projectId: w.projectId, userId, ...fields });
    await expectUserInStep(m, t, w, userId, this.toString(), res.body);
  }
  toString = () =>
    `PUT user#${this.index} role=${this.role === undefined ? 'absent' : String(this.role)} properties=${JSON.stringify(this.properties)}`;
}

class ListRoles implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, { t, w }: Real) {
    const res = await t.http.get(`/v1/api/projects/${w.projectId}/user-roles`, {
      query: w.creds(),
    });
    const listed = expectSuccess(res, UserRoles, this.toString()).userRoles;
    const shape = (r: { id: string; name: string; permissions: unknown }) => ({
      id: r.id,
      name: r.name,
      permissions: r.permissions,
    });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(listed.map(shape).sort(byId), 'the listed roles are the roles the model holds').toEqual(
      rolesOf(m.state, w.projectId).map(shape).sort(byId),
    );
  }
  toString = () => 'GET user-roles';
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

const commands = [
  flagSet.map((p) => new CreateRole(p)),
  fc
    .tuple(
      index,
      fc.option(flagSet, { nil: undefined }),
      fc.option(fc.constantFrom('Editors', 'Viewers'), { nil: undefined }),
    )
    .map(([i, p, n]) => new UpdateRole(i, p, n)),
  index.map((i) => new DeleteRole(i)),
  fc
    .tuple(fc.constantFrom('acme', 'globex', 'initech'), fc.constantFrom('Acme', 'Globex Ltd'))
    .map(([e, n]) => new RegisterOrganization(e, n)),
  fc
    .tuple(fc.option(index, { nil: null }), fc.option(index, { nil: null }), props)
    .map(([r, o, p]) => new RegisterUser(r, o, p)),
  fc
    .tuple(
      index,
      fc.oneof(fc.constant(undefined), fc.constant(null), index),
      fc.option(props, { nil: undefined }),
    )
    .map(([u, r, p]) => new UpdateUser(u, r, p)),
  fc.constant(new ListRoles()),
];

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
      fc.asyncProperty(fc.commands(commands, { maxCommands: 20 }), async (cmds) => {
        const w = await buildWorld(t);
        const model: Model = {
          state: emptyIdentity(w.account.organizationId),
          roles: [],
          users: [],
          externalIds: [],
          decisions: t.target.checkDecisions,
        };
        step(model, { type: 'createProject', projectId: w.projectId, name: 'model' });
        await fc.asyncModelRun(() => ({ model, real: { t, w } }), cmds);
      }),
      t.fc(30),
    );
  },
  {
    needs: ['accounts', 'projects', 'roles'],
    // Users are compared through the update answer, and an update that leaves userRoleId out
    // keeps the role: both our decisions (§4.6).
    relies: ['users.update.response-fields', 'users.update.absent-fields-unchanged'],
    timeout: 120_000,
  },
);
