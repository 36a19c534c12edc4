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

/**
 * The member names along a claim path as a profile states it: a dot-separated path (`sub`,
 * `ctx.role`) or a JSON pointer (RFC 6901: `/ctx/role`, `~1` for a slash and `~0` for a tilde in
 * a name), so that any claim name, a namespaced URL included, can be reached.
 */
export function claimSteps(path: string): string[] {
  if (!path.startsWith('/')) return path.split('.');
  return path
    .slice(1)
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The value at a profile's claim path (see claimSteps), if any. */
export function claimAt(payload: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = payload;
  for (const step of claimSteps(path)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** A copy of `payload` with `value` at the claim path (objects on the way are copied). */
export function withClaimAt(
  payload: Readonly<Record<string, unknown>>,
  path: string,
  value: unknown,
): Record<string, unknown> {
  return withSteps(payload, claimSteps(path), value);
}

function withSteps(
  payload: Readonly<Record<string, unknown>>,
  steps: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head = '', ...rest] = steps;
  const inner = payload[head];
  return {
    ...payload,
    [head]:
      rest.length === 0
        ? value
        : withSteps(
            typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {},
            rest,
            value,
          ),
  };
}
