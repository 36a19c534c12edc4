/**
 * Discover: the embed-token members (§4.8 names only user.userRoleId) and what the call does
 * with an organization and a user the project holds or does not hold yet.
 *
 * The call is made for an organization and a user registered first through §4.4 and §4.5 (whose
 * names the document gives), so that a target issuing tokens only to those it knows answers too.
 * One call carries every candidate name of each member at once, each with the same value; when
 * its token carries the user sent, each candidate is then tried alone: a user id member is read
 * when the token carries the id, an organization member when the token names the organization
 * registered with that externalId, a properties member when the token carries the properties.
 * Candidates are the usual spellings of common names and the names a refusal mentions.
 */
import { isDeepStrictEqual } from 'node:util';
import { decodeJwt } from 'jose';
import type { World } from '../../suites/harness/given/accounts.ts';
import { registerOrganization, registerUser } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { claimAt } from '../../suites/harness/jwt.ts';
import { EMBED_TOKEN, REGISTER_USER, USER_TOKEN } from '../../suites/harness/paths.ts';
import { namesMentioned, spellings } from './tenant.ts';
import {
  dataOf,
  ISO,
  isObject,
  JWT,
  ok,
  pathsWhere,
  valueAt,
  type Json,
  type Watch,
} from './watch.ts';

const all = (words: readonly (readonly string[])[]) => [...new Set(words.flatMap(spellings))];
const ORGANIZATION_IDS = all([
  ['external', 'id'],
  ['ext', 'id'],
  ['external', 'ref'],
  ['external', 'key'],
  ['ref'],
  ['reference'],
  ['key'],
  ['id'],
  ['code'],
  ['slug'],
]);
const USER_IDS = all([['id'], ['user', 'id'], ['uid'], ['external', 'id'], ['sub'], ['key']]);
const ORGANIZATION_NAMES = all([['name'], ['display', 'name'], ['title'], ['label']]);
const USER_NAMES = all([['name'], ['display', 'name'], ['full', 'name'], ['user', 'name']]);
const PROPERTIES = all([['properties'], ['props'], ['traits'], ['attributes'], ['metadata']]);

/** Where identity() found the project-user token's claims (paths as the profile writes them). */
export interface ClaimsFound {
  readonly projectOrganization?: string;
  readonly properties?: string;
}

/** The value at a claim path found earlier, when one was found. */
const claimOf = (payload: Json, path: string | undefined): unknown =>
  path === undefined ? undefined : claimAt(payload, path);

interface Answer {
  readonly res: Reply;
  readonly payload?: Json;
  readonly tokenAt?: string[] | undefined;
}

