import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { specError, statusOf, type SpecError } from '../../spec/errors.ts';

/** Preamble of the document: every JSON success is `{status:'success', data}`. */
export function sendData(reply: FastifyReply, data: unknown, status = 200) {
  return reply.code(status).send({ status: 'success', data });
}

/** §7: every failure is `{status:'error', error:{message, code, details}}`. */
export function errorEnvelope(error: SpecError) {
  return {
    status: 'error',
    error: { message: error.message, code: error.code, details: error.details ?? {} },
  } as const;
}

export function sendError(reply: FastifyReply, error: SpecError) {
  const body = errorEnvelope(error);
  if (error.code === 'RATE_LIMITED' && typeof error.details?.['retryAfter'] === 'number') {
    void reply.header('retry-after', String(error.details['retryAfter']));
  }
  return reply.code(statusOf(error.code)).send(body);
}

/**
 * The same envelope as a whole HTTP/1.1 response, for failures that happen before there is a
 * request to reply to (the HTTP parser's): it closes the connection, since the bytes that
 * follow on it cannot be trusted to start a request.
 */
export function rawErrorResponse(error: SpecError): string {
  const status = statusOf(error.code);
  const body = JSON.stringify(errorEnvelope(error));
  const phrase = STATUS_CODES[status] ?? 'Error';
  return [
    `HTTP/1.1 ${status} ${phrase}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Decision errors.validation.status: zod issues go straight into `details.issues` (path, message,
 * code).
 */
export function validationError(issues: readonly z.core.$ZodIssue[], where: string): SpecError {
  return specError('VALIDATION_ERROR', `the request ${where} is not valid`, {
    issues: issues.map((i) => ({
      path: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      message: i.message,
      code: i.code,
    })),
  });
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SpecError };

export function parse<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
): Parsed<z.infer<S>> {
  // Left out is read as `{}`; a JSON `null` was sent, so it is judged as sent (refused like
  // `[]` or `5` even where every field is optional, decision errors.validation.status).
  const result = schema.safeParse(input === undefined ? {} : input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, error: validationError(result.error.issues, where) };
}
