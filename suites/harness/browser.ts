/**
 * The browser side of the hub suites (§4.17): pages opened in the run's one browser (launched
 * by suites/harness/browser-setup.ts on first use), each inside an iframe of a parent page on a
 * third origin, found on the page through the target profile's hub section (ARIA role and
 * accessible name; spec/hub-profile.ts).
 *
 * A missing browser, or a missing playwright-core (an optional part of the kit: imported here
 * only once the broker has a browser), is a not-run with the reason, or a failure when
 * EAC_REQUIRE_BROWSER=1 (CI).
 * A failing test leaves a screenshot in `<report dir>/screenshots/<test id>.png` when the runner
 * names the report folder (provided as `eacReportDir`).
 *
 * Cost: a browser context of its own per page made chromium start a renderer process for
 * nearly every page, the bulk of the suite's CPU on a two-core machine. So each worker (its test
 * files run one after another) keeps one context and reuses its tabs; a test's pages are one
 * visitor. When a test
 * ends (or closes its last page), whatever its pages left behind is wiped (cookies, the storage
 * and service workers of every origin they loaded, the tab's session storage, the HTTP cache),
 * so the next visit starts as a first-time visitor as before. Tests close a page before they
 * open one for another user, or the same address again.
 */
import { cause, type BrowserGap } from './causes.ts';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { inject, onTestFinished } from 'vitest';
import type {
  Browser,
  BrowserContext,
  CDPSession,
  Frame,
  Locator,
  Page,
  Request,
  Response,
} from 'playwright-core';
import {
  locatorName,
  type HubProfile,
  type HubThing,
  type RowPlace,
} from '../../spec/hub-profile.ts';
import type { Conformance } from './conformance.ts';
import { testIdOf } from './meta.ts';
import { NO_BROWSER } from './browser-setup.ts';
import { rowsOf, type Rows } from './hub-rows.ts';

/** A message the parent page received. */
export interface ParentMessage {
  readonly origin: string;
  readonly data: unknown;
  /** Whether it came from the framed hub page: the only frame of the hub's origin there. */
  readonly fromHub: boolean;
}

export interface HubView {
  readonly page: Page;
  /**
   * The hub page inside the parent's iframe: the frame itself, which outlives the frame's
   * navigations (a FrameLocator would find the iframe in the parent again on every query, at
   * twice the cost of each).
   */
  readonly frame: Frame;
  /** The parent page's origin (the third origin). */
  readonly parentOrigin: string;
  /** Texts of every JavaScript dialog (alert, confirm) any frame opened. */
  readonly dialogs: readonly string[];
  /** A thing of the hub profile, with its name's placeholder filled; not-run if unnamed. */
  thing(name: HubThing, values?: Readonly<Record<string, string>>): Locator;
  /** Same, inside `within`. */
  thingIn(within: Locator, name: HubThing, values?: Readonly<Record<string, string>>): Locator;
  /** Whether the profile names this thing. */
  names(name: HubThing): boolean;
  /**
   * The rows `within` shows (a chart, or the rows behind a drilled point), read in the
   * structure the profile states for that place; `what` names the place in a failure.
   */
  rows(within: Locator, place: RowPlace, what: string): Rows;
  /**
   * Waits until the page is still: no request of it in flight and no change to the hub
   * frame's document for `quietMs` (counted from the call at the earliest), or `capMs` have
   * passed, whichever comes first.
   */
  settled(quietMs: number, capMs: number): Promise<void>;
  /** Closes the page before the test ends (the test's last page also wipes what it left). */
  close(): Promise<void>;
}

/** A hub page in a parent page loaded for it alone, whose message log is the page's own. */
export interface EmbeddedView extends HubView {
  /** What the parent has received so far. */
  messages(): Promise<ParentMessage[]>;
}

const REQUIRE = () => process.env['EAC_REQUIRE_BROWSER'] === '1';

let connected: Promise<Browser> | undefined;

function broker(): string | undefined {
  try {
    return inject('eacBrowserBroker');
  } catch {
    return undefined;
  }
}

async function browserFor(t: Conformance): Promise<Browser> {
  const refuse = (problem: string, missing: BrowserGap): never => {
    if (REQUIRE()) throw new Error(`EAC_REQUIRE_BROWSER=1 and ${problem}`);
    return t.notRun(`${NO_BROWSER}: ${problem}`, cause.browser(missing));
  };
  const base = broker();
  if (base === undefined)
    return refuse('the browser setup (suites/harness/browser-setup.ts) did not run', 'setup');
  connected ??= connect(base);
  try {
    return await connected;
  } catch (error) {
    connected = undefined;
    return error instanceof BrowserMissing
      ? refuse(error.message, error.missing)
      : refuse(String(error), 'chromium');
  }
}

