import type { TokenClaimsShape } from '../../spec/profile.ts';
import { cause } from './causes.ts';
import type { z } from 'zod';
import type { Conformance } from './conformance.ts';
import { claimAt as readClaim, claimsOf } from './jwt.ts';
import { canonicalId } from './ids.ts';

type ClaimName = keyof z.infer<typeof TokenClaimsShape>;

/** The clause of our claim decision; a test that reads a claim declares it in `relies`. */
export const CLAIMS_DECISION = 'tokens.claims' as const;

/**
 * What a target's project-user token carries at the path its profile names for `name`
 * (§5 rule 8 leaves token contents open, so the profile says where things are). The test
 * ends not-run when the profile names no path. When it names one and the token holds nothing
 * there, the target contradicts its own profile and the test fails (unless the caller reads an
 * absent claim as "none": then undefined); a not-run there would hide a server that drops the
 * claim.
 */
export function claimAt(
  t: Conformance,
  token: string,
  name: ClaimName,
  options: { readonly absentMeansNone?: boolean } = {},
): unknown {
  const path = t.profile.shapes.tokenClaims?.[name];
  if (path === undefined)
    t.notRun(
      `the target's profile names no token claim for ${name} (shapes.tokenClaims)`,
      cause.shape(`shapes.tokenClaims.${name}`),
    );
  const at = readClaim(claimsOf(token) ?? {}, path);
  // A claim left out can mean "none" (no role, say), where the caller says so.
  if (at === undefined && options.absentMeansNone !== true)
    throw new Error(
      `the token carries nothing at ${path}, where the target's profile puts ${name}`,
    );
  // The user, role and organization are ids: compared as §1 allows (ids.ts).
  return ID_CLAIMS.has(name) && typeof at === 'string' ? canonicalId(at) : at;
}

const ID_CLAIMS: ReadonlySet<ClaimName> = new Set(['subject', 'role', 'projectOrganization']);

/**
 * The effective §2.2 permissions a token carries, as an object of the flags it shows on (`true`)
 * and, in the object form, off: read at the profile's path in the form the profile states
 * (shapes.tokenClaims.permissionsForm: an object of booleans by default, the granted flags' names
 * as an array or a space-separated string). A flag a granted-names form leaves out is off. A
 * form the profile cannot state (`other`) ends the test not-run; a claim that is not in the
 * stated form fails it, since the target then contradicts its own profile.
 */
export function permissionsClaim(t: Conformance, token: string): Record<string, unknown> {
  const form = t.profile.shapes.tokenClaims?.permissionsForm ?? 'object';
  if (form === 'other')
    t.notRun(
      "the target's permissions claim is in a form the profile cannot state (shapes.tokenClaims.permissionsForm: other)",
      // No entry would let it run: the form is the target's, and the profile has no word for it.
      cause.other('a permissions claim in a form the profile cannot state'),
    );
  const perm = claimAt(t, token, 'permissions');
  const granted = grantedNames(perm, form);
  if (granted !== undefined) return Object.fromEntries(granted.map((flag) => [flag, true]));
  if (form === 'object' && typeof perm === 'object' && perm !== null && !Array.isArray(perm))
    return perm as Record<string, unknown>;
  throw new Error(
    `the token carries ${JSON.stringify(perm)} where the target's profile puts permissions, ` +
      `not ${FORM_WORDS[form]}`,
  );
}

const FORM_WORDS = {
  object: 'an object of flags',
  array: 'an array of granted flag names',
  string: 'a string of granted flag names separated by spaces',
} as const;

/** The granted flag names of a claim in the array or string form; undefined otherwise. */
function grantedNames(perm: unknown, form: 'object' | 'array' | 'string'): string[] | undefined {
  if (form === 'array' && Array.isArray(perm) && perm.every((f) => typeof f === 'string'))
    return perm;
  if (form === 'string' && typeof perm === 'string') return perm.split(' ').filter((f) => f !== '');
  return undefined;
}
