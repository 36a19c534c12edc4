/**
 * The browser side of the hub suites (§4.17): pages opened in the run's one browser (launched
 * by suites/harness/browser-setup.ts on first use), each inside an iframe of a parent page on a
 * third origin, found on the page through the target profile's hub section (ARIA role and
 * accessible name; spec/hub-profile.ts).
 *
 * A missing browser is a not-run with the reason, or a failure when EAC_REQUIRE_BROWSER=1 (CI).
 * A failing test leaves a screenshot in `<report dir>/screenshots/<test id>.png` when the runner
 * names the report folder in EAC_REPORT_DIR.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { inject, onTestFinished } from 'vitest';
import type { Browser, BrowserContext, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { locatorName, type HubProfile, type HubThing } from '../../spec/hub-profile.ts';
import type { Conformance } from './conformance.ts';
import type { EacMeta } from './meta.ts';

/** A message the parent page received. */
export interface ParentMessage {
  readonly origin: string;
  readonly data: unknown;
  /** Whether it came from the framed hub page. */
  readonly fromHub: boolean;
}

export interface HubView {
  readonly page: Page;
  /** The hub page inside the parent's iframe. */
  readonly frame: FrameLocator;
  /** The parent page's origin (the third origin). */
  readonly parentOrigin: string;
  /** The hub's Frame, for evaluating in it. */
  hubFrame(): Frame;
  /** What the parent has received so far. */
  messages(): Promise<ParentMessage[]>;
  /** Texts of every JavaScript dialog (alert, confirm) any frame opened. */
  readonly dialogs: readonly string[];
  /** A thing of the hub profile, with its name's placeholder filled; not-run if unnamed. */
  thing(name: HubThing, values?: Readonly<Record<string, string>>): Locator;
  /** Same, inside `within`. */
  thingIn(within: Locator, name: HubThing, values?: Readonly<Record<string, string>>): Locator;
  /** Whether the profile names this thing. */
  names(name: HubThing): boolean;
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
  const refuse = (problem: string): never => {
    if (REQUIRE()) throw new Error(`EAC_REQUIRE_BROWSER=1 and ${problem}`);
    return t.notRun(`no browser for the hub pages: ${problem}`);
  };
  const base = broker();
  if (base === undefined)
    return refuse('the browser setup (suites/harness/browser-setup.ts) did not run');
  connected ??= (async () => {
    const res = await fetch(`${base}/browser`);
    const answer = (await res.json()) as { wsEndpoint?: string; problem?: string };
    if (answer.wsEndpoint === undefined) throw new BrowserMissing(answer.problem ?? 'unknown');
    const { chromium } = await import('playwright-core');
    return chromium.connect(answer.wsEndpoint);
  })();
  try {
    return await connected;
  } catch (error) {
    connected = undefined;
    return refuse(error instanceof BrowserMissing ? error.message : String(error));
  }
}

class BrowserMissing extends Error {}

/** The origin of the embedding parent page (the third origin), known before opening a page. */
export function embedderOrigin(t: Conformance): string {
  const base = broker();
  if (base === undefined) {
    if (REQUIRE()) throw new Error('EAC_REQUIRE_BROWSER=1 and the browser setup did not run');
    return t.notRun('no browser for the hub pages: the browser setup did not run');
  }
  return new URL(base).origin;
}

/** The hub section of the profile; not-run when the target's profile has none. */
export function hubProfile(t: Conformance): HubProfile {
  const hub = t.profile.hub;
  if (hub === undefined) return t.notRun("the target's profile has no hub section");
  return hub;
}

/** `results.json`'s id of the running test: `<area>/<explicit id or slug of the name>`. */
function testIdOf(meta: EacMeta | undefined): string | undefined {
  if (meta === undefined) return undefined;
  const slug =
    meta.id ??
    (meta.name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') ||
      'unnamed');
  return `${meta.area}/${slug}`;
}

/** Where a failing test's screenshot goes: `<EAC_REPORT_DIR>/screenshots/<id, unsafe chars as _>.png`. */
export function screenshotPath(reportDir: string, testId: string): string {
  return path.join(reportDir, 'screenshots', `${testId.replace(/[^A-Za-z0-9._-]/g, '_')}.png`);
}

/**
 * Opens `pathAndQuery` of the hub (e.g. `/share/dashboard/ID?jwt=…`) inside the parent page's
 * iframe in a fresh browser context, and closes it when the test ends.
 */
export async function openHub(t: Conformance, pathAndQuery: string): Promise<HubView> {
  const profile = hubProfile(t);
  const browser = await browserFor(t);
  const base = broker() ?? '';
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1040, height: 760 },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  onTestFinished(async ({ task }) => {
    try {
      const reportDir = process.env['EAC_REPORT_DIR'];
      const id = testIdOf(task.meta.eac);
      if (task.result?.state === 'fail' && reportDir !== undefined && id !== undefined) {
        const file = screenshotPath(reportDir, id);
        await mkdir(path.dirname(file), { recursive: true });
        await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      }
    } finally {
      await context.close().catch(() => undefined);
    }
  });
  const src = `${t.target.hubUrl}${pathAndQuery}`;
  await page.goto(`${base}/parent?src=${encodeURIComponent(src)}`, { waitUntil: 'load' });
  const frame = page.frameLocator('#hub');
  const hubFrame = (): Frame => {
    const child = page.mainFrame().childFrames()[0];
    if (child === undefined) throw new Error('the parent page holds no hub frame');
    return child;
  };
  const locate = (
    within: Locator | FrameLocator,
    name: HubThing,
    values?: Readonly<Record<string, string>>,
  ) => {
    const locator = profile.things[name];
    if (locator === undefined) return t.notRun(`the profile's hub section names no "${name}"`);
    const accessibleName = locatorName(locator, values);
    return within.getByRole(locator.role as Parameters<Page['getByRole']>[0], {
      ...(accessibleName !== undefined ? { name: accessibleName, exact: true } : {}),
    });
  };
  return {
    page,
    frame,
    parentOrigin: new URL(base).origin,
    hubFrame,
    messages: () =>
      page.evaluate(
        () => (globalThis as unknown as { __eacMessages?: ParentMessage[] }).__eacMessages ?? [],
      ),
    dialogs,
    thing: (name, values) => locate(frame, name, values),
    thingIn: (within, name, values) => locate(within, name, values),
    names: (name) => profile.things[name] !== undefined,
  };
}

/** Waits until the hub frame has navigated again (a filter change reloads it) and loaded. */
export async function nextHubLoad(view: HubView, change: () => Promise<void>): Promise<void> {
  const navigated = view.page.waitForEvent('framenavigated', {
    predicate: (f) => f.parentFrame() === view.page.mainFrame(),
  });
  await change();
  const f = await navigated;
  await f.waitForLoadState('load');
}

/** The text of every body row of a table, cell texts joined by `|`. */
export async function tableRows(table: Locator): Promise<string[]> {
  const rows = table.locator('tbody tr, [role=row]:not(:has([role=columnheader]))');
  const out: string[] = [];
  for (const row of await rows.all()) {
    const cells = await row.locator('td, th, [role=cell], [role=gridcell]').allInnerTexts();
    out.push(cells.map((c) => c.trim()).join('|'));
  }
  return out;
}
