import { createHash } from 'node:crypto';
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
import { issueLifetime, tokenState, type TokenEnd } from '../../spec/machines/token.ts';
import { laidOut, type ClaimsLayout, type EacClaims, type PermissionsForm } from './claims.ts';

/** Decision tokens.claims: who signs and for whom. */
export const ISSUER = 'eac-reference';
export const AUDIENCE = 'embedded-analytics';
const ES256 = 'ES256';
const HS256 = 'HS256';

/**
 * How tokens are signed (§5 rule 8 leaves it open): ES256 with a key pair whose public half is
 * served as a JSON Web Key Set, or HS256 with a secret the service alone holds and no key set.
 */
export type Signing = typeof ES256 | typeof HS256;

export interface Issued {
  readonly token: string;
  readonly expiresAt: string;
}

export type Verified =
  | { readonly ok: true; readonly sub: string; readonly claims: JWTPayload & EacClaims }
  | { readonly ok: false; readonly error: SpecError };

export class TokenService {
  /**
   * `privateKey` signs and `publicKey` checks: the two halves of the ES256 pair, or for HS256
   * the one secret key both times (and then there is no JWK to publish).
   */
  private constructor(
    private readonly alg: Signing,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    private readonly publicJwk: JWK | undefined,
    private readonly kid: string,
    private readonly layout: ClaimsLayout,
    private readonly permissionsForm: PermissionsForm,
    private readonly end: TokenEnd,
  ) {}

  /**
   * A token service signing in `signing` (ES256 by default), its HS256 secret made from `seed`
   * so that a run can be replayed, laying project-user claims out in `layout` (flat by default)
   * with the permissions in `permissionsForm` (an object of flags by default).
   */
  static async create(
    kid: string,
    options: {
      signing?: Signing;
      seed?: number;
      layout?: ClaimsLayout;
      permissionsForm?: PermissionsForm;
      end?: TokenEnd;
    } = {},
  ): Promise<TokenService> {
    const {
      signing = ES256,
      seed = 0,
      layout = 'flat',
      permissionsForm = 'object',
      end = 'at-expires-at',
    } = options;
    if (signing === HS256) {
      const secret = createHash('sha256')
        .update(`eac-reference-secret:${String(seed)}`)
        .digest();
      const key = await crypto.subtle.importKey(
        'raw',
        secret,
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      );
      return new TokenService(HS256, key, key, undefined, kid, layout, permissionsForm, end);
    }
    const { privateKey, publicKey } = await generateKeyPair(ES256);
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: ES256, use: 'sig' };
    return new TokenService(ES256, privateKey, publicKey, jwk, kid, layout, permissionsForm, end);
  }

  /** The JSON Web Key Set of the public key, or undefined when tokens are signed with a secret. */
  jwks(): { keys: JWK[] } | undefined {
    return this.publicJwk === undefined ? undefined : { keys: [this.publicJwk] };
  }

  /**
   * Signs a token whose lifetime starts at `now` on the account clock (decision
   * tokens.issue-time.whole-seconds).
   */
  async issue(
    subject: string,
    claims: EacClaims,
    jti: string,
    now: number,
    expiration?: Expiration,
  ): Promise<Issued> {
    const life = issueLifetime(now, expiration, this.end);
    const token = await new SignJWT({
      ...laidOut(claims, subject, this.layout, this.permissionsForm),
    })
      .setProtectedHeader({
        alg: this.alg,
        // A key id only names a key of the published set.
        ...(this.publicJwk === undefined ? {} : { kid: this.kid }),
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
   * lifetime rule is the token machine's own (decision tokens.validity.exp-exclusive: valid while
   * now < exp).
   */
  async verify(token: string, now: number): Promise<Verified> {
    const invalid = {
      ok: false,
      error: specError('UNAUTHORIZED', 'the token is invalid', { reason: 'invalid-token' }),
    } as const;
    // The one algorithm this service signs with, so the only one it verifies.
    const ALG = this.alg;
    let payload: JWTPayload;
    try {
      const verified = await compactVerify(token, this.publicKey, { algorithms: [ALG] });
      payload = JSON.parse(new TextDecoder().decode(verified.payload)) as JWTPayload;
    } catch {
      return invalid;
    }
    const { kind, org, sub, exp, iss, aud } = payload;
    if (iss !== ISSUER || aud !== AUDIENCE || typeof exp !== 'number' || typeof sub !== 'string')
      return invalid;
    if ((kind !== 'project-user' && kind !== 'tenant') || typeof org !== 'string') return invalid;
    if (tokenState(exp, now) === 'expired') {
      return {
        ok: false,
        error: specError('UNAUTHORIZED', 'the token has expired', { reason: 'token-expired' }),
      };
    }
    return { ok: true, sub, claims: { ...payload, kind, org } };
  }
}
