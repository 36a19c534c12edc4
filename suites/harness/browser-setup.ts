/**
 * Vitest global setup of the conformance project for the hub suites: one browser per run,
 * launched only when a hub test first asks for it, and the embedding parent page, served from a
 * third origin (neither the service's nor the hub's) so that `parentOrigin`, `autoHeight` and
 * `embed:params` are observed as a real embedder sees them (§4.17).
 *
 * It serves a small local "broker" (127.0.0.1, ephemeral port):
 * - `GET /browser` launches Debian's chromium once (playwright-core's browser server, never a
 *   downloaded browser; see chromiumPath) and answers `{wsEndpoint}` or `{problem}`: no
 *   playwright-core (an optional part of the kit, loaded only here and by the workers when a
 *   hub test asks for the browser), or no browser, is a problem: the tests end not-run (fail
 *   under EAC_REQUIRE_BROWSER=1). The
 *   browser server runs in a child process of its own, so the protocol traffic of every test
 *   worker does not queue on the event loop that also serves the embedded reference; the child
 *   ends (and closes the browser) when this process closes its stdin, even if this process dies;
 * - `GET /parent?src=URL` is the parent page: it records every message it receives (origin and
 *   data) in `window.__eacMessages`, then frames `src` (parentPage).
 * Test workers connect to that one browser (suites/harness/browser.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { missingPart } from '../../runner/parts.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** Base address of the browser broker (suites/harness/browser-setup.ts). */
    eacBrowserBroker: string;
  }
}

/**
 * The browsers looked for, in order: Debian's chromium-headless-shell (the same Blink as its
 * chromium, without the desktop browser's shell: in a full run chromium's browser process took
 * 43 s of CPU, the headless shell's 20 s), then Debian's chromium.
 */
export const CHROMIUM_PATHS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

/** Where the browser is: EAC_CHROMIUM, else the first of CHROMIUM_PATHS installed. */
export const chromiumPath = (): string =>
  process.env['EAC_CHROMIUM'] ?? CHROMIUM_PATHS.find((p) => existsSync(p)) ?? CHROMIUM_PATHS[1];

/** How the not-run reason of a hub test without a browser begins (a person reads it; the runner counts its cause). */
export const NO_BROWSER = 'no browser for the hub pages';

/** How to get a browser, as every line that reports none words it. */
export const BROWSER_HINT =
  "install Debian's chromium-headless-shell or chromium, or set EAC_CHROMIUM";

/** What is missing when no browser stands where chromiumPath() looks. */
export const browserMissing = (): string =>
  process.env['EAC_CHROMIUM'] !== undefined
    ? `no browser at ${chromiumPath()} (EAC_CHROMIUM)`
    : `no browser at ${CHROMIUM_PATHS.join(' or ')} (${BROWSER_HINT})`;

/**
 * Why the hub's browser tests get no browser here, or undefined: the driver first (playwright-
 * core, an optional part of the kit: its message names the line that installs it), then the
 * browser itself.
 */
export const browserProblem = (): string | undefined =>
  missingPart('browser') ?? (existsSync(chromiumPath()) ? undefined : browserMissing());

/**
 * Headless, no sandbox (CI runs as root), nothing fetched behind the tests' backs.
 *
 * Few renderer processes: by default chromium gave nearly every navigation a fresh renderer
 * (about a hundred for one hub run), each started at a cost in CPU. Without site isolation and
 * with at most four renderers (one per test worker) the processes are reused. What a page can
 * observe stays the same: origins, CSP and frame-ancestors, postMessage's origin, storage and
 * cookies are the browser's rules whichever process renders a frame; site isolation only keeps
 * a compromised renderer from reading another site's memory, which no test exercises.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-site-isolation-trials',
  '--renderer-process-limit=4',
];

/**
 * The embedder: records messages before the frame exists, then frames the hub page.
 *
 * It frames through `window.__eacFrame(src)`, which a later page of the same tab calls too: it
 * removes the hub frame and frames `src` in a new iframe element (a fresh browsing context, as a
 * new parent page would give it), and answers a promise settled when that frame has loaded.
 * Framing anew costs chromium about 40% less than loading a new parent page. The message log
 * starts empty again, but a message the removed frame posted may still arrive after that, so
 * only a parent page loaded for the view (suites/harness/browser.ts, openEmbedded) reads it.
 */
