import { expect } from 'vitest';
import { z } from 'zod';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import type { ClauseId } from '../../spec/clauses/index.ts';
import {
  buildRichWorld,
  registerUser,
  userToken,
  type RichProject,
  type RichShape,
  type RichUser,
} from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { embedAnswer, embedToken } from '../harness/endpoints.ts';
import { expectClientError, expectSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { claimAt, claimsOf } from '../harness/jwt.ts';
import { REGISTER_USER, rolePath, rolesPath, userPath } from '../harness/paths.ts';
import {
  accountSnapshot,
  roleList,
  storedReference,
  userAsTokenShows,
} from '../harness/readback.ts';
import { cause } from '../harness/causes.ts';

// Worlds with siblings of every kind (issue 6 part 9): two projects in one account, two
// project organizations per project, two users per organization, two roles per project that
// the users hold in turn. A server that answers with one sibling for another fails here.

const SHAPE: RichShape = {
  projects: 2,
  organizationsPerProject: 2,
  usersPerOrganization: 2,
  roles: [{ addChart: true, editCharts: true }, { readOnly: true }],
};
const UserRoles = z.object({ userRoles: z.array(ProjectUserRole) });

conformance(
  ['roles.list.path'],
  'a project’s role list holds its own roles and none of a sibling project’s',
  async (t) => {
    const rich = await buildRichWorld(t, SHAPE);
    for (const project of rich.projects) {
      const res = await t.http.get(rolesPath(project), { query: project.world.creds() });
      const listed = expectSuccess(
        res,
        UserRoles,
        `listing the roles of project ${project.projectId}`,
      ).userRoles.map((r) => r.id);
      const own = project.roles.map((r) => r.id);
      const siblings = rich.projects
        .filter((p) => p.projectId !== project.projectId)
        .flatMap((p) => p.roles.map((r) => r.id));
      expect(listed, `project ${project.projectId} lists the roles made in it`).toEqual(
        expect.arrayContaining(own),
      );
      expect(
        listed.filter((id) => siblings.includes(id)),
        `project ${project.projectId} lists no role of its sibling project`,
      ).toEqual([]);
    }
  },
  { needs: ['accounts', 'projects', 'roles'], timeout: 60_000 },
);

conformance(
  ['tokens.user-token.from-stored-user'],
  'each user’s token carries that user’s own role and organization, not a sibling’s',
  async (t) => {
    const paths = t.profile.shapes.tokenClaims ?? {};
    if (paths.role === undefined && paths.projectOrganization === undefined)
      t.notRun(
        'the profile names no role or project-organization claim (§5 rule 8)',
        cause.shape('shapes.tokenClaims.role'),
      );
    const rich = await buildRichWorld(t, SHAPE);
    const wrong: string[] = [];
    for (const project of rich.projects) {
      for (const organization of project.organizations) {
        for (const user of organization.users) {
          const res = await userToken(t, project.world, user.userId);
          const claims =
            claimsOf(expectSuccess(res, Token, 'a token for a user').token) ??
            t.notRun('the target’s tokens are not JWTs');
          const expected: [string, string | undefined, unknown][] = [
            ['role', paths.role, user.userRoleId],
            ['project organization', paths.projectOrganization, organization.projectOrganizationId],
          ];
          for (const [what, path, value] of expected) {
            if (path === undefined) continue;
            const shown = claimAt(claims, path);
            if (shown !== value)
              wrong.push(
                `user ${user.userId}: ${what} ${JSON.stringify(shown)}, stored ${JSON.stringify(value)}`,
              );
          }
        }
      }
    }
    expect(wrong, 'every token shows its own user as stored (§4.7)').toEqual([]);
  },
  { needs: ['accounts', 'projects', 'roles'], relies: ['tokens.claims'], timeout: 60_000 },
);

conformance(
  ['users.register.organization-by-external-id'],
  'an externalId names its own organization, not a sibling of the same project',
  async (t) => {
    const rich = await buildRichWorld(t, { ...SHAPE, roles: [], usersPerOrganization: 0 });
    for (const project of rich.projects) {
      for (const organization of project.organizations) {
        const { userId, body } = await registerUser(t, project.world, {
          projectOrganizationId: organization.externalId,
        });
        const shown = await storedReference(
          t,
          project.world,
          { userId, name: body.name },
          'projectOrganizationId',
        );
        expect(
          shown,
          `a user registered with externalId ${organization.externalId} belongs to that organization`,
        ).toBe(organization.projectOrganizationId);
      }
    }
  },
  {
    needs: ['accounts', 'projects'],
    // The organization is read back as readback.ts storedReference can.
    timeout: 60_000,
  },
);

// The same worlds, now trespassing: a request that names project P (path or projectId) with
// an id of its sibling project Q. Each row is refused (4xx) and leaves both projects as they
// were: their role lists, Q's user as a fresh token shows it, and the snapshot where offered.

interface SiblingTrespass {
  readonly name: string;
  /** Optional clauses the row leans on (answer shapes the document leaves open). */
  readonly relies?: readonly ClauseId[];
  send(t: Conformance, p: RichProject, q: RichProject): Promise<Reply>;
}

const firstUser = (q: RichProject): RichUser => {
  const user = q.organizations[0]?.users[0];
  if (user === undefined) throw new Error('the sibling world has no user');
  return user;
};
const firstRole = (q: RichProject): string => q.roles[0]?.id ?? '';
const firstOrganization = (q: RichProject) => {
  const organization = q.organizations[0];
  if (organization === undefined) throw new Error('the sibling world has no organization');
  return organization;
};

const SIBLING_TRESPASSES: readonly SiblingTrespass[] = [
  {
    name: "a role update at P's path with Q's role id",
    send: (t, p, q) =>
      t.http.put(rolePath(p, firstRole(q)), {
        ...p.world.creds(),
        name: 'taken over',
        permissions: { readOnly: true },
      }),
  },
  {
    name: "a role delete at P's path with Q's role id",
    send: (t, p, q) => t.http.delete(rolePath(p, firstRole(q)), { query: p.world.creds() }),
  },
  {
    name: "a user update at P's path with Q's user id",
    send: (t, p, q) =>
      t.http.put(userPath(p, firstUser(q).userId), {
        ...p.world.creds(),
        name: 'taken over',
        properties: { takenOver: true },
      }),
  },
  {
    name: "register-user in P with Q's role id",
    send: (t, p, q) =>
      t.http.post(REGISTER_USER, {
        ...p.world.creds(),
        projectId: p.projectId,
        userId: t.faker.string.uuid(),
        name: 'stray user',
        userRoleId: firstRole(q),
      }),
  },
  {
    name: "register-user in P with Q's project organization id",
    send: (t, p, q) =>
      t.http.post(REGISTER_USER, {
        ...p.world.creds(),
        projectId: p.projectId,
        userId: t.faker.string.uuid(),
        name: 'stray user',
        projectOrganizationId: firstOrganization(q).projectOrganizationId,
      }),
  },
  {
    name: "register-user in P with the externalId of Q's organization",
    send: (t, p, q) =>
      t.http.post(REGISTER_USER, {
        ...p.world.creds(),
        projectId: p.projectId,
        userId: t.faker.string.uuid(),
        name: 'stray user',
        projectOrganizationId: firstOrganization(q).externalId,
      }),
  },
];

for (const trespass of SIBLING_TRESPASSES) {
  conformance(
    ['auth.isolation.sibling-project-refused'],
    `${trespass.name} is refused and changes neither project`,
    async (t) => {
      const rich = await buildRichWorld(t, {
        projects: 2,
        organizationsPerProject: 1,
        usersPerOrganization: 1,
        roles: [{ addChart: true }],
      });
      const [p, q] = rich.projects;
      if (p === undefined || q === undefined)
        return t.notRun('the world has fewer than two projects');
      const read = async () =>
        JSON.stringify([
          await roleList(t, p.world, "reading P's roles back"),
          await roleList(t, q.world, "reading Q's roles back"),
          await userAsTokenShows(t, q.world, firstUser(q).userId),
          (await accountSnapshot(t, rich.world)) ?? 'no snapshot hook',
        ]);
      const before = await read();
      const res = await trespass.send(t, p, q);
      expectClientError(res, trespass.name);
      expect(await read(), 'neither project changed').toBe(before);
    },
    {
      needs: ['accounts', 'projects', 'roles'],
      relies: ['tokens.claims', ...(trespass.relies ?? [])],
      timeout: 60_000,
    },
  );
}

conformance(
  ['security.tokens.embed-token-named-organization'],
  'embed-token for a known user under a sibling organization issues a token of that organization',
  async (t) => {
    const path =
      t.profile.shapes.tokenClaims?.projectOrganization ??
      t.notRun(
        'the profile names no project-organization claim (tokenClaims.projectOrganization)',
        cause.shape('shapes.tokenClaims.projectOrganization'),
      );
    const rich = await buildRichWorld(t, {
      projects: 1,
      organizationsPerProject: 2,
      usersPerOrganization: 1,
    });
    const project = rich.projects[0];
    const [first, second] = project?.organizations ?? [];
    const user = first?.users[0];
    if (project === undefined || first === undefined || second === undefined || user === undefined)
      return t.notRun('the world lacks two organizations with a user');
    const req = embedToken(t, project.world, second.externalId, { userId: user.userId });
    const res = await t.http.post(req.path, { ...project.world.creds(), ...req.fields });
    const token = embedAnswer(t, res, 'token', 'embed-token under the second organization');
    const claims = claimsOf(token) ?? t.notRun('the target’s tokens are not JWTs');
    expect(
      claimAt(claims, path),
      `the token of a sign-in under ${second.externalId} names that organization, not the user’s earlier one`,
    ).toBe(second.projectOrganizationId);
  },
  {
    needs: ['accounts', 'projects'],
    relies: [
      'tokens.claims',
      'tokens.embed-token.body-shape',
      'tokens.embed-token.response-fields',
    ],
    timeout: 60_000,
  },
);
