import type { ClauseId } from '../../spec/clauses/index.ts';
import { cause } from './causes.ts';
import type { ProfilePart } from '../../spec/profile.ts';
import { externalId, organizationName, personName, properties } from './builders.ts';
import { expect } from 'vitest';
import { z } from 'zod';
import { IsoUtc } from '../../spec/schemas/common.ts';
import type { Conformance } from './conformance.ts';
import type { SignIn } from './given/sign-in.ts';
import { expectSuccess } from './expect.ts';
import type { Reply } from './http.ts';
import {
  EMBED_TOKEN,
  REGISTER_ORGANIZATION,
  REGISTER_TENANT,
  REGISTER_USER,
  USER_TOKEN,
  rolePath,
  rolesPath,
  userPath,
} from './paths.ts';

/**
 * The identity endpoints of §4.1–§4.9 as data: method, where §5 puts the API key, and
 * builders of a request each one accepts. Tables of checks (credentials, isolation) run
 * over these rows instead of spelling each endpoint out again (STYLE 14).
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** §5 table: POST and PUT carry the key in the JSON body, GET and DELETE in the query. */
export type Carrier = 'body' | 'query';

export interface Endpoint {
  readonly name: string;
  readonly method: Method;
  readonly carrier: Carrier;
  /** The §5 clause that puts the key where `carrier` says. */
  readonly carrierClause: ClauseId;
  /**
   * Unspecified clauses whose decision (as the profile states it) a request of this
   * endpoint leans on: field names the document leaves open.
   */
  readonly relies: readonly ClauseId[];
  /** The part of the document a target must serve for the endpoint to be called. */
  readonly part: ProfilePart;
}

function endpoint(
  name: string,
  method: Method,
  relies: readonly ClauseId[] = [],
  part: ProfilePart = 'identity',
): Endpoint {
  const body = method === 'POST' || method === 'PUT';
  return {
    name,
    method,
    part,
    carrier: body ? 'body' : 'query',
    carrierClause: body ? 'auth.api-key.body-for-post-put' : 'auth.api-key.query-for-get-delete',
    relies,
  };
}

export const ROLE_UPDATE = endpoint('role update', 'PUT');
export const ROLE_LIST = endpoint('role list', 'GET');
export const ROLE_DELETE = endpoint('role delete', 'DELETE');
export const REGISTER_ORGANIZATION_EP = endpoint('register-organization', 'POST');
export const REGISTER_USER_EP = endpoint('register-user', 'POST');
export const USER_UPDATE = endpoint('user update', 'PUT');
export const USER_TOKEN_EP = endpoint('user-token', 'POST');
/** §4.8 shows only user.userRoleId; the other member names are the profile's (decision). */
export const EMBED_TOKEN_EP = endpoint('embed-token', 'POST', ['tokens.embed-token.body-shape']);
/** §4.9 names the concepts only; the field names are the profile's (decision). */
export const REGISTER_TENANT_EP = endpoint(
  'register-tenant',
  'POST',
  ['tenants.register.field-names'],
  'tenant-flow',
);

/** One request of an endpoint, credentials left out. */
export interface Request {
  readonly endpoint: Endpoint;
  readonly path: string;
  /** Fields of the JSON body (POST, PUT); a GET or DELETE sends none. */
  readonly fields: Readonly<Record<string, unknown>>;
}

interface InProject {
  readonly projectId: string;
}

/** §4.1: a new name and a permissions object that replaces the role's. */
export function roleUpdate(t: Conformance, at: InProject, roleId: string): Request {
  return {
    endpoint: ROLE_UPDATE,
    path: rolePath(at, roleId),
    fields: { name: `renamed ${t.faker.string.alphanumeric(6)}`, permissions: { readOnly: true } },
  };
}

export function roleList(at: InProject): Request {
  return { endpoint: ROLE_LIST, path: rolesPath(at), fields: {} };
}

export function roleDelete(at: InProject, roleId: string): Request {
  return { endpoint: ROLE_DELETE, path: rolePath(at, roleId), fields: {} };
}

/** §4.4, with a fresh externalId (returned in the fields) unless one is given. */
export function registerOrganization(
  t: Conformance,
  at: InProject,
  ext: string = externalId(t.faker),
): Request {
  return {
    endpoint: REGISTER_ORGANIZATION_EP,
    path: REGISTER_ORGANIZATION,
    fields: {
      projectId: at.projectId,
      name: organizationName(t.faker),
      externalId: ext,
      properties: properties(t.faker),
    },
  };
}

/** §4.5, with the caller's userId and any of the references it may carry. */
export function registerUser(
  t: Conformance,
  at: InProject,
  more: { userId?: string; userRoleId?: string; projectOrganizationId?: string } = {},
): Request {
  return {
    endpoint: REGISTER_USER_EP,
    path: REGISTER_USER,
    fields: {
      projectId: at.projectId,
      name: personName(t.faker),
      properties: properties(t.faker),
      ...more,
    },
  };
}

/** §4.6: name is required; the rest replaces what is stored. */
export function userUpdate(
  at: InProject,
  userId: string,
  fields: Readonly<Record<string, unknown>> & { readonly name: string },
): Request {
  return { endpoint: USER_UPDATE, path: userPath(at, userId), fields };
}

export function userToken(userId: string): Request {
  return { endpoint: USER_TOKEN_EP, path: USER_TOKEN, fields: { userId } };
}

