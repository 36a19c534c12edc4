/**
 * index.html in a real browser: the page loads with no console error, the filters hide what
 * they should, and a probe's packed exchanges unpack when opened. Chromium comes from the
 * system (/usr/bin/chromium, or EAC_CHROMIUM); without it the tests are skipped with the
 * reason, unless EAC_REQUIRE_BROWSER=1, which makes a missing browser a failure (CI).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clauseById } from '../spec/clauses/index.ts';
import type { Results } from './schema.ts';
import { renderHtml } from './html.ts';
import { sampleResults } from './sample-results.ts';

const EXECUTABLE = process.env['EAC_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const REQUIRED = process.env['EAC_REQUIRE_BROWSER'] === '1';
const MISSING = existsSync(EXECUTABLE) ? undefined : `no Chromium at ${EXECUTABLE}`;

/** The sample run, its probe with one recorded exchange to pack. */
function sample(): Results {
  const run = sampleResults();
  return {
    ...run,
    results: run.results.map((r) =>
      r.outcome === 'probe'
        ? {
            ...r,
            exchanges: [
              {
                request: { method: 'GET', url: 'http://t/<probe>', headers: {} },
                response: { status: 422, headers: {}, body: { code: 'UNPROCESSABLE' } },
                ms: 2,
              },
            ],
          }
        : r,
    ),
  };
}

describe('index.html in Chromium', { timeout: 30_000 }, () => {
  const run = sample();
  let dir: string | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    if (MISSING !== undefined) return;
    dir = await mkdtemp(path.join(tmpdir(), 'eac-html-browser-'));
    const file = path.join(dir, 'index.html');
    await writeFile(file, renderHtml(run));
    browser = await chromium.launch({ executablePath: EXECUTABLE, args: ARGS });
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // Nothing may be fetched: the page is one file.
    page.on('request', (request) => {
      if (request.url() !== pathToFileURL(file).href) errors.push(`fetched ${request.url()}`);
    });
    await page.goto(pathToFileURL(file).href);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const ready = (context: { skip: (note?: string) => never }) => {
    if (MISSING === undefined) return;
    if (REQUIRED) throw new Error(`EAC_REQUIRE_BROWSER=1 but ${MISSING}`);
    context.skip(MISSING);
  };

  /** Outcomes of the table rows the filters leave visible. */
  const visibleRows = async (): Promise<(string | null)[]> => {
    const rows = page.locator('#test-table tbody tr:visible');
    const outcomes: (string | null)[] = [];
    for (let i = 0; i < (await rows.count()); i += 1)
      outcomes.push(await rows.nth(i).getAttribute('data-outcome'));
    return outcomes;
  };

  it('loads with no console error and shows the filters', async (context) => {
    ready(context);
    expect(await page.isVisible('#filters')).toBe(true);
    expect(await page.textContent('#filter-count')).toBe(
      `${run.results.length} of ${run.results.length} tests shown`,
    );
    expect(errors).toEqual([]);
  });

  it('an outcome filter hides the rows and blocks of other outcomes', async (context) => {
    ready(context);
    await page.click('button[data-filter-outcome="fail"]');
    expect(await visibleRows()).toEqual(['fail']);
    expect(await page.isVisible('div.test.fail')).toBe(true);
    expect(await page.isHidden('div.test.probe')).toBe(true);
    expect(await page.getAttribute('button[data-filter-outcome="fail"]', 'aria-pressed')).toBe(
      'true',
    );
    await page.click('button[data-filter-outcome="pass"]');
    const passes = run.results.filter((r) => r.outcome === 'pass').length;
    expect(await visibleRows()).toEqual(Array<string>(passes).fill('pass'));
    await page.click('button[data-filter-outcome=""]');
    expect(await visibleRows()).toHaveLength(run.results.length);
    expect(errors).toEqual([]);
  });

  it('the area and clause filters narrow the table', async (context) => {
    ready(context);
    await page.selectOption('#filter-area', 'tokens');
    const tokens = run.results.filter((r) => r.area === 'tokens');
    expect(await visibleRows()).toHaveLength(tokens.length);
    await page.selectOption('#filter-area', '');
    const failing = run.results.find((r) => r.outcome === 'fail');
    const id = failing?.clauses[0] ?? '';
    await page.fill('#filter-clause', id);
    expect(await visibleRows()).toEqual(['fail']);
    const section = clauseById.get(id)?.section ?? '';
    await page.fill('#filter-clause', `§${section}`);
    const inSection = run.results.filter((r) =>
      r.clauses.some((c) => {
        const s = clauseById.get(c)?.section ?? '';
        return s === section || s.startsWith(`${section}.`);
      }),
    );
    expect(await visibleRows()).toHaveLength(inSection.length);
    await page.fill('#filter-clause', '');
    expect(await visibleRows()).toHaveLength(run.results.length);
    expect(errors).toEqual([]);
  });

  it("a probe's packed exchanges unpack when opened", async (context) => {
    ready(context);
    await page.click('#probe-list > summary');
    const block = page.locator('details[data-packed]');
    await block.locator('summary').click();
    await expect
      .poll(() => block.textContent(), { timeout: 10_000 })
      .toContain('GET http://t/<probe> → 422 (2 ms)');
    expect(errors).toEqual([]);
  });
});
