import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTHeaderParameters,
} from 'jose';
import type { ClauseId } from '../../spec/clauses/index.ts';

/**
 * Tokens the service did not issue, built with jose from one it did (§2.5, §5 rule 5). Each
 * attack yields named forms; every form must be refused. The payload of every form is the
 * genuine one with a single claim changed to something that still names a valid thing (the
 * subject of another registered user, or a later expiry), so a server that skips the check
 * cannot pass by failing a look-up.
 */
export interface Genuine {
  /** The three segments of the token the server accepted. */
  readonly segments: readonly [string, string, string];
  readonly header: Readonly<Record<string, unknown>>;
  /** The accepted payload with the one claim changed. */
  readonly tampered: Readonly<Record<string, unknown>>;
  /** The published key that signs the service's tokens, when the profile names a JWKS. */
  readonly publicJwk?: JWK;
  /** Every key id the JWKS publishes. */
  readonly publishedKids: readonly string[];
}

export interface Attack {
  readonly name: string;
  readonly clause: ClauseId;
  /** Needs the target's published key (key confusion, an unknown kid). */
  readonly needsJwks: boolean;
  forge(g: Genuine, extras: Extras): Promise<Record<string, string>>;
}

/** Resources an attack may need beside the token: a place to publish a JWKS for `jku`. */
export interface Extras {
  /** Serves a JWKS over HTTP for the test's lifetime; returns its URL. */
  serveJwks(jwks: { keys: JWK[] }): Promise<string>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The asymmetric algorithm of the genuine token if jose can make such keys, else ES256. */
const ASYMMETRIC = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
];
function asymmetricAlg(header: Readonly<Record<string, unknown>>): string {
  const alg = header['alg'];
  return typeof alg === 'string' && ASYMMETRIC.includes(alg) ? alg : 'ES256';
}

async function strangerKey(alg: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, publicJwk: await exportJWK(publicKey) };
}

function sign(
  payload: Readonly<Record<string, unknown>>,
  header: Record<string, unknown>,
  key: Parameters<SignJWT['sign']>[0],
): Promise<string> {
  return new SignJWT({ ...payload }).setProtectedHeader(header as JWTHeaderParameters).sign(key);
}

/**
 * The byte strings a careless HMAC check could take as "the key": the PEM of the public key
 * (with and without the final newline, as files usually hold it) and the published JWK.
 */
async function publicKeySecrets(g: Genuine): Promise<Record<string, Uint8Array>> {
  if (g.publicJwk === undefined) return {};
  const alg = typeof g.publicJwk.alg === 'string' ? g.publicJwk.alg : asymmetricAlg(g.header);
  const key = await importJWK(g.publicJwk, alg, { extractable: true });
  if (key instanceof Uint8Array) return {};
  const pem = await exportSPKI(key);
  const text = new TextEncoder();
  return {
    'the PEM': text.encode(pem.trimEnd()),
    'the PEM with its final newline': text.encode(`${pem.trimEnd()}\n`),
    'the published JWK as JSON': text.encode(JSON.stringify(g.publicJwk)),
  };
}

const kidOf = (g: Genuine) => (typeof g.header['kid'] === 'string' ? { kid: g.header['kid'] } : {});

function unknownKid(g: Genuine): string {
  let kid = 'eac-forged-key';
  while (g.publishedKids.includes(kid)) kid += '-x';
  return kid;
}

