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
import { identityFollows } from './identity-follows.ts';
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

/** The places where a key set is commonly published, tried in order after the token's own. */
const JWKS_PLACES = [
  '/.well-known/jwks.json',
  '/.well-known/jwks',
  '/jwks.json',
  '/jwks',
  '/.well-known/keys',
  '/keys',
  '/certs',
  '/oauth/jwks',
  '/oauth2/jwks',
  '/oauth2/v1/keys',
  '/auth/jwks',
  '/api/jwks',
  '/v1/jwks',
  '/v1/api/jwks',
  '/v1/api/.well-known/jwks.json',
  '/v1/.well-known/jwks.json',
  '/v1/api/projects/jwks',
];
const OPENID = '/.well-known/openid-configuration';

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
  await keySet(w, token, header.alg, payload);
  await identityFollows(w, world, {
    ...(typeof claims['role'] === 'string' ? { role: claims['role'] } : {}),
    ...(typeof claims['projectOrganization'] === 'string'
      ? { projectOrganization: claims['projectOrganization'] }
      : {}),
  });
  await embedToken(w, world, role.id, {
    ...(typeof claims['projectOrganization'] === 'string'
      ? { projectOrganization: claims['projectOrganization'] }
      : {}),
    ...(typeof claims['properties'] === 'string' ? { properties: claims['properties'] } : {}),
  });
}

/**
 * A URL as a path on the target (relative to its base address, whose own path it drops), or
 * undefined when it lies elsewhere: a key set is only fetched from the target itself.
 */
export function ownPath(url: string, baseUrl: string): string | undefined {
  try {
    const base = new URL(baseUrl);
    const u = new URL(url, base);
    if (u.origin !== base.origin) return undefined;
    const prefix = base.pathname.replace(/\/$/, '');
    const path =
      prefix !== '' && u.pathname.startsWith(`${prefix}/`)
        ? u.pathname.slice(prefix.length)
        : u.pathname;
    return path + u.search;
  } catch {
    return undefined;
  }
}

async function keySet(w: Watch, token: string, alg: string | undefined, payload: Json) {
  if (alg === undefined || alg.startsWith('HS')) {
    w.saw(`token: signed with ${alg ?? 'no alg'}, so no key set is looked for`);
    return;
  }
  const { t } = w;
  // The token's own pointers first (a jku header, an issuer's discovery document), then the
  // common places; a URL on the target's own address is written as its path.
  const header = decodeProtectedHeader(token);
  const issuer = typeof payload['iss'] === 'string' ? payload['iss'] : undefined;
  const own = (url: string) => ownPath(url, t.target.baseUrl);
  const discovered: string[] = [];
  for (const doc of [
    OPENID,
    ...(issuer?.startsWith('http') === true
      ? [own(`${issuer.replace(/\/$/, '')}${OPENID}`) ?? '']
      : []),
  ]) {
    if (doc === '') continue;
    const res = await t.http.get(doc);
    const uri = isObject(res.body) ? res.body['jwks_uri'] : undefined;
    if (ok(res) && typeof uri === 'string') discovered.push(own(uri) ?? '');
  }
  const jku = typeof header.jku === 'string' ? own(header.jku) : undefined;
  const places = [...new Set([...(jku === undefined ? [] : [jku]), ...discovered, ...JWKS_PLACES])];
  for (const place of places.filter((p) => p !== '')) {
    const res = await t.http.get(place);
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
    `the token is signed with ${alg}, and none of ${places.length} places (its jku, an OpenID discovery document, the common paths) holds a key that verifies it`,
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
