/**
 * Discover's browser for the hub pages: Debian's chromium through playwright-core (an optional
 * part of the kit, imported only here and only when a hub is given), one tab whose parent page,
 * on a third origin served from this process, frames each hub page as the suites do
 * (suites/harness/browser-setup.ts parentPage). Never a downloaded browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// A static import: the bundle loads an external package only when a member is first read
// (tools/build.ts), so without playwright-core installed nothing loads before browserProblem says so.
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import {
  browserProblem,
  CHROMIUM_ARGS,
  chromiumPath,
  parentPage,
} from '../../suites/harness/browser-setup.ts';
import { parseSnapshot, type AxNode } from './hub-tree.ts';

/** How long a hub page may take to load, and to go still after it did. */
const LOAD_MS = 15_000;
const STILL_MS = 250;
const STILL_CAP_MS = 5_000;

export interface HubPage {
  /** The hub frame. */
  readonly frame: Frame;
  /** The accessibility tree of the hub frame, once it has gone still. */
  tree(): Promise<AxNode[]>;
  /**
   * The tree after `change` (a click): once it differs from the tree before (a page may reload
   * for it) and has gone still, or as it is after the load time when nothing changed.
   */
  treeAfter(change: () => Promise<void>): Promise<AxNode[]>;
  /** The messages the parent page received from the hub's origin. */
  messages(): Promise<unknown[]>;
}

export class HubBrowser {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly server: Server,
    readonly parentOrigin: string,
  ) {}

  /** The browser, or why there is none (a sentence). */
  static async launch(): Promise<HubBrowser | string> {
    const problem = browserProblem();
    if (problem !== undefined) return problem;
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const server = createServer((req, res) => {
      const src = new URL(req.url ?? '/', 'http://parent').searchParams.get('src') ?? '';
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(parentPage(src));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const context = await browser.newContext({ viewport: { width: 1040, height: 760 } });
    context.setDefaultTimeout(LOAD_MS);
    const page = await context.newPage();
    page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
    return new HubBrowser(browser, page, server, `http://127.0.0.1:${String(port)}`);
  }

  /** Opens `url` (a hub page's whole address) in a parent page loaded for it. */
  async open(url: string): Promise<HubPage> {
    const { page } = this;
    await page.goto(`${this.parentOrigin}/parent?src=${encodeURIComponent(url)}`, {
      waitUntil: 'load',
    });
    const frame = page.mainFrame().childFrames()[0];
    if (frame === undefined) throw new Error('the parent page framed no hub page');
    await frame.waitForLoadState('load');
    const hubOrigin = new URL(url).origin;
    return {
      frame,
      tree: () => stillTree(page),
      treeAfter: async (change) => {
        const before = await snapshotOf(page);
        await change();
        const until = Date.now() + LOAD_MS;
        while ((await snapshotOf(page)) === before && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 100));
        return stillTree(page);
      },
      messages: async () => {
        const all = await page.evaluate<{ origin: string; data: unknown }[]>(
          'window.__eacMessages ?? []',
        );
        return all.filter((m) => m.origin === hubOrigin).map((m) => m.data);
      },
    };
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** The hub frame (the page's frame of the moment: it may have navigated) as a snapshot. */
async function snapshotOf(page: Page): Promise<string> {
  const frame = page.mainFrame().childFrames()[0];
  if (frame === undefined) return '';
  await frame.waitForLoadState('load').catch(() => undefined);
  return frame
    .locator('body')
    .ariaSnapshot({ timeout: LOAD_MS })
    .catch(() => '');
}

/** The tree once two snapshots `STILL_MS` apart agree (a page may build itself after its load). */
async function stillTree(page: Page): Promise<AxNode[]> {
  const until = Date.now() + STILL_CAP_MS;
  let last = await snapshotOf(page);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, STILL_MS));
    const now = await snapshotOf(page);
    if (now === last || Date.now() > until) return parseSnapshot(now);
    last = now;
  }
}
