import { Token } from '../../spec/schemas/token.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
  type World,
} from '../harness/given/accounts.ts';
import type { Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import type { FuzzContext } from './generate.ts';

/** Ids one account holds, by the names the OpenAPI gives its parameters and fields. */
async function holdings(t: Conformance, w: World) {
  const role = await createRole(t, w, { addChart: true });
  const org = await registerOrganization(t, w);
  const user = await registerUser(t, w, {
    userRoleId: role.id,
    projectOrganizationId: org.projectOrganizationId,
  });
  const token = expectSuccess(await userToken(t, w, user.userId), Token, 'a token for the fuzzer');
  const ids: Record<string, string[]> = {
    projectId: [w.projectId],
    projectUserRoleId: [role.id],
    userRoleId: [role.id],
    projectUserId: [user.userId],
    userId: [user.userId],
    projectOrganizationId: [org.projectOrganizationId, org.externalId],
    externalId: [org.externalId],
    organizationId: [w.account.organizationId],
    applicationId: [...(w.provisioned.applications ?? [])],
    dashboardId: [...(w.provisioned.dashboards ?? [])],
    sourceDashboardId: [...(w.provisioned.dashboards ?? [])],
    targetDashboardId: [...(w.provisioned.dashboards ?? [])],
    agentId: [...(w.provisioned.agents ?? [])],
  };
  return { ids, token: token.token };
}

/** Two accounts (the caller's and a foreign one) with a role, an organization and a user each. */
export async function fuzzWorld(t: Conformance): Promise<{ a: World; b: World; ctx: FuzzContext }> {
  const a = await buildWorld(t);
  const b = await buildWorld(t);
  const own = await holdings(t, a);
  const foreign = await holdings(t, b);
  return {
    a,
    b,
    ctx: {
      ids: own.ids,
      foreignIds: foreign.ids,
      organizationId: a.account.organizationId,
      foreignOrganizationId: b.account.organizationId,
      orgBoundKey: a.account.orgBoundKey,
      userScopedKey: a.account.userScopedKey,
      foreignKey: b.account.orgBoundKey,
      tokens: [own.token],
    },
  };
}
