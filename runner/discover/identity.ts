/** Discover: the identity calls, the project-user token's claims, its key set, the user update answer. */
import { isDeepStrictEqual } from 'node:util';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { expectedEffective } from '../../fixtures/oracles/index.ts';
import {
  createRole,
  registerOrganization,
  registerUser,
  type World,
} from '../../suites/harness/given/accounts.ts';
import { USER_TOKEN, userPath } from '../../suites/harness/paths.ts';
import { embedToken } from './embed.ts';
import {
  claimPath,
  dataOf,
  isObject,
  JWT,
  ok,
  pathsWhere,
  permissionsIn,
  pointerWhere,
  type Json,
  type Watch,
} from './watch.ts';

/** The places where a key set is commonly published, tried in order. */
const JWKS_PLACES = ['/.well-known/jwks.json', '/jwks.json', '/jwks', '/.well-known/jwks'];

export async function identity(w: Watch, world: World) {
  const { t } = w;
  // A role with a few flags set; the token carries the §2.2 permissions in effect, which the
  // oracle works out from the document's table (defaults included).
  const flags = { addChart: true, hideHeader: true, drillDown: false };
  const role = await createRole(t, world, flags);
  const effective = expectedEffective(flags);
  const granted = Object.keys(effective).filter((flag) => effective[flag] === true);
  const org = await registerOrganization(t, world);
  w.serves.add('identity');
  w.saw(`identity: register-organization answered ${org.projectOrganizationId}`);
  const props = { region: `north-${t.faker.string.alpha(4)}`, tier: 2 };
  const { userId } = await registerUser(t, world, {
    userRoleId: role.id,
    projectOrganizationId: org.projectOrganizationId,
    properties: props,
  });
  const res = await t.http.post(USER_TOKEN, { ...world.creds(), userId });
  const data = dataOf(res);
  const token = isObject(data) ? data['token'] : undefined;
  if (!ok(res) || typeof token !== 'string') {
    w.cannot('token claims', `user-token answered ${res.status}`);
    return;
  }
  if (!JWT.test(token)) {
    w.cannot('token claims', 'the project-user token is not a JWT (§5 rule 8 leaves it open)');
    return;
  }
  const payload = decodeJwt(token) as Json;
  const header = decodeProtectedHeader(token);
  const claims: Json = {};
  const place = (name: string, value: unknown, match: (v: unknown) => boolean) => {
    const [path] = pathsWhere(payload, match);
    if (path === undefined)
      w.cannot(
        `shapes.tokenClaims.${name}`,
        `no claim holds the ${name} (${JSON.stringify(value)})`,
      );
    else {
      claims[name] = claimPath(path);
      w.saw(`token: the ${name} at ${claimPath(path)}`);
    }
  };
  place('subject', userId, (v) => v === userId);
  place('role', role.id, (v) => v === role.id);
  place('projectOrganization', org.projectOrganizationId, (v) => v === org.projectOrganizationId);
  place('properties', props, (v) => isDeepStrictEqual(v, props));
  const permissions = permissionsIn(payload, granted);
  if (permissions === undefined)
    w.cannot(
      'shapes.tokenClaims.permissions',
      'no claim holds the granted flags as an object, a list or a string',
    );
  else {
    claims['permissions'] = claimPath(permissions.path);
    claims['permissionsForm'] = permissions.form;
    w.saw(
      `token: the permissions at ${claimPath(permissions.path)}, as ${permissions.form === 'object' ? 'an object' : `a ${permissions.form}`}`,
    );
  }
  w.shapes['tokenClaims'] = claims;
  await userUpdate(w, world, { userId, roleId: role.id, org: org.projectOrganizationId });
  await keySet(w, token, header.alg);
  await embedToken(w, world, role.id, {
    ...(typeof claims['projectOrganization'] === 'string'
      ? { projectOrganization: claims['projectOrganization'] }
      : {}),
    ...(typeof claims['properties'] === 'string' ? { properties: claims['properties'] } : {}),
  });
}

async function keySet(w: Watch, token: string, alg: string | undefined) {
  if (alg === undefined || alg.startsWith('HS')) {
    w.saw(`token: signed with ${alg ?? 'no alg'}, so no key set is looked for`);
    return;
  }
  for (const place of JWKS_PLACES) {
    const res = await w.t.http.get(place);
    if (!ok(res) || !isObject(res.body) || !Array.isArray(res.body['keys'])) continue;
    try {
      await jwtVerify(token, createLocalJWKSet({ keys: res.body['keys'] as JWK[] }));
      w.shapes['jwks'] = place;
      w.saw(`jwks: ${place} verifies the project-user token (${alg})`);
      return;
    } catch {
      // A key set that does not verify the token is not the one it was signed with.
    }
  }
  w.cannot(
    'shapes.jwks',
    `the token is signed with ${alg}, and none of ${JWKS_PLACES.join(', ')} holds a key that verifies it`,
  );
}

/**
 * §4.6: where the user update answer shows the stored user. The user is updated with a fresh
 * name and properties, its role and organization sent again; a field is placed where the
 * answer's data holds exactly the value sent.
 */
async function userUpdate(
  w: Watch,
  world: World,
  user: { userId: string; roleId: string; org: string },
) {
  const { t } = w;
  const sent = {
    name: `${t.faker.person.fullName()} (eac)`,
    properties: { region: `south-${t.faker.string.alpha(5)}`, seats: 3 },
    userRoleId: user.roleId,
    projectOrganizationId: user.org,
  };
  const res = await t.http.put(userPath(world, user.userId), { ...world.creds(), ...sent });
  const data = dataOf(res);
  if (!ok(res) || !isObject(data)) {
    w.cannot('shapes.userUpdate', `the user update answered ${res.status} without a data object`);
    return;
  }
  const shape: Record<string, string> = {};
  for (const [field, value] of Object.entries({ id: user.userId, ...sent })) {
    const at = pointerWhere(data, (v) => isDeepStrictEqual(v, value));
    if (at === undefined) w.cannot(`shapes.userUpdate.${field}`, 'the answer does not show it');
    else shape[field] = at;
  }
  if (Object.keys(shape).length === 0) return;
  w.shapes['userUpdate'] = shape;
  w.saw(`user update: the stored user at ${JSON.stringify(shape)}`);
  w.review.push(
    'shapes.userUpdate: each field was placed where the answer held the value sent; confirm it shows the stored user',
  );
}
