import type { JWK } from 'jose';
import { request } from 'undici';
import { expect } from 'vitest';
import { z } from 'zod';
import { Token } from '../../spec/schemas/token.ts';
import { expectedPermissions } from '../../fixtures/oracles/index.ts';
import {
  buildWorld,
  createRole,
  registerOrganization,
  registerUser,
  userToken,
} from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance, states } from '../harness/conformance.ts';
import { describeAnswer, expectSuccess, refusedAs } from '../harness/expect.ts';
import { claimAt, claimsOf, headerOf, withClaimAt } from '../harness/jwt.ts';
import {
  BEARER_ENDPOINTS,
  withBearer,
  type BearerEndpoint,
  type BearerRequest,
} from './bearer-endpoints.ts';
import { ATTACKS, JwksServer, type Genuine } from './forge.ts';
import { cause } from '../harness/causes.ts';

/** A role granting every flag §2.2 counts as editing. */
const editingRole = () =>
  Object.fromEntries(expectedPermissions.grantsEditing.map((flag) => [flag, true]));

// §2.5, §5 rule 5: the only project-user tokens are those user-token and embed-token issue.
// Every case shows first that the target takes the genuine token at the endpoint (2xx), then
// that it refuses a forged one whose payload differs in one claim that still names something
// valid. The refusal must be a 4xx; its exact status is the probe at the end (auth.token.invalid).

const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** The target's published keys, from the profile's `jwks` (a path on the target, or a URL). */
async function publishedKeys(t: Conformance): Promise<JWK[] | string> {
  const where = t.profile.shapes.jwks;
  if (where === undefined) return 'the profile names no JWKS (shapes.jwks)';
  let body: unknown;
  if (/^https?:\/\//.test(where)) {
    const res = await request(where);
    body = await res.body.json().catch(() => undefined);
  } else body = (await t.http.get(where)).body;
  const parsed = Jwks.safeParse(body);
  if (!parsed.success) return `the JWKS at ${where} is not {keys: [...]}`;
  return parsed.data.keys;
}

interface Setup {
  readonly call: BearerRequest;
  readonly genuine: Genuine;
  /** What the forged payload changes, for messages. */
  readonly change: string;
}

/**
 * A world with two users of one project organization (§7: a user without one may be refused
 * by v2), their genuine tokens accepted at the endpoint, and user A's payload with one claim
 * changed: the subject of user B where the profile says where the subject is, else a later
 * expiry.
 */
async function setUp(
  t: Conformance,
  endpoint: BearerEndpoint,
  needsJwks: boolean,
  what: string,
): Promise<Setup> {
  const w = await buildWorld(t);
  const org = await registerOrganization(t, w);
  let userRoleId: string | undefined;
  if (endpoint.anyRole !== undefined) {
    if (states(t, endpoint.anyRole)) t.relyOn(endpoint.anyRole);
    else userRoleId = (await createRole(t, w, editingRole())).id;
  }
  const member = {
    projectOrganizationId: org.projectOrganizationId,
    ...(userRoleId === undefined ? {} : { userRoleId }),
  };
  const a = await registerUser(t, w, member);
  const b = await registerUser(t, w, member);
  const call = await endpoint.request(t, w);
  if (typeof call === 'string') t.notRun(`${endpoint.name}: ${call}`);
  const tokenA = expectSuccess(await userToken(t, w, a.userId), Token, 'a token for user A').token;
  const accepted = await withBearer(t, call, tokenA);
  if (accepted.status < 200 || accepted.status >= 300)
    t.notRun(
      `the target does not take a genuine project-user token at ${endpoint.name} (answered ${describeAnswer(accepted)})`,
    );
  const [head = '', body = '', signature = ''] = tokenA.split('.');
  const header = headerOf(tokenA);
  const payload = claimsOf(tokenA);
  if (header === undefined || payload === undefined || signature === '')
    t.notRun('the target’s project-user tokens are not signed JWTs (§5 rule 8 leaves them open)');

  let tampered: Record<string, unknown> | undefined;
  let change = '';
  const path = t.profile.shapes.tokenClaims?.subject;
  if (path !== undefined && claimAt(payload, path) !== undefined) {
    const tokenB = expectSuccess(
      await userToken(t, w, b.userId),
      Token,
      'a token for user B',
    ).token;
    const subjectB = claimAt(claimsOf(tokenB) ?? {}, path);
    const acceptedB = await withBearer(t, call, tokenB);
    if (subjectB !== undefined && acceptedB.status >= 200 && acceptedB.status < 300) {
      tampered = withClaimAt(payload, path, subjectB);
      change = `${path} set to user B's (whose own token the target accepts there)`;
    }
  }
  if (tampered === undefined && typeof payload['exp'] === 'number') {
    tampered = { ...payload, exp: payload['exp'] + 7 * 24 * 3600 };
    change = 'exp moved a week later';
  }
  if (tampered === undefined)
    t.notRun(
      'no claim to change: the profile names no subject claim and the token has no exp',
      cause.shape('shapes.tokenClaims.subject'),
    );

  let publicJwk: JWK | undefined;
  let publishedKids: string[] = [];
  if (needsJwks) {
    // A token signed with a shared secret has no public key to publish: how the target signs is
    // the document's to leave open (§5 rule 8), so no profile entry could make this attack run.
    const alg = header['alg'];
    if (typeof alg === 'string' && alg.startsWith('HS'))
      t.notRun(
        `${what} needs a published public key, and the target signs with a shared secret (${alg})`,
        cause.documentGap('not-shown.jwt-contents'),
      );
    const keys = await publishedKeys(t);
    if (typeof keys === 'string')
      t.notRun(
        `${what} needs the target's JWKS: ${keys}`,
        t.profile.shapes.jwks === undefined
          ? cause.shape('shapes.jwks')
          : cause.other("the target's JWKS could not be read"),
      );
    publishedKids = keys.flatMap((k) => (typeof k.kid === 'string' ? [k.kid] : []));
    const kid = header['kid'];
    publicJwk = keys.find((k) => k.kid === kid) ?? (keys.length === 1 ? keys[0] : undefined);
    if (publicJwk === undefined)
      t.notRun('cannot tell which published key signs the project-user tokens');
  }
  return {
    call,
    change,
    genuine: {
      segments: [head, body, signature],
      header,
      tampered,
      ...(publicJwk === undefined ? {} : { publicJwk }),
      publishedKids,
    },
  };
}

