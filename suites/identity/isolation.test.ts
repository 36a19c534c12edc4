import { expect } from 'vitest';
import type { ClauseId } from '../../spec/clauses/index.ts';
import type { HookName } from '../../spec/schemas/hooks.ts';
import { Token } from '../../spec/schemas/token.ts';
import { externalId } from '../harness/builders.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import {
  inCarrier,
  send,
  sendWatched,
  type Carry,
  type Watch,
} from '../harness/credential-table.ts';
import * as request from '../harness/endpoints.ts';
import type { Request } from '../harness/endpoints.ts';
import type { Reply } from '../harness/http.ts';
import { APPLICATIONS } from '../harness/paths.ts';
import { API_KEY, v2Get } from '../harness/given/v2.ts';
import { organizationExists, roleList, userAsTokenShows, userExists } from '../harness/readback.ts';
import { describeAnswer, expectSuccess, refusedAs } from '../harness/expect.ts';
import { cause } from '../harness/causes.ts';
import { mentionsId } from '../harness/ids.ts';

// §5 rules 2 and 3: a caller acts on its own account only. Account A's credentials aimed at
// account B's project, role, user or project organization are refused, show nothing of B and
// leave A and B as they were. B always holds data (a role where the hook allows, a project
// organization, a user), so a leak or a write would be visible. Every trespass is a row of
// the endpoint table; every credential of A is a column (STYLE 14).

/** What B holds before any trespass: a project organization and a user, at least. */
interface Victim {
  readonly world: World;
  /** Names and ids of B's data; an answer to A holding one leaks B's data. */
  readonly secrets: readonly string[];
}

/** A request of A naming something of B. */
interface Aimed {
  readonly req: Request;
  /** Things of B the request does not name. */
  readonly secrets: readonly string[];
  /** Reads, each with its account's own key, what the request would change in A or B. */
  readonly reads: readonly (() => Promise<string>)[];
}

interface Trespass {
  readonly name: string;
  readonly needs: readonly HookName[];
  /** Unspecified clauses the request or its reads lean on (field names, token contents). */
  readonly relies: readonly ClauseId[];
  readonly aim: (t: Conformance, a: World, b: World) => Promise<Aimed>;
}

const trespasses: readonly Trespass[] = [
  {
    name: 'a role update of B\u2019s role',
    needs: ['roles'],
    relies: [],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b, { addChart: true });
      return {
        req: request.roleUpdate(t, b, role.id),
        secrets: [role.name],
        reads: [() => roleList(t, b)],
      };
    },
  },
  {
    name: 'a role list of B\u2019s project',
    needs: ['roles'],
    relies: [],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b);
      return { req: request.roleList(b), secrets: [role.id, role.name], reads: [] };
    },
  },
  {
    name: 'a role delete of B\u2019s role',
    needs: ['roles'],
    relies: [],
    aim: async (t, _a, b) => {
      const role = await createRole(t, b);
      return {
        req: request.roleDelete(b, role.id),
        secrets: [role.name],
        reads: [() => roleList(t, b)],
      };
    },
  },
  {
    name: 'register-organization into B\u2019s project',
    needs: [],
    relies: [],
    aim: (t, _a, b) => {
      const ext = externalId(t.faker);
      return Promise.resolve({
        req: request.registerOrganization(t, b, ext),
        secrets: [],
        reads: [() => organizationExists(t, b, ext)],
      });
    },
  },
  {
    name: 'register-user into B\u2019s project',
    needs: [],
    relies: [],
    aim: (t, _a, b) => {
      const userId = t.faker.string.uuid();
      return Promise.resolve({
        req: request.registerUser(t, b, { userId }),
        secrets: [],
        reads: [() => userExists(t, b, userId)],
      });
    },
  },
  {
    name: 'a user update of B\u2019s user',
    needs: [],
    relies: ['tokens.claims'],
    aim: async (t, _a, b) => {
      const { userId, body } = await registerUser(t, b);
      return {
        req: request.userUpdate(b, userId, {
          name: `intruder ${t.faker.string.alphanumeric(8)}`,
          properties: { tier: 'revoked' },
        }),
        secrets: [body.name],
        reads: [() => userAsTokenShows(t, b, userId)],
      };
    },
  },
  {
    name: 'a user-token for B\u2019s user',
    needs: [],
    relies: [],
    aim: async (t, _a, b) => {
      const { userId, body } = await registerUser(t, b);
      return { req: request.userToken(userId), secrets: [body.name], reads: [] };
    },
  },
  {
    name: 'an embed-token into B\u2019s project',
    needs: [],
    relies: ['tokens.embed-token.body-shape'],
    aim: (t, _a, b) => {
      const ext = externalId(t.faker);
      const userId = t.faker.string.uuid();
      return Promise.resolve({
        req: request.embedToken(t, b, ext, { userId }),
        secrets: [],
        reads: [() => organizationExists(t, b, ext), () => userExists(t, b, userId)],
      });
    },
  },
  {
    name: 'register-user in A\u2019s project holding B\u2019s role',
    needs: ['roles'],
    relies: [],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      const userId = t.faker.string.uuid();
      return {
        req: request.registerUser(t, a, { userId, userRoleId: role.id }),
        secrets: [role.name],
        reads: [() => userExists(t, a, userId)],
      };
    },
  },
  {
    name: 'register-user in A\u2019s project under B\u2019s project organization',
    needs: [],
    relies: [],
    aim: async (t, a, b) => {
      const org = await registerOrganization(t, b);
      const userId = t.faker.string.uuid();
      return {
        req: request.registerUser(t, a, {
          userId,
          projectOrganizationId: org.projectOrganizationId,
        }),
        secrets: [org.name, org.externalId],
        reads: [() => userExists(t, a, userId)],
      };
    },
  },
  {
    name: 'a user update in A\u2019s project giving B\u2019s role',
    needs: ['roles'],
    relies: ['tokens.claims'],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      const { userId, body } = await registerUser(t, a);
      return {
        req: request.userUpdate(a, userId, { name: body.name, userRoleId: role.id }),
        secrets: [role.name],
        reads: [() => userAsTokenShows(t, a, userId)],
      };
    },
  },
  {
    name: 'a user update in A\u2019s project moving to B\u2019s project organization',
    needs: [],
    relies: ['tokens.claims'],
    aim: async (t, a, b) => {
      const org = await registerOrganization(t, b);
      const { userId, body } = await registerUser(t, a);
      return {
        req: request.userUpdate(a, userId, {
          name: body.name,
          projectOrganizationId: org.projectOrganizationId,
        }),
        secrets: [org.name, org.externalId],
        reads: [() => userAsTokenShows(t, a, userId)],
      };
    },
  },
  {
    name: 'an embed-token into A\u2019s project holding B\u2019s role',
    needs: ['roles'],
    relies: ['tokens.embed-token.body-shape'],
    aim: async (t, a, b) => {
      const role = await createRole(t, b, { addChart: true });
      const ext = externalId(t.faker);
      const userId = t.faker.string.uuid();
      return {
        req: request.embedToken(t, a, ext, { userId, userRoleId: role.id }),
        secrets: [role.name],
        reads: [() => organizationExists(t, a, ext), () => userExists(t, a, userId)],
      };
    },
  },
];

