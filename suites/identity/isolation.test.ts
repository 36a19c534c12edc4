import { expect } from 'vitest';
import { z } from 'zod';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { externalId, organizationName, personName, properties } from '../../fixtures/builders.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { roleList, userExists, organizationExists, storedUser } from '../harness/readback.ts';
import { rolesPath, rolePath, userPath } from '../harness/paths.ts';
import type { Reply } from '../harness/http.ts';
import { describeAnswer, expectSuccess, refusedAs } from '../harness/expect.ts';

// §5 rules 2 and 3: a caller acts on its own account only. Account A's credentials aimed at
// account B's project, role, user or project organization get an error, never B's data, and
// leave B as it was. Every trespass is a row; every credential of A is a column (STYLE 14).

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** §5 table: POST and PUT carry the key in the JSON body, GET and DELETE in the query. */
type Place = 'body' | 'query';

/** A request of A naming something of B. */
interface Aimed {
  readonly path: string;
  /** The JSON body of a POST or PUT, credentials left out. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Things of B the request does not name; an answer holding one leaks B's data. */
  readonly secrets: readonly string[];
  /** Reads, with B's own key, the part of B the request would change. */
  readonly state?: () => Promise<string>;
}

interface Trespass {
  readonly name: string;
  readonly method: Method;
  readonly place: Place;
  readonly needs: readonly HookName[];
  readonly aim: (t: Conformance, a: World, b: World) => Promise<Aimed>;
}

const intruder = (t: Conformance) => `intruder ${t.faker.string.alphanumeric(8)}`;

