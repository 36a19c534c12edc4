import { cause } from './causes.ts';
import { expect } from 'vitest';
import { z } from 'zod';
import { ListRolesResponse } from '../../spec/schemas/role.ts';
import { Token } from '../../spec/schemas/token.ts';
import { personName } from './builders.ts';
import type { World } from './given/accounts.ts';
import { states, type Conformance } from './conformance.ts';
import { expectSuccess } from './expect.ts';
import type { Reply } from './http.ts';
import { claimAt, claimsOf } from './jwt.ts';
import { claimAt as tokenClaim } from './claims.ts';
import { userUpdateRecord, userUpdateShape } from './records.ts';
import { REGISTER_USER, USER_TOKEN, rolesPath, userPath } from './paths.ts';

/** A token answer's data, read only for its token (§2.5). */
const TokenOnly = Token.pick({ token: true });

/**
 * Snapshots of a world's state, read with the world's own key, as strings to compare before
 * and after a request that should have changed nothing (or something).
 */
export async function roleList(
  t: Conformance,
  w: World,
  what = 'reading the roles back',
): Promise<string> {
  const res = await t.http.get(rolesPath(w), { query: w.creds() });
  const { userRoles } = expectSuccess(res, ListRolesResponse.shape.data, what);
  const rows = [...userRoles].sort((x, y) => x.id.localeCompare(y.id));
  return JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      permissions: r.permissions,
      updated_at: r.updated_at,
    })),
  );
}

/**
 * Reads presence from an answer: a success means present, a refusal of the id (400, 404,
 * 422) absent; anything else (401, 403, 5xx) means the read itself failed, and a snapshot
 * that could not be read must not pass for "unchanged".
 */
function presence(res: Reply, what: string): boolean {
  if (res.status === 200) return true;
  if ([400, 404, 422].includes(res.status)) return false;
  expect.fail(`${what}: the read-back itself failed with ${res.status} ${res.text.slice(0, 200)}`);
}

/** §4.7: a token is issued only to a registered user, so its answer tells whether one exists. */
export async function userExists(t: Conformance, w: World, userId: string): Promise<string> {
  const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId });
  return presence(res, `checking for user ${userId}`)
    ? `user ${userId} exists`
    : `no user ${userId}`;
}

/** One user per world, registered again at every organization check (an upsert by id). */
const probeUsers = new WeakMap<World, { readonly userId: string; readonly name: string }>();

/**
 * §4.5: projectOrganizationId also takes an externalId, so naming one tells whether it exists.
 * This read writes: it registers the world's one probe user again, with the same id and name
 * every time, so that only its organization can differ between two reads.
 */
export async function organizationExists(t: Conformance, w: World, ext: string): Promise<string> {
  const probeUser = probeUsers.get(w) ?? {
    userId: t.faker.string.uuid(),
    name: personName(t.faker),
  };
  probeUsers.set(w, probeUser);
  const res = await t.http.post(REGISTER_USER, {
    ...w.creds(),
    projectId: w.projectId,
    userId: probeUser.userId,
    name: probeUser.name,
    projectOrganizationId: ext,
  });
  return presence(res, `checking for organization ${ext}`)
    ? `organization ${ext} exists`
    : `no organization ${ext}`;
}

/** §2.5, §4.7: a fresh token is made from the stored user; its timeless claims show it. */
export async function storedUser(
  t: Conformance,
  w: World,
  userId: string,
  what = 'issuing a token to read the user back',
): Promise<string> {
  const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId });
  const { token } = expectSuccess(res, TokenOnly, what);
  const claims = claimsOf(token);
  if (claims === undefined)
    t.notRun(
      'the token is not a JWT, so the stored user cannot be read back',
      // §5 rule 8 leaves a token's form open: nothing to state, nothing to change.
      cause.other('tokens that are not JWTs'),
    );
  return JSON.stringify(
    Object.entries(claims).filter(([k]) => !['iat', 'exp', 'nbf', 'jti'].includes(k)),
  );
}

/** Updates a project user (§4.6) with these fields; returns the data of its success. */
export async function updateUser(
  t: Conformance,
  w: World,
  userId: string,
  fields: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const res = await t.http.put(userPath(w, userId), { ...w.creds(), ...fields });
  return expectSuccess(
    res,
    z.record(z.string(), z.unknown()),
    `updating a user with ${Object.keys(fields).join(', ')}`,
  );
}

/**
 * §4.6 shows none of the members of a user update's answer: where the target's answer does not
 * show a field at all (its profile's shapes.userUpdate leaves it out), a test that needs it
 * shown waits on the document.
 */
