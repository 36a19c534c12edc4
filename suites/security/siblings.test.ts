import { expect } from 'vitest';
import { z } from 'zod';
import { ProjectUserRole } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import { buildRichWorld, registerUser, userToken, type RichShape } from '../../fixtures/world.ts';
import { conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import { claimAt, claimsOf } from '../harness/jwt.ts';
import { rolesPath } from '../harness/paths.ts';
import { updateUserShowing } from '../harness/readback.ts';

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
      t.notRun('the profile names no role or project-organization claim (§5 rule 8)');
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
        const shown = await updateUserShowing(
          t,
          project.world,
          userId,
          { name: body.name },
          'projectOrganizationId',
        );
        expect(
          shown['projectOrganizationId'],
          `a user registered with externalId ${organization.externalId} belongs to that organization`,
        ).toBe(organization.projectOrganizationId);
      }
    }
  },
  { needs: ['accounts', 'projects'], timeout: 60_000 },
);
