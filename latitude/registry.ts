import { LATITUDE, type FreedomId } from '../spec/latitude.ts';
import { chatStreamTransforms } from './chat-stream.ts';
import { errorsOther4xx, errorsReworded } from './errors.ts';
import {
  credentialsReadAnywhere,
  credentialsRefusedOtherwise,
  isolationForbidden,
  organizationIdValidated,
  v2ApiKeyHeader,
} from './credentials.ts';
import { hubOpenTransforms } from './hub-open.ts';
import { hubTransforms } from './hub.ts';
import {
  arraysReordered,
  bodiesNone,
  membersExtra,
  statusCreated,
  timestampsOtherForm,
  v1RecordMinimal,
  workspacesRenamed,
} from './json.ts';
import { limitsTighter, listsPaged, slowClientsCut } from './limits.ts';
import { openFormTransforms } from './open-forms.ts';
import {
  bodiesPrototypeKeysDropped,
  bodiesUnknownFieldsRefused,
  errorsShapeBeforeCredentials,
  errorsStatusesOtherwise,
  idsLowerCaseOnly,
  migrationReplacementInMessage,
} from './refusals.ts';
import { requestsRenamed } from './requests.ts';
import { sseTransforms } from './sse.ts';
import { endpointsTemplated } from './templated.ts';
import { identityTransforms } from './identity.ts';
import { idsUpperCase } from './ids.ts';
import type { Transform } from './transform.ts';
import { bodyChunked, contentTypeCharset, framingEmptyBody } from './wire.ts';

/** Every form transform the proxy can carry out, by catalogue id (a stateful one made anew). */
const ALL: ReadonlyMap<FreedomId, () => Transform> = new Map(
  [
    credentialsRefusedOtherwise,
    credentialsReadAnywhere,
    organizationIdValidated,
    errorsStatusesOtherwise,
    migrationReplacementInMessage,
    idsLowerCaseOnly,
    bodiesPrototypeKeysDropped,
    bodiesUnknownFieldsRefused,
    errorsShapeBeforeCredentials,
    statusCreated,
    membersExtra,
    v1RecordMinimal,
    workspacesRenamed,
    arraysReordered,
    errorsReworded,
    errorsOther4xx,
    timestampsOtherForm,
    contentTypeCharset,
    bodyChunked,
    framingEmptyBody,
    bodiesNone,
    ...sseTransforms,
    ...hubTransforms,
    endpointsTemplated,
    ...openFormTransforms,
    ...chatStreamTransforms,
    ...hubOpenTransforms,
    requestsRenamed,
    v2ApiKeyHeader,
    slowClientsCut,
    listsPaged,
  ]
    .map((t): [FreedomId, () => Transform] => [t.id, () => t])
    .concat([
      ['isolation.forbidden', () => isolationForbidden()],
      ['limits.tighter', () => limitsTighter()],
      ['ids.upper-case', () => idsUpperCase()],
    ]),
);

/**
 * The transforms that keep what they learn for one run (the ids a run registered, the roles it
 * deleted): a fresh one for every proxy.
 */
const STATEFUL: ReadonlyMap<FreedomId, () => Transform> = new Map(
  identityTransforms.map((make) => [make().id, make]),
);

const FORMS: readonly FreedomId[] = LATITUDE.filter((f) => f.kind === 'form').map((f) => f.id);

/**
 * The form entries of `chosen` the proxy carries out, in catalogue order but for the `nearest`
 * ones, which come first (they change what the target holds, the others how it is written).
 */
export function formTransforms(chosen: readonly FreedomId[]): Transform[] {
  const made = FORMS.filter((id) => chosen.includes(id)).flatMap((id) => {
    const make = ALL.get(id) ?? STATEFUL.get(id);
    return make === undefined ? [] : [make()];
  });
  return [...made.filter((t) => t.nearest === true), ...made.filter((t) => t.nearest !== true)];
}

/** Form entries of the catalogue with no transform yet (chosen in vain). */
export function unimplementedForms(): FreedomId[] {
  return FORMS.filter((id) => !ALL.has(id) && !STATEFUL.has(id));
}