/** One of A's credentials: a column. */
interface Credential {
  readonly label: string;
  /** What demands the refusal besides the security clause (§5 rule 2 for A's keys). */
  readonly must: readonly ClauseId[];
  /** The unspecified clauses on the exact answer, and whether a reply is their decision. */
  readonly answer: {
    readonly clauses: readonly ClauseId[];
    readonly decided: (res: Reply) => boolean;
  };
  readonly carry: (t: Conformance, a: World, req: Request) => Promise<Carry>;
}

const credentials: readonly Credential[] = [
  {
    label: 'A\u2019s organization-bound key',
    must: ['auth.organization-id.customer-org'],
    answer: {
      clauses: ['auth.isolation.other-account'],
      decided: (res) => refusedAs(res, 404, 'NOT_FOUND'),
    },
    carry: (_t, a, req) => Promise.resolve(inCarrier(req.endpoint, a.creds('org-bound'))),
  },
  {
    label: 'A\u2019s user-scoped key',
    must: ['auth.organization-id.customer-org'],
    answer: {
      clauses: ['auth.isolation.other-account'],
      decided: (res) => refusedAs(res, 404, 'NOT_FOUND'),
    },
    carry: (_t, a, req) => Promise.resolve(inCarrier(req.endpoint, a.creds('user-scoped'))),
  },
  {
    label: 'a project-user token of A',
    must: [],
    // Decision auth.identity.carriers-only: identity endpoints read no authorization header, so the
    // token is refused as a misplaced credential before anything of B is looked at.
    answer: {
      clauses: ['auth.identity.carriers-only'],
      decided: (res) => refusedAs(res, 401, 'UNAUTHORIZED'),
    },
    carry: async (t, a) => {
      const { userId } = await registerUser(t, a);
      const { token } = expectSuccess(
        await userToken(t, a, userId),
        Token.pick({ token: true }),
        'issuing A\u2019s project-user token',
      );
      return { header: `Bearer ${token}` };
    },
  },
];

