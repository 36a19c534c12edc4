/** Discover: the embed-token members (§4.8). */
import { decodeJwt } from 'jose';
import type { World } from '../../suites/harness/given/accounts.ts';
import { EMBED_TOKEN } from '../../suites/harness/paths.ts';
import { dataOf, ISO, JWT, ok, pathsWhere, valueAt, type Json, type Watch } from './watch.ts';

/** Member names an embed-token call may use for what §4.8 names without a name, tried in turn. */
const EMBED_ORGANIZATION_IDS = ['externalId', 'external_id', 'id'] as const;
const EMBED_USER_IDS = ['id', 'userId', 'user_id'] as const;
/** Display-name members, tried only when a call without one is refused. */
const EMBED_NAMES = [undefined, 'name', 'displayName'] as const;

export async function embedToken(w: Watch, world: World, userRoleId: string) {
  // A member counts as read when the token the call answers carries the value sent in it: the
  // user's id. The organization's member is only seen accepted, and the display names not at
  // all (a server may take any member it does not read).
  for (const nameMember of EMBED_NAMES)
    for (const orgId of EMBED_ORGANIZATION_IDS)
      for (const userIdName of EMBED_USER_IDS)
        if (await embedTry(w, world, userRoleId, { orgId, userIdName, nameMember })) return;
  w.cannot(
    'shapes.embedToken',
    `no member set tried (${EMBED_NAMES.length * EMBED_ORGANIZATION_IDS.length * EMBED_USER_IDS.length}) gave a token carrying the user id sent; write yours by hand`,
  );
}

/** One embed-token call with these member names; true when its token carries the user id. */
async function embedTry(
  w: Watch,
  world: World,
  userRoleId: string,
  names: { orgId: string; userIdName: string; nameMember: string | undefined },
): Promise<boolean> {
  const { t } = w;
  const { orgId, userIdName, nameMember } = names;
  const named = (value: string) => (nameMember === undefined ? {} : { [nameMember]: value });
  const userId = t.faker.string.uuid();
  const res = await t.http.post(EMBED_TOKEN, {
    ...world.creds(),
    projectId: world.projectId,
    organization: {
      [orgId]: `ext-${t.faker.string.alphanumeric(10)}`,
      ...named(`${t.faker.company.name()} (eac)`),
    },
    user: { [userIdName]: userId, userRoleId, ...named(t.faker.person.fullName()) },
  });
  if (!ok(res)) return false;
  const data = dataOf(res);
  const [tokenAt] = pathsWhere(data, (v) => typeof v === 'string' && JWT.test(v));
  const token = tokenAt === undefined ? undefined : valueAt(data, tokenAt);
  if (typeof token !== 'string') return false;
  if (pathsWhere(decodeJwt(token), (v) => v === userId).length === 0) return false;
  const [expiresAt] = pathsWhere(data, (v) => typeof v === 'string' && ISO.test(v));
  const answer: Json = {};
  if (tokenAt?.length === 1) answer['token'] = tokenAt[0];
  if (expiresAt?.length === 1) answer['expiresAt'] = expiresAt[0];
  // A display name goes into the draft only where the call was refused without it.
  const name = nameMember === undefined ? {} : { name: nameMember };
  w.shapes['embedToken'] = {
    organization: { externalId: orgId, ...name },
    user: { id: userIdName, ...name },
    ...(Object.keys(answer).length === 0 ? {} : { answer }),
  };
  w.saw(`embed-token: the token carries the user id sent as user.${userIdName}`);
  w.review.push(
    `shapes.embedToken: organization.${orgId} was accepted (not seen read)${nameMember === undefined ? '; the display-name members were not observed' : `, and ${nameMember} was needed beside it`}; the properties members were not observed: add yours`,
  );
  return true;
}