class BrowserMissing extends Error {
  constructor(
    message: string,
    readonly missing: BrowserGap,
  ) {
    super(message);
  }
}

/** Asks the broker for the run's browser (it launches it once) and connects to it. */
async function connect(base: string): Promise<Browser> {
  const res = await fetch(`${base}/browser`);
  const answer = (await res.json()) as {
    wsEndpoint?: string;
    problem?: string;
    missing?: BrowserGap;
  };
  if (answer.wsEndpoint === undefined)
    throw new BrowserMissing(answer.problem ?? 'unknown', answer.missing ?? 'chromium');
  const { chromium } = await import('playwright-core');
  return chromium.connect(answer.wsEndpoint);
}

// A test file that opens hub pages imports this module before its first test: the browser
// starts then, while the test builds its world through the hooks, instead of after. Only for a
// target with a hub (no hub: its tests end not-run and no browser is wanted); a failure here is
// met again, and reported, by the first test that asks for the browser.
if (hasHub() && broker() !== undefined) {
  const early = connect(broker() ?? '');
  connected = early;
  early.catch(() => {
    if (connected === early) connected = undefined;
  });
}

/** Whether the run was given a hub's address (`--hub`). */
export function hasHub(): boolean {
  try {
    return inject('eacTarget').hubUrl !== undefined;
  } catch {
    return false;
  }
}

/** The origin of the embedding parent page (the third origin), known before opening a page. */
export function embedderOrigin(t: Conformance): string {
  const base = broker();
  if (base === undefined) {
    if (REQUIRE()) throw new Error('EAC_REQUIRE_BROWSER=1 and the browser setup did not run');
    return t.notRun(`${NO_BROWSER}: the browser setup did not run`, cause.browser('setup'));
  }
  return new URL(base).origin;
}

/** The hub section of the profile; not-run when the target's profile has none. */
export function hubProfile(t: Conformance): HubProfile {
  const hub = t.profile.hub;
  if (hub === undefined)
    return t.notRun("the target's profile has no hub section", cause.shape('hub'));
  return hub;
}

/** Where a failing test's screenshot goes: `<report folder>/screenshots/<id, unsafe chars as _>.png`. */
export function screenshotPath(reportDir: string, testId: string): string {
  return path.join(reportDir, 'screenshots', `${testId.replace(/[^A-Za-z0-9._-]/g, '_')}.png`);
}

/** The one context of this worker (of the test files it runs), made on first use. */
let fileContext: Promise<BrowserContext> | undefined;

async function contextOf(browser: Browser): Promise<BrowserContext> {
  fileContext ??= browser.newContext({ viewport: { width: 1040, height: 760 } }).then((c) => {
    c.setDefaultTimeout(15_000);
    c.once('close', () => {
      fileContext = undefined;
    });
    return c;
  });
  try {
    return await fileContext;
  } catch (error) {
    fileContext = undefined;
    throw error;
  }
}

/** The pages the running test opened and the origins they loaded (a worker's tests run in turn). */
interface Visit {
  readonly context: BrowserContext;
  readonly pages: Page[];
  readonly origins: Set<string>;
  /** Pages the test closes itself: the last of them to close wipes first. */
  readonly closing: Set<Page>;
  wiped: boolean;
}

let visit: Visit | undefined;

/**
 * Pages of ended visits, kept for the next: a new tab costs chromium a renderer process, a
 * navigation of an open tab on the same site does not. A page comes back here wiped (above)
 * and with its tab's session storage cleared; the next visit frames its own page anew in the
 * tab's parent page, or loads a parent page of its own (open).
 */
const idle: Page[] = [];

/** What the view now on a tab hears of it: its requests, responses and dialogs. */
interface Ears {
  request(request: Request): void;
  done(request: Request): void;
  response(response: Response): void;
  dialog(message: string): void;
}

/**
 * The view on each tab. A tab's listeners are added once, when it opens, and hand what they
 * hear to its view: adding and removing them for every view cost a call to the browser server
 * each (playwright subscribes to network events only while they have listeners).
 */
const ears = new WeakMap<Page, Ears>();

