import { isHubPage, withBody } from './hub.ts';
import type { Answer, Transform } from './transform.ts';

/**
 * Hub-page entries of the latitude catalogue (spec/latitude.ts) for what §4.17 leaves a page to
 * do: the status its two error texts come with, where it posts without a parentOrigin, and what
 * it does with a dbAuthToken. Like latitude/hub.ts, each edit checks that the page holds what it
 * changes and leaves a page it does not know alone.
 */

/** §4.17's two texts, verbatim. */
const ERROR_TEXTS = ['Dashboard not found.', 'Invalid or missing token.'];

/** The error pages with their text answered 200: §4.17 gives the texts and no status. */
export const hubErrorsOk: Transform = {
  id: 'hub.errors-ok',
  apply(answer) {
    if (!isHubPage(answer) || answer.status < 400 || answer.status >= 500) return undefined;
    const html = answer.body.toString('utf-8');
    if (!ERROR_TEXTS.some((t) => html.includes(t))) return undefined;
    return { ...answer, status: 200 };
  },
};

/** Where the page's script posts: to parentOrigin only, nothing without it. */
const POST_ONLY_THERE =
  'if (cfg.parentOrigin && window.parent !== window) window.parent.postMessage(message, cfg.parentOrigin);';
/** To parentOrigin when given, else to any parent: `*`. */
const POST_ANYWHERE =
  "if (window.parent !== window) window.parent.postMessage(message, cfg.parentOrigin || '*');";

/**
 * Without a parentOrigin (or with one that is no origin) the page posts its messages to its
 * parent whatever its origin (`*`); a parentOrigin given still names the only receiver.
 */
export const hubPostsAnywhere: Transform = {
  id: 'hub.posts-anywhere',
  apply(answer, random) {
    if (!isHubPage(answer)) return undefined;
    const html = answer.body.toString('utf-8');
    if (!html.includes(POST_ONLY_THERE)) return undefined;
    return withBody(answer, html.replace(POST_ONLY_THERE, POST_ANYWHERE), random);
  },
};

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page keeps the dbAuthToken it was given for the queries it sends to the customer's
 * database: in a meta element of its head.
 */
export const hubDbAuthTokenKept: Transform = {
  id: 'hub.db-auth-token-kept',
  apply(answer: Answer, random) {
    if (!isHubPage(answer) || answer.status !== 200) return undefined;
    const query = new URLSearchParams(answer.request.url.split('?')[1] ?? '');
    const token = query.get('dbAuthToken');
    const html = answer.body.toString('utf-8');
    if (token === null || token === '' || !html.includes('</head>')) return undefined;
    const meta = `<meta name="db-auth-token" content="${escapeAttribute(token)}">`;
    return withBody(answer, html.replace('</head>', `${meta}</head>`), random);
  },
};

export const hubOpenTransforms: Transform[] = [hubErrorsOk, hubPostsAnywhere, hubDbAuthTokenKept];
