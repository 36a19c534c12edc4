import type { TargetProfile } from '../spec/profile.ts';
import { isObject, type JsonObject } from './answer.ts';
import { isCall } from './endpoints.ts';
import type { Transform } from './transform.ts';

/**
 * `requests.renamed`: the request members whose names the document leaves open, named otherwise.
 * §4.9 gives the concepts of register-tenant and no names, §4.8 names only user.userRoleId
 * inside embed-token's organization and user, §4.13 gives list-workspaces a team and a project
 * filter and no query names. The printed profile states the new names; the proxy carries a
 * request in those names over to the target's own (its base profile), and a member sent under
 * the target's own name, which a server naming it otherwise would not know, is left out of what
 * the target receives.
 */

const REGISTER_TENANT = 'POST /v1/api/tenant/register-tenant';
const EMBED_TOKEN = 'POST /v1/api/projects/embed-token';
const LIST_WORKSPACES = 'GET /v1/api/dashboard/list-workspaces';

/** The names this server gives each concept (none of them any other server's name here). */
export const RENAMED = {
  registerTenant: {
    name: 'displayName',
    columns: 'splitColumns',
    schema: 'splitSchema',
    uniqueKey: 'legacyKey',
    permissions: 'editing',
    connectionOverride: 'connection',
    metadata: 'attributes',
    expiration: 'tokenLifetime',
  },
  embedToken: {
    organization: { externalId: 'ref', name: 'title', properties: 'traits' },
    user: { id: 'uid', name: 'fullName', properties: 'traits' },
  },
  listWorkspacesFilters: { team: 'team', project: 'project' },
} as const;

/** Pairs (client's name, target's name) for the concepts `own` names. */
function pairs(
  own: Readonly<Record<string, unknown>> | undefined,
  renamed: Readonly<Record<string, string>>,
): [string, string][] {
  if (own === undefined) return [];
  return Object.entries(renamed).flatMap(([concept, name]) => {
    const target = own[concept];
    return typeof target === 'string' ? [[name, target] as [string, string]] : [];
  });
}

/** `members` carried from the client's names to the target's; undefined when nothing changed. */
function carried(members: JsonObject, names: readonly [string, string][]): JsonObject | undefined {
  const out: JsonObject = {};
  const theirs = new Set(names.map(([, target]) => target));
  const ours = new Map(names);
  let changed = false;
  for (const [key, value] of Object.entries(members)) {
    const target = ours.get(key);
    if (target !== undefined) {
      out[target] = value;
      changed = true;
    } else if (theirs.has(key)) {
      // A name this server does not use: it never reaches the target.
      changed = true;
    } else out[key] = value;
  }
  return changed ? out : undefined;
}

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

interface Names {
  readonly registerTenant: [string, string][];
  readonly organization: [string, string][];
  readonly user: [string, string][];
  readonly filters: [string, string][];
}

function namesOf(base: TargetProfile | undefined): Names {
  const shapes = base?.shapes;
  const { examples: _examples, ...tenant } = shapes?.registerTenant ?? {};
  return {
    registerTenant: pairs(
      shapes?.registerTenant === undefined ? undefined : tenant,
      RENAMED.registerTenant,
    ),
    organization: pairs(shapes?.embedToken?.organization, RENAMED.embedToken.organization),
    user: pairs(shapes?.embedToken?.user, RENAMED.embedToken.user),
    filters: pairs(shapes?.listWorkspacesFilters, RENAMED.listWorkspacesFilters),
  };
}

/**
 * The request as the target names its members: a new URL or body, or undefined when the request
 * is none of the three calls or holds nothing renamed.
 */
export function requestInTargetNames(
  base: TargetProfile | undefined,
  method: string,
  url: string,
  body: Buffer,
): { url: string; body: Buffer } | undefined {
  const names = namesOf(base);
  if (isCall(LIST_WORKSPACES, method, url)) {
    const [path = '', query = ''] = url.split('?', 2);
    const ours = new Map(names.filters);
    const theirs = new Set(names.filters.map(([, target]) => target));
    const next = new URLSearchParams();
    let changed = false;
    for (const [k, v] of new URLSearchParams(query)) {
      const target = ours.get(k);
      if (target !== undefined) next.append(target, v);
      // A name this server does not use: it never reaches the target.
      else if (!theirs.has(k)) next.append(k, v);
      changed ||= target !== undefined || theirs.has(k);
    }
    if (!changed) return undefined;
    const rest = next.toString();
    return { url: rest === '' ? path : `${path}?${rest}`, body };
  }
  const register = isCall(REGISTER_TENANT, method, url);
  const embed = isCall(EMBED_TOKEN, method, url);
  if (!register && !embed) return undefined;
  const value = json(body);
  if (!isObject(value)) return undefined;
  let out: JsonObject | undefined;
  if (register) out = carried(value, names.registerTenant);
  else {
    const next = { ...value };
    let changed = false;
    for (const [member, list] of [
      ['organization', names.organization],
      ['user', names.user],
    ] as const) {
      const inner = value[member];
      const mapped = isObject(inner) ? carried(inner, list) : undefined;
      if (mapped !== undefined) {
        next[member] = mapped;
        changed = true;
      }
    }
    out = changed ? next : undefined;
  }
  if (out === undefined) return undefined;
  try {
    return { url, body: Buffer.from(JSON.stringify(out), 'utf8') };
  } catch {
    // Too deep to write again here (the stack gives out): it goes as sent, for the target to
    // refuse as the body it is.
    return undefined;
  }
}

/** The profile stating the new names where `profile` states names at all. */
export function renamedProfile(profile: TargetProfile): TargetProfile {
  const shapes = profile.shapes;
  const rename = <T extends Record<string, unknown>>(
    own: T | undefined,
    renamed: Readonly<Record<string, string>>,
  ): T | undefined =>
    own === undefined
      ? undefined
      : (Object.fromEntries(
          Object.entries(own).map(([concept, name]) => [
            concept,
            typeof name === 'string' && renamed[concept] !== undefined ? renamed[concept] : name,
          ]),
        ) as T);
  const registerTenant = rename(shapes.registerTenant, RENAMED.registerTenant);
  const embedToken =
    shapes.embedToken === undefined
      ? undefined
      : {
          ...shapes.embedToken,
          organization:
            rename(shapes.embedToken.organization, RENAMED.embedToken.organization) ??
            shapes.embedToken.organization,
          user: rename(shapes.embedToken.user, RENAMED.embedToken.user) ?? shapes.embedToken.user,
        };
  const listWorkspacesFilters = rename(shapes.listWorkspacesFilters, RENAMED.listWorkspacesFilters);
  return {
    ...profile,
    shapes: {
      ...shapes,
      ...(registerTenant === undefined ? {} : { registerTenant }),
      ...(embedToken === undefined ? {} : { embedToken }),
      ...(listWorkspacesFilters === undefined ? {} : { listWorkspacesFilters }),
    },
  };
}

/**
 * The entry as the proxy carries it: no answer changes; the proxy carries requests over to the
 * target's names (proxy.ts, `requestInTargetNames`).
 */
export const requestsRenamed: Transform = {
  id: 'requests.renamed',
  apply: () => undefined,
  restate: renamedProfile,
};