async function newTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('request', (request) => ears.get(page)?.request(request));
  page.on('requestfinished', (request) => ears.get(page)?.done(request));
  page.on('requestfailed', (request) => ears.get(page)?.done(request));
  page.on('response', (response) => ears.get(page)?.response(response));
  page.on('dialog', (dialog) => {
    ears.get(page)?.dialog(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  return page;
}

/** Each tab's DevTools session, opened on first use (wipe). */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

function sessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (session === undefined) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

async function release(page: Page): Promise<void> {
  if (page.isClosed() || idle.includes(page)) return;
  ears.delete(page);
  const cleared = await Promise.all(
    page.frames().map((f) =>
      f.evaluate('sessionStorage.clear()').then(
        () => true,
        () => f.url() === 'about:blank',
      ),
    ),
  );
  if (cleared.every(Boolean) && fileContext !== undefined) idle.push(page);
  else await page.close().catch(() => undefined);
}

async function pageOf(context: BrowserContext): Promise<Page> {
  for (let page = idle.pop(); page !== undefined; page = idle.pop())
    if (!page.isClosed() && page.context() === context) return page;
  return newTab(context);
}

/** Wipes what the visit left in the context, through one of its pages still open. */
async function wipe(v: Visit, through: Page | undefined): Promise<void> {
  if (v.wiped) return;
  v.wiped = true;
  if (through !== undefined && !through.isClosed()) {
    const cdp = await sessionOf(through);
    await Promise.all([
      ...[...v.origins].map((origin) =>
        cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }),
      ),
      cdp.send('Network.clearBrowserCache'),
    ]);
  }
  await v.context.clearCookies();
}

function visitOf(context: BrowserContext): Visit {
  if (visit !== undefined && visit.context === context && !visit.wiped) return visit;
  const v: Visit = { context, pages: [], origins: new Set(), closing: new Set(), wiped: false };
  visit = v;
  onTestFinished(async ({ task }) => {
    if (visit === v) visit = undefined;
    const open = v.pages.filter((p) => !p.isClosed());
    try {
      const reportDir = inject('eacReportDir');
      const id = task.meta.eac === undefined ? undefined : testIdOf(task.meta.eac);
      const last = open.at(-1);
      if (task.result?.state === 'fail' && reportDir !== undefined && id !== undefined && last) {
        const file = screenshotPath(reportDir, id);
        await mkdir(path.dirname(file), { recursive: true });
        await last.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      }
      await wipe(v, open[0]).catch(async () => {
        // A context that cannot be wiped is not reused.
        await context.close().catch(() => undefined);
      });
    } finally {
      await Promise.all(open.map((p) => release(p).catch(() => undefined)));
    }
  });
  return v;
}

/** One page load of the hub frame, as an exchange of the test's HTTP log. */
async function recordPageLoad(t: Conformance, request: Request, response: Response): Promise<void> {
  const headers = await response.allHeaders().catch(() => response.headers());
  const type = headers['content-type'] ?? '';
  const body =
    type.startsWith('text/') || type.includes('json')
      ? await response.text().catch(() => undefined)
      : undefined;
  t.http.record({
    request: { method: request.method(), url: request.url(), headers: request.headers() },
    response: { status: response.status(), headers, ...(body !== undefined ? { body } : {}) },
    ms: Math.max(0, Math.round(request.timing().responseEnd)),
  });
}

/** How long the hub frame may take to load. */
const LOAD_MS = 15_000;

/**
 * Opens `pathAndQuery` of the hub (e.g. `/share/dashboard/ID?jwt=…`) inside the parent page's
 * iframe, and closes it when the test ends. A tab kept from an earlier page frames it anew in
 * its parent page (a new iframe element; see parentPage): what the parent receives is not
 * observed then. A test that reads it opens the page with openEmbedded.
 */
export function openHub(t: Conformance, pathAndQuery: string): Promise<HubView> {
  return open(t, pathAndQuery, false);
}

/** Same, in a parent page loaded for this page alone, whose messages the view reads. */
export async function openEmbedded(t: Conformance, pathAndQuery: string): Promise<EmbeddedView> {
  const view = await open(t, pathAndQuery, true);
  const { page } = view;
  return {
    ...view,
    messages: () =>
      page.evaluate(
        () => (globalThis as unknown as { __eacMessages?: ParentMessage[] }).__eacMessages ?? [],
      ),
  };
}

