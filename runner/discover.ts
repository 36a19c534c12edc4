/**
 * `eac profile discover`: writes a draft profile by watching a target answer, for its
 * implementer to review (issue 35). It builds a small world through the target's host hooks,
 * makes the calls the document names, and reads off what the document leaves open: which parts
 * answer, where a project-user token carries the user, role, organization, properties and
 * permissions (and in which form), the key set, how an API key travels in the authorization
 * header, the embed-token members that a call accepted, and where a chat answer reports its
 * agent version. Whatever it cannot decide it says, and leaves out of the draft; a `follows`
 * entry is proposed only for a behaviour it saw, and is listed for review. Nothing is applied
 * to a run silently: the draft is a file the implementer reads.
 */
import { isDeepStrictEqual } from 'node:util';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { expectedEffective, expectedPermissions } from '../fixtures/oracles/index.ts';
import type { TargetProfile } from '../spec/profile.ts';
import type { ProfilePart } from '../spec/profile.ts';
import {
  buildWorld,
  createRole,
  givenFor,
  registerOrganization,
  registerUser,
  type Given,
  type World,
} from '../suites/harness/given/accounts.ts';
import {
  APPLICATIONS,
  chatPath,
  CLONE,
  EMBED_TOKEN,
  LIST_WORKSPACES,
  REGISTER_ORGANIZATION,
  REGISTER_TENANT,
  USER_TOKEN,
} from '../suites/harness/paths.ts';
import type { Reply } from '../suites/harness/http.ts';
import { readStreamText } from '../suites/harness/sse.ts';
import type { Target, TestTarget } from '../suites/harness/target.ts';
import { resolveTarget } from './target.ts';
import type { TargetSpec } from './target-spec.ts';

