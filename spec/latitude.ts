import type { ClauseId } from './clauses/index.ts';
import type { OpenPointId } from './open-points.ts';

/**
 * The latitude catalogue: every freedom the document leaves that a real server may take, with
 * the clauses that leave it open. Data only: the proxy (latitude/) transforms relayed answers
 * for the `form` entries, and the reference takes the `behaviour` entries through a switch it
 * reads at start-up (`eac serve --latitude id,id`). A run through the proxy with every entry on
 * must end with no fail and no probe-error: that is how the kit shows its verdicts hold on any
 * server the document allows.
 */
export interface Freedom {
  readonly id: string;
  /** `form`: the proxy rewrites answers; `behaviour`: the reference behaves otherwise. */
  readonly kind: 'form' | 'behaviour';
  /** The clauses (any level) whose wording leaves this freedom open. */
  readonly clauses: readonly ClauseId[];
  /**
   * The open points (spec/open-points.ts) whose answers this entry varies: `eac latitude
   * --open-points` joins them. Kept apart from `clauses`, which names where the document leaves
   * room (any level, musts included, as the reason the freedom is allowed): an entry often cites
   * a clause whose point it varies only in part or not at all, so the join is never derived
   * from `clauses`. An unspecified clause's open point has the clause's id.
   */
  readonly varies?: readonly OpenPointId[];
  /** One line: what a server taking this freedom does. */
  readonly description: string;
  /**
   * Entries this one cannot be taken with (another answer to the same open point): a choice
   * holding both keeps this one and sets the others aside.
   */
  readonly excludes?: readonly string[];
}

