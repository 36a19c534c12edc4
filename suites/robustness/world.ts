import type { FuzzContext } from './generate.ts';

/** One call of the world's making: the answer's `data`, or a throw on a status of 300 or more. */
export type WorldCall = (
  method: string,
  url: string,
  body?: unknown,
) => Promise<Record<string, unknown>>;

/** Where a world is built: the API's base URL and the hooks' base URL. */
export interface WorldUrls {
  readonly base: string;
  readonly hooks: string;
}

interface FuzzAccount {
  readonly organizationId: string;
  readonly orgBoundKey: string;
  readonly userScopedKey: string;
  readonly token: string;
  readonly ids: Record<string, string[]>;
}

/**
 * One account with a project, a role, an organization and a user, made through the hooks and
 * the API, and a snapshot of it read once (so a caller that records the hooks' statuses sees
 * that hook answered too).
 */
async function fuzzAccount(call: WorldCall, urls: WorldUrls, name: string): Promise<FuzzAccount> {
  const { base, hooks } = urls;
  const acc = await call('POST', `${hooks}/accounts`, { name });
  const org = String(acc['organizationId']);
  const key = String(acc['orgBoundKey']);
  const project = String(
    (await call('POST', `${hooks}/accounts/${org}/projects`, {}))['projectId'],
  );
  const role = String(
    (
      await call('POST', `${hooks}/accounts/${org}/projects/${project}/roles`, {
        name: `role ${name}`,
        permissions: { addChart: true },
      })
    )['id'],
  );
  const po = await call('POST', `${base}/v1/api/projects/register-organization`, {
    apiKey: key,
    projectId: project,
    name: `organization ${name}`,
    externalId: `ext-${name}`,
  });
  const user = await call('POST', `${base}/v1/api/projects/register-user`, {
    apiKey: key,
    projectId: project,
    name: `user ${name}`,
    userRoleId: role,
    projectOrganizationId: po['projectOrganizationId'],
  });
  const token = await call('POST', `${base}/v1/api/projects/user-token`, {
    apiKey: key,
    userId: user['userId'],
  });
  await call('GET', `${hooks}/accounts/${org}/snapshot`);
  return {
    organizationId: org,
    orgBoundKey: key,
    userScopedKey: String(acc['userScopedKey']),
    token: String(token['token']),
    ids: {
      projectId: [project],
      projectUserRoleId: [role],
      userRoleId: [role],
      projectUserId: [String(user['userId'])],
      userId: [String(user['userId'])],
      projectOrganizationId: [String(po['projectOrganizationId']), `ext-${name}`],
      externalId: [`ext-${name}`],
      organizationId: [org],
    },
  };
}

/**
 * The world the robustness generator draws its ids from: the caller's account and another one,
 * built through the hooks of a target that has them.
 */
export async function fuzzWorld(call: WorldCall, urls: WorldUrls): Promise<FuzzContext> {
  const a = await fuzzAccount(call, urls, 'a');
  const b = await fuzzAccount(call, urls, 'b');
  return {
    ids: a.ids,
    foreignIds: b.ids,
    organizationId: a.organizationId,
    foreignOrganizationId: b.organizationId,
    orgBoundKey: a.orgBoundKey,
    userScopedKey: a.userScopedKey,
    foreignKey: b.orgBoundKey,
    tokens: [a.token],
  };
}
