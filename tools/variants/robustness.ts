import { refusedInputVariants } from './refusals.ts';
import type { Variant } from './variant.ts';

const writtenAnyway = refusedInputVariants.find(
  (v) => v.name === 'a body refused by validation is still written',
);
if (writtenAnyway === undefined) throw new Error('refusals.ts lost its written-anyway variant');

/**
 * Wrong variants of what a fuzzer found (issue 6, part 11): each brings one defect back, and
 * suites/protocol/framing.test.ts must catch it.
 */
export const robustnessVariants: readonly Variant[] = [
  {
    name: 'JSON bodies of any depth are parsed and stored (then fail to serialise)',
    file: 'reference/http/json-body.ts',
    within: 'readJsonBody',
    from: 'if (depth > MAX_JSON_DEPTH) {',
    to: 'if (depth > Number.POSITIVE_INFINITY) {',
    only: ['protocol'],
  },
  {
    name: 'HTTP parser errors answered by the framework, outside the §7 envelope',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: 'clientErrorHandler: answerClientError,',
    to: '',
    only: ['protocol'],
  },
  {
    name: 'an HTTP/1.1 request without Host gets a bare 400 with no body',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: 'http: { requireHostHeader: false },',
    to: 'http: { requireHostHeader: true },',
    only: ['protocol'],
  },
  {
    name: 'refusals on the raw socket do not say Connection: close',
    decision: 'errors.malformed-http',
    file: 'reference/http/render.ts',
    within: 'rawErrorResponse',
    from: "    'connection: close',\n",
    to: '',
    only: ['protocol'],
  },
  {
    name: 'a __proto__ member is called MALFORMED_JSON',
    decision: 'errors.validation.prototype-keys',
    file: 'reference/http/json-body.ts',
    within: 'readJsonBody',
    from: "      error: specError('VALIDATION_ERROR', 'the request body is not valid',",
    to: "      error: specError(\n        'MALFORMED_JSON',\n        'the request body is not valid',",
    only: ['protocol'],
  },
  {
    name: 'an upper-case organizationId is not a membership',
    decision: 'errors.validation.uuid-case',
    file: 'reference/http/auth.ts',
    within: 'keyPrincipal',
    from: 'ctx.store.account(organizationId.toLowerCase())',
    to: 'ctx.store.account(organizationId)',
    only: ['protocol'],
  },
  {
    name: 'upper-case UUIDs in path, query and body are looked up as written',
    decision: 'errors.validation.uuid-case',
    file: 'reference/http/route.ts',
    within: 'handler',
    from: 'values.push(lowerCaseUuids(schema, parsed.value));',
    to: 'values.push(parsed.value);',
    only: ['protocol'],
  },
  // The generated-request fuzzer (suites/robustness) on its own must catch these.
  {
    name: 'fuzzer: JSON bodies of any depth are parsed (a deep body reaches the handlers)',
    file: 'reference/http/json-body.ts',
    within: 'readJsonBody',
    from: 'if (depth > MAX_JSON_DEPTH) {',
    to: 'if (depth > Number.POSITIVE_INFINITY) {',
    only: ['robustness'],
  },
  {
    // The same broken write as the identity suites' variant, here caught by the fuzzer alone.
    ...writtenAnyway,
    name: 'fuzzer: a body refused by validation is still written',
    only: ['robustness'],
  },
  {
    // Stryker's sample (reference/http/json-body.ts:42:65): a closing bracket resets the depth,
    // so a too-deep branch after a closed sibling counts one level short and is accepted.
    name: 'a too-deep branch after a closed sibling is counted short and accepted',
    decision: 'limits.body-depth',
    file: 'reference/http/json-body.ts',
    within: 'nestingDepth',
    from: 'depth = Math.max(0, depth - 1);',
    to: 'depth = Math.min(0, depth - 1);',
    only: ['limits.body-depth'],
  },
  {
    // Stryker's sample (reference/http/route.ts:83:7): a body that is not an object is spread
    // into an empty object, so a write whose fields are all optional accepts `[]` and `5`.
    name: 'a JSON body that is not an object is read as an empty one',
    decision: 'errors.validation.status',
    file: 'reference/http/route.ts',
    within: 'without',
    from: "  if (key === undefined || typeof input !== 'object' || input === null || Array.isArray(input))\n    return input;",
    to: '  if (input === undefined || input === null) return input;',
    only: ['errors.validation.status'],
  },
  {
    name: 'a JSON body of null is read as no body',
    decision: 'errors.validation.status',
    file: 'reference/http/render.ts',
    within: 'parse',
    from: 'schema.safeParse(input === undefined ? {} : input)',
    to: 'schema.safeParse(input ?? {})',
    only: ['errors.validation.status'],
  },
  {
    // Stryker's core slice (reference/http/json-body.ts:67:7): the prototype-key scan looks
    // inside a `constructor` member valued null, and the TypeError becomes a 500.
    name: 'a top-level "constructor": null makes the prototype-key scan throw',
    file: 'reference/http/json-body.ts',
    within: 'prototypeKeyPaths',
    from: '      member !== null &&\n',
    to: '',
    only: ['protocol'],
  },
  {
    // Stryker's core slice (reference/http/json-body.ts:42:16): closing brackets never lower
    // the depth, so a wide body (many objects side by side) counts as deep and is refused.
    name: 'the body depth counts every object and array, not the nesting',
    file: 'reference/http/json-body.ts',
    within: 'nestingDepth',
    from: '} else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth = Math.max(0, depth - 1);',
    to: '} else if (c === CLOSE_OBJECT && c === CLOSE_ARRAY) depth = Math.max(0, depth - 1);',
    only: ['chat.body.message-shape'],
  },
  {
    // Stryker's core slice (reference/http/route.ts:83:57): with an organization-bound key, a
    // JSON body of null is destructured to drop organizationId, and the TypeError is a 500.
    name: 'a JSON body of null beside an organization-bound key is destructured',
    file: 'reference/http/route.ts',
    within: 'without',
    from: "typeof input !== 'object' || input === null || Array.isArray(input)",
    to: "typeof input !== 'object' || Array.isArray(input)",
    only: ['protocol'],
  },
  {
    // Stryker's core slice (reference/http/client-errors.ts:66:9): a connection reset has no
    // refusal to send, but one is written anyway; the throw in the socket's error listener
    // takes the process down.
    name: 'a connection reset mid-body is answered with a refusal it does not have',
    file: 'reference/http/client-errors.ts',
    within: 'answer',
    from: '    if (refusal === undefined || socket.destroyed || !socket.writable) socket.destroy();',
    to: '    if (false) socket.destroy();',
    only: ['protocol'],
  },
];