export const LATITUDE = [
  // §2.3 and §4.1–§4.6: what the identity calls accept and do where the document is silent.
  {
    id: 'register.name-optional',
    kind: 'form',
    clauses: ['orgs.register.required-fields', 'users.register.required-fields'],
    varies: [
      'not-shown.register-required-fields',
      'orgs.register.required-fields',
      'users.register.required-fields',
    ],
    description:
      'Takes a register-organization or register-user without a name: the organization is named after its externalId (else "Unnamed organization"), the user gets an empty display name.',
  },
  {
    id: 'register.ids-other',
    kind: 'form',
    clauses: ['orgs.register.external-id-upsert', 'users.register.user-id-reuse'],
    varies: ['orgs.register.external-id-upsert', 'users.register.user-id-reuse'],
    description:
      'Refuses (409 CONFLICT) a register-organization naming an externalId the project already holds, and takes a register-user naming a userId the project holds as an update of what it sends (properties left out are kept); the printed profile does not follow orgs.register.external-id-upsert.',
  },
  {
    id: 'orgs.external-id-other',
    kind: 'form',
    clauses: ['orgs.identifier.resolution-order', 'orgs.register.external-id-echo'],
    varies: ['orgs.identifier.resolution-order', 'orgs.register.external-id-echo'],
    description:
      "Takes an externalId equal to another organization's UUID (the UUID keeps naming its own organization), and answers a handle of its own making (org-…) when no externalId was sent, which later calls resolve; the printed profile does not follow orgs.identifier.resolution-order.",
  },
  {
    id: 'users.update.other-reading',
    kind: 'form',
    clauses: [
      'users.update.payload-and-properties',
      'users.update.absent-fields-unchanged',
      'users.update.organization-external-id',
    ],
    varies: [
      'users.update.payload-and-properties',
      'users.update.absent-fields-unchanged',
      'users.update.organization-external-id',
    ],
    description:
      'Reads a user update as a whole replacement: properties wins over payload when both come, a left-out userRoleId or projectOrganizationId means none, and projectOrganizationId takes only a UUID (400 VALIDATION_ERROR otherwise); the printed profile does not follow users.update.absent-fields-unchanged.',
  },
  {
    id: 'tokens.live-user',
    kind: 'behaviour',
    clauses: ['tokens.user-token.properties-after-update', 'states.role.issued-token-unchanged'],
    varies: ['tokens.user-token.properties-after-update', 'states.role.issued-token-unchanged'],
    description:
      'Reads the user a token stands for as stored now: a token issued before a properties, organization or role change reaches the rows of the new properties, and hub pages show the new role.',
  },
  {
    id: 'permissions.no-role-nothing',
    kind: 'behaviour',
    clauses: ['permissions.effective.no-role'],
    varies: ['permissions.effective.no-role'],
    description:
      'Gives a user with no role no permission at all (not even canSetDefaultDashboard or canEditChartFromSession, on for an empty role), in its tokens and on hub pages.',
  },
  {
    id: 'sql.no-recursion',
    kind: 'behaviour',
    clauses: ['resources.data.read-only-sql'],
    varies: ['resources.data.read-only-sql'],
    description:
      'Refuses SQL holding a recursive common table expression (400 VALIDATION_ERROR, sql-refused) before it runs, in saved charts and the agent alike.',
  },
  {
    id: 'properties.bound-as-text',
    kind: 'behaviour',
    clauses: ['resources.properties.bound-not-spliced'],
    varies: ['resources.properties.bound-not-spliced'],
    description:
      'Binds every {{user.<key>}} value as text, a bare one too (a boolean property reaches the SQL as the text true), never spliced into it.',
  },
  {
    id: 'roles.quiet-writes',
    kind: 'form',
    clauses: ['roles.delete.twice', 'roles.update.empty-body', 'roles.timestamps.update-refreshes'],
    varies: ['roles.delete.twice', 'roles.update.empty-body', 'roles.timestamps.update-refreshes'],
    description:
      'Answers a role write that has nothing to do as done: a second delete of a role answers 200 with its message, an update with neither name nor permissions answers the role as stored, its updated_at not moved.',
  },
  {
    id: 'status.created',
    kind: 'form',
    clauses: ['v2.shapes.beyond-named-fields', 'dashboards.v1-shapes.not-shown'],
    varies: [
      'not-shown.v2-and-v1-shapes',
      'v2.shapes.beyond-named-fields',
      'dashboards.v1-shapes.not-shown',
      'partial.status.v2-writes',
      'partial.status.v1-unshown',
    ],
    description:
      'Answers 201 (202 for the chart removal), with the success envelope, to the writes whose success status the document does not show: the v2 calls of §4.16 and the v1 create and add-charts it names without a shape.',
  },
  {
    id: 'members.extra',
    kind: 'form',
    clauses: [
      'v2.shapes.beyond-named-fields',
      'users.update.response-fields',
      'errors.envelope.shape',
    ],
    varies: [
      'partial.members.envelope',
      'partial.members.role',
      'partial.members.roles-list',
      'partial.members.role-delete',
      'partial.members.register-organization',
      'partial.members.register-user',
      'partial.members.user-token',
      'partial.members.register-tenant',
      'partial.members.clone',
      'partial.members.v1-writes',
      'partial.members.list-workspaces',
      'partial.members.save-from-chat',
      'partial.members.v2-objects',
      'not-shown.user-update-answer',
      'users.update.response-fields',
      'not-shown.embed-token-members',
      'tokens.embed-token.response-fields',
      'dashboards.append-charts-from.response-fields',
      'dashboards.remove-charts.response-fields',
      'not-shown.v2-and-v1-shapes',
      'v2.shapes.beyond-named-fields',
      'not-shown.v1-dashboard-record',
      'dashboards.v1-record.fields',
      'not-shown.workspace-item',
      'workspaces.list-item.fields',
    ],
    description:
      "Adds members with real-looking names at every depth of success objects the document does not close (never inside a role's permissions, §2.1).",
  },
  {
    id: 'v1.record-minimal',
    kind: 'form',
    clauses: ['dashboards.v1-record.fields'],
    varies: ['not-shown.v1-dashboard-record', 'dashboards.v1-record.fields'],
    description:
      'Reduces v1 dashboard records and list items to the members §2.8 shows: id, tenantId, ownerProjectUserId.',
  },
  {
    id: 'workspaces.renamed',
    kind: 'form',
    clauses: ['workspaces.list-item.fields'],
    varies: [
      'not-shown.workspace-item',
      'workspaces.list-item.fields',
      'partial.migration.workspace-keying',
    ],
    description:
      'Names the members of a list-workspaces item otherwise (stated in the printed profile).',
  },
  {
    id: 'arrays.reordered',
    kind: 'form',
    clauses: [
      'roles.list.order',
      'v2.shapes.beyond-named-fields',
      'dashboards.v1-shapes.not-shown',
    ],
    varies: ['roles.list.order', 'partial.order.lists'],
    description:
      'Reorders every array whose order the document leaves open so that every element of an array of two or more moves.',
  },
  // Refusals and limits of §5, §7 and §8 taken otherwise (issue 33). Kept before
  // errors.reworded: these tell conditions apart by the reference's codes and reasons.
  {
    id: 'credentials.refused-otherwise',
    kind: 'form',
    clauses: [
      'auth.credentials.missing',
      'auth.api-key.unknown',
      'auth.api-key.misplaced',
      'auth.user-scoped.missing-organization-id',
      'auth.user-scoped.not-member',
      'auth.token.invalid',
      'errors.unauthorized.status',
    ],
    varies: [
      'auth.credentials.missing',
      'auth.api-key.unknown',
      'auth.api-key.misplaced',
      'auth.user-scoped.missing-organization-id',
      'auth.user-scoped.not-member',
      'auth.token.invalid',
    ],
    description:
      'Answers each credential refusal otherwise: no credential 401 with WWW-Authenticate and no reason, an unknown key 403, a misplaced key 400, a user-scoped key without organizationId a 400 validation error, a non-member 404 (the organization undisclosed), an invalid token 403, an expired one 401 with its own code.',
  },
  {
    id: 'credentials.read-anywhere',
    kind: 'form',
    clauses: ['auth.api-key.misplaced', 'auth.identity.carriers-only'],
    varies: ['auth.api-key.misplaced', 'auth.identity.carriers-only'],
    description:
      'Reads an API key wherever the client put it on the identity calls and list-workspaces: in the other place (the query of a POST or PUT, the body of a DELETE) or in an authorization header, when the §5 carrier holds none.',
  },
  {
    id: 'v2.api-key-header',
    kind: 'form',
    clauses: ['v2.credentials.api-key-carrier'],
    varies: ['v2.credentials.api-key-carrier'],
    description:
      'Takes an API key on v2 calls only in an x-api-key header (organizationId where §5 rule 7 puts it) and reads no apiKey member there; stated in the printed profile (shapes.v2ApiKey), which no longer follows v2.credentials.api-key-carrier.',
  },
  {
    id: 'organization-id.validated',
    kind: 'form',
    clauses: ['auth.org-bound.organization-id-shape'],
    varies: ['auth.org-bound.organization-id-shape'],
    description:
      'Validates organizationId as the UUID §5 types it whatever the key: any other value, in the body or the query, is a 400 validation error before anything is read; the printed profile no longer follows auth.org-bound.organization-id-shape.',
  },
  {
    id: 'isolation.forbidden',
    kind: 'form',
    clauses: ['auth.isolation.other-account', 'errors.not-found.status'],
    varies: ['auth.isolation.other-account'],
    description:
      "Tells another account's project, role or user from one that does not exist, and answers the first 403 FORBIDDEN.",
  },
  {
    id: 'errors.statuses-otherwise',
    kind: 'form',
    clauses: [
      'errors.malformed-json',
      'errors.route-not-found',
      'errors.conflict.status',
      'errors.payload-too-large',
      'errors.unsupported-media-type',
    ],
    varies: [
      'errors.malformed-json',
      'errors.route-not-found',
      'errors.conflict.status',
      'errors.payload-too-large',
      'errors.unsupported-media-type',
    ],
    description:
      'Answers other statuses where §7 gives none: a body that is no JSON 422, a clash with stored data 422, an oversized body 400, a body of another media type 400, an unknown path 404 NOT_FOUND, and a known path with another method 405 with Allow.',
  },
  {
    id: 'migration.replacement-in-message',
    kind: 'form',
    clauses: ['errors.migrated-to-v2.details', 'errors.migrated-to-v2.names-endpoint'],
    varies: ['errors.migrated-to-v2.details'],
    description: "Names a v1 write's v2 replacement in the 410's message alone, with no details.",
  },
  {
    id: 'ids.lower-case-only',
    kind: 'form',
    clauses: ['errors.validation.uuid-case'],
    varies: ['errors.validation.uuid-case'],
    description:
      'Reads UUIDs only in lower case: an id written in upper case in the path, the query or a body member typed as a UUID is a 400 validation error (externalIds are matched as written).',
  },
  {
    id: 'ids.upper-case',
    kind: 'form',
    clauses: ['resources.uuid.format', 'errors.validation.uuid-case'],
    varies: ['partial.form.ids'],
    description:
      'Writes the UUIDs it answers in upper case (every id-named member of a success answer, the callers’ externalIds, properties and chart data aside) and reads ids in either case.',
    excludes: ['ids.lower-case-only'],
  },
  {
    id: 'bodies.prototype-keys-dropped',
    kind: 'form',
    clauses: ['errors.validation.prototype-keys'],
    varies: ['errors.validation.prototype-keys'],
    description:
      'Drops members named __proto__, and prototype inside constructor, from a JSON body without a word and reads the rest.',
  },
  {
    id: 'bodies.unknown-fields-refused',
    kind: 'form',
    clauses: ['errors.unknown-fields'],
    varies: ['errors.unknown-fields'],
    description:
      'Refuses a body member it does not read, at the top of the body, with a 400 validation error naming each, before anything is read.',
  },
  {
    id: 'errors.shape-before-credentials',
    kind: 'form',
    clauses: ['errors.order.credentials-first'],
    varies: ['errors.order.credentials-first'],
    description:
      "Reads a body's shape before its credentials: a body its call's schema refuses is a 400 validation error whatever the credentials.",
  },
  {
    id: 'limits.tighter',
    kind: 'form',
    clauses: ['limits.body-size', 'limits.body-depth', 'limits.header-size', 'limits.other-rates'],
    varies: [
      'not-shown.other-limits',
      'limits.body-size',
      'limits.body-depth',
      'limits.header-size',
      'limits.other-rates',
    ],
    description:
      'Sets limits of its own, tighter than the reference: bodies of 256 KiB (413), JSON 32 levels deep (400), request line and headers of 8 KiB (431), and 2000 requests a minute per credential on every endpoint but chat (429), announced in RateLimit headers on each answer.',
  },
  {
    id: 'tokens.through-expires-at',
    kind: 'behaviour',
    clauses: ['tokens.validity.exp-exclusive', 'tokens.jwt.exp-matches-expires-at'],
    varies: ['tokens.validity.exp-exclusive', 'tokens.jwt.exp-matches-expires-at'],
    description:
      'Still accepts a token at the instant of its expiresAt (refused a second later), so its exp claim names the second after expiresAt.',
  },
  {
    id: 'errors.reworded',
    kind: 'form',
    clauses: ['errors.codes.full-list', 'errors.envelope.message-required'],
    varies: [
      'not-shown.error-codes',
      'errors.codes.full-list',
      'partial.form.error-text',
      // The chat refusals whose answer is open: another code than RATE_LIMITED and NOT_FOUND.
      'limits.chat.rate-exceeded',
      'chat.agent.unknown',
      // The refusals whose whole answer the catalogue leaves open: another code and message.
      'roles.update.unknown-role',
      'roles.list.unknown-project',
      'tokens.user-token.unknown-user',
      'users.register.unknown-references',
      'users.register.user-id-conflict',
      'resources.properties.missing-property',
      // A dashboard write refused by its flags or readOnly (403 FORBIDDEN), a v2 call naming
      // what the caller cannot see (404 NOT_FOUND): their codes and details change too.
      'dashboards.write-refusal.status',
      'v2.refusals.not-found',
    ],
    description:
      "Answers every error outside §7's table with another code, another message, and at times no code or details (only message is required).",
  },
  {
    id: 'errors.other-4xx',
    kind: 'form',
    clauses: [
      'errors.validation.status',
      'errors.not-found.status',
      'errors.unauthorized.status',
      'errors.forbidden.status',
    ],
    varies: [
      'not-shown.error-codes',
      'errors.validation.status',
      'errors.not-found.status',
      'errors.unauthorized.status',
      'errors.forbidden.status',
      // An unknown agent answered 400, not 404.
      'chat.agent.unknown',
      // The refusals whose whole answer the catalogue leaves open: 400 for their 404.
      'roles.update.unknown-role',
      'roles.list.unknown-project',
      'tokens.user-token.unknown-user',
      'users.register.unknown-references',
      // 401 for the 403 refusing a user without a property a row filter reads.
      'resources.properties.missing-property',
      // A dashboard write refused by its flags or readOnly answers 401, a v2 call naming what the
      // caller cannot see 400.
      'dashboards.write-refusal.status',
      'v2.refusals.not-found',
    ],
    description:
      "Answers another 4xx where §7 leaves the status open (validation 400 as 422, not found 404 as 400, 401 and 403 swapped); §4.1's 400 and §7's table keep theirs.",
  },
  {
    id: 'timestamps.other-form',
    kind: 'form',
    clauses: [
      'roles.timestamps.format',
      'tokens.expires-at.iso-utc',
      'tokens.issue-time.whole-seconds',
    ],
    varies: [
      'partial.form.timestamps',
      'roles.timestamps.format',
      'tokens.issue-time.whole-seconds',
    ],
    description:
      'Writes every timestamp in another ISO 8601 form that still names UTC: role stamps with +00:00 and no fraction, expiresAt with microseconds and +00:00, other stamps with nanoseconds and Z.',
  },
  {
    id: 'content-type.charset',
    kind: 'form',
    clauses: ['errors.envelope.shape'],
    varies: ['partial.http.content-type'],
    description: 'Sends Content-Type with parameters (application/json; charset=utf-8).',
  },
  {
    id: 'body.chunked',
    kind: 'form',
    clauses: ['errors.envelope.shape'],
    varies: ['partial.http.transfer'],
    description: 'Sends every body chunked, with no Content-Length.',
  },
  {
    id: 'framing.empty-body',
    kind: 'form',
    clauses: ['errors.malformed-http', 'errors.malformed-http.answered'],
    varies: ['errors.malformed-http'],
    description:
      'Refuses a request its HTTP layer cannot frame (400, 414, 431) with an empty body, before any endpoint sees it.',
  },
  {
    id: 'sse.rechunked',
    kind: 'form',
    clauses: ['events.stream.sse-framing', 'events.stream.line-format'],
    varies: ['partial.sse.chunking'],
    description: 'Splits the event stream across writes at arbitrary byte positions.',
  },
  {
    id: 'sse.non-data-lines',
    kind: 'form',
    clauses: ['events.non-data-lines', 'events.stream.sse-framing'],
    varies: ['partial.sse.non-data-lines'],
    description: 'Adds comment lines, event: and id: lines between events.',
  },
  {
    id: 'sse.other-types',
    kind: 'form',
    clauses: ['events.other-types.allowed'],
    varies: ['partial.sse.other-types'],
    description:
      "Adds events of other types (§6's workflow steps and markers) throughout the stream.",
  },
  {
    id: 'sse.second-message',
    kind: 'form',
    clauses: ['events.text-start', 'events.text.bracketing'],
    varies: ['partial.sse.text-messages'],
    description:
      'Answers a second text message after the first, with its own start, deltas and end.',
  },
  {
    id: 'sse.deltas-recut',
    kind: 'form',
    clauses: ['events.text-delta'],
    varies: ['partial.sse.text-messages'],
    description: 'Cuts the text of every message into deltas at other places.',
  },
  {
    id: 'hub.restructured',
    kind: 'form',
    clauses: ['hub.controls.placement'],
    varies: ['partial.hub.markup', 'hub.controls.placement'],
    description:
      'Serves hub pages with another element structure and order, under the ARIA roles and names the printed profile states.',
  },
  {
    id: 'hub.messages',
    kind: 'form',
    clauses: ['hub.events.embed-params-shape', 'hub.events.height-message'],
    varies: ['hub.events.embed-params-shape', 'hub.events.height-message'],
    description:
      'Posts the embed:params and height messages in another shape, stated in the printed profile.',
  },
  {
    id: 'hub.rows-grid',
    kind: 'form',
    clauses: ['hub.rows.markup', 'hub.chart.unloadable'],
    varies: ['partial.hub.markup', 'hub.rows.markup'],
    description:
      "Shows a chart's rows as an ARIA grid (rows of grid cells under a row of column heads) instead of a table, stated in the printed profile.",
  },
  {
    id: 'hub.rows-list',
    kind: 'form',
    clauses: ['hub.rows.markup', 'hub.drill-down.rows'],
    varies: ['partial.hub.markup', 'hub.rows.markup', 'hub.drill-down.rows'],
    description:
      'Shows the rows behind a drilled point as a list, one item per row holding its columns and values as a definition list, stated in the printed profile (cells by role definition).',
  },
  {
    id: 'tenant.identity-name',
    kind: 'behaviour',
    clauses: ['tenants.register.identity'],
    varies: ['tenants.register.identity'],
    description:
      'Counts the display name in a tenant’s identity: the same columns and schema under another name (or none) are another tenant; a unique key still names one tenant alone.',
  },
  {
    id: 'tokens.hs256',
    kind: 'behaviour',
    clauses: ['tokens.claims'],
    varies: ['not-shown.jwt-contents', 'tokens.claims'],
    description:
      'Signs tokens with HS256 and a secret of its own, with no kid, and publishes no JSON Web Key Set (its path is an unknown route).',
  },
  {
    id: 'auth.both-forms',
    kind: 'behaviour',
    clauses: ['auth.header.format'],
    varies: ['auth.header.format'],
    description:
      'Accepts an API key in the authorization header both bare and as Bearer (tokens there as before).',
  },
  {
    id: 'claims.layout',
    kind: 'behaviour',
    clauses: ['tokens.claims', 'tenants.token.claims'],
    varies: ['not-shown.jwt-contents', 'tokens.claims', 'tenants.token.claims'],
    description:
      'Lays a project-user token’s claims out otherwise, stated in the printed profile: the user in uid (sub kept beside it), permissions, role, project organization and properties under ctx; a tenant token alike, the tenant in uid, its permissions, metadata, name and identity under ctx.',
  },
  {
    id: 'claims.permissions-array',
    kind: 'behaviour',
    clauses: ['tokens.claims'],
    varies: [
      'not-shown.jwt-contents',
      'tokens.claims',
      'partial.form.permissions-claim',
      // An editing flag a view-only role leaves unset is not written (no name, not false).
      'permissions.effective.non-editing-role',
    ],
    description:
      'Writes the permissions in a project-user token as an array of the granted flag names, under a namespaced claim (https://eac.example/permissions) in the flat layout; the printed profile states the form and a JSON pointer.',
    excludes: ['claims.permissions-string'],
  },
  {
    id: 'claims.permissions-string',
    kind: 'behaviour',
    clauses: ['tokens.claims'],
    varies: [
      'not-shown.jwt-contents',
      'tokens.claims',
      'partial.form.permissions-claim',
      // An editing flag a view-only role leaves unset is not written (no name, not false).
      'permissions.effective.non-editing-role',
    ],
    description:
      'Writes the permissions in a project-user token as the granted flag names separated by spaces (scope in the flat layout), stated in the printed profile; set aside when claims.permissions-array is taken.',
  },
  {
    id: 'chat.second-agent',
    kind: 'behaviour',
    clauses: [
      'events.tool-names.examples',
      'events.other-types.allowed',
      'events.text-start',
      'events.text-delta',
      'events.stream.end',
      'chat.result.explanation',
      'chat.result.chart-data-rows',
      'chat.thread.new-thread-context',
    ],
    varies: [
      'partial.form.chat-words',
      'partial.sse.sequence',
      'partial.sse.text-messages',
      'partial.sse.other-types',
      'events.stream.end',
      'chat.thread.new-thread-context',
      'not-shown.chart-config-values',
      'charts.config.allowed-values',
    ],
    description:
      'Answers chat with another agent, standing for a language model: its own reading of questions, words, SQL, chart settings and event sequence (several text messages, tool results arriving late, event types of its own, small deltas), the answering version reported where the printed profile states, the example questions stated there in its words; it announces no agent-grammar.',
  },
  {
    id: 'bodies.none',
    kind: 'form',
    clauses: ['v2.shapes.beyond-named-fields', 'dashboards.v1-shapes.not-shown'],
    varies: [
      'not-shown.v2-and-v1-shapes',
      'v2.shapes.beyond-named-fields',
      'dashboards.v1-shapes.not-shown',
      'partial.status.v2-writes',
      'partial.status.v1-unshown',
    ],
    description:
      'Answers every success of the calls whose answer the document does not show (spec/bodies.ts: the v2 writes of §4.16, the v1 create and add-charts) with no body: 204 or another 2xx with nothing in it, the v2 create naming the new dashboard in a Location header; each status stated in the printed profile.',
  },
  {
    id: 'endpoints.templated',
    kind: 'form',
    clauses: ['v2.dashboards.lookup-path', 'dashboards.v1-shapes.not-shown'],
    varies: [
      'not-shown.v2-and-v1-shapes',
      'v2.dashboards.lookup-path',
      'dashboards.v1-shapes.not-shown',
    ],
    description:
      'Serves the endpoints the document names without a path at paths of REST habit, ids as path placeholders (the look-up takes the id in its query), stated in the printed profile; the proxy routes them to the paths the target states.',
  },
  {
    id: 'sse.bare-lines',
    kind: 'form',
    clauses: ['events.stream.sse-framing', 'events.stream.line-format'],
    varies: ['events.stream.sse-framing'],
    description:
      'Writes the event stream as bare lines, one after another, with no blank line after any event.',
  },
  {
    id: 'sse.crlf',
    kind: 'form',
    clauses: ['events.stream.line-format'],
    varies: ['partial.sse.line-ends'],
    description: 'Ends every line of the event stream with CR LF.',
  },
  {
    id: 'members.reordered',
    kind: 'form',
    clauses: ['resources.envelope.success', 'errors.envelope.shape'],
    varies: ['partial.order.members'],
    description:
      'Writes the members of every object of a JSON answer, envelopes included, in reverse order.',
  },
  {
    id: 'messages.reworded',
    kind: 'form',
    clauses: [
      'roles.delete.response-message',
      'users.register.response-shape',
      'tenants.register.response-shape',
    ],
    varies: ['partial.form.success-messages'],
    description: 'Words the message of every success answer that carries one otherwise.',
  },
  {
    id: 'errors.members-extra',
    kind: 'form',
    clauses: ['errors.envelope.shape'],
    varies: ['partial.members.error-envelope'],
    description:
      'Adds members to every error envelope (a timestamp) and to its error object (a trace id, a documentation link).',
  },
  {
    id: 'headers.extra',
    kind: 'form',
    clauses: ['resources.envelope.success'],
    varies: ['partial.http.headers'],
    description:
      'Adds response headers many servers send (a request id, x-powered-by, server-timing, cache-control where none is set) to every answer.',
  },
  // The chat stream inside its events, the chat requests the document leaves open, and §8's
  // window.
  {
    id: 'sse.members-extra',
    kind: 'form',
    clauses: [
      'events.stream.type-field',
      'events.tool-call',
      'events.tool-result',
      'chat.result.fields',
    ],
    varies: ['partial.members.events', 'partial.members.chat-result'],
    description:
      'Adds members to every event object (an id, a role), to the tool and text-delta payloads (a state, a message id) and to the chat result (follow-up suggestions, a data source), its chartConfig left as it came.',
  },
  {
    id: 'sse.rows-reordered',
    kind: 'form',
    clauses: ['chat.result.chart-data-rows', 'charts.config.order-by'],
    varies: ['partial.order.chart-data'],
    description:
      'Charts of its agent set no order where the order was for presentation only: a chat result whose SQL ends in an ORDER BY with no LIMIT comes with no orderBy, that line gone from its SQL, and its rows rotated so that each moves.',
  },
  {
    id: 'sse.unanswered-call',
    kind: 'form',
    clauses: ['events.tool-call.answered'],
    varies: ['events.tool-call.answered', 'partial.sse.sequence'],
    description:
      'Begins a tool of its own (searchDocumentation) before the first named event of every stream, and never answers it with a tool-result.',
  },
  {
    id: 'sse.text-outside',
    kind: 'form',
    clauses: ['events.text.bracketing'],
    varies: ['events.text.bracketing', 'partial.sse.text-messages'],
    description:
      'Sends a text-delta outside any message: a few words before the first text-start of every stream.',
  },
  {
    id: 'status.chat-stream',
    kind: 'form',
    clauses: ['chat.stream.content-type'],
    varies: ['partial.status.chat-stream'],
    description: 'Answers every chat stream with 201 instead of 200, the event stream unchanged.',
  },
  {
    id: 'chat.requests-answered',
    kind: 'behaviour',
    clauses: [
      'chat.body.agent-id-mismatch',
      'chat.body.no-user-message',
      'chat.body.agent-version-not-a-version',
      'chat.agent.unknown-version',
    ],
    varies: [
      'chat.body.agent-id-mismatch',
      'chat.body.no-user-message',
      'chat.body.agent-version-not-a-version',
      'chat.agent.unknown-version',
    ],
    description:
      'Answers with a stream the chat bodies the reference refuses where §4.15 leaves the answer open: the path names the agent whatever payload.agent_id says, a history with no message of role user is met with a text asking for a question, and an agent_version the agent cannot have (0, negative, fractional, or one it lacks) lets its latest version answer.',
  },
  {
    id: 'chat.version-carried',
    kind: 'behaviour',
    clauses: ['chat.thread.agent-version-carry'],
    varies: ['chat.thread.agent-version-carry'],
    description:
      'Lets the last version a thread pinned answer its later messages that pin none (a message pinning one still gets it).',
  },
  {
    id: 'chat.sliding-window',
    kind: 'behaviour',
    clauses: ['limits.chat.window-kind'],
    varies: ['limits.chat.window-kind'],
    description:
      'Counts the 180 chat requests of §8 over a sliding minute (the 60 s before each request) instead of the clock minute; Retry-After gives the seconds until the oldest counted request leaves the window.',
  },
  {
    id: 'hub.dashboard-redirect',
    kind: 'behaviour',
    clauses: ['hub.dashboard.page', 'hub.dashboard.navigation'],
    varies: ['partial.hub.dashboard-page', 'hub.dashboard.navigation'],
    description:
      'Opens the dashboard page by redirection: a 302 to the application page of the dashboard with dashboardId (its other query parameters kept), which shows the dashboard alone; the printed profile no longer follows hub.dashboard.navigation.',
  },
  {
    id: 'hub.no-scheduled-reports',
    kind: 'behaviour',
    clauses: ['hub.schedule-report.organization'],
    varies: ['hub.schedule-report.organization'],
    description:
      'Has no organization with scheduled reports: the Schedule report control never shows, whatever enableScheduleReport says; the printed profile states hub.scheduledReports none.',
  },
  {
    id: 'hub.errors-ok',
    kind: 'form',
    clauses: ['hub.errors.status'],
    varies: ['hub.errors.status'],
    description: "Serves the hub's two error pages (their §4.17 texts) with 200.",
  },
  {
    id: 'hub.posts-anywhere',
    kind: 'form',
    clauses: ['hub.events.target-origin'],
    varies: ['hub.events.target-origin'],
    description:
      "Posts a page's messages to its parent whatever its origin ('*') when no parentOrigin (or none that is an origin) is given; a parentOrigin given still names the only receiver.",
  },
  {
    id: 'hub.db-auth-token-kept',
    kind: 'form',
    clauses: ['hub.query.db-auth-token-use'],
    varies: ['hub.query.db-auth-token-use'],
    description:
      'Keeps the dbAuthToken a page is given in the page (a meta element of its head), as a page that sends it with its queries to the customer database would.',
  },
  {
    id: 'hub.unloadable-line-only',
    kind: 'behaviour',
    clauses: ['hub.chart.unloadable'],
    varies: ['hub.chart.unloadable'],
    description:
      'Shows, for a chart saved without its sqlOverride, only the line saying why it has no rows: no table, no column heads.',
  },
  {
    id: 'hub.filter-text',
    kind: 'behaviour',
    clauses: ['hub.filters.values'],
    varies: ['hub.filters.values'],
    description:
      'Takes a filter_<controlKey> value that is not JSON as the text itself (a string the column must equal) instead of setting nothing; the printed profile no longer follows hub.filters.values.',
  },
  {
    id: 'hub.v1-component-dashboard-page',
    kind: 'behaviour',
    clauses: ['hub.v1-component.page'],
    varies: ['hub.v1-component.page'],
    description:
      'Keeps the v1 component after finalize on the dashboard page only: the application page by a v1 workspace id redirects to the v2 application it became, live; the printed profile states hub.v1Component dashboard-page.',
  },
  {
    id: 'hub.drill-sampled',
    kind: 'behaviour',
    clauses: ['hub.drill-down.single-table'],
    varies: ['hub.drill-down.single-table'],
    description:
      'Drills into the points of a chart that samples its table (TABLESAMPLE, USING SAMPLE): every row behind the point, the sample set aside and said so beside the rows.',
  },
  // Open points of §2.2, §2.8, §3, §4.8–§4.16, §5 and §9 (dashboards, tenants, v2).
  {
    id: 'requests.renamed',
    kind: 'form',
    clauses: [
      'tenants.register.field-names',
      'tokens.embed-token.body-shape',
      'workspaces.list.filter-names',
    ],
    varies: [
      'not-shown.register-tenant-names',
      'tenants.register.field-names',
      'not-shown.workspace-filter-names',
      'workspaces.list.filter-names',
      'tokens.embed-token.body-shape',
    ],
    description:
      'Names otherwise the request members the document leaves unnamed: the register-tenant body, the members of embed-token’s organization and user beside userRoleId, the list-workspaces filters; stated in the printed profile, and a member sent under another name is not read.',
  },
  {
    id: 'dashboards.layout-strict',
    kind: 'behaviour',
    clauses: ['dashboards.remove-charts.unknown-chart', 'dashboards.v1-add-charts.repeat'],
    varies: ['dashboards.remove-charts.unknown-chart', 'dashboards.v1-add-charts.repeat'],
    description:
      'Refuses a v1 layout edit it cannot make as asked, and changes nothing: remove-charts naming a chart that is not on the layout answers 404, add-charts naming a chart already there answers 409.',
  },
  {
    id: 'tenants.split-optional',
    kind: 'behaviour',
    clauses: ['tenants.register.split-required'],
    varies: ['tenants.register.split-required'],
    description:
      'Registers a tenant sent with no columns, no schema and no unique key (one tenant for every such registration) instead of refusing it.',
  },
  {
    id: 'dashboards.connections-unchecked',
    kind: 'behaviour',
    clauses: ['dashboards.connection-id.guest'],
    varies: ['dashboards.connection-id.guest'],
    description:
      'Takes the connectionId of a v1 dashboard write as a guest connection it does not look up, and makes the write, instead of refusing an id it holds no connection for.',
  },
  {
    id: 'dashboards.append-same-charts',
    kind: 'behaviour',
    clauses: ['dashboards.append-charts-from.copies'],
    varies: ['dashboards.append-charts-from.copies'],
    description:
      'Appends the source’s own charts (those not on the target already) with append-charts-from, so both dashboards hold them, instead of copies under new ids.',
  },
  {
    id: 'dashboards.charts-renumbered',
    kind: 'behaviour',
    clauses: ['dashboards.copy.chart-ids', 'migration.chart-ids-kept'],
    varies: ['dashboards.copy.chart-ids', 'migration.chart-ids-kept'],
    description:
      'Gives a dashboard made to stand in for another copies of its charts under new ids: a user’s copy of a shared dashboard on its first edit, and each dashboard at migration.',
  },
  {
    id: 'dashboards.key-sees-all',
    kind: 'behaviour',
    clauses: ['dashboards.v1-list.api-key-view'],
    varies: ['dashboards.v1-list.api-key-view'],
    description:
      'Lists every dashboard of a workspace to an API key in the v1 list of its dashboards, users’ copies and own dashboards beside the shared ones.',
  },
  {
    id: 'dashboards.clone-in-place',
    kind: 'behaviour',
    clauses: ['dashboards.copy.clone-beside'],
    varies: ['dashboards.copy.clone-beside'],
    description:
      'Makes a user’s first clone of a shared dashboard (in its own workspace) that user’s copy of it, which takes the shared one’s place in the user’s list and takes the user’s later edits through the shared id.',
  },
  {
    id: 'v2.unmigrated-refused',
    kind: 'behaviour',
    clauses: ['v2.applications.list.before-finalize'],
    varies: ['v2.applications.list.before-finalize'],
    description:
      'Refuses the v2 application list (409) while the account is not migrated, instead of answering an empty list.',
  },
  {
    id: 'charts.save-checked',
    kind: 'behaviour',
    clauses: ['charts.save-from-chat.permissions'],
    varies: ['charts.save-from-chat.permissions'],
    description:
      'Checks save-from-chat by a tenant or a project user as adding a chart: refused (403) without addChart or with readOnly.',
  },
  {
    id: 'migration.tenants-shared-organization',
    kind: 'behaviour',
    clauses: ['tenants.migration.mapping', 'migration.tenant-users'],
    varies: ['tenants.migration.mapping', 'migration.tenant-users'],
    description:
      'Maps every tenant of an account to a project user of one project organization shared by all of them, on a role shared by the tenants of the same editing permissions (a tenant registered again with other permissions moves to that role), instead of an organization and a role of its own.',
  },
  {
    id: 'v2.no-organization-own-space',
    kind: 'behaviour',
    clauses: ['v2.no-organization.calls'],
    varies: ['v2.no-organization.calls'],
    description:
      'Refuses a project user with no project organization (403) only where a call would put a dashboard in its space: it reads an application’s dashboards and looks dashboards up as any user, and its edit of a template meets the 409 first.',
  },
  {
    id: 'dashboards.v1-project-users',
    kind: 'behaviour',
    clauses: ['dashboards.v1-writes.credentials'],
    varies: ['dashboards.v1-writes.credentials'],
    description:
      'Takes a project-user token on the v1 dashboard calls other than clone (create, add-charts, append-charts-from, remove-charts, the list of a workspace’s dashboards): the user acts in their own space with their role’s permissions, as a tenant does; the printed profile does not follow dashboards.v1-writes.credentials.',
  },
  {
    id: 'tenants.permissions-at-issue',
    kind: 'behaviour',
    clauses: ['dashboards.tenant-permissions.read-at-write'],
    varies: ['dashboards.tenant-permissions.read-at-write'],
    description:
      'Checks a tenant JWT’s dashboard writes (v1, and v2 after finalize) against the permissions the token was issued with: registering the tenant again with other permissions reaches its next token only.',
  },
  {
    id: 'tokens.embed-creates-only',
    kind: 'behaviour',
    clauses: ['tokens.embed-token.upserts'],
    varies: ['tokens.embed-token.upserts'],
    description:
      'Makes embed-token create the organization and the user when absent but never update what it finds: an organization found by externalId keeps its name and properties, a user found by id its name, properties and role, whatever the body sends (the user is still attached to the organization it signs in for).',
  },
  {
    id: 'charts.save-name-required',
    kind: 'behaviour',
    clauses: ['charts.save-from-chat.required-fields'],
    varies: ['charts.save-from-chat.required-fields'],
    description:
      'Requires a name in save-from-chat beside chartConfig: a body without one is refused (400 VALIDATION_ERROR) and no chart is saved.',
  },
  {
    id: 'tokens.embed-known-only',
    kind: 'behaviour',
    clauses: ['tokens.embed-token.creates'],
    varies: ['tokens.embed-token.creates'],
    description:
      'Issues an embed token only for an organization (by externalId) and a user (by id) the project already holds: any other is refused 404 NOT_FOUND and nothing is created; the printed profile does not follow tokens.embed-token.creates.',
  },
  {
    id: 'limits.slow-clients-cut',
    kind: 'form',
    clauses: ['limits.request-timeout'],
    varies: ['limits.request-timeout'],
    description:
      'Gives a client 2 s to send the line and headers of a request (10 s for the whole of it): a request still arriving after that is answered 408 and its connection closed.',
  },
  {
    id: 'lists.paged',
    kind: 'form',
    clauses: ['limits.pagination'],
    varies: ['limits.pagination'],
    description:
      'Pages every list answer (roles, workspaces, applications, dashboards) two items at a time: data.nextCursor names the next page, asked for with a cursor query parameter, and is null on the last; the printed profile states it in shapes.paging.',
  },
] as const satisfies readonly Freedom[];

export type FreedomId = (typeof LATITUDE)[number]['id'];

export const FREEDOM_IDS: readonly FreedomId[] = LATITUDE.map((f) => f.id);
