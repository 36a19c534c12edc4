import type { TokenClaimsShape } from '../../spec/profile.ts';
import type { z } from 'zod';
import type { Conformance } from './conformance.ts';
import { claimsOf } from './jwt.ts';

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
    t.notRun(`the target's profile names no token claim for ${name} (shapes.tokenClaims)`);
  let at: unknown = claimsOf(token);
  for (const step of path.split('.')) {
    at =
      typeof at === 'object' && at !== null && !Array.isArray(at)
        ? (at as Record<string, unknown>)[step]
        : undefined;
  }
  // A claim left out can mean "none" (no role, say), where the caller says so.
  if (at === undefined && options.absentMeansNone !== true)
    throw new Error(
      `the token carries nothing at ${path}, where the target's profile puts ${name}`,
    );
  return at;
}

/** The effective §2.2 permissions a token carries, as an object of flags (profile path). */
export function permissionsClaim(t: Conformance, token: string): Record<string, unknown> {
  const perm = claimAt(t, token, 'permissions');
  if (typeof perm !== 'object' || perm === null || Array.isArray(perm))
    throw new Error(
      `the token carries ${JSON.stringify(perm)}, not an object of flags, where the target's ` +
        'profile puts permissions',
    );
  return perm as Record<string, unknown>;
}
