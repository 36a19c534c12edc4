import {
  SignJWT,
  decodeJwt,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { specError, type SpecError } from '../../spec/errors.ts';
import type { Expiration } from '../../spec/schemas/common.ts';
import { issueLifetime } from '../../spec/machines/token.ts';

/** Decision T3: who signs and for whom. */
export const ISSUER = 'eac-reference';
export const AUDIENCE = 'embedded-analytics';
const ALG = 'ES256';

/** Claims the reference puts in its tokens (decision T3), on top of iss/aud/sub/iat/exp/jti. */
export interface EacClaims {
  readonly kind: 'project-user' | 'tenant';
  /** Customer organization (account) that issued the token. */
  readonly org: string;
  readonly [claim: string]: unknown;
}

export interface Issued {
  readonly token: string;
  readonly expiresAt: string;
}

export type Verified = { readonly ok: true; readonly sub: string; readonly claims: JWTPayload & EacClaims } | { readonly ok: false; readonly error: SpecError };

export class TokenService {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK,
    private readonly kid: string,
  ) {}

  static async create(kid: string): Promise<TokenService> {
    const { privateKey, publicKey } = await generateKeyPair(ALG);
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    return new TokenService(privateKey, publicKey, jwk, kid);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  /** Signs a token whose lifetime starts at `now` on the account clock (decision T1). */
  async issue(subject: string, claims: EacClaims, jti: string, now: number, expiration?: Expiration): Promise<Issued> {
    const life = issueLifetime(now, expiration);
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: ALG, kid: this.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setJti(jti)
      .setIssuedAt(life.iat)
      .setExpirationTime(life.exp)
      .sign(this.privateKey);
    return { token, expiresAt: life.expiresAt };
  }

  /** The organization a token claims to come from, read before its signature is checked. */
  static claimedOrganization(token: string): string | undefined {
    try {
      const org = decodeJwt(token)['org'];
      return typeof org === 'string' ? org : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Checks signature, issuer, audience and lifetime against the account clock `now`
   * (decision T2: valid while now < exp; jose refuses from exp on).
   */
  async verify(token: string, now: number): Promise<Verified> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: [ALG],
        currentDate: new Date(now),
      });
      const { kind, org, sub } = payload;
      if ((kind !== 'project-user' && kind !== 'tenant') || typeof org !== 'string' || typeof sub !== 'string') {
        return { ok: false, error: specError('UNAUTHORIZED', 'the token is not one of ours', { reason: 'invalid-token' }) };
      }
      return { ok: true, sub, claims: { ...payload, kind, org } };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) {
        return { ok: false, error: specError('UNAUTHORIZED', 'the token has expired', { reason: 'token-expired' }) };
      }
      return { ok: false, error: specError('UNAUTHORIZED', 'the token is invalid', { reason: 'invalid-token' }) };
    }
  }
}