const trespasses: readonly Trespass[] = [
  {
    name: 'a role update of B\u2019s role',
    method: 'PUT',
    place: 'body',
    needs: ['roles'],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b, { addChart: true });
      const fields = { name: intruder(t), permissions: { readOnly: true } };
      return {
        path: rolePath(b, role.id),
        fields,
        secrets: [role.name, b.account.organizationId],
        state: () => roleList(t, b),
      };
    },
  },
  {
    name: 'a role list of B\u2019s project',
    method: 'GET',
    place: 'query',
    needs: ['roles'],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b);
      return {
        path: rolesPath(b),
        fields: {},
        secrets: [role.id, role.name, b.account.organizationId],
      };
    },
  },
  {
    name: 'a role delete of B\u2019s role',
    method: 'DELETE',
    place: 'query',
    needs: ['roles'],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b);
      return {
        path: rolePath(b, role.id),
        fields: {},
        secrets: [role.name, b.account.organizationId],
        state: () => roleList(t, b),
      };
    },
  },
  {
    name: 'register-organization into B\u2019s project',
    method: 'POST',
    place: 'body',
    needs: [],
    aim: (t, _a, b) => {
      const ext = externalId(t.faker);
      return Promise.resolve({
        path: '/v1/api/projects/register-organization',
        fields: {
          projectId: b.projectId,
          name: organizationName(t.faker),
          externalId: ext,
          properties: properties(t.faker),
        },
        secrets: [b.account.organizationId],
        state: () => organizationExists(t, b, ext),
      });
    },
  },
  {
    name: 'register-user into B\u2019s project',
    method: 'POST',
    place: 'body',
    needs: [],
    aim: (t, _a, b) => {
      const userId = t.faker.string.uuid();
      return Promise.resolve({
        path: '/v1/api/projects/register-user',
        fields: { projectId: b.projectId, name: intruder(t), userId },
        secrets: [b.account.organizationId],
        state: () => userExists(t, b, userId),
      });
    },
  },
  {
    name: 'a user update of B\u2019s user',
    method: 'PUT',
    place: 'body',
    needs: [],
    aim: async (t, _a, b) => {
      const { userId, body } = await registerUser(t, b);
      return {
        path: userPath(b, userId),
        fields: { name: intruder(t), properties: { tier: 'revoked' } },
        secrets: [body.name, b.account.organizationId],
        state: () => storedUser(t, b, userId),
      };
    },
  },
  {
    name: 'a user-token for B\u2019s user',
    method: 'POST',
    place: 'body',
    needs: [],
    aim: async (t, _a, b) => {
      const { userId, body } = await registerUser(t, b);
      return {
        path: '/v1/api/projects/user-token',
        fields: { userId },
        secrets: [body.name, b.account.organizationId],
        state: () => storedUser(t, b, userId),
      };
    },
  },
  {
    name: 'an embed-token into B\u2019s project',
    method: 'POST',
    place: 'body',
    needs: [],
    aim: (t, _a, b) => {
      // Members of organization and user are the reference's decision T5 (§4.8 does not show them).
      const ext = externalId(t.faker);
      const userId = t.faker.string.uuid();
      return Promise.resolve({
        path: '/v1/api/projects/embed-token',
        fields: {
          projectId: b.projectId,
          organization: { externalId: ext, name: organizationName(t.faker) },
          user: { id: userId, name: intruder(t) },
        },
        secrets: [b.account.organizationId],
        state: async () =>
          `${await organizationExists(t, b, ext)}, ${await userExists(t, b, userId)}`,
      });
    },
  },
  {
    name: 'register-user in A\u2019s project holding B\u2019s role',
    method: 'POST',
    place: 'body',
    needs: ['roles'],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      return {
        path: '/v1/api/projects/register-user',
        fields: { projectId: a.projectId, name: personName(t.faker), userRoleId: role.id },
        secrets: [role.name, b.account.organizationId],
      };
    },
  },
  {
    name: 'register-user in A\u2019s project under B\u2019s project organization',
    method: 'POST',
    place: 'body',
    needs: [],
    aim: async (t, a, b) => {
      const org = await registerOrganization(t, b);
      return {
        path: '/v1/api/projects/register-user',
        fields: {
          projectId: a.projectId,
          name: personName(t.faker),
          projectOrganizationId: org.projectOrganizationId,
        },
        secrets: [org.name, org.externalId, b.account.organizationId],
      };
    },
  },
  {
    name: 'a user update in A\u2019s project giving B\u2019s role',
    method: 'PUT',
    place: 'body',
    needs: ['roles'],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      const { userId, body } = await registerUser(t, a);
      return {
        path: userPath(a, userId),
        fields: { name: body.name, userRoleId: role.id },
        secrets: [role.name, b.account.organizationId],
      };
    },
  },
  {
    name: 'a user update in A\u2019s project moving to B\u2019s project organization',
    method: 'PUT',
    place: 'body',
    needs: [],
    aim: async (t, a, b) => {
      const org = await registerOrganization(t, b);
      const { userId, body } = await registerUser(t, a);
      return {
        path: userPath(a, userId),
        fields: { name: body.name, projectOrganizationId: org.projectOrganizationId },
        secrets: [org.name, org.externalId, b.account.organizationId],
      };
    },
  },
  {
    name: 'an embed-token into A\u2019s project holding B\u2019s role',
    method: 'POST',
    place: 'body',
    needs: ['roles'],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      return {
        path: '/v1/api/projects/embed-token',
        fields: {
          projectId: a.projectId,
          organization: { externalId: externalId(t.faker), name: organizationName(t.faker) },
          user: { name: personName(t.faker), userRoleId: role.id },
        },
        secrets: [role.name, b.account.organizationId],
      };
    },
  },
];

/** Where A's credential rides on a request. */
interface Carry {
  readonly creds?: { apiKey: string; organizationId?: string };
  readonly header?: string;
}

interface Credential {
  readonly label: string;
  readonly clauses: ClauseId[];
  readonly carry: (t: Conformance, a: World) => Promise<Carry>;
  /** Whether a refusal is the recorded decision for this credential. */
  readonly decided: (res: Reply) => boolean;
}

const credentials: readonly Credential[] = [
  {
    label: 'A\u2019s organization-bound key',
    // §5 rule 2: a key acts for the account that owns it, never another.
    clauses: ['auth.isolation.other-account', 'auth.organization-id.customer-org'],
    carry: (_t, a) => Promise.resolve({ creds: { apiKey: a.account.orgBoundKey } }),
    decided: (res) => refusedAs(res, 404, 'NOT_FOUND'),
  },
  {
    label: 'A\u2019s user-scoped key',
    clauses: ['auth.isolation.other-account', 'auth.organization-id.customer-org'],
    carry: (_t, a) =>
      Promise.resolve({
        creds: { apiKey: a.account.userScopedKey, organizationId: a.account.organizationId },
      }),
    decided: (res) => refusedAs(res, 404, 'NOT_FOUND'),
  },
  {
    label: 'a project-user token of A',
    // Decision C6: identity endpoints read no authorization header, so the token is refused
    // as a misplaced credential before anything of B is looked at.
    clauses: ['auth.isolation.other-account', 'auth.identity.carriers-only'],
    carry: async (t, a) => {
      const { userId } = await registerUser(t, a);
      const res = await userToken(t, a, userId);
      const { token } = expectSuccess(
        res,
        z.object({ token: z.string() }),
        'issuing A\u2019s project-user token',
      );
      return { header: `Bearer ${token}` };
    },
    decided: (res) => refusedAs(res, 401, 'UNAUTHORIZED'),
  },
];