export async function embedToken(w: Watch, world: World, userRoleId: string, claims: ClaimsFound) {
  const { t } = w;
  const call = async (organization: Json, user: Json): Promise<Answer> => {
    const res = await t.http.post(EMBED_TOKEN, {
      ...world.creds(),
      projectId: world.projectId,
      organization,
      user: { ...user, userRoleId },
    });
    const data = dataOf(res);
    const [tokenAt] = pathsWhere(data, (v) => typeof v === 'string' && JWT.test(v));
    const token = tokenAt === undefined ? undefined : valueAt(data, tokenAt);
    if (!ok(res) || typeof token !== 'string') return { res };
    return { res, payload: decodeJwt(token), tokenAt };
  };
  const each = (names: readonly string[], value: unknown): Json =>
    Object.fromEntries(names.map((n) => [n, value]));
  const carries = (a: Answer, value: unknown) =>
    a.payload !== undefined && pathsWhere(a.payload, (v) => isDeepStrictEqual(v, value)).length > 0;

  // An organization and a user the project holds.
  const ext = `ext-${t.faker.string.alphanumeric(10)}`;
  const org = await registerOrganization(t, world, { externalId: ext });
  const { userId } = await registerUser(t, world, {
    userRoleId,
    projectOrganizationId: org.projectOrganizationId,
  });
  const orgName = `${t.faker.company.name()} (eac)`;
  const personName = t.faker.person.fullName();
  const props = { region: `embed-${t.faker.string.alpha(6)}` };

  // The names a refusal of an empty call mentions join the candidates.
  const mentioned = namesMentioned((await call({}, {})).res);
  const orgIds = [...new Set([...ORGANIZATION_IDS, ...mentioned])];
  const userIds = [...new Set([...USER_IDS, ...mentioned])];
  const everything = {
    organization: { ...each(ORGANIZATION_NAMES, orgName), ...each(orgIds, ext) },
    user: { ...each(USER_NAMES, personName), ...each(PROPERTIES, props), ...each(userIds, userId) },
  };
  const namesOrg = (a: Answer) =>
    a.payload !== undefined &&
    claimOf(a.payload, claims.projectOrganization) === org.projectOrganizationId;
  const found = (await everyNameAtOnce()) ?? (await oneSetAtATime());
  if (found === undefined) {
    w.cannot(
      'shapes.embedToken',
      `no call naming the organization and the user by the candidate members (${orgIds.length} and ${userIds.length}, all at once and a few at a time) gave a token carrying the user id sent; write yours by hand`,
    );
    return;
  }
  const { userIdName, orgIdName, orgSeenRead, wide } = found;

  /** Every candidate at once, then each alone; undefined when the wide call is refused. */
  async function everyNameAtOnce() {
    const wide = await call(everything.organization, everything.user);
    if (!carries(wide, userId)) return undefined;
    const userOnly = (name: string) => ({
      ...Object.fromEntries(Object.entries(everything.user).filter(([k]) => !userIds.includes(k))),
      [name]: userId,
    });
    let userIdName: string | undefined;
    for (const name of userIds)
      if (carries(await call(everything.organization, userOnly(name)), userId)) {
        userIdName = name;
        break;
      }
    if (userIdName === undefined) return undefined;
    const user = userOnly(userIdName);
    const orgOnly = (name: string) => ({
      ...Object.fromEntries(
        Object.entries(everything.organization).filter(([k]) => !orgIds.includes(k)),
      ),
      [name]: ext,
    });
    // The organization's member: the token names the organization registered with that
    // externalId (or, where no claim names an organization, the call is accepted).
    let orgIdName: string | undefined;
    for (const name of orgIds) {
      const a = await call(orgOnly(name), user);
      if (namesOrg(a)) return { userIdName, orgIdName: name, orgSeenRead: true, wide };
      if (a.payload !== undefined && claims.projectOrganization === undefined) orgIdName ??= name;
    }
    return orgIdName === undefined
      ? undefined
      : { userIdName, orgIdName, orgSeenRead: false, wide };
  }

  /**
   * For a target that refuses members it does not know: the commonest names, one set per call,
   * with a display name beside the user's id or not.
   */
  async function oneSetAtATime() {
    const few = (names: readonly string[]) => [...new Set([...names, ...mentioned])];
    for (const userName of [undefined, 'name', 'displayName', 'fullName'])
      for (const orgIdName of few(['externalId', 'external_id', 'id', 'ref', 'key']))
        for (const userIdName of few(['id', 'userId', 'user_id', 'uid', 'externalId'])) {
          const named = userName === undefined ? {} : { [userName]: personName };
          const a = await call({ [orgIdName]: ext }, { ...named, [userIdName]: userId });
          if (carries(a, userId))
            return { userIdName, orgIdName, orgSeenRead: namesOrg(a), wide: a };
        }
    return undefined;
  }
  w.saw(
    `embed-token: the token carries the user id sent as user.${userIdName}${orgSeenRead ? ` and names the organization sent as organization.${orgIdName}` : ''}`,
  );
  const bare = {
    organization: { [orgIdName]: ext },
    user: { [userIdName]: userId },
  };
  // A display name goes into the draft only where a call was refused without it.
  let userName: string | undefined;
  if (!ok((await call(bare.organization, bare.user)).res))
    for (const name of USER_NAMES)
      if (ok((await call(bare.organization, { ...bare.user, [name]: personName })).res)) {
        userName = name;
        break;
      }
  const named = userName === undefined ? {} : { [userName]: t.faker.person.fullName() };

  // A user's properties: the token carries them (an existing user takes them, or not).
  let propertiesName: string | undefined;
  if (claims.properties !== undefined)
    for (const name of PROPERTIES) {
      const sent = { region: `embed-${t.faker.string.alpha(6)}` };
      const a = await call(bare.organization, { ...bare.user, ...named, [name]: sent });
      if (
        a.payload !== undefined &&
        isDeepStrictEqual(claimOf(a.payload, claims.properties), sent)
      ) {
        propertiesName = name;
        break;
      }
    }

  // A new organization and a new user (tokens.embed-token.creates).
  const orgNameFor = async (): Promise<{ name?: string; created: boolean; refusal?: number }> => {
    const fresh = () => ({ [orgIdName]: `ext-${t.faker.string.alphanumeric(10)}` });
    const newUser = () => ({ ...named, [userIdName]: t.faker.string.uuid() });
    const without = await call(fresh(), newUser());
    if (ok(without.res)) return { created: true };
    for (const name of ORGANIZATION_NAMES) {
      const u = newUser();
      const a = await call({ ...fresh(), [name]: orgName }, u);
      if (carries(a, u[userIdName])) return { name, created: true };
    }
    return { created: false, refusal: without.res.status };
  };
  const made = await orgNameFor();
  const answer: Json = {};
  const data = dataOf(wide.res);
  if (wide.tokenAt?.length === 1) answer['token'] = wide.tokenAt[0];
  const [expiresAt] = pathsWhere(data, (v) => typeof v === 'string' && ISO.test(v));
  if (expiresAt?.length === 1) answer['expiresAt'] = expiresAt[0];
  w.shapes['embedToken'] = {
    organization: {
      externalId: orgIdName,
      ...(made.name === undefined ? {} : { name: made.name }),
    },
    user: {
      id: userIdName,
      ...(userName === undefined ? {} : { name: userName }),
      ...(propertiesName === undefined ? {} : { properties: propertiesName }),
    },
    ...(Object.keys(answer).length === 0 ? {} : { answer }),
  };
  w.review.push(
    `shapes.embedToken: user.${userIdName} (the token carries the id sent), organization.${orgIdName} (${orgSeenRead ? 'the token names the organization registered with it' : 'accepted, not seen read'})${userName === undefined ? '' : `, user.${userName} needed beside them`}${made.name === undefined ? '' : `, organization.${made.name} needed for a new organization`}${propertiesName === undefined ? '; no properties member was seen read' : `, user.${propertiesName} (the token carries the properties sent)`}; the answer's members where it held a JWT and an ISO 8601 time`,
  );
  await follows(w, world, {
    call,
    bare,
    named,
    userIdName,
    orgIdName,
    made,
    propertiesName,
    userId,
    claims,
  });
}

