import { describe, expect, it } from 'vitest';
import { seeded } from '../suites/harness/random.ts';
import {
  hubDbAuthTokenKept,
  hubErrorsOk,
  hubOpenTransforms,
  hubPostsAnywhere,
} from './hub-open.ts';
import type { Answer } from './transform.ts';

const SCRIPT =
  'const post = (message) => {\n    if (cfg.parentOrigin && window.parent !== window) window.parent.postMessage(message, cfg.parentOrigin);\n  };';
const PAGE = `<!doctype html><html><head><title>t</title></head><body><main>Board</main><script nonce="n">${SCRIPT}</script></body></html>`;
const ERROR = '<!doctype html><html><head></head><body><p>Dashboard not found.</p></body></html>';

function page(url: string, status: number, html: string, origin: 'hub' | 'api' = 'hub'): Answer {
  return {
    request: { method: 'GET', url, headers: {}, body: Buffer.alloc(0), origin },
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: Buffer.from(html),
  };
}

describe('hub page forms of what §4.17 leaves a page to do', () => {
  it('leave API answers and pages they do not know alone', () => {
    for (const t of hubOpenTransforms) {
      expect(
        t.apply(page('/share/dashboard/d?jwt=x&dbAuthToken=s', 200, PAGE, 'api'), seeded(1)),
      ).toBeUndefined();
      expect(t.apply(page('/share/dashboard/d', 200, '<p>other</p>'), seeded(1))).toBeUndefined();
    }
  });

  it('hub.errors-ok: an error text comes with 200, other failures keep theirs', () => {
    expect(hubErrorsOk.apply(page('/share/dashboard/d', 404, ERROR), seeded(1))?.status).toBe(200);
    const token = ERROR.replace('Dashboard not found.', 'Invalid or missing token.');
    expect(hubErrorsOk.apply(page('/share/dashboard/d', 401, token), seeded(1))?.status).toBe(200);
    expect(
      hubErrorsOk.apply(page('/nowhere', 404, '<p>No hub page here.</p>'), seeded(1)),
    ).toBeUndefined();
    expect(hubErrorsOk.apply(page('/share/dashboard/d', 200, PAGE), seeded(1))).toBeUndefined();
  });

  it("hub.posts-anywhere: without parentOrigin the script posts to '*'", () => {
    const out = hubPostsAnywhere.apply(page('/share/dashboard/d', 200, PAGE), seeded(1));
    const html = out?.body.toString('utf-8') ?? '';
    expect(html).toContain("window.parent.postMessage(message, cfg.parentOrigin || '*');");
    expect(html).not.toContain('if (cfg.parentOrigin &&');
  });

  it('hub.db-auth-token-kept: the token given is in the head, escaped; none given, nothing', () => {
    const url = `/share/dashboard/d?jwt=x&dbAuthToken=${encodeURIComponent('db-"<s>')}`;
    const html = hubDbAuthTokenKept.apply(page(url, 200, PAGE), seeded(1))?.body.toString('utf-8');
    expect(html).toContain('<meta name="db-auth-token" content="db-&quot;&lt;s&gt;"></head>');
    expect(
      hubDbAuthTokenKept.apply(page('/share/dashboard/d?jwt=x', 200, PAGE), seeded(1)),
    ).toBeUndefined();
    expect(hubDbAuthTokenKept.apply(page(url, 404, ERROR), seeded(1))).toBeUndefined();
  });
});