function fire(t: Conformance, row: Trespass, aimed: Aimed, carry: Carry): Promise<Reply> {
  const headers = carry.header === undefined ? {} : { headers: { authorization: carry.header } };
  if (row.place === 'body')
    return t.http.call(row.method, aimed.path, {
      body: { ...aimed.fields, ...carry.creds },
      ...headers,
    });
  return t.http.call(row.method, aimed.path, {
    ...(carry.creds === undefined ? {} : { query: carry.creds }),
    ...headers,
  });
}

for (const row of trespasses) {
  for (const cred of credentials) {
    probe(
      cred.clauses,
      `${row.name} with ${cred.label}`,
      async (t) => {
        const a = await buildWorld(t);
        const b = await buildWorld(t);
        const aimed = await row.aim(t, a, b);
        const carry = await cred.carry(t, a);
        const before = await aimed.state?.();
        const res = await fire(t, row, aimed, carry);
        expect(
          res.status,
          `${row.name} with ${cred.label} must be refused, never answered: got ${res.status} ${res.text.slice(0, 300)}`,
        ).toBeGreaterThanOrEqual(400);
        for (const secret of aimed.secrets) {
          expect(
            res.text,
            'the refusal must not show anything of B the request did not name',
          ).not.toContain(secret);
        }
        const after = await aimed.state?.();
        const kept = after === before;
        t.observe(
          `${describeAnswer(res)}${kept ? '' : `; B changed: ${before} -> ${after}`}`,
          cred.decided(res) && kept,
        );
      },
      { needs: ['accounts', 'projects', ...row.needs] },
    );
  }
}

/** A host hook answer's data (hooks: workspaces, migration), or a broken world. */
async function hookData<T>(res: Promise<Reply>, what: string): Promise<T> {
  const reply = await res;
  const data = (reply.body as { data?: T }).data;
  if (reply.status >= 300 || data === undefined)
    throw new Error(`host hook "${what}" failed: ${reply.status} ${reply.text.slice(0, 300)}`);
  return data;
}

conformance(
  ['auth.v2.user-token-own-space', 'auth.bearer.chat-and-v2'],
  'a project-user token lists none of another account\u2019s applications, even naming its organization',
  async (t) => {
    const a = await buildWorld(t);
    const b = await buildWorld(t);
    const orgB = b.account.organizationId;
    // §9: B gets an application only by migrating a workspace.
    await hookData(
      t.http.post(
        `/accounts/${orgB}/workspaces`,
        { name: intruder(t), projectId: b.projectId },
        { base: 'hooks' },
      ),
      'workspaces',
    );
    const migration = await hookData<{ applications: { applicationId: string }[] }>(
      t.http.post(`/accounts/${orgB}/migration/finalize`, {}, { base: 'hooks' }),
      'migration',
    );
    const ids = migration.applications.map((app) => app.applicationId);
    const theirs = await t.http.get('/v2/api/applications', { query: b.creds() });
    if (ids.length === 0 || !ids.every((id) => theirs.text.includes(id))) {
      t.notRun(
        'B\u2019s own key does not list the applications its migration made, so a leak to A could not be seen',
      );
    }
    const { userId } = await registerUser(t, a);
    const issued = await userToken(t, a, userId);
    const { token } = expectSuccess(
      issued,
      z.object({ token: z.string() }),
      'issuing A\u2019s project-user token',
    );
    const mine = await t.http.get('/v2/api/applications', {
      query: { organizationId: orgB },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      mine.status,
      `A's token should get an answer, not a server error: ${mine.text.slice(0, 300)}`,
    ).toBeLessThan(500);
    for (const id of ids)
      expect(mine.text, 'A\u2019s token must not list B\u2019s application').not.toContain(id);
  },
  { needs: ['accounts', 'projects', 'workspaces', 'migration'] },
);
