import { errorOf, hashOf, withJson, type JsonObject } from './answer.ts';
import { ROLE_UPDATE, isCall } from './endpoints.ts';
import type { Answer, Transform } from './transform.ts';

// The form transforms of error answers (spec/latitude.ts). §7's table fixes a status and a
// code for four conditions, and the status 400 for the role update; everything else about an
// error is open but the envelope with its message.

/** §7's table: the status and code pairs the document fixes, spelled out from it. */
const TABLE: Readonly<Record<string, number>> = {
  TENANT_NOT_MIGRATED: 401,
  PROJECT_USER_WITHOUT_ORGANIZATION: 403,
  SHARED_DASHBOARD_READ_ONLY: 409,
  MIGRATED_TO_V2: 410,
};

const inTable = (status: number, error: JsonObject) =>
  typeof error['code'] === 'string' && TABLE[error['code']] === status;

const CODES = ['E_REQUEST_REFUSED', 'invalid_request', 'ERR_CLIENT', 'request.rejected'];
const MESSAGES = [
  'The request was refused.',
  'This request cannot be completed as sent.',
  'Request rejected by the service',
];

/**
 * Another code (or none), another message, and at times no details. The choice depends on the
 * original status and code only, so one condition is always answered alike (a test may compare
 * two refusals of the same kind), as a real server's would be.
 */
export const errorsReworded: Transform = {
  id: 'errors.reworded',
  apply(answer) {
    const found = errorOf(answer);
    if (found === undefined || inTable(answer.status, found.error)) return undefined;
    const { code, message: _message, details, ...rest } = found.error;
    const h = hashOf(`${answer.status}|${typeof code === 'string' ? code : ''}`);
    const error: JsonObject = { message: MESSAGES[h % MESSAGES.length], ...rest };
    // One condition in three answers no code; one in two drops its details.
    if (h % 3 !== 0) error['code'] = CODES[(h >>> 4) % CODES.length];
    if ((h >>> 8) % 2 === 0 && details !== undefined) error['details'] = details;
    return withJson(answer, { ...found.envelope, error });
  },
};

/**
 * Another 4xx where §7 leaves the status open (errors.validation.status, errors.not-found.status,
 * errors.unauthorized.status, errors.forbidden.status). §7's table keeps its statuses, and so
 * does the role update's 400 (§4.1).
 */
const OTHER_STATUS: Readonly<Record<number, number>> = { 400: 422, 404: 400, 401: 403, 403: 401 };

export const errorsOther4xx: Transform = {
  id: 'errors.other-4xx',
  apply(answer: Answer) {
    const status = OTHER_STATUS[answer.status];
    const found = errorOf(answer);
    if (status === undefined || found === undefined || inTable(answer.status, found.error))
      return undefined;
    if (answer.status === 400 && isCall(ROLE_UPDATE, answer.request.method, answer.request.url))
      return undefined;
    return { ...answer, status };
  },
};