export const USER_UPDATE_ANSWER = '§4.6 user update answer';

/**
 * Updates a user and returns the stored user as the answer's data shows it, read where the
 * profile's shapes.userUpdate says (records.ts), under §2.4's names. §4.6 leaves those fields
 * open, so a test that needs `field` to be shown ends as not-run when the target does not show it. With only
 * the stored name sent, the update changes nothing and reads the user back where a left-out
 * role or organization stays as it is (decision users.update.absent-fields-unchanged): a test
 * reading either back that way relies on that clause too.
 */
export async function updateUserShowing(
  t: Conformance,
  w: World,
  userId: string,
  fields: Readonly<Record<string, unknown>>,
  field: string,
): Promise<Record<string, unknown>> {
  const shape =
    userUpdateShape(t) ??
    t.notRun(
      'the profile does not state where the user update answer shows the stored user (§4.6)',
      cause.shape('shapes.userUpdate'),
    );
  const data = userUpdateRecord(await updateUser(t, w, userId, fields), shape);
  if (!(field in data))
    t.notRun(
      `the target does not show ${field} in the user update answer (§4.6)`,
      cause.documentGap(USER_UPDATE_ANSWER),
    );
  return data;
}

/**
 * The role or the organization a stored user holds (§2.4), read back without changing it:
 * through a name-only update's answer (updateUserShowing) where the profile follows
 * users.update.absent-fields-unchanged, so that update keeps both; otherwise through a fresh
 * token at the claim path the profile names (§4.7: a token is made from the stored user;
 * tokens.claims), a role the token leaves out reading as none. Each path relies on what it uses.
 */
export async function storedReference(
  t: Conformance,
  w: World,
  user: { readonly userId: string; readonly name: string },
  field: 'userRoleId' | 'projectOrganizationId',
): Promise<unknown> {
  if (states(t, 'users.update.absent-fields-unchanged')) {
    t.relyOn('users.update.absent-fields-unchanged', 'users.update.response-fields');
    return (await updateUserShowing(t, w, user.userId, { name: user.name }, field))[field];
  }
  t.relyOn('tokens.claims');
  const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId: user.userId });
  const { token } = expectSuccess(res, TokenOnly, 'issuing a token to read the user back');
  return field === 'userRoleId'
    ? (tokenClaim(t, token, 'role', { absentMeansNone: true }) ?? null)
    : tokenClaim(t, token, 'projectOrganization');
}

/**
 * What a fresh token shows of a stored user (§4.7: it is made from the stored user), read at
 * the claim paths the target's profile names (role, project organization, properties,
 * permissions, subject). The contents of tokens are left open (§5 rule 8), so a test reading
 * this relies on clause tokens.claims. Without claim paths in the profile it reads nothing
 * where the target offers the snapshot hook (which then shows the user), else ends not-run.
 */
export async function userAsTokenShows(t: Conformance, w: World, userId: string): Promise<string> {
  const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId });
  const { token } = expectSuccess(res, TokenOnly, 'issuing a token to read the user back');
  const claims = claimsOf(token);
  // The claim paths the profile names (permissionsForm says how one is written, not where).
  const { permissionsForm: _form, ...named } = t.profile.shapes.tokenClaims ?? {};
  const paths = Object.entries(named).sort(([a], [b]) => a.localeCompare(b));
  if (claims === undefined || paths.length === 0) {
    // The snapshot, where the target has one, still shows the user; only this read is lost.
    if (t.hooks.has('snapshot')) return 'not read: the profile names no token claims';
    t.notRun(
      'the profile names no token claims, so the stored user cannot be read back',
      cause.shape('shapes.tokenClaims'),
    );
  }
  return JSON.stringify(
    paths.map(([name, path]) => [
      name,
      path === undefined ? null : (claimAt(claims, path) ?? null),
    ]),
  );
}

/**
 * The target's own snapshot of an account (the optional read-only `snapshot` hook), as text
 * to compare with a later one; undefined when the target does not offer the hook.
 */
export async function accountSnapshot(t: Conformance, w: World): Promise<string | undefined> {
  if (!t.hooks.has('snapshot')) return undefined;
  const res = await t.http.get(`/accounts/${w.account.organizationId}/snapshot`, {
    base: 'hooks',
  });
  const body = res.body as { status?: unknown; data?: { state?: unknown } };
  if (res.status !== 200 || body.status !== 'success' || body.data === undefined)
    throw new Error(`host hook "snapshot" failed: ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.stringify(body.data.state);
}
