import { describe, expect, it } from 'vitest';
import type { ReferenceContext } from '../context.ts';
import { referenceForTests } from '../test-client.ts';
import { DEFAULT_SETTINGS } from '../settings.ts';
import { hubApp } from './server.ts';

// The hub's own server (§4.17): where a page reads its query, and what it answers for a path
// that is no page or for a failure of its own. Pages and their contents are page.test.ts.

const INVALID = 'Invalid or missing token.';
const NOBODY = '00000000-0000-4000-8000-000000000000';

const alert = (html: string) => /<p role="alert">(.*?)<\/p>/.exec(html)?.[1];

/** The page's answer is HTML whose style and script run only by the nonce its policy names. */
function expectNonced(headers: { get(name: string): string | null }, html: string): void {
  expect(headers.get('content-type')).toMatch(/^text\/html/);
  const policy = headers.get('content-security-policy') ?? '';
  const nonce = /style-src 'nonce-([^']+)'/.exec(policy)?.[1];
  // CSP nonce-source: a base64 value.
  expect(nonce).toMatch(/^[A-Za-z0-9+/_-]+=*$/);
  expect(html).toContain(`nonce="${nonce}"`);
  expect(policy).toContain(`script-src 'nonce-${nonce}'`);
}

/** A text of JWT shape naming an organization: enough to reach the account look-up. */
const JWT = `e30.${Buffer.from(JSON.stringify({ org: NOBODY })).toString('base64url')}.c2ln`;

/** A context whose store throws on a look-up of the account JWT names while `failing()` holds. */
const failingStore = (failing: () => boolean) =>
  ({
    settings: DEFAULT_SETTINGS,
    store: {
      account: (id: string) => {
        if (failing() && id === NOBODY) throw new Error('the store broke');
        return undefined;
      },
    },
  }) as unknown as ReferenceContext;

describe('hub server', () => {
  const ref = referenceForTests({ hooks: true, seed: 1311 });

  const get = (path: string) =>
    fetch(`${ref.running.hubUrl}${path}`, { signal: AbortSignal.timeout(3000) });

  it('answers a path that is no hub page with a 404 HTML page under the same policy', async () => {
    for (const path of ['/', '/share', '/share/chart/x', '/share/dashboard/a/b']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expectNonced(res.headers, html);
      expect(alert(html), path).toBeDefined();
    }
  });

  it('reads the jwt from the query only: one written into the path is no token (§4.17)', async () => {
    // The store fails on any look-up: only a page that took a token would reach it.
    const app = hubApp(
      failingStore(() => true),
      { logger: false },
    );
    try {
      for (const path of [`/share/dashboard/x&jwt=${JWT}`, `/share/application/&jwt=${JWT}`]) {
        const res = await app.inject({ url: path });
        expect(res.statusCode, path).toBe(401);
        expect(alert(res.body), path).toBe(INVALID);
      }
      expect((await app.inject({ url: `/share/dashboard/x?jwt=${JWT}` })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });

  it('answers a failure of its own with a 500 HTML page under the same policy, and goes on', async () => {
    let fail = true;
    const app = hubApp(
      failingStore(() => fail),
      { logger: false },
    );
    try {
      const res = await app.inject({ url: `/share/dashboard/${NOBODY}?jwt=${JWT}` });
      expect(res.statusCode).toBe(500);
      expectNonced({ get: (name) => String(res.headers[name] ?? '') }, res.body);
      expect(alert(res.body)).toBeDefined();
      fail = false;
      const next = await app.inject({ url: `/share/dashboard/${NOBODY}?jwt=${JWT}` });
      expect(next.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  }, 3000);
});
