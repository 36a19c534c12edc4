import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ReferenceContext } from '../context.ts';
import { renderMessage, renderPage } from './html.ts';
import { applicationPage, dashboardPage, invalidToken, type Page } from './page.ts';
import { readQuery, type PageQuery } from './query.ts';
import { viewerOf, type Viewer } from './viewer.ts';

/**
 * The hub (§4.17): the embeddable pages, on an origin of their own (its own port), so that an
 * embedder, the service and the hub are three origins and postMessage crosses a real boundary.
 */

/**
 * Nothing but the page's own nonce'd script and style runs or loads; any site may frame the
 * pages (they exist to be embedded).
 */
const csp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    'frame-ancestors *',
  ].join('; ');

function send(reply: FastifyReply, status: number, html: string, nonce: string): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp(nonce),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    .send(html);
}

/** To the application page with `dashboardId`, the other query parameters as they came. */
function redirect(
  req: FastifyRequest,
  reply: FastifyReply,
  to: Extract<Page, { kind: 'redirect' }>,
): FastifyReply {
  const at = req.url.indexOf('?');
  const search = new URLSearchParams(at === -1 ? '' : req.url.slice(at + 1));
  search.set('dashboardId', to.dashboardId);
  return reply
    .code(302)
    .headers({
      location: `/share/application/${to.applicationId}?${search.toString()}`,
      'cache-control': 'no-store',
    })
    .send();
}

function queryOf(req: FastifyRequest, ctx: ReferenceContext): PageQuery {
  const at = req.url.indexOf('?');
  return readQuery(
    new URLSearchParams(at === -1 ? '' : req.url.slice(at + 1)),
    ctx.settings.filterText,
  );
}

type Open = (viewer: Viewer, id: string, query: PageQuery) => Promise<Page>;

export function hubApp(ctx: ReferenceContext, options: { logger: boolean }): FastifyInstance {
  const app = Fastify({ logger: options.logger });

  const serve =
    (open: Open) =>
    async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const nonce = randomBytes(16).toString('base64');
      const query = queryOf(req, ctx);
      const viewer = await viewerOf(ctx, query.jwt);
      // §4.17: a missing or bad jwt is told before anything about the id.
      const page = viewer === undefined ? invalidToken : await open(viewer, req.params.id, query);
      if (page.kind === 'error')
        return send(reply, page.status, renderMessage(page.text, nonce), nonce);
      if (page.kind === 'redirect') return redirect(req, reply, page);
      return send(
        reply,
        200,
        renderPage({ view: page.view, flags: viewer!.flags, query, nonce }),
        nonce,
      );
    };

  app.get(
    '/share/application/:id',
    serve((v, id, q) => applicationPage(ctx, v, id, q)),
  );
  app.get(
    '/share/dashboard/:id',
    serve((v, id, q) => dashboardPage(ctx, v, id, q)),
  );
  app.setNotFoundHandler((_req, reply) => {
    const nonce = randomBytes(16).toString('base64');
    return send(reply, 404, renderMessage('No hub page here.', nonce), nonce);
  });
  app.setErrorHandler((err, req, reply) => {
    req.log.error(err);
    const nonce = randomBytes(16).toString('base64');
    return send(
      reply,
      500,
      renderMessage('The reference hub failed; this is a bug.', nonce),
      nonce,
    );
  });
  return app;
}
