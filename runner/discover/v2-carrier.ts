/**
 * Discover: where an API key travels on v2 calls (§4.16 leaves it open; decision
 * v2.credentials.api-key-carrier; shapes.v2ApiKey). The carriers a user could try, the
 * decision's first: the `apiKey` member (query on GET and DELETE, body on POST), then a few
 * request headers under common names, bare or after a scheme. organizationId stays where §5
 * rule 7 puts it whichever carrier holds the key.
 */
import type { World } from '../../suites/harness/given/accounts.ts';
import type { Reply } from '../../suites/harness/http.ts';
import type { Watch } from './watch.ts';

/** The decided member, or a request header (its name in lower case) with an optional scheme. */
export type Carrier =
  | { readonly kind: 'member' }
  | { readonly kind: 'header'; readonly header: string; readonly scheme?: string };

export const MEMBER: Carrier = { kind: 'member' };

/** The key after Bearer in the authorization header, which the decision keeps for tokens. */
export const BEARER_KEY: Carrier = { kind: 'header', header: 'authorization', scheme: 'Bearer' };

/** The carriers tried, in order: the decision's member, then common header forms. */
export const CARRIERS: readonly Carrier[] = [
  MEMBER,
  { kind: 'header', header: 'x-api-key' },
  { kind: 'header', header: 'api-key' },
  { kind: 'header', header: 'x-api-token' },
  BEARER_KEY,
  { kind: 'header', header: 'authorization' },
  { kind: 'header', header: 'authorization', scheme: 'ApiKey' },
];

export const describeCarrier = (c: Carrier) =>
  c.kind === 'member'
    ? 'the apiKey member (query on GET and DELETE, body on POST)'
    : `the ${c.header} header${c.scheme === undefined ? ' (bare)' : ` after ${c.scheme}`}`;

type Method = 'GET' | 'POST' | 'DELETE';

/** A v2 call carrying an API key of `world` by `carrier`. */
export function v2Call(
  w: Watch,
  world: World,
  carrier: Carrier,
  method: Method,
  path: string,
  body: Record<string, unknown> = {},
  style: 'org-bound' | 'user-scoped' = 'org-bound',
): Promise<Reply> {
  const { apiKey, ...organization } = world.creds(style);
  const headers: Record<string, string> =
    carrier.kind === 'member'
      ? {}
      : {
          [carrier.header]: carrier.scheme === undefined ? apiKey : `${carrier.scheme} ${apiKey}`,
        };
  const creds: Record<string, string> =
    carrier.kind === 'member' ? { apiKey, ...organization } : { ...organization };
  if (method === 'POST') return w.t.http.post(path, { ...creds, ...body }, { headers });
  return w.t.http.call(method, path, { headers, query: creds });
}

/** A bearer token's v2 call (a project user or a tenant). */
export function v2AsToken(
  w: Watch,
  token: string,
  method: Method,
  path: string,
  body: Record<string, unknown> = {},
): Promise<Reply> {
  const headers = { authorization: `Bearer ${token}` };
  if (method === 'POST') return w.t.http.post(path, body, { headers });
  return w.t.http.call(method, path, { headers });
}

/**
 * The first carrier by which `call` shows the key was taken (`taken` holds for its answer), with
 * every carrier's answer status for the terminal. Undefined when none was taken.
 */
export async function findCarrier(
  w: Watch,
  call: (c: Carrier) => Promise<Reply>,
  taken: (res: Reply) => boolean,
): Promise<{ carrier: Carrier; reply: Reply } | undefined> {
  const tried: string[] = [];
  for (const carrier of CARRIERS) {
    const reply = await call(carrier);
    tried.push(`${describeCarrier(carrier)}: ${reply.status}`);
    if (taken(reply)) {
      w.saw(`v2: an API key is taken in ${describeCarrier(carrier)} (${tried.join('; ')})`);
      return { carrier, reply };
    }
  }
  w.cannot(
    'shapes.v2ApiKey and follows v2.credentials.api-key-carrier',
    `no carrier tried gave the migrated application list (${tried.join('; ')})`,
  );
  return undefined;
}

/** States the carrier found in the draft: the decision's member, or shapes.v2ApiKey. */
export function stateCarrier(w: Watch, carrier: Carrier, allTaken: boolean, bearerKey?: Reply) {
  if (carrier.kind === 'header') {
    w.shapes['v2ApiKey'] =
      carrier.scheme === undefined
        ? { header: carrier.header }
        : { header: carrier.header, scheme: carrier.scheme };
    w.review.push(
      `shapes.v2ApiKey: v2 refused the apiKey member and took the key in ${describeCarrier(carrier)}`,
    );
    return;
  }
  if (!allTaken) {
    w.cannot(
      'follows v2.credentials.api-key-carrier',
      'the application list took the apiKey member but a later v2 write did not succeed',
    );
    return;
  }
  // The decision also keeps the authorization header for tokens; only a probe reads that part,
  // so a key taken after Bearer as well is told to the reviewer, not a reason to leave the
  // carrier every v2 test sends its key by out of the draft.
  const bearerTaken = bearerKey !== undefined && bearerKey.status >= 200 && bearerKey.status < 300;
  w.follows.push('v2.credentials.api-key-carrier');
  w.review.push(
    `follows v2.credentials.api-key-carrier: v2 took apiKey (and organizationId) in the query on GET and DELETE and in the body on POST; ${bearerKey === undefined ? 'whether the authorization header carries only a bearer token was not observed' : bearerTaken ? `it took the key after Bearer in the authorization header too (${bearerKey.status}), where the decision keeps the header for tokens (only a probe reads that part)` : `the key after Bearer in the authorization header was refused (${bearerKey.status})`}`,
  );
}