/** What discover saw, decided and left open. */
export interface Discovery {
  /** The draft: only what was observed. */
  readonly profile: TargetProfile;
  /** Entries of the draft a person should confirm before relying on them. */
  readonly review: readonly string[];
  /** What could not be decided from the target's answers, with why. */
  readonly undecided: readonly string[];
  /** One line per observation made, for the terminal. */
  readonly observed: readonly string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const dataOf = (res: Reply): unknown => (isObject(res.body) ? res.body['data'] : undefined);
const ok = (res: Reply) => res.status >= 200 && res.status < 300;
/** A route the target does not have answers 404, 405 or 501 (any other answer names a route). */
const routeAnswers = (res: Reply) => ![404, 405, 501].includes(res.status);

/** A JSON pointer (RFC 6901) for a path of member names. */
export function pointer(path: readonly string[]): string {
  return path.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** A claim path as the profile writes it: dots where every name allows, a pointer otherwise. */
export function claimPath(path: readonly string[]): string {
  return path.every((p) => /^[A-Za-z0-9_$-]+$/.test(p)) ? path.join('.') : pointer(path);
}

/** Every path in a JSON value whose value satisfies `match`, shallowest first. */
export function pathsWhere(
  value: unknown,
  match: (v: unknown) => boolean,
  at: readonly string[] = [],
): string[][] {
  const found: string[][] = [];
  const queue: { v: unknown; at: readonly string[] }[] = [{ v: value, at }];
  while (queue.length > 0) {
    const { v, at: here } = queue.shift() ?? { v: undefined, at: [] };
    if (here.length > 0 && match(v)) found.push([...here]);
    if (isObject(v))
      for (const [k, child] of Object.entries(v)) queue.push({ v: child, at: [...here, k] });
  }
  return found;
}

/**
 * How a payload writes the granted flags `granted` of a role whose every other flag is off:
 * an object of booleans, an array of the granted names, or those names in one string.
 */
export function permissionsIn(
  payload: Json,
  granted: readonly string[],
): { path: string[]; form: 'object' | 'array' | 'string' } | undefined {
  const names = [...granted].sort();
  const asObject = (v: unknown) =>
    isObject(v) &&
    Object.keys(v).length > 0 &&
    Object.entries(v).every(
      ([k, b]) => typeof b === 'boolean' && expectedPermissions.flags.includes(k),
    ) &&
    Object.entries(v)
      .filter(([, b]) => b === true)
      .map(([k]) => k)
      .sort()
      .join() === names.join();
  const asArray = (v: unknown) =>
    Array.isArray(v) &&
    v.every((x) => typeof x === 'string') &&
    [...v].sort().join() === names.join();
  const asString = (v: unknown) =>
    typeof v === 'string' && v.trim().split(/\s+/).sort().join() === names.join();
  for (const [form, match] of [
    ['object', asObject],
    ['array', asArray],
    ['string', asString],
  ] as const) {
    const [path] = pathsWhere(payload, match);
    if (path !== undefined) return { path, form };
  }
  return undefined;
}

/** The places where a key set is commonly published, tried in order. */
const JWKS_PLACES = ['/.well-known/jwks.json', '/jwks.json', '/jwks', '/.well-known/jwks'];

/** Member names an embed-token call may use for what §4.8 names without a name, tried in turn. */
const EMBED_ORGANIZATION_IDS = ['externalId', 'external_id', 'id'] as const;
const EMBED_USER_IDS = ['id', 'userId', 'user_id'] as const;
/** Display-name members, tried only when a call without one is refused. */
const EMBED_NAMES = [undefined, 'name', 'displayName'] as const;

const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

class Watch {
  readonly review: string[] = [];
  readonly undecided: string[] = [];
  readonly observed: string[] = [];
  readonly serves = new Set<ProfilePart>();
  readonly shapes: Json = {};
  readonly follows: string[] = [];
  chat: TargetProfile['chat'];
  constructor(readonly t: Given) {}
  saw(line: string) {
    this.observed.push(line);
  }
  cannot(what: string, why: string) {
    this.undecided.push(`${what}: ${why}`);
  }
}

/**
 * Resolves the target the words name, as `eac run` does (a URL, the embedded reference, the
 * latitude proxy before it, an image), watches it, and lets it go.
 */
export async function discoverSpec(spec: TargetSpec, seed: number): Promise<Discovery> {
  const resolved = await resolveTarget(spec, seed);
  try {
    return await discover(resolved.target);
  } finally {
    await resolved.close();
  }
}

/**
 * Watches a target and writes what it saw as a draft profile. What the target's profile states
 * is never read: the draft holds only what the answers showed.
 */
export async function discover(found: Target): Promise<Discovery> {
  const target: TestTarget = {
    ...found,
    hubUrl: found.hubUrl ?? '',
    checkDecisions: false,
    profile: { serves: [], shapes: {} },
  };
  const w = new Watch(givenFor(target));
  if (found.hubUrl !== undefined) {
    w.serves.add('hub');
    w.review.push(
      'serves hub: a hub address was given; the hub section (how a browser finds controls and rows) is yours to write (docs/targets-and-profiles.md)',
    );
  } else w.cannot('the hub part', 'no hub address given (--hub URL)');

  if (!target.hooks.includes('accounts') || !target.hooks.includes('projects')) {
    w.cannot(
      'everything a call with credentials shows',
      'the target announces no accounts and projects hooks, so no world can be built (--hooks URL)',
    );
    await partsWithoutCredentials(w);
    return finish(w);
  }
  const world = await buildWorld(w.t);
  await identity(w, world);
  await routesWithCredentials(w, world);
  await chatVersion(w, world);
  return finish(w);
}

function finish(w: Watch): Discovery {
  const profile: TargetProfile = {
    description: `A draft written by eac profile discover: review it before a run relies on it.`,
    serves: [...w.serves].sort(),
    shapes: w.shapes,
    ...(w.follows.length === 0 ? {} : { follows: [...w.follows].sort() }),
    ...(w.chat === undefined ? {} : { chat: w.chat }),
  };
  return { profile, review: w.review, undecided: w.undecided, observed: w.observed };
}

/** Without credentials: a part is served when its route answers at all. */
async function partsWithoutCredentials(w: Watch) {
  const tries: [ProfilePart, string, string][] = [
    ['identity', 'POST', REGISTER_ORGANIZATION],
    ['tenant-flow', 'POST', REGISTER_TENANT],
    ['v1-dashboards', 'GET', LIST_WORKSPACES],
    ['v2', 'GET', APPLICATIONS],
  ];
  for (const [part, method, path] of tries) {
    const res = await w.t.http.call(method, path, method === 'POST' ? { body: {} } : {});
    if (routeAnswers(res)) {
      w.serves.add(part);
      w.review.push(
        `serves ${part}: its route answers (${res.status}) but no call was made with credentials`,
      );
    }
  }
}

async function identity(w: Watch, world: World) {
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
  await keySet(w, token, header.alg);
  await embedToken(w, world, role.id);
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

async function embedToken(w: Watch, world: World, userRoleId: string) {
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

/** Parts behind credentials, and how the authorization header carries an API key. */
async function routesWithCredentials(w: Watch, world: World) {
  const { t } = w;
  const list = await t.http.get(LIST_WORKSPACES, { query: world.creds() });
  if (ok(list)) {
    w.serves.add('v1-dashboards');
    w.saw(`v1-dashboards: list-workspaces answered ${list.status}`);
  } else if (routeAnswers(list)) {
    w.serves.add('v1-dashboards');
    w.review.push(`serves v1-dashboards: list-workspaces answered ${list.status}, not a success`);
  } else w.saw(`v1-dashboards: list-workspaces answered ${list.status}: not served`);
  const tenant = await t.http.post(REGISTER_TENANT, { ...world.creds() });
  if (routeAnswers(tenant)) {
    w.serves.add('tenant-flow');
    w.review.push(
      `serves tenant-flow: register-tenant answered ${tenant.status} to a body of credentials only; shapes.registerTenant (the field names §4.9 leaves open) is yours to write`,
    );
  } else w.saw(`tenant-flow: register-tenant answered ${tenant.status}: not served`);
  const apps = await t.http.get(APPLICATIONS, { query: world.creds() });
  if (routeAnswers(apps)) {
    w.serves.add('v2');
    w.saw(`v2: the application list answered ${apps.status}`);
  } else w.saw(`v2: the application list answered ${apps.status}: not served`);

  // §5: an API key in the authorization header, bare or after Bearer. A clone of an id nobody
  // has: a refused key answers 401, an accepted one anything else (most likely 404).
  if (!w.serves.has('v1-dashboards')) {
    w.cannot('shapes.authorizationHeader', 'the v1 dashboard calls that read it are not served');
    return;
  }
  const key = world.creds().apiKey;
  const cloneBody = { dashboardId: t.faker.string.uuid(), name: 'eac discover' };
  const forms: Record<'bearer' | 'raw', boolean> = { bearer: false, raw: false };
  for (const [form, value] of [
    ['bearer', `Bearer ${key}`],
    ['raw', key],
  ] as const) {
    const res = await t.http.post(CLONE, cloneBody, { headers: { authorization: value } });
    forms[form] = res.status !== 401;
  }
  const header =
    forms.bearer && forms.raw ? 'both' : forms.bearer ? 'bearer' : forms.raw ? 'raw' : undefined;
  if (header === undefined)
    w.cannot(
      'shapes.authorizationHeader',
      'the clone route refused the key both bare and after Bearer',
    );
  else {
    w.shapes['authorizationHeader'] = header;
    w.saw(
      `authorization header: an API key is taken ${header === 'both' ? 'bare and after Bearer' : header === 'bearer' ? 'after Bearer' : 'bare'}`,
    );
  }
}

/** Where a chat answer reports the version that answered: pinned to 2, then to 1. */
async function chatVersion(w: Watch, world: World) {
  const { t } = w;
  if (!t.target.hooks.includes('agents')) {
    w.cannot('the chat part and chat.versionReport', 'the target announces no agents hook');
    return;
  }
  // A small table of the kit's own behind the agent, when the target takes one (hook
  // connections), filtered by a property the user holds; the target's own data otherwise.
  const region = `north-${t.faker.string.alpha(4)}`;
  const connection = t.target.hooks.includes('connections')
    ? await t.hooks.createConnection(world.account.organizationId, {
        name: 'sales (eac discover)',
        table: {
          name: 'sales',
          columns: [
            { name: 'region', type: 'text' },
            { name: 'amount', type: 'number' },
          ],
          rows: [
            { region, amount: 12 },
            { region, amount: 30 },
          ],
        },
        rowFilters: [{ column: 'region', property: 'region' }],
      })
    : undefined;
  const org = await registerOrganization(t, world);
  const { userId } = await registerUser(t, world, {
    projectOrganizationId: org.projectOrganizationId,
    properties: { region },
  });
  const tokenRes = await t.http.post(USER_TOKEN, { ...world.creds(), userId });
  const tokenData = dataOf(tokenRes);
  const token = isObject(tokenData) ? tokenData['token'] : undefined;
  if (typeof token !== 'string') return;
  const agent = await t.hooks.createAgent(
    world.account.organizationId,
    world.projectId,
    connection === undefined ? {} : { connectionId: connection.connectionId },
  );
  const { version } = await t.hooks.addAgentVersion(
    world.account.organizationId,
    world.projectId,
    agent.agentId,
  );
  const ask = async (pinned: number) => {
    const res = await t.http.post(
      chatPath(agent.agentId),
      {
        messages: [{ role: 'user', content: 'total amount by region' }],
        payload: { agent_id: agent.agentId, agent_version: pinned },
      },
      { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
    );
    return {
      res,
      events: readStreamText(res.text).events.flatMap((e) => ('json' in e ? [e.json] : [])),
    };
  };
  const latest = await ask(version);
  if (!(latest.res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    w.cannot(
      'the chat part',
      `the chat route answered ${latest.res.status} without an event stream: ${latest.res.text.slice(0, 200)}`,
    );
    return;
  }
  w.serves.add('chat');
  w.saw(`chat: the agent answered an event stream (${latest.events.length} events)`);
  const first = await ask(1);
  for (const event of latest.events) {
    const type = isObject(event) ? event['type'] : undefined;
    if (typeof type !== 'string') continue;
    for (const path of pathsWhere(event, (v) => v === version)) {
      const at = pointer(path);
      const again = first.events.find((e) => isObject(e) && e['type'] === type);
      if (again !== undefined && valueAt(again, path) === 1) {
        w.chat = { versionReport: { event: type, pointer: at } };
        w.saw(
          `chat: the answering version is at ${type} ${at} (${version} when pinned to ${version}, 1 when pinned to 1)`,
        );
        w.review.push(
          `chat.examples: write questions in your agent's own words by hand (docs/targets-and-profiles.md)`,
        );
        return;
      }
    }
  }
  w.cannot('chat.versionReport', 'no event holds the pinned version at one place for both pins');
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const p of path) here = isObject(here) ? here[p] : undefined;
  return here;
}

/** The terminal's account of a discovery. */
export function renderDiscovery(d: Discovery, out: string): string {
  const lines = [
    `Draft profile written to ${out} (serves ${d.profile.serves.join(', ') || 'nothing seen'}).`,
    '',
    'Observed:',
  ];
  lines.push(...d.observed.map((o) => `  ${o}`));
  if (d.review.length > 0)
    lines.push('', 'Review before relying on it:', ...d.review.map((r) => `  - ${r}`));
  if (d.undecided.length > 0)
    lines.push(
      '',
      'Could not decide (left out of the draft):',
      ...d.undecided.map((u) => `  - ${u}`),
    );
  return `${lines.join('\n')}\n`;
}