/** Whom an embed-token request names; the display names drawn only where the profile has them. */
interface EmbedWho {
  readonly externalId: string;
  readonly organizationName: () => string;
  readonly userName: () => string;
  readonly properties?: Record<string, unknown>;
  readonly userId?: string;
  readonly userRoleId?: string;
  /** The organization's properties, sent only when given and the profile names the member. */
  readonly organizationProperties?: Record<string, unknown>;
}

/** §4.8 with the member names of the target's profile (shapes.embedToken). */
function embedRequest(t: Conformance, at: InProject, who: EmbedWho): Request {
  const names = t.profile.shapes.embedToken;
  if (names === undefined)
    t.notRun(
      'the profile names no embed-token members (shapes.embedToken)',
      cause.shape('shapes.embedToken'),
    );
  const organization: Record<string, unknown> = { [names.organization.externalId]: who.externalId };
  if (names.organization.name !== undefined)
    organization[names.organization.name] = who.organizationName();
  if (names.organization.properties !== undefined && who.organizationProperties !== undefined)
    organization[names.organization.properties] = who.organizationProperties;
  const person: Record<string, unknown> = {};
  if (names.user.name !== undefined) person[names.user.name] = who.userName();
  if (names.user.properties !== undefined && who.properties !== undefined)
    person[names.user.properties] = who.properties;
  if (who.userId !== undefined) {
    if (names.user.id === undefined)
      t.notRun(
        'the profile names no member for the embed-token user id',
        cause.shape('shapes.embedToken.user.id'),
      );
    person[names.user.id] = who.userId;
  }
  // §4.8 names user.userRoleId itself.
  if (who.userRoleId !== undefined) person['userRoleId'] = who.userRoleId;
  return {
    endpoint: EMBED_TOKEN_EP,
    path: EMBED_TOKEN,
    fields: { projectId: at.projectId, organization, user: person },
  };
}

/**
 * §4.8 naming the organization by `ext` and the user by `userId` (a role when given), with
 * display names made up here. Not-run when the profile has no names.
 */
export function embedToken(
  t: Conformance,
  at: InProject,
  ext: string,
  user: { userId?: string; userRoleId?: string } = {},
): Request {
  return embedRequest(t, at, {
    externalId: ext,
    organizationName: () => organizationName(t.faker),
    userName: () => personName(t.faker),
    ...user,
  });
}

/**
 * §4.8 for a sign-in made by given/sign-in.ts `signInFor`: the organization and the user with
 * the very fields it registered them with, or, where the sign-in creates them, made up there.
 */
export function signInRequest(t: Conformance, at: InProject, who: SignIn): Request {
  return embedRequest(t, at, {
    ...who,
    organizationName: () => who.organizationName,
    userName: () => who.userName,
  });
}

/**
 * A member of an embed-token answer (§4.8 shows none of its members), read under the name the
 * target's profile gives it (shapes.embedToken.answer): the one reading of that answer. The
 * test ends not-run when the profile names no member for it, or when the answer holds no
 * string there.
 */
export function embedAnswer(
  t: Conformance,
  res: Reply,
  member: 'token' | 'expiresAt',
  what: string,
): string {
  const data = expectSuccess(res, z.record(z.string(), z.unknown()), what);
  const name = t.profile.shapes.embedToken?.answer?.[member];
  if (name === undefined)
    t.notRun(
      `the target's profile names no embed-token answer member for ${member} (§4.8)`,
      cause.shape(`shapes.embedToken.answer.${member}`),
    );
  const value = data[name];
  if (typeof value !== 'string')
    t.notRun(
      `the target's embed-token answer has no string ${name}, where its profile puts ${member}`,
      cause.shape(`shapes.embedToken.answer.${member}`),
    );
  return value;
}

/** expiresAt of an embed-token answer (embedAnswer), ISO 8601 UTC as §2.5 makes any token's. */
export function embedExpiresAt(t: Conformance, res: Reply, what: string): string {
  const expiresAt = embedAnswer(t, res, 'expiresAt', what);
  expect(
    IsoUtc.safeParse(expiresAt).success,
    `${what}: expiresAt ${expiresAt} should be ISO 8601 UTC`,
  ).toBe(true);
  return expiresAt;
}

/**
 * §4.9 with the field names of the target's profile (shapes.registerTenant): the given
 * concepts, each under the name the profile gives it, and a display name where the profile
 * names that field. Not-run when the profile names no field for a concept used.
 */
export function registerTenant(
  t: Conformance,
  concepts: Readonly<Partial<Record<TenantConcept, unknown>>>,
): Request {
  const { examples: _examples, ...names } = t.profile.shapes.registerTenant ?? {};
  // A display name goes along where the profile names the field (§4.9 lists one).
  const named = names.name === undefined ? {} : { name: organizationName(t.faker) };
  const fields: Record<string, unknown> = {};
  for (const [concept, value] of Object.entries({ ...named, ...concepts })) {
    const name = names[concept as TenantConcept];
    if (name === undefined)
      t.notRun(
        `the profile names no register-tenant field for ${concept} (shapes.registerTenant)`,
        cause.shape(`shapes.registerTenant.${concept}`),
      );
    fields[name] = value;
  }
  return { endpoint: REGISTER_TENANT_EP, path: REGISTER_TENANT, fields };
}

export type TenantConcept =
  | 'name'
  | 'columns'
  | 'schema'
  | 'uniqueKey'
  | 'permissions'
  | 'connectionOverride'
  | 'metadata'
  | 'expiration';