/** B with data a leak would show: a project organization and a user. */
async function victim(t: Conformance): Promise<Victim> {
  const world = await buildWorld(t);
  const org = await registerOrganization(t, world);
  const user = await registerUser(t, world, {
    projectOrganizationId: org.projectOrganizationId,
    properties: { region: 'b-only', secret: t.faker.string.alphanumeric(16) },
  });
  return {
    world,
    secrets: [
      world.account.organizationId,
      org.projectOrganizationId,
      org.externalId,
      org.name,
      user.userId,
      user.body.name,
      String(user.body.properties['secret']),
    ],
  };
}

/** One cell: A, B, the request and A's credential on it. */
async function stage(t: Conformance, row: Trespass, cred: Credential) {
  const a = await buildWorld(t);
  const b = await victim(t);
  const aimed = await row.aim(t, a, b.world);
  const carry = await cred.carry(t, a, aimed.req);
  const secrets = [...b.secrets, ...aimed.secrets];
  const watch: Watch = { reads: aimed.reads, accounts: [a, b.world] };
  return { aimed, carry, secrets, watch };
}

const needsOf = (row: Trespass): HookName[] => ['accounts', 'projects', ...row.needs];

for (const row of trespasses) {
  const relies = [...row.relies];
  for (const cred of credentials) {
    const what = `${row.name} with ${cred.label}`;
    conformance(
      [...cred.must, 'auth.isolation.other-account-refused', 'auth.isolation.no-foreign-data'],
      `${what} is refused and shows nothing of B`,
      async (t) => {
        const { aimed, carry, secrets } = await stage(t, row, cred);
        const res = await send(t, aimed.req, carry);
        expect(
          res.status,
          `${what} must be refused, never answered: got ${res.status} ${res.text.slice(0, 300)}`,
        ).toBeGreaterThanOrEqual(400);
        for (const secret of secrets)
          expect(
            mentionsId(res.text, secret),
            `the refusal must not show anything of B it did not name (${secret})`,
          ).toBe(false);
      },
      { needs: needsOf(row), relies },
    );

    conformance(
      ['auth.isolation.refused-changes-nothing'],
      `${what} leaves A and B as they were`,
      async (t) => {
        const { aimed, carry, watch } = await stage(t, row, cred);
        if (aimed.reads.length === 0 && !t.hooks.has('snapshot'))
          t.notRun(
            `no API call reads back what ${row.name} changes, and the target has no snapshot hook`,
            cause.hook('snapshot'),
          );
        const res = await sendWatched(t, aimed.req, carry, watch, what);
        if (res.status < 400)
          t.notRun(
            `the target accepted the request (${res.status}); there is no refusal to check`,
            cause.other('the target accepted the request'),
          );
      },
      { needs: needsOf(row), relies },
    );

    probe(
      cred.answer.clauses,
      `the answer to ${what}`,
      async (t) => {
        const { aimed, carry } = await stage(t, row, cred);
        const res = await send(t, aimed.req, carry);
        t.observe(describeAnswer(res), cred.answer.decided(res));
      },
      { needs: needsOf(row), relies },
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

// v2 is where applications live (§4.16, §9); a target must serve it, and B must really hold
// an application (made by migrating a workspace) for its absence from A's answer to mean
// anything.
conformance(
  ['auth.isolation.no-foreign-data'],
  'a project-user token lists none of another account\u2019s applications, even naming its organization',
  async (t) => {
    const a = await buildWorld(t);
    const b = await buildWorld(t);
    const orgB = b.account.organizationId;
    await hookData(
      t.http.post(
        `/accounts/${orgB}/workspaces`,
        { name: `workspace ${t.faker.string.alphanumeric(8)}`, projectId: b.projectId },
        { base: 'hooks' },
      ),
      'workspaces',
    );
    const migration = await hookData<{ applications: { applicationId: string }[] }>(
      t.http.post(`/accounts/${orgB}/migration/finalize`, {}, { base: 'hooks' }),
      'migration',
    );
    const ids = migration.applications.map((app) => app.applicationId);
    const theirs = await v2Get(t, b, APPLICATIONS, API_KEY);
    if (ids.length === 0 || !ids.every((id) => mentionsId(theirs.text, id))) {
      t.notRun(
        'B\u2019s own key does not list the applications its migration made, so a leak to A could not be seen',
      );
    }
    const { userId } = await registerUser(t, a);
    const { token } = expectSuccess(
      await userToken(t, a, userId),
      Token.pick({ token: true }),
      'issuing A\u2019s project-user token',
    );
    const mine = await t.http.get(APPLICATIONS, {
      query: { organizationId: orgB },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      mine.status,
      `A's token should get an answer, not a server error: ${mine.text.slice(0, 300)}`,
    ).toBeLessThan(500);
    for (const id of ids)
      expect(mentionsId(mine.text, id), 'A\u2019s token must not list B\u2019s application').toBe(
        false,
      );
  },
  { needs: ['accounts', 'projects', 'workspaces', 'migration'], parts: ['v2'] },
);