export function parentPage(src: string): string {
  // JSON in a script: `<` escaped so that no `</script>` in the address ends it.
  const first = JSON.stringify(src).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>EAC embedder</title></head><body>
<script>
window.__eacMessages = [];
window.addEventListener('message', (event) => {
  const frame = document.getElementById('hub');
  // The hub frame is the only frame of the hub's origin on this page, and a message's origin is
  // set by the browser: that tells a message from the hub apart. Its source cannot: a page that
  // posts and then navigates at once may be gone when the message arrives (source null).
  window.__eacMessages.push({ origin: event.origin, data: event.data, fromHub: !!frame && event.origin === new URL(frame.src, location.href).origin });
});
window.__eacFrame = (src) => {
  document.getElementById('hub')?.remove();
  window.__eacMessages = [];
  const frame = document.createElement('iframe');
  frame.id = 'hub';
  frame.title = 'Embedded hub page';
  frame.style.cssText = 'width:1000px;height:700px;border:0';
  frame.src = src;
  const loaded = new Promise((resolve) => frame.addEventListener('load', () => resolve(true), { once: true }));
  document.body.append(frame);
  return loaded;
};
window.__eacFrame(${first});
</script>
</body></html>`;
}

/**
 * The child process's program (plain JavaScript: no loader needed): launches the browser
 * server, prints one JSON line `{wsEndpoint}` or `{problem}`, and closes the browser when its
 * stdin ends.
 */
const BROWSER_SERVER = `
const { chromium } = require(process.argv[1]);
chromium.launchServer(JSON.parse(process.argv[2])).then((server) => {
  process.stdout.write(JSON.stringify({ wsEndpoint: server.wsEndpoint() }) + '\\n');
  const stop = () => server.close().finally(() => process.exit(0));
  process.stdin.on('end', stop);
  process.stdin.resume();
}, (error) => {
  process.stdout.write(JSON.stringify({ problem: error instanceof Error ? error.message : String(error) }) + '\\n');
  process.exit(1);
});`;

interface Launched {
  readonly child: ChildProcess;
  readonly wsEndpoint: string;
}

/** Starts the browser server's process; rejects with the problem when it does not start. */
function launch(): Promise<Launched> {
  const options = { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS };
  const child = spawn(
    process.execPath,
    [
      '-e',
      BROWSER_SERVER,
      createRequire(import.meta.url).resolve('playwright-core'),
      JSON.stringify(options),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the browser server exited (${String(code)})`)));
    lines.once('line', (line) => {
      const answer = JSON.parse(line) as { wsEndpoint?: string; problem?: string };
      if (answer.wsEndpoint !== undefined) resolve({ child, wsEndpoint: answer.wsEndpoint });
      else reject(new Error(answer.problem ?? 'no answer'));
    });
  });
}

/** Closes the browser: its process closes the browser and exits when its stdin ends. */
async function stop(launched: Launched): Promise<void> {
  const { child } = launched;
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let launched: Promise<Launched> | undefined;
  const broker = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://broker');
    if (url.pathname === '/browser') {
      const answer = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const problem = browserProblem();
      if (problem !== undefined) {
        answer({ problem, missing: missingPart('browser') === undefined ? 'chromium' : 'driver' });
        return;
      }
      launched ??= launch();
      launched.then(
        (server) => answer({ wsEndpoint: server.wsEndpoint }),
        (error: unknown) => {
          launched = undefined;
          answer({
            problem: `the browser did not start: ${error instanceof Error ? error.message : String(error)}`,
            missing: 'chromium',
          });
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
    const server = await launched?.catch(() => undefined);
    if (server !== undefined) await stop(server);
  };
}