for (const endpoint of BEARER_ENDPOINTS) {
  for (const attack of ATTACKS) {
    conformance(
      [attack.clause],
      `${attack.name} is refused at ${endpoint.name}`,
      async (t) => {
        const jwks = new JwksServer();
        try {
          const { call, genuine, change } = await setUp(t, endpoint, attack.needsJwks, attack.name);
          const forms = await attack.forge(genuine, { serveJwks: (k) => jwks.serve(k) });
          if (Object.keys(forms).length === 0) t.notRun('no form of this attack could be built');
          const accepted: string[] = [];
          for (const [form, token] of Object.entries(forms)) {
            const res = await withBearer(t, call, token);
            if (res.status < 400 || res.status >= 500)
              accepted.push(`${form}: ${describeAnswer(res)}`);
          }
          const fetched =
            jwks.fetches > 0 ? ` (the target fetched the token's jku ${jwks.fetches} times)` : '';
          expect(
            accepted,
            `forged tokens (${change}) must be refused with a 4xx, these were not${fetched}`,
          ).toEqual([]);
        } finally {
          await jwks.close();
        }
      },
      {
        needs: ['accounts', 'projects'],
        parts: [endpoint.part],
        relies: ['tokens.claims', ...(endpoint.relies ?? [])],
      },
    );
  }
}

probe(
  ['auth.token.invalid'],
  'how forged bearer tokens are refused',
  async (t) => {
    // The first row (GET applications) needs no id, so it can serve every attack.
    const endpoint = BEARER_ENDPOINTS[0] as BearerEndpoint;
    const seen: string[] = [];
    let asDecided = true;
    const jwks = new JwksServer();
    try {
      // One world for every attack: those that need no JWKS, so the probe runs on any target.
      const { call, genuine } = await setUp(t, endpoint, false, 'the probe');
      for (const attack of ATTACKS.filter((a) => !a.needsJwks)) {
        const forms = await attack.forge(genuine, { serveJwks: (k) => jwks.serve(k) });
        for (const [form, token] of Object.entries(forms)) {
          const res = await withBearer(t, call, token);
          seen.push(`${form}: ${describeAnswer(res)}`);
          asDecided &&= refusedAs(res, 401, 'UNAUTHORIZED', { reason: 'invalid-token' });
        }
      }
    } finally {
      await jwks.close();
    }
    t.observe(seen.join('; '), asDecided);
  },
  {
    needs: ['accounts', 'projects'],
    parts: [(BEARER_ENDPOINTS[0] as BearerEndpoint).part],
    relies: ['tokens.claims', ...((BEARER_ENDPOINTS[0] as BearerEndpoint).relies ?? [])],
  },
);
