import { defineClauses } from './types.ts';

// §5: where credentials travel, and the numbered rules about keys, organizations and tokens.
export const s5 = defineClauses([
  // carriers table
  {
    id: 'auth.api-key.body-for-post-put',
    section: '5',
    level: 'must',
    summary:
      'POST and PUT identity calls take apiKey inside the JSON body, whatever the interface file says.',
  },
  {
    id: 'auth.api-key.query-for-get-delete',
    section: '5',
    level: 'must',
    summary: 'GET and DELETE calls (roles, list-workspaces) take apiKey as a query parameter.',
  },
  {
    id: 'auth.api-key.misplaced',
    section: '5',
    level: 'unspecified',
    summary:
      'What a key sent only in the other place (query for POST/PUT, body for GET/DELETE) does is left open.',
    decision:
      "It is not a credential: 401 UNAUTHORIZED, details.reason 'api-key-misplaced', and the message names the right place.",
  },
  {
    id: 'auth.header.dashboard-writes',
    section: '5',
    level: 'must',
    summary:
      'clone, append-charts-from, remove-charts and save-from-chat read an authorization header.',
  },
  {
    id: 'auth.header.format',
    section: '5',
    level: 'unspecified',
    summary: 'The exact form of that authorization header is left open.',
    decision: "'Bearer <apiKey or JWT>' or the bare API key.",
  },
  {
    id: 'auth.bearer.chat-and-v2',
    section: '5',
    level: 'must',
    summary: 'Agent chat and v2 calls take Authorization: Bearer with a project-user token.',
  },
  {
    id: 'auth.identity.carriers-only',
    section: '5',
    level: 'unspecified',
    summary: 'Whether identity endpoints also read an authorization header is left open.',
    decision:
      '§4.1–4.9 and list-workspaces accept only the carriers of the §5 table; a key sent only in a header there is refused as misplaced (401).',
  },
  {
    id: 'auth.credentials.missing',
    section: '5',
    level: 'unspecified',
    summary: 'The answer to a call carrying no credential at all is left open.',
    decision:
      "401 UNAUTHORIZED with details.reason 'missing-credentials'. An empty apiKey or an empty authorization header is no credential.",
  },
  {
    id: 'auth.api-key.unknown',
    section: '5',
    level: 'unspecified',
    summary: 'The answer to an API key the service does not know is left open.',
    decision: "401 UNAUTHORIZED with details.reason 'invalid-api-key'.",
  },
  {
    id: 'auth.token.invalid',
    section: '5',
    level: 'unspecified',
    summary:
      'The answer to a bearer token that is malformed, badly signed or expired is left open.',
    decision:
      "401 UNAUTHORIZED with details.reason 'invalid-token', or 'token-expired' once past exp; a token of the service of another kind than the call takes (a tenant JWT on chat) is 'invalid-token' too.",
  },

  // rule 1
  {
    id: 'auth.api-key.hub-generated',
    section: '5',
    level: 'unspecified',
    summary: "Keys are made in the hub's developer settings, which the API does not expose.",
    decision:
      'Host hook: POST {hooks}/accounts answers a user-scoped and an organization-bound key (hook name accounts).',
  },
  {
    id: 'auth.api-key.user-scoped',
    section: '5',
    level: 'must',
    summary: 'A user-scoped key acts on whichever organization organizationId names.',
  },
  // rule 2
  {
    id: 'auth.organization-id.customer-org',
    section: '5',
    level: 'must',
    summary:
      "organizationId is the UUID of the customer account's organization, owner of key and project.",
  },
  {
    id: 'auth.organization-id.not-external-id',
    section: '5',
    level: 'must',
    summary:
      'organizationId is never a project organization id nor an externalId; only projectOrganizationId takes one.',
  },
  // rule 3
  {
    id: 'auth.org-bound.organization-id-ignored',
    section: '5',
    level: 'must',
    summary:
      'With an organization-bound key, organizationId may be omitted and any value sent is disregarded.',
  },
  {
    id: 'auth.org-bound.organization-id-shape',
    section: '5',
    level: 'unspecified',
    summary: 'Whether an ignored organizationId is still validated is left open.',
    decision:
      'It is not: with an organization-bound key organizationId is dropped unread, a non-UUID included, and the call goes on.',
  },
  {
    id: 'auth.user-scoped.organization-id-required',
    section: '5',
    level: 'must',
    summary: 'A user-scoped key needs organizationId on every call.',
  },
  {
    id: 'auth.user-scoped.missing-organization-id',
    section: '5',
    level: 'unspecified',
    summary: 'The answer when a user-scoped key comes without organizationId is left open.',
    decision: "401 UNAUTHORIZED with details.reason 'organization-id-required'.",
  },
  {
    id: 'auth.user-scoped.membership-verified',
    section: '5',
    level: 'must',
    summary: 'The key holder must belong to the organization that organizationId names.',
  },
  {
    id: 'auth.user-scoped.not-member',
    section: '5',
    level: 'unspecified',
    summary: 'The answer when the key holder is not in the named organization is left open.',
    decision:
      "403 FORBIDDEN with details.reason 'not-a-member', whether that organization exists or not, and whatever the value's shape.",
  },
  {
    id: 'auth.hub-jwt.organization-id-required',
    section: '5',
    level: 'must',
    summary:
      'Calls made with a hub-login JWT need organizationId, and membership in it is checked.',
    noPortableCheck:
      'No call the document fixes issues a hub-login JWT, so no call can be made with one, with or without organizationId.',
  },
  // rule 4
  {
    id: 'auth.save-from-chat.carriers',
    section: '5',
    level: 'must',
    summary:
      'save-from-chat accepts three credentials: an API key, a tenant JWT, a project-user JWT.',
  },
  {
    id: 'auth.clone.carriers',
    section: '5',
    level: 'must',
    summary: 'clone takes a tenant JWT or an API key.',
  },
  {
    id: 'auth.list-workspaces.api-key-only',
    section: '5',
    level: 'must',
    summary: 'list-workspaces works only with an API key.',
  },
  {
    id: 'dashboards.v1-writes.credentials',
    section: '5',
    level: 'unspecified',
    summary:
      'Which credentials the v1 writes other than clone take, and how a project-user token is answered there, is left open.',
    decision:
      "create, clone, add-charts, append-charts-from and remove-charts take an API key (authorization header, bare or Bearer, or body apiKey) or a tenant JWT (header); a project-user token is refused 403 FORBIDDEN, details.reason 'project-user-token-on-v1'. list-workspace-dashboards takes a query apiKey or a tenant JWT.",
  },
  // rule 5
  {
    id: 'auth.project-user-token.sources',
    section: '5',
    level: 'must',
    summary: 'Project-user tokens are issued by user-token and embed-token.',
  },
  {
    id: 'tokens.expires-at.issue-plus-duration',
    section: '5',
    level: 'must',
    summary:
      'A token lives for the expiration asked for: expiresAt is issue time plus that duration.',
  },
  // rule 6
  {
    id: 'auth.tenant-jwt.accepted-after-migration',
    section: '5',
    level: 'must',
    summary: 'A tenant JWT issued before migration still works on v2 calls afterwards.',
  },
  {
    id: 'auth.tenant-jwt.translated',
    section: '5',
    level: 'must',
    summary: 'On v2 calls a tenant JWT acts as the project user created for that tenant.',
  },
  {
    id: 'auth.hub.project-user-token-only',
    section: '5',
    level: 'must',
    summary: 'Embedded pages require a project-user token; a tenant JWT is not enough.',
  },
  // rule 7
  {
    id: 'auth.v2.api-key-shared',
    section: '5',
    level: 'must',
    summary: 'v2 calls made with an API key work on shared (template) dashboards.',
  },
  {
    id: 'auth.v2.user-token-own-space',
    section: '5',
    level: 'must',
    summary: "v2 calls made with a project-user token work in that user's own space.",
  },
  {
    id: 'auth.v2.organization-id-placement',
    section: '5',
    level: 'must',
    summary:
      'On v2 calls, a user-scoped key puts organizationId in the query (GET, DELETE) or in the JSON body (POST).',
  },
  // rule 8
  {
    id: 'tokens.claims',
    section: '5',
    level: 'unspecified',
    summary: 'What the JWTs contain is left open.',
    decision:
      "ES256 with kid; iss 'eac-reference', aud 'embedded-analytics', sub, iat, exp, jti, kind, org, prj, pog, rol, perm, props, name; JWKS at /.well-known/jwks.json.",
  },
  {
    id: 'tokens.jwt.exp-matches-expires-at',
    section: '5',
    level: 'unspecified',
    summary: 'Whether the JWT exp claim agrees with expiresAt is left open.',
    decision: 'exp equals expiresAt in whole seconds and iat is the issue time.',
  },
  {
    id: 'tokens.validity.exp-exclusive',
    section: '5',
    level: 'unspecified',
    summary: 'Whether a token still works at the exact instant of exp is left open.',
    decision:
      "Accepted while the account clock is before exp; at exp and later, 401 reason 'token-expired' (RFC 7519).",
  },
  {
    id: 'auth.isolation.other-account',
    section: '5',
    level: 'unspecified',
    summary:
      "The answer to a key of one account used on another account's project, role or user is left open.",
    decision: '404 NOT_FOUND, exactly as for an id that does not exist.',
  },
]);
