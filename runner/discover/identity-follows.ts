/**
 * Discover: the identity decisions a target is seen to follow (`follows` entries, each listed
 * for review). An entry is proposed only when the behaviour its decision records was seen in
 * full; a target seen doing otherwise, or not seen at all, gets none.
 */
import { isDeepStrictEqual } from 'node:util';
import { decodeJwt } from 'jose';
import {
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { claimAt } from '../../suites/harness/jwt.ts';
import {
  REGISTER_ORGANIZATION,
  REGISTER_USER,
  USER_TOKEN,
  rolesPath,
  userPath,
} from '../../suites/harness/paths.ts';
import { dataOf, isObject, ok, type Json, type Watch } from './watch.ts';

/** Where the project-user token carries things, as identity() found them. */
export interface Claims {
  readonly role?: string;
  readonly projectOrganization?: string;
}

const errorOf = (res: Reply): Json => {
  const e = isObject(res.body) ? res.body['error'] : undefined;
  return isObject(e) ? e : {};
};

function propose(w: Watch, clause: string, why: string) {
  w.follows.push(clause);
  w.saw(`follows ${clause}: ${why}`);
  w.review.push(`follows ${clause}: ${why}`);
}

export async function identityFollows(w: Watch, world: World, claims: Claims) {
  await expMatches(w, world);
  await organizationIdShape(w, world);
  await externalIdUpsert(w, world);
  await resolutionOrder(w, world);
  await userUpdates(w, world, claims);
}

async function tokenOf(w: Watch, world: World, userId: string) {
  const res = await w.t.http.post(USER_TOKEN, { ...world.creds(), userId });
  const data = dataOf(res);
  const token = isObject(data) ? data['token'] : undefined;
  return {
    data: isObject(data) ? data : undefined,
    payload: typeof token === 'string' ? (decodeJwt(token) as Json) : undefined,
  };
}

/** tokens.jwt.exp-matches-expires-at: exp is expiresAt in whole seconds, iat is present. */
async function expMatches(w: Watch, world: World) {
  const { userId } = await registerUser(w.t, world);
  const { data, payload } = await tokenOf(w, world, userId);
  const expiresAt = data?.['expiresAt'];
  if (payload === undefined || typeof expiresAt !== 'string') return;
  const seconds = Math.floor(Date.parse(expiresAt) / 1000);
  if (payload['exp'] === seconds && typeof payload['iat'] === 'number')
    propose(
      w,
      'tokens.jwt.exp-matches-expires-at',
      'a user token’s exp claim was its expiresAt in whole seconds, beside an iat',
    );
  else w.saw(`token: exp ${String(payload['exp'])} beside expiresAt ${expiresAt} (${seconds})`);
}

/** auth.org-bound.organization-id-shape: an organization-bound key's organizationId unread. */
async function organizationIdShape(w: Watch, world: World) {
  const creds = world.creds();
  if (creds.organizationId !== undefined) return;
  const { t } = w;
  const odd = 'not-a-uuid';
  const list = await t.http.get(rolesPath(world), {
    query: { ...creds, organizationId: odd },
  });
  const org = await t.http.post(REGISTER_ORGANIZATION, {
    ...creds,
    organizationId: odd,
    projectId: world.projectId,
    name: `${t.faker.company.name()} (eac)`,
  });
  if (ok(list) && ok(org))
    propose(
      w,
      'auth.org-bound.organization-id-shape',
      'with an organization-bound key, an organizationId that is no UUID was let through in the query and in the body',
    );
  else w.saw(`credentials: an odd organizationId answered ${list.status} and ${org.status}`);
}

/** orgs.register.external-id-upsert: one externalId, one organization; none, a new one. */
async function externalIdUpsert(w: Watch, world: World) {
  const { t } = w;
  const ext = `ext-${t.faker.string.alphanumeric(10)}`;
  const first = await registerOrganization(t, world, { externalId: ext });
  const again = await t.http.post(REGISTER_ORGANIZATION, {
    ...world.creds(),
    projectId: world.projectId,
    name: `${t.faker.company.name()} (eac)`,
    externalId: ext,
    properties: { tier: 'other' },
  });
  const without = async () => {
    const res = await t.http.post(REGISTER_ORGANIZATION, {
      ...world.creds(),
      projectId: world.projectId,
      name: `${t.faker.company.name()} (eac)`,
    });
    const data = dataOf(res);
    return isObject(data) ? data['projectOrganizationId'] : undefined;
  };
  const againId = isObject(dataOf(again))
    ? (dataOf(again) as Json)['projectOrganizationId']
    : undefined;
  const [x, y] = [await without(), await without()];
  if (
    again.status === 200 &&
    againId === first.projectOrganizationId &&
    typeof x === 'string' &&
    typeof y === 'string' &&
    x !== y
  )
    propose(
      w,
      'orgs.register.external-id-upsert',
      'registering an externalId again answered 200 with the same organization, and two registrations without one made two (the name and properties replaced were not observed)',
    );
  else w.saw(`register-organization: an externalId registered again answered ${again.status}`);
}

/**
 * orgs.identifier.resolution-order: an externalId equal to another organization's UUID is
 * refused 409 CONFLICT, and an identifier naming nothing answers 404 NOT_FOUND with
 * details.field projectOrganizationId.
 */
async function resolutionOrder(w: Watch, world: World) {
  const { t } = w;
  const a = await registerOrganization(t, world);
  const clash = await t.http.post(REGISTER_ORGANIZATION, {
    ...world.creds(),
    projectId: world.projectId,
    name: `${t.faker.company.name()} (eac)`,
    externalId: a.projectOrganizationId,
  });
  const unknown = await t.http.post(REGISTER_USER, {
    ...world.creds(),
    projectId: world.projectId,
    name: t.faker.person.fullName(),
    properties: {},
    projectOrganizationId: `ext-${t.faker.string.alphanumeric(12)}`,
  });
  const details = errorOf(unknown)['details'];
  if (
    clash.status === 409 &&
    errorOf(clash)['code'] === 'CONFLICT' &&
    unknown.status === 404 &&
    errorOf(unknown)['code'] === 'NOT_FOUND' &&
    isObject(details) &&
    details['field'] === 'projectOrganizationId'
  )
    propose(
      w,
      'orgs.identifier.resolution-order',
      'an externalId equal to another organization’s UUID was refused 409 CONFLICT, and an unknown identifier answered 404 NOT_FOUND naming projectOrganizationId',
    );
  else
    w.saw(
      `organizations: an externalId equal to a UUID answered ${clash.status}, an unknown identifier ${unknown.status}`,
    );
}

/**
 * users.update.absent-fields-unchanged: an update leaving out the role and organization keeps
 * them, one sending a null role removes it (seen in the next user token).
 * users.update.response-fields: the answer's data is the user, its members at their own names.
 */
async function userUpdates(w: Watch, world: World, claims: Claims) {
  const { t } = w;
  const role = await createRole(t, world, { addChart: true });
  const org = await registerOrganization(t, world);
  const { userId } = await registerUser(t, world, {
    userRoleId: role.id,
    projectOrganizationId: org.projectOrganizationId,
  });
  const sent = {
    name: `${t.faker.person.fullName()} (eac)`,
    properties: { region: `west-${t.faker.string.alpha(5)}` },
    userRoleId: role.id,
    projectOrganizationId: org.projectOrganizationId,
  };
  const full = await t.http.put(userPath(world, userId), { ...world.creds(), ...sent });
  const data = dataOf(full);
  if (
    ok(full) &&
    isObject(data) &&
    isDeepStrictEqual(data, { id: userId, ...sent, projectId: world.projectId })
  )
    propose(
      w,
      'users.update.response-fields',
      'the update answer’s data was the user: id, name, properties, userRoleId, projectOrganizationId and projectId as sent, and nothing else',
    );
  else w.saw('user update: the answer is not the user at its own names');

  if (claims.role === undefined || claims.projectOrganization === undefined) {
    w.cannot(
      'follows users.update.absent-fields-unchanged',
      'the token claims of the role and organization were not found',
    );
    return;
  }
  const nameOnly = await t.http.put(userPath(world, userId), {
    ...world.creds(),
    name: `${t.faker.person.fullName()} (eac)`,
  });
  const kept = (await tokenOf(w, world, userId)).payload;
  const nulled = await t.http.put(userPath(world, userId), {
    ...world.creds(),
    name: `${t.faker.person.fullName()} (eac)`,
    userRoleId: null,
  });
  const removed = (await tokenOf(w, world, userId)).payload;
  if (
    ok(nameOnly) &&
    ok(nulled) &&
    kept !== undefined &&
    removed !== undefined &&
    claimAt(kept, claims.role) === role.id &&
    claimAt(kept, claims.projectOrganization) === org.projectOrganizationId &&
    (claimAt(removed, claims.role) ?? null) === null &&
    claimAt(removed, claims.projectOrganization) === org.projectOrganizationId
  )
    propose(
      w,
      'users.update.absent-fields-unchanged',
      'an update without userRoleId and projectOrganizationId kept both (next user token), and a null userRoleId removed the role',
    );
  else w.saw('user update: leaving out or nulling the role did not read as that decision');
}
