import { decodeJwt } from 'jose';

/**
 * The claims of a JWT, unverified, or undefined when it is not one. Which claims a token
 * carries is the reference's decision (clause tokens.claims); tests that read one end as
 * not-run when a target's tokens lack it.
 */
export function claimsOf(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}