interface Seen {
  readonly call: (organization: Json, user: Json) => Promise<Answer>;
  readonly bare: { organization: Json; user: Json };
  readonly named: Json;
  readonly userIdName: string;
  readonly orgIdName: string;
  readonly made: { name?: string; created: boolean; refusal?: number };
  readonly propertiesName: string | undefined;
  readonly userId: string;
  readonly claims: ClaimsFound;
}

/**
 * tokens.embed-token.creates, proposed when a new organization and a new user (by id and
 * without one) are signed in and the organization can be used afterwards; upserts, when an
 * existing user's properties are taken and kept for the next user-token.
 */
async function follows(w: Watch, world: World, s: Seen) {
  const { t } = w;
  if (!s.made.created)
    w.saw(
      `embed-token: an organization the project does not hold was refused (${s.made.refusal ?? '?'})`,
    );
  else {
    const ext = `ext-${t.faker.string.alphanumeric(10)}`;
    const organization = {
      [s.orgIdName]: ext,
      ...(s.made.name === undefined ? {} : { [s.made.name]: `${t.faker.company.name()} (eac)` }),
    };
    const newId = t.faker.string.uuid();
    const first = await s.call(organization, { ...s.named, [s.userIdName]: newId });
    const withoutId = await s.call(organization, { ...s.named });
    const later = await t.http.post(REGISTER_USER, {
      ...world.creds(),
      projectId: world.projectId,
      name: t.faker.person.fullName(),
      properties: {},
      projectOrganizationId: ext,
    });
    const carriesNew =
      first.payload !== undefined && pathsWhere(first.payload, (v) => v === newId).length > 0;
    if (carriesNew && withoutId.payload !== undefined && ok(later)) {
      w.follows.push('tokens.embed-token.creates');
      w.saw(
        'embed-token: a new organization and a new user (with an id and without) were signed in',
      );
      w.review.push(
        'follows tokens.embed-token.creates: a new organization and a new user (by id and without one) were signed in, and the organization took a user afterwards',
      );
    } else
      w.saw(
        `embed-token: a new organization or user was not signed in as tokens.embed-token.creates reads (${first.res.status}, ${withoutId.res.status}, register-user ${later.status})`,
      );
  }
  if (s.propertiesName === undefined || s.claims.properties === undefined) {
    w.cannot(
      'follows tokens.embed-token.upserts',
      'no properties member of an existing user was seen taken',
    );
    return;
  }
  const sent = { region: `upsert-${t.faker.string.alpha(6)}` };
  await s.call(s.bare.organization, { ...s.bare.user, ...s.named, [s.propertiesName]: sent });
  const res = await t.http.post(USER_TOKEN, { ...world.creds(), userId: s.userId });
  const token = isObject(dataOf(res)) ? (dataOf(res) as Json)['token'] : undefined;
  const stored =
    typeof token === 'string' &&
    isDeepStrictEqual(claimOf(decodeJwt(token), s.claims.properties), sent);
  if (stored) {
    w.follows.push('tokens.embed-token.upserts');
    w.review.push(
      'follows tokens.embed-token.upserts: an existing user took the properties embed-token sent, and kept them for the next user-token (an organization update was not observed)',
    );
  } else w.saw('embed-token: an existing user did not keep the properties sent');
}
