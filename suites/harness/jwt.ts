import { decodeJwt, decodeProtectedHeader } from 'jose';

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

/** The protected header of a JWS, unverified, or undefined when it is not one. */
export function headerOf(token: string): Record<string, unknown> | undefined {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return undefined;
  }
}

/** The value at a dot-separated member path (a profile's claim path, e.g. `sub`), if any. */
export function claimAt(payload: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A copy of `payload` with `value` at the member path (objects on the way are copied). */
export function withClaimAt(
  payload: Readonly<Record<string, unknown>>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  const [head = '', ...rest] = path.split('.');
  const inner = payload[head];
  return {
    ...payload,
    [head]:
      rest.length === 0
        ? value
        : withClaimAt(
            typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {},
            rest.join('.'),
            value,
          ),
  };
}
