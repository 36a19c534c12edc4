import type { IncomingMessage } from 'node:http';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { specError } from '../../spec/errors.ts';
import { answerClientError } from './client-errors.ts';
import { chatRoutes } from './chat.ts';
import type { ReferenceContext } from '../context.ts';
import { dashboardRoutes } from './dashboards.ts';
import { readJsonBody, RefusedBody } from './json-body.ts';
import { organizationRoutes } from './organizations.ts';
import { sendError } from './render.ts';
import { roleRoutes } from './roles.ts';
import { tenantRoutes } from './tenants.ts';
import { tokenRoutes } from './tokens.ts';
import { userRoutes } from './users.ts';
import { v2Routes } from './v2.ts';

/** Decision limits.body-size: bodies above this many bytes are refused with 413. */
export const BODY_LIMIT = 1024 * 1024;

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/**
 * No route registers a JSON schema, so these are never called; Fastify's types describe
 * Ajv's compilers, hence the cast.
 */
const noSchemaCompilers = {
  buildValidator: () => () => () => true,
  buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
} as unknown as CompilersFactory;

/**
 * The HTTP face of the reference. Every failure, the framework's own included (unknown
 * route, bad JSON, wrong content type, oversized body), leaves in the §7 envelope.
 */
export function buildApp(ctx: ReferenceContext, options: { logger: boolean }): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: false,
    // Validation is zod's (STYLE 4), so Fastify's JSON-schema compilers are never used; not
    // building them saves about 130 ms of start-up (bench/startup.ts).
    schemaController: { compilersFactory: noSchemaCompilers },
    // Requests Node's HTTP parser refuses never reach Fastify: answer them in the envelope too
    // (clauses errors.malformed-http, limits.header-size, limits.request-timeout).
    clientErrorHandler: answerClientError,
    // Node would answer an HTTP/1.1 request without Host with a bare 400 of its own; the
    // onRequest hook below refuses it in the envelope instead.
    http: { requireHostHeader: false },
    // Errors Fastify raises before routing (a URL it cannot decode) leave in the envelope too.
    frameworkErrors: (err, _req, reply) => {
      void sendError(
        reply,
        specError('VALIDATION_ERROR', 'the request URL cannot be read', {
          issues: [{ path: ['path'], message: err.message, code: err.code }],
        }),
      );
    },
  });

  // Decision errors.unsupported-media-type: JSON is the only body this service reads; Fastify's
  // text parser goes.
  app.removeContentTypeParser('text/plain');
  // Our own JSON parser: it refuses bodies nested too deep before parsing them, and names a
  // `__proto__` member instead of calling valid JSON malformed (json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const read = readJsonBody(text as string);
    if (read.ok) done(null, read.value);
    else done(new RefusedBody(read.error), undefined);
  });

  // Clause errors.malformed-http: RFC 9112 makes Host mandatory in HTTP/1.1.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.httpVersion !== '1.1' || req.headers.host !== undefined) return done();
    void sendError(
      reply.header('connection', 'close'),
      specError('MALFORMED_REQUEST', 'an HTTP/1.1 request needs a Host header', {
        cause: 'missing-host',
      }),
    );
  });

  // A request whose body is empty (as many clients send a DELETE) has no body, whatever its
  // content type says; it reaches the handler as an empty object, and credentials are
  // looked for there as usual.
  app.addHook('onRequest', (req, _reply, done) => {
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (length === '0' || (length === undefined && !chunked)) delete req.headers['content-type'];
    done();
  });
  // A body of JSON `null` was sent, so it stays null and route() judges it as sent (refused).
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined) req.body = {};
    done();
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(
      reply,
      specError(
        'ROUTE_NOT_FOUND',
        `no endpoint answers ${req.method} ${req.url.split('?')[0] ?? ''}`,
        {
          method: req.method,
        },
      ),
    ),
  );

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof RefusedBody) return sendError(reply, err.refusal);
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        await drained(req.raw);
        return sendError(
          reply,
          specError('PAYLOAD_TOO_LARGE', `the body is over ${BODY_LIMIT} bytes`, {
            limit: BODY_LIMIT,
          }),
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(
          reply,
          specError('UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', {
            contentType: req.headers['content-type'] ?? null,
          }),
        );
    }
    // Our parser never throws a SyntaxError, and another FST_ERR_CTP only meets a client gone
    // (Node's parser answers a broken body first, client-errors.ts): no client reads this answer.
    if (
      err instanceof SyntaxError ||
      (err.statusCode === 400 && err.code?.startsWith('FST_ERR_CTP'))
    ) {
      return sendError(reply, specError('MALFORMED_JSON', 'the body is not valid JSON'));
    }
    // Anything else is a bug of the reference: say so, in the envelope.
    req.log.error(err);
    return sendError(
      reply,
      specError('INTERNAL_ERROR', 'the reference failed; this is a bug', { cause: err.message }),
    );
  });

  roleRoutes(app, ctx);
  organizationRoutes(app, ctx);
  userRoutes(app, ctx);
  tokenRoutes(app, ctx);
  tenantRoutes(app, ctx);
  v2Routes(app, ctx);
  dashboardRoutes(app, ctx);
  chatRoutes(app, ctx);
  return app;
}

/** How much of a refused body the reference reads and drops before it closes the socket. */
const DRAIN_LIMIT = 16 * BODY_LIMIT;
/** How long it waits for the rest of a refused body before answering anyway. */
const DRAIN_MS = 10_000;

/**
 * A body refused by its size while the client is still sending it: read and drop the rest (up
 * to DRAIN_LIMIT, for at most DRAIN_MS) before answering, so the client's writes complete and
 * it reads the 413. Answering and closing with the body unread resets the connection, and the
 * client (or a proxy in front, such as Docker's) loses the answer: a write EPIPE instead of the
 * §7 envelope.
 */
function drained(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete || raw.destroyed) {
      resolve();
      return;
    }
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_MS);
    timer.unref();
    raw.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) {
        raw.socket.destroy();
        done();
      }
    });
    // Each event is backed up by another ('close' follows 'end' and 'error') and by the timer.
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}
