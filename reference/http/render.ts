import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { specError, statusOf, type SpecError } from '../../spec/errors.ts';

/** Preamble of the document: every JSON success is `{status:'success', data}`. */
export function sendData(reply: FastifyReply, data: unknown, status = 200) {
  return reply.code(status).send({ status: 'success', data });
}

/** §7: every failure is `{status:'error', error:{message, code, details}}`. */
export function sendError(reply: FastifyReply, error: SpecError) {
  const body = {
    status: 'error',
    error: { message: error.message, code: error.code, details: error.details ?? {} },
  };
  if (error.code === 'RATE_LIMITED' && typeof error.details?.['retryAfter'] === 'number') {
    void reply.header('retry-after', String(error.details['retryAfter']));
  }
  return reply.code(statusOf(error.code)).send(body);
}

/** Decision E1: zod issues go straight into `details.issues` (path, message, code). */
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
  const result = schema.safeParse(input ?? {});
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, error: validationError(result.error.issues, where) };
}
