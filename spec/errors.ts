/**
 * The error catalogue: every `error.code` the reference answers with, its HTTP status and what
 * it means. §7 names five codes; the others are our decisions where the document is silent
 * (each one also recorded as a clause decision). One table, so the OpenAPI document, the
 * reference and the suites cannot drift apart (a unit test compares them).
 */
export const errorCatalogue = {
  // §7 codes
  TENANT_NOT_MIGRATED: {
    status: 401,
    meaning: 'a tenant token whose tenant the migration has not mapped; ask register-tenant anew',
    source: '§7',
  },
  PROJECT_USER_WITHOUT_ORGANIZATION: {
    status: 403,
    meaning: 'the project user belongs to no project organization, so has no space for dashboards',
    source: '§7',
  },
  SHARED_DASHBOARD_READ_ONLY: {
    status: 409,
    meaning: 'a project-user token tried to change a shared dashboard; clone it and edit the copy',
    source: '§7',
  },
  MIGRATED_TO_V2: {
    status: 410,
    meaning: 'a v1 dashboard write after the organization was migrated; details name the v2 call',
    source: '§7',
  },
  // Our decisions (§7 leaves the rest of the list open)
  VALIDATION_ERROR: {
    status: 400,
    meaning: 'path, query or body failed validation; details.issues lists path and message',
    source: 'decision',
  },
  MALFORMED_JSON: {
    status: 400,
    meaning: 'the body could not be parsed as JSON',
    source: 'decision',
  },
  BODY_TOO_DEEP: {
    status: 400,
    meaning: 'the JSON body nests objects and arrays deeper than 64 levels; details.maxDepth',
    source: 'decision',
  },
  MALFORMED_REQUEST: {
    status: 400,
    meaning:
      'the request is not well-formed HTTP (request line, framing headers, chunks, no Host); the connection closes',
    source: 'decision',
  },
  UNAUTHORIZED: {
    status: 401,
    meaning:
      'credentials missing, unknown, misplaced, expired or incomplete; details.reason says which',
    source: 'decision',
  },
  FORBIDDEN: {
    status: 403,
    meaning: 'credentials are valid but not permitted; details.missing or details.reason says why',
    source: 'decision',
  },
  NOT_FOUND: {
    status: 404,
    meaning: 'no such resource for these credentials (another account\u2019s ids look the same)',
    source: 'decision',
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    meaning: 'no endpoint has this method and path',
    source: 'decision',
  },
  CONFLICT: {
    status: 409,
    meaning: 'the request clashes with existing state (e.g. a userId held in another project)',
    source: 'decision',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    meaning: 'the request line and headers did not all arrive in time; the connection closes',
    source: 'decision',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning: 'the body is larger than the reference accepts (1 MiB)',
    source: 'decision',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'a body was sent with a content type other than application/json',
    source: 'decision',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    meaning: 'the request line and headers together are over 16 KiB; the connection closes',
    source: 'decision',
  },
  RATE_LIMITED: {
    status: 429,
    meaning: 'too many chat requests in the window; Retry-After gives the seconds to wait',
    source: 'decision',
  },
  INTERNAL_ERROR: {
    status: 500,
    meaning: 'the reference failed; always a bug of the reference',
    source: 'decision',
  },
} as const satisfies Record<string, { status: number; meaning: string; source: '§7' | 'decision' }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** Reasons carried in `details.reason` of a 401 (credentials) or 403 (not permitted). */
export type AuthReason =
  | 'missing-credentials'
  | 'invalid-api-key'
  | 'api-key-misplaced'
  | 'organization-id-required'
  | 'invalid-token'
  | 'token-expired'
  | 'not-a-member'
  | 'read-only';

/**
 * A typed failure returned by the state machines (never thrown): the reference renders it as
 * the §7 envelope, the model-based suite compares it with what a target answered.
 */
export interface SpecError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export function specError(
  code: ErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): SpecError {
  return details === undefined ? { code, message } : { code, message, details };
}

export function statusOf(code: ErrorCode): number {
  return errorCatalogue[code].status;
}
