import type { Variant } from './variant.ts';

/**
 * Wrong variants from the undetected mutants of Stryker's core slice
 * (bench/results/mutation-equivalent.md, "core slice" parts a and b): each breaks one decision
 * about the authorization header or the protocol's details, which only a probe sees.
 */
export const protocolVariants: readonly Variant[] = [
  {
    // reference/http/auth.ts:35:13 (no `^`): a header that is neither form is read as one.
    name: 'the authorization header is read as Bearer wherever "Bearer " appears in it',
    file: 'reference/http/auth.ts',
    within: 'headerValue',
    from: '/^Bearer\\s+(.+)$/i.exec(raw.trim())',
    to: '/Bearer\\s+(.+)$/i.exec(raw.trim())',
    only: ['auth.header.format'],
    decision: 'auth.header.format',
  },
  {
    // reference/http/auth.ts:35:13 (`\s` for `\s+`): the second space stays in the credential.
    name: 'the authorization header takes exactly one space after Bearer',
    file: 'reference/http/auth.ts',
    within: 'headerValue',
    from: '/^Bearer\\s+(.+)$/i.exec(raw.trim())',
    to: '/^Bearer\\s(.+)$/i.exec(raw.trim())',
    only: ['auth.header.format'],
    decision: 'auth.header.format',
  },
  {
    // reference/http/auth.ts:48:24 (`\S`), 48:42 and 50:55: `Bearer <API key>` on v2 is taken
    // for a misplaced key instead of a token that does not verify.
    name: 'Bearer and an API key on v2 is a misplaced key, not an invalid token',
    file: 'reference/http/auth.ts',
    within: 'present',
    from: "/^Bearer\\s/i.test(req.headers.authorization?.trim() ?? '')",
    to: "/^Bearer\\S/i.test(req.headers.authorization?.trim() ?? '')",
    only: ['auth.token.invalid'],
    decision: 'auth.token.invalid',
  },
  {
    // reference/http/auth.ts:48:24 (no `^`): `Basic Bearer <key>` on v2 counts as a token.
    name: 'a header with "Bearer " anywhere in it is a bearer token on v2',
    file: 'reference/http/auth.ts',
    within: 'present',
    from: "/^Bearer\\s/i.test(req.headers.authorization?.trim() ?? '')",
    to: "/Bearer\\s/i.test(req.headers.authorization?.trim() ?? '')",
    only: ['v2.credentials.api-key-carrier'],
    decision: 'v2.credentials.api-key-carrier',
  },
  {
    // reference/http/auth.ts:95:55: a token naming no known organization gets no reason.
    name: 'a bearer token of no known organization is refused without a reason',
    file: 'reference/http/auth.ts',
    within: 'tokenPrincipal',
    from: "  if (account === undefined) return fail(unauthorized('invalid-token', 'the token is invalid'));",
    to: "  if (account === undefined) return fail(unauthorized('', 'the token is invalid'));",
    only: ['auth.token.invalid'],
    decision: 'auth.token.invalid',
  },
  {
    // reference/http/app.ts:59:73, 60:19, 60:20: an undecodable URL is refused without issues.
    name: 'a URL that cannot be decoded is refused with no details.issues',
    file: 'reference/http/app.ts',
    within: 'frameworkErrors',
    from: "issues: [{ path: ['path'], message: err.message, code: err.code }],",
    to: 'issues: [],',
    only: ['errors.validation.status'],
    decision: 'errors.validation.status',
  },
  {
    // reference/http/render.ts:49:43: array positions in issue paths become strings.
    name: 'issue paths name array positions as strings',
    file: 'reference/http/render.ts',
    within: 'validationError',
    from: "(typeof p === 'symbol' ? String(p) : p)",
    to: 'String(p)',
    only: ['errors.validation.status'],
    decision: 'errors.validation.status',
  },
  {
    // reference/http/route.ts:56:35: the issues of a path parameter do not say "path".
    name: 'issue paths of a path parameter start with an empty string',
    file: 'reference/http/route.ts',
    within: 'handler',
    from: "[spec.params, req.params, 'path'],",
    to: "[spec.params, req.params, ''],",
    only: ['errors.validation.status'],
    decision: 'errors.validation.status',
  },
  {
    // reference/http/route.ts:57:51: the issues of a query parameter do not say "query".
    name: 'issue paths of a query parameter start with an empty string',
    file: 'reference/http/route.ts',
    within: 'handler',
    from: "[spec.query, without(req.query, ignored), 'query'],",
    to: "[spec.query, without(req.query, ignored), ''],",
    only: ['errors.validation.status'],
    decision: 'errors.validation.status',
  },
  {
    // reference/http/app.ts:79:9: an HTTP/1.0 request without Host is refused as well.
    name: 'an HTTP/1.0 request without Host is refused as malformed',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: "if (req.raw.httpVersion !== '1.1' || req.headers.host !== undefined) return done();",
    to: 'if (req.headers.host !== undefined) return done();',
    only: ['errors.malformed-http'],
    decision: 'errors.malformed-http',
  },
  {
    // reference/http/app.ts:82:81, 83:16: the missing-host refusal names no cause.
    name: 'an HTTP/1.1 request without Host is refused with an empty cause',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: "cause: 'missing-host',",
    to: "cause: '',",
    only: ['errors.malformed-http'],
    decision: 'errors.malformed-http',
  },
  {
    // reference/http/app.ts:93:21, 94:28: a request with no framing keeps its content type,
    // so its zero bytes are read as text/plain (415).
    name: 'a request with neither Content-Length nor Transfer-Encoding keeps its content type',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: "if (length === '0' || (length === undefined && !chunked)) delete req.headers['content-type'];",
    to: "if (length === '0') delete req.headers['content-type'];",
    only: ['errors.malformed-json'],
    decision: 'errors.malformed-json',
  },
  {
    // reference/http/app.ts:94:9, 94:20, 94:82: content-length 0 keeps its content type.
    name: 'a request with content-length 0 keeps its content type',
    file: 'reference/http/app.ts',
    within: 'buildApp',
    from: "if (length === '0' || (length === undefined && !chunked)) delete req.headers['content-type'];",
    to: "if (length === undefined && !chunked) delete req.headers['content-type'];",
    only: ['errors.malformed-json'],
    decision: 'errors.malformed-json',
  },
  {
    // reference/http/json-body.ts:65:7 (`key === 'constructor'` -> true): any member holding
    // an object with its own prototype member is refused, not only constructor.
    name: 'a member of any name holding a prototype member is refused as a prototype key',
    file: 'reference/http/json-body.ts',
    within: 'prototypeKeyPaths',
    from: "      key === 'constructor' &&\n",
    to: '      true &&\n',
    only: ['errors.validation.prototype-keys'],
    decision: 'errors.validation.prototype-keys',
  },
  {
    // reference/http/json-body.ts:65:7 (`&&` -> `||`): every constructor member is refused.
    name: 'every member named constructor is refused as a prototype key',
    file: 'reference/http/json-body.ts',
    within: 'prototypeKeyPaths',
    from: "      key === 'constructor' &&\n",
    to: "      key === 'constructor' ||\n",
    only: ['errors.validation.prototype-keys'],
    decision: 'errors.validation.prototype-keys',
  },
  {
    // reference/http/auth.ts:27:72: an empty apiKey (or authorization header) counts as a key.
    name: 'an empty apiKey counts as a credential',
    file: 'reference/http/auth.ts',
    within: 'nonEmpty',
    from: "typeof v === 'string' && v.length > 0;",
    to: "typeof v === 'string' && v.length >= 0;",
    only: ['auth.credentials.missing'],
    decision: 'auth.credentials.missing',
  },
];