async function open(t: Conformance, pathAndQuery: string, newParent: boolean): Promise<HubView> {
  const profile = hubProfile(t);
  const browser = await browserFor(t);
  const base = broker() ?? '';
  const context = await contextOf(browser);
  const v = visitOf(context);
  const page = await pageOf(context);
  v.pages.push(page);
  // Requests of the page in flight (those of a removed frame that end later are not counted),
  // and when one last began or ended (settled()).
  const net = { inFlight: new Set<Request>(), lastChange: Date.now() };
  const dialogs: string[] = [];
  // The hub frame's page loads join the test's exchanges: a failing test shows the page it
  // loaded (status, headers, the HTML) after its calls to the API.
  const pageLoads: Promise<void>[] = [];
  ears.set(page, {
    request: (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'http:' || url.protocol === 'https:') v.origins.add(url.origin);
      net.inFlight.add(request);
      net.lastChange = Date.now();
    },
    done: (request) => {
      if (net.inFlight.delete(request)) net.lastChange = Date.now();
    },
    response: (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() !== page.mainFrame())
        pageLoads.push(recordPageLoad(t, request, response));
    },
    dialog: (message) => dialogs.push(message),
  });
  const src = `${t.target.hubUrl}${pathAndQuery}`;
  const parent = `${base}/parent?src=`;
  if (newParent || !page.url().startsWith(parent))
    await page.goto(`${parent}${encodeURIComponent(src)}`, { waitUntil: 'load' });
  else await framed(page, src);
  await Promise.all(pageLoads);
  // Protocol events come in order: by now the removed frame is gone from the list.
  const frames = page.mainFrame().childFrames();
  const hub = frames[0];
  if (hub === undefined || frames.length > 1)
    throw new Error(`the parent page holds ${String(frames.length)} frames, not one`);
  const locate = (
    within: Locator | Frame,
    name: HubThing,
    values?: Readonly<Record<string, string>>,
  ) => {
    const locator = profile.things[name];
    if (locator === undefined)
      return t.notRun(
        `the profile's hub section names no "${name}"`,
        cause.shape(`hub.things.${name}`),
      );
    const accessibleName = locatorName(locator, values);
    return within.getByRole(locator.role as Parameters<Page['getByRole']>[0], {
      ...(accessibleName !== undefined ? { name: accessibleName, exact: true } : {}),
    });
  };
  return {
    page,
    frame: hub,
    parentOrigin: new URL(base).origin,
    dialogs,
    thing: (name, values) => locate(hub, name, values),
    thingIn: (within, name, values) => locate(within, name, values),
    names: (name) => profile.things[name] !== undefined,
    rows: (within, place, what) => rowsOf(within, profile.rows[place], what),
    settled: async (quietMs, capMs) => {
      const from = Date.now();
      const until = from + capMs;
      while (Date.now() < until) {
        const still = Number(await hub.evaluate(STILL_FOR).catch(() => 0));
        const quiet = Date.now() - Math.max(net.lastChange, from);
        if (net.inFlight.size === 0 && quiet >= quietMs && still >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: async () => {
      v.closing.add(page);
      try {
        if (v.pages.every((p) => v.closing.has(p) || p.isClosed())) await wipe(v, page);
      } finally {
        v.pages.splice(v.pages.indexOf(page), 1);
        await release(page);
      }
    },
  };
}

/** Frames `src` anew in the tab's parent page and waits for it to load, as page.goto would. */
async function framed(page: Page, src: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = page.evaluate(
    (s) => (globalThis as unknown as { __eacFrame(src: string): Promise<unknown> }).__eacFrame(s),
    src,
  );
  try {
    await Promise.race([
      load,
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`the hub frame did not load ${src} within ${String(LOAD_MS)} ms`));
        }, LOAD_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    load.catch(() => undefined);
  }
}

/**
 * How long the document of the frame it runs in has not changed, in ms, as a script run in the
 * page: its first run there starts watching (and answers 0), so a frame that navigated starts
 * afresh.
 */
const STILL_FOR = `(() => {
  const w = window;
  if (w.__eacChangedAt === undefined) {
    w.__eacChangedAt = performance.now();
    new MutationObserver(() => { w.__eacChangedAt = performance.now(); }).observe(document, {
      subtree: true, childList: true, attributes: true, characterData: true,
    });
    return 0;
  }
  return performance.now() - w.__eacChangedAt;
})()`;

/** How long the page must stay still after a change (nextHubLoad), and the most it is waited for. */
const CHANGE_QUIET_MS = 300;
const CHANGE_CAP_MS = LOAD_MS;

/**
 * Makes a change on the page (a filter applied) and waits for what follows: a page that
 * reloads the hub frame for it (the reference's does) has loaded again and gone still; a page
 * that applies it in place has gone still. §4.17 says neither.
 */
export async function nextHubLoad(view: HubView, change: () => Promise<void>): Promise<void> {
  let navigated = false;
  const seen = (f: Frame) => {
    if (f === view.frame) navigated = true;
  };
  view.page.on('framenavigated', seen);
  try {
    await change();
    await view.settled(CHANGE_QUIET_MS, CHANGE_CAP_MS);
  } finally {
    view.page.off('framenavigated', seen);
  }
  if (navigated) await view.frame.waitForLoadState('load');
}