export const ATTACKS: readonly Attack[] = [
  {
    name: 'a payload changed after signing',
    clause: 'security.tokens.signature-checked',
    needsJwks: false,
    forge: (g) => {
      const [head, , signature] = g.segments;
      return Promise.resolve({
        'old header and signature': `${head}.${b64(g.tampered)}.${signature}`,
      });
    },
  },
  {
    name: 'an unsigned token (alg none)',
    clause: 'security.tokens.alg-none-refused',
    needsJwks: false,
    forge: (g) => {
      const body = b64(g.tampered);
      const forms: Record<string, string> = {};
      for (const alg of ['none', 'None', 'NONE']) {
        forms[`alg ${alg}, no signature`] = `${b64({ ...g.header, alg })}.${body}.`;
      }
      forms['alg none, old signature kept'] =
        `${b64({ ...g.header, alg: 'none' })}.${body}.${g.segments[2]}`;
      return Promise.resolve(forms);
    },
  },
  {
    name: 'a token MACed with the public key (key confusion)',
    clause: 'security.tokens.key-confusion-refused',
    needsJwks: true,
    forge: async (g) => {
      const forms: Record<string, string> = {};
      for (const [what, secret] of Object.entries(await publicKeySecrets(g))) {
        for (const alg of ['HS256', 'HS384', 'HS512']) {
          forms[`${alg} keyed with ${what}`] = await sign(
            g.tampered,
            { ...g.header, alg, ...kidOf(g) },
            secret,
          );
        }
      }
      return forms;
    },
  },
  {
    name: 'a token signed by another key under the service’s key id',
    clause: 'security.tokens.foreign-key-refused',
    needsJwks: false,
    forge: async (g) => {
      const alg = asymmetricAlg(g.header);
      const stranger = await strangerKey(alg);
      return {
        [`${alg} by a stranger's key, same header`]: await sign(
          g.tampered,
          { ...g.header, alg },
          stranger.privateKey,
        ),
      };
    },
  },
  {
    name: 'a token naming a key id the service does not publish',
    clause: 'security.tokens.unknown-kid-refused',
    needsJwks: true,
    forge: async (g) => {
      const alg = asymmetricAlg(g.header);
      const kid = unknownKid(g);
      const stranger = await strangerKey(alg);
      const forms: Record<string, string> = {
        [`${alg} by a stranger's key`]: await sign(
          g.tampered,
          { ...g.header, alg, kid },
          stranger.privateKey,
        ),
      };
      for (const [what, secret] of Object.entries(await publicKeySecrets(g))) {
        forms[`HS256 keyed with ${what}`] = await sign(
          g.tampered,
          { ...g.header, alg: 'HS256', kid },
          secret,
        );
      }
      return forms;
    },
  },
  {
    name: 'a token that brings its own key (jwk header)',
    clause: 'security.tokens.header-key-ignored',
    needsJwks: false,
    forge: async (g) => {
      const alg = asymmetricAlg(g.header);
      const stranger = await strangerKey(alg);
      const jwk = { ...stranger.publicJwk, alg };
      return {
        'jwk header, no kid': await sign(g.tampered, { typ: 'JWT', alg, jwk }, stranger.privateKey),
        'jwk header with the service’s kid': await sign(
          g.tampered,
          { ...g.header, alg, jwk },
          stranger.privateKey,
        ),
      };
    },
  },
  {
    name: 'a token that names where to fetch its key (jku header)',
    clause: 'security.tokens.header-key-ignored',
    needsJwks: false,
    forge: async (g, extras) => {
      const alg = asymmetricAlg(g.header);
      const stranger = await strangerKey(alg);
      const kid = unknownKid(g);
      const jku = await extras.serveJwks({
        keys: [{ ...stranger.publicJwk, alg, kid, use: 'sig' }],
      });
      return {
        'jku with the stranger’s kid': await sign(
          g.tampered,
          { ...g.header, alg, kid, jku },
          stranger.privateKey,
        ),
        'jku with the service’s kid': await sign(
          g.tampered,
          { ...g.header, alg, jku },
          stranger.privateKey,
        ),
      };
    },
  },
];

/**
 * A JWKS server on the loopback interface for `jku` forms; it counts the fetches, so a
 * failure can say whether the target went to fetch a key a token pointed at.
 */
export class JwksServer {
  private server: Server | undefined;
  fetches = 0;

  async serve(jwks: { keys: JWK[] }): Promise<string> {
    await this.close();
    const body = JSON.stringify(jwks);
    const server = createServer((_req, res) => {
      this.fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/jwks.json`;
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
