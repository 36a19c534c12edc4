import { externalId, organizationName, personName, properties } from '../builders.ts';
import { states, type Conformance } from '../conformance.ts';
import { registerOrganization, registerUser, type World } from './accounts.ts';

/**
 * Whom an embed-token sign-in (§4.8) names, and the fields it sends for them: the
 * organization by externalId (with a name), the user by id where one is known (with a name,
 * properties and, when given, a role).
 */
export interface SignIn {
  readonly externalId: string;
  readonly organizationName: string;
  /** Undefined only for a user the sign-in creates without an id (the service makes one). */
  readonly userId?: string;
  readonly userName: string;
  readonly properties: Record<string, unknown>;
  readonly userRoleId?: string;
  /** The organization's properties as registered, where the sign-in sends them too. */
  readonly organizationProperties?: Record<string, unknown>;
  /**
   * True when the project did not hold the organization and the user before the sign-in: the
   * sign-in creates them (decision tokens.embed-token.creates, which the test then relies on).
   */
  readonly creates: boolean;
}

/** What a test asks of the person signing in; whatever it leaves out is made up. */
export interface SignInAsk {
  readonly userId?: string;
  readonly userName?: string;
  readonly properties?: Record<string, unknown>;
  readonly userRoleId?: string;
}

/** Whether the profile follows embed-token creating what it names (tokens.embed-token.creates). */
export function embedCreates(t: Pick<Conformance, 'profile'>): boolean {
  return states(t, 'tokens.embed-token.creates');
}

/**
 * Someone an embed-token sign-in may name on this target. Where the profile follows
 * tokens.embed-token.creates, an organization and a user the project does not hold: the
 * sign-in creates them, and the test relies on that decision from here on. Otherwise both are
 * registered first through what the document fixes (§4.4, §4.5, the user in the organization)
 * with the very fields the sign-in then sends, so the sign-in finds them as they stand and is
 * accepted whatever the target decides on creating and on updating (tokens.embed-token.creates,
 * tokens.embed-token.upserts).
 */
export async function signInFor(t: Conformance, w: World, ask: SignInAsk = {}): Promise<SignIn> {
  const who = {
    externalId: externalId(t.faker),
    organizationName: organizationName(t.faker),
    userName: ask.userName ?? personName(t.faker),
    properties: ask.properties ?? properties(t.faker),
    ...(ask.userRoleId === undefined ? {} : { userRoleId: ask.userRoleId }),
  };
  if (embedCreates(t)) {
    t.relyOn('tokens.embed-token.creates');
    return { ...who, ...(ask.userId === undefined ? {} : { userId: ask.userId }), creates: true };
  }
  const org = await registerOrganization(t, w, {
    externalId: who.externalId,
    name: who.organizationName,
  });
  const { userId } = await registerUser(t, w, {
    name: who.userName,
    properties: who.properties,
    projectOrganizationId: org.projectOrganizationId,
    ...(ask.userId === undefined ? {} : { userId: ask.userId }),
    ...(ask.userRoleId === undefined ? {} : { userRoleId: ask.userRoleId }),
  });
  return { ...who, userId, creates: false };
}
