import {
  SignJWT,
  compactVerify,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { specError, type SpecError } from '../../spec/errors.ts';
import type { Expiration } from '../../spec/schemas/common.ts';
import { issueLifetime, tokenState } from '../../spec/machines/token.ts';

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

export type Verified =
  | { readonly ok: true; readonly sub: string; readonly claims: JWTPayload & EacClaims }
  | { readonly ok: false; readonly error: SpecError };

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
  async issue(
    subject: string,
    claims: EacClaims,
    jti: string,
    now: number,
    expiration?: Expiration,
  ): Promise<Issued> {
    const life = issueLifetime(now, expiration);
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({
        alg: ALG,
        kid: this.kid,
        // Stryker disable next-line StringLiteral: free text: typ is optional (RFC 7519) and no clause lists it
        typ: 'JWT',
      })
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
   * Checks the signature with jose, then issuer, audience and lifetime here, so that the
   * lifetime rule is the token machine's own (decision T2: valid while now < exp).
   */
  async verify(token: string, now: number): Promise<Verified> {
    const invalid = {
      ok: false,
      error: specError('UNAUTHORIZED', 'the token is invalid', { reason: 'invalid-token' }),
    } as const;
    let payload: JWTPayload;
    try {
      // Stryker disable next-line ObjectLiteral: equivalent: jose refuses every alg but ES256 for this P-256 key anyway
      const verified = await compactVerify(token, this.publicKey, { algorithms: [ALG] });
      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;
    } catch {
      return invalid;
    }
    const { kind, org, sub, exp, iss, aud } = payload;
    // Stryker disable next-line LogicalOperator: equivalent: only its own signed tokens get here, all with these claims
    if (iss !== ISSUER || aud !== AUDIENCE || typeof exp !== 'number' || typeof sub !== 'string')
      return invalid;
    if ((kind !== 'project-user' && kind !== 'tenant') || typeof org !== 'string') return invalid;
    if (tokenState(exp, now) === 'expired') {
      return {
        ok: false,
        error: specError(
          'UNAUTHORIZED',
          // Stryker disable next-line StringLiteral: free text: the message of a refusal no decision words
          'the token has expired',
          { reason: 'token-expired' },
        ),
      };
    }
    return { ok: true, sub, claims: { ...payload, kind, org } };
  }
}
