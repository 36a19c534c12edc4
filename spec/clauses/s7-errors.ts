import { defineClauses } from './types.ts';

// §7: the error envelope, the listed codes, and the reference's choices for unlisted failures.
export const s7 = defineClauses([
  {
    id: 'errors.envelope.shape',
    section: '7',
    level: 'must',
    summary: "An error body is {status: 'error', error: {message, code, details}}.",
  },
  {
    id: 'errors.envelope.message-required',
    section: '7',
    level: 'must',
    summary:
      'error.message is a mandatory string; code is a string and details an object with free keys.',
  },
  {
    id: 'errors.bad-request.role-update',
    section: '7',
    level: 'must',
    summary: 'Status 400, with no code given, is the documented error answer of the role update.',
  },
  {
    id: 'errors.tenant-not-migrated',
    section: '7',
    level: 'must',
    summary:
      'A tenant JWT whose tenant has no mapping yet gets 401 TENANT_NOT_MIGRATED; a fresh register-tenant fixes it.',
    noPortableCheck:
      "Any observation needs a successful register-tenant call or a tenant JWT, and §4.9 leaves the body's field names open, so every such request is built from the profile's names.",
  },
  {
    id: 'errors.user-without-organization',
    section: '7',
    level: 'must',
    summary:
      'A project user without a project organization gets 403 PROJECT_USER_WITHOUT_ORGANIZATION on dashboard work.',
  },
  {
    id: 'errors.shared-dashboard-read-only',
    section: '7',
    level: 'must',
    summary:
      'Editing a shared dashboard with a project-user token gets 409 SHARED_DASHBOARD_READ_ONLY; clone and edit the copy.',
  },
  {
    id: 'errors.migrated-to-v2',
    section: '7',
    level: 'must',
    summary: 'v1 dashboard writes of a finalized organization get 410 MIGRATED_TO_V2.',
  },
  {
    id: 'errors.migrated-to-v2.names-endpoint',
    section: '7',
    level: 'must',
    summary: 'The 410 MIGRATED_TO_V2 error points at the v2 endpoint to call instead.',
  },
  {
    id: 'errors.migrated-to-v2.details',
    section: '7',
    level: 'unspecified',
    summary: 'Where the 410 error names its v2 replacement is left open.',
    decision:
      'The message names it, and details.replacement holds the v2 method and path template, e.g. "POST /v2/api/..."; details.v2Endpoint is that template with {applicationId} and {dashboardId} filled in where the v1 ids the write names map to v2 ones.',
  },
  {
    id: 'errors.codes.full-list',
    section: '7',
    level: 'unspecified',
    summary: 'The complete set of error codes is left open.',
    decision:
      'The reference adds VALIDATION_ERROR, MALFORMED_JSON, BODY_TOO_DEEP, MALFORMED_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, ROUTE_NOT_FOUND, CONFLICT, REQUEST_TIMEOUT, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, HEADERS_TOO_LARGE, RATE_LIMITED, INTERNAL_ERROR.',
  },
  {
    id: 'errors.validation.status',
    section: '7',
    level: 'unspecified',
    summary: 'The status and code for an invalid body, query or path are left open.',
    decision:
      '400 VALIDATION_ERROR with details.issues = [{path: (string|number)[], message, code}], each path starting with the part of the request that failed (body, query or path) and naming array positions as numbers; a URL that cannot be decoded gets the same.',
  },
  {
    id: 'errors.malformed-json',
    section: '7',
    level: 'unspecified',
    summary: 'The answer to a body that does not parse as JSON is left open.',
    decision:
      '400 MALFORMED_JSON. A body of zero bytes is no body, whatever its content type, and reads as {}.',
  },
  {
    id: 'errors.unauthorized.status',
    section: '7',
    level: 'unspecified',
    summary: 'The status and code for absent or bad credentials are left open.',
    decision:
      '401 UNAUTHORIZED; details.reason is one of missing-credentials, invalid-api-key, api-key-misplaced, organization-id-required, invalid-token, token-expired.',
  },
  {
    id: 'errors.forbidden.status',
    section: '7',
    level: 'unspecified',
    summary: 'The status and code for good credentials without the right to act are left open.',
    decision:
      "403 FORBIDDEN; details.missing names the permission(s), or details.reason (e.g. 'not-a-member', 'read-only').",
  },
  {
    id: 'errors.validation.uuid-case',
    section: '7',
    level: 'unspecified',
    summary:
      'Whether an id written in upper-case hexadecimal is refused or names the same thing as its lower-case form is left open.',
    decision:
      'Case does not matter: every field typed as a UUID (path, query, body, and organizationId with a user-scoped key) is read in lower case, the form in which the reference issues ids; answers show the lower-case form. A field that also takes an externalId (projectOrganizationId) is matched as written.',
  },
  {
    id: 'errors.validation.prototype-keys',
    section: '7',
    level: 'unspecified',
    summary:
      'What happens to a JSON body whose members are named __proto__, or constructor holding prototype, is left open.',
    decision:
      'Refused before anything is read: 400 VALIDATION_ERROR, one details.issues entry per such member with its path and code forbidden_key; the body is valid JSON, so never MALFORMED_JSON, and the member is never silently dropped.',
  },
  {
    id: 'errors.malformed-http',
    section: '7',
    level: 'unspecified',
    summary:
      'The answer to a request that is not well-formed HTTP is left open, body included: it reaches no endpoint, whose answers alone §7 shapes.',
    decision:
      '400 MALFORMED_REQUEST in the §7 envelope with details.cause (the parser error code, or missing-host), sent with Connection: close; the connection is then closed. Only HTTP/1.1 needs Host: an HTTP/1.0 request without it is answered as usual.',
  },
  {
    id: 'errors.not-found.status',
    section: '7',
    level: 'unspecified',
    summary: 'The status and code for an unknown id are left open.',
    decision:
      '404 NOT_FOUND with details.resource, and details.field when the id came from the body; foreign ids look the same (no existence leak).',
  },
  {
    id: 'errors.route-not-found',
    section: '7',
    level: 'unspecified',
    summary: 'The answer to a path or method the service does not have is left open.',
    decision: '404 ROUTE_NOT_FOUND in the §7 envelope.',
  },
  {
    id: 'errors.conflict.status',
    section: '7',
    level: 'unspecified',
    summary: 'The answer to a request clashing with existing data is left open.',
    decision:
      '409 CONFLICT, e.g. a userId already held by a user of another project of the account.',
  },
  {
    id: 'errors.payload-too-large',
    section: '7',
    level: 'unspecified',
    summary: 'The answer to an oversized request body is left open.',
    decision: 'A body over 1 MiB gets 413 PAYLOAD_TOO_LARGE.',
  },
  {
    id: 'errors.unsupported-media-type',
    section: '7',
    level: 'unspecified',
    summary: 'The answer to a body sent with a content type other than JSON is left open.',
    decision: '415 UNSUPPORTED_MEDIA_TYPE.',
  },
  {
    id: 'errors.internal',
    section: '7',
    level: 'unspecified',
    summary: 'How unexpected failures are reported is left open.',
    decision: '500 INTERNAL_ERROR in the §7 envelope; from the reference it is always a bug.',
  },
  {
    id: 'errors.unknown-fields',
    section: '7',
    level: 'unspecified',
    summary: 'Whether unknown request body fields are refused is left open.',
    decision:
      'Ignored, except inside permissions: a key outside the twenty §2.2 flags or a non-boolean value is a 400 VALIDATION_ERROR.',
  },
  {
    id: 'errors.rejected-request-changes-nothing',
    section: '7',
    level: 'unspecified',
    summary: 'Whether a refused request may leave partial changes is left open.',
    decision: 'A request answered with an error changes no state.',
  },
  {
    id: 'errors.order.credentials-first',
    section: '7',
    level: 'unspecified',
    summary:
      'Which check wins when a request has both bad credentials and a bad shape is left open.',
    decision:
      'Credentials are checked first (401/403), then path, query and body (400), then the ids they name (404).',
  },
]);
