import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt, errors, jwtVerify } from 'jose';
import { unauthorized } from './errors.ts';
import type { Effective } from './permissions.ts';

/**
 * JWTs of this service: HS256 with a secret made at start-up (no key set is published).
 * Claims of a project-user token: `sub` the user, `acct` the customer organization, `knd`
 * 'pu', and `ctx` {prj, org, role, perms, props, name}. A tenant token: `knd` 'tn', `sub` the
 * tenant.
 */

const SECRET = randomBytes(32);
const ISSUER = 'blind-1';

export const EXPIRATIONS = {
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '2h': 7200,
  '6h': 21600,
  '12h': 43200,
  '24h': 86400,
  '7d': 604800,
} as const;
export type Expiration = keyof typeof EXPIRATIONS;
export const EXPIRATION_VALUES = Object.keys(EXPIRATIONS) as [Expiration, ...Expiration[]];

export interface UserContext {
  prj: string;
  org: string | null;
  role: string | null;
  perms: Effective;
  props: Record<string, unknown>;
  name: string;
}

export interface UserClaims {
  knd: 'pu';
  sub: string;
  acct: string;
  ctx: UserContext;
}

export interface TenantClaims {
  knd: 'tn';
  sub: string;
  acct: string;
}

export type Claims = UserClaims | TenantClaims;

export async function sign(
  claims: Claims,
  nowMs: number,
  expiration: Expiration,
): Promise<{ token: string; expiresAtMs: number }> {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + EXPIRATIONS[expiration];
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomBytes(9).toString('base64url'))
    .sign(SECRET);
  return { token, expiresAtMs: exp * 1000 };
}

export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

/** The account a token names, read before verification (to pick the account's clock). */
export function peekAccount(token: string): string | null {
  try {
    const payload = decodeJwt(token);
    return typeof payload.acct === 'string' ? payload.acct : null;
  } catch {
    return null;
  }
}

export async function verify(token: string, nowMs: number): Promise<Claims> {
  try {
    const { payload } = await jwtVerify(token, SECRET, {
      issuer: ISSUER,
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
    });
    if (
      (payload.knd === 'pu' || payload.knd === 'tn') &&
      typeof payload.sub === 'string' &&
      typeof payload.acct === 'string'
    )
      return payload as unknown as Claims;
    throw unauthorized('invalid-token', 'The token is not a token of this service.');
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      throw unauthorized('token-expired', 'The token has expired.');
    if (error instanceof errors.JOSEError)
      throw unauthorized('invalid-token', 'The token is not valid.');
    throw error;
  }
}
