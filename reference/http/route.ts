import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Done } from '../done.ts';
import type { Principal } from '../store/actors.ts';
import { authenticate, type AuthContext, type Carrier } from './auth.ts';
import { parse, sendData, sendError } from './render.ts';
import { lowerCaseUuids } from './uuid-case.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteSpec<P, Q, B> {
  readonly method: Method;
  readonly url: string;
  /** Carriers accepted (§5), or `none` for the host hooks. */
  readonly auth: readonly Carrier[] | 'none';
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** Status of a success (200 unless said). */
  readonly status?: number;
  readonly handle: (input: {
    readonly principal: Principal | undefined;
    readonly params: Infer<P>;
    readonly query: Infer<Q>;
    readonly body: Infer<B>;
    readonly req: FastifyRequest;
  }) => Done<unknown> | Promise<Done<unknown>>;
}

/**
 * Registers one endpoint the same way every time (STYLE 4): credentials first (decision:
 * a caller learns nothing about a request's shape before proving who it is), then path,
 * query and body through zod (UUIDs then read in lower case, uuid-case.ts), then the
 * handler, which calls a machine through the store; the outcome is rendered in the success
 * or §7 envelope.
 */
export function route<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
>(app: FastifyInstance, ctx: AuthContext, spec: RouteSpec<P, Q, B>): void {
  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (req, reply) => {
      let principal: Principal | undefined;
      if (spec.auth !== 'none') {
        const who = await authenticate(ctx, req, spec.auth);
        if (!who.ok) return sendError(reply, who.error);
        principal = who.value;
      }
      // §5 rule 3: with an organization-bound key organizationId is ignored, whatever it holds.
      const ignored = principal?.via === 'org-bound-key' ? 'organizationId' : undefined;
      const parts: [z.ZodType | undefined, unknown, 'path' | 'query' | 'body'][] = [
        [spec.params, req.params, 'path'],
        [spec.query, without(req.query, ignored), 'query'],
        [spec.body, without(req.body, ignored), 'body'],
      ];
      const values: unknown[] = [];
      for (const [schema, input, where] of parts) {
        if (schema === undefined) {
          values.push(undefined);
          continue;
        }
        const parsed = parse(schema, input, where);
        if (!parsed.ok) return sendError(reply, parsed.error);
        values.push(lowerCaseUuids(schema, parsed.value));
      }
      const done = await spec.handle({
        principal,
        params: values[0] as Infer<P>,
        query: values[1] as Infer<Q>,
        body: values[2] as Infer<B>,
        req,
      });
      return done.ok ? sendData(reply, done.value, spec.status) : sendError(reply, done.error);
    },
  });
}

function without(input: unknown, key: string | undefined): unknown {
  if (key === undefined || typeof input !== 'object' || input === null || Array.isArray(input))
    return input;
  const { [key]: _dropped, ...rest } = input as Record<string, unknown>;
  return rest;
}

/** A handler behind a credential carrier always has a principal. */
export function caller(principal: Principal | undefined): Principal {
  if (principal === undefined) throw new Error('route declared credentials but has no principal');
  return principal;
}

export { errDone, okDone } from '../done.ts';
