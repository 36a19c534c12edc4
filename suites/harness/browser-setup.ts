/**
 * Vitest global setup of the conformance project for the hub suites: one browser per run,
 * launched only when a hub test first asks for it, and the embedding parent page, served from a
 * third origin (neither the service's nor the hub's) so that `parentOrigin`, `autoHeight` and
 * `embed:params` are observed as a real embedder sees them (§4.17).
 *
 * It serves a small local "broker" (127.0.0.1, ephemeral port):
 * - `GET /browser` launches Debian's chromium once (playwright-core's browser server, never a
 *   downloaded browser) and answers `{wsEndpoint}` or `{problem}`;
 * - `GET /parent?src=URL` is the parent page: it records every message it receives (origin and
 *   data) in `window.__eacMessages`, then frames `src`.
 * Test workers connect to that one browser (suites/harness/browser.ts).
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  interface ProvidedContext {
    /** Base address of the browser broker (suites/harness/browser-setup.ts). */
    eacBrowserBroker: string;
  }
}

/** Where the browser is: Debian's chromium package unless EAC_CHROMIUM says otherwise. */
export const chromiumPath = (): string => process.env['EAC_CHROMIUM'] ?? '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), nothing fetched behind the tests' backs. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The embedder: records messages before the frame exists, then frames the hub page. */
export function parentPage(src: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>EAC embedder</title></head><body>
<script>
window.__eacMessages = [];
window.addEventListener('message', (event) => {
  const frame = document.getElementById('hub');
  window.__eacMessages.push({ origin: event.origin, data: event.data, fromHub: !!frame && event.source === frame.contentWindow });
});
</script>
<iframe id="hub" title="Embedded hub page" src="${escapeAttr(src)}" style="width:1000px;height:700px;border:0"></iframe>
</body></html>`;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let launched: Promise<BrowserServer> | undefined;
  const launch = async (): Promise<BrowserServer> => {
    const { chromium } = await import('playwright-core');
    return chromium.launchServer({
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
  };
  const broker = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://broker');
    if (url.pathname === '/browser') {
      const answer = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (!existsSync(chromiumPath())) {
        answer({
          problem: `no browser at ${chromiumPath()} (apt-get install chromium, or set EAC_CHROMIUM)`,
        });
        return;
      }
      launched ??= launch();
      launched.then(
        (server) => answer({ wsEndpoint: server.wsEndpoint() }),
        (error: unknown) => {
          launched = undefined;
          answer({ problem: `the browser did not start: ${String(error)}` });
        },
      );
      return;
    }
    if (url.pathname === '/parent') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(parentPage(url.searchParams.get('src') ?? 'about:blank'));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  const { port } = broker.address() as AddressInfo;
  project.provide('eacBrowserBroker', `http://127.0.0.1:${String(port)}`);
  return async () => {
    broker.closeAllConnections();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    if (launched !== undefined) await (await launched.catch(() => undefined))?.close();
  };
}
