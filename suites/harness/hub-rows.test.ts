import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowStructure } from '../../spec/hub-profile.ts';
import { CHROMIUM_ARGS, chromiumPath } from './browser-setup.ts';
import { rowsOf, RowsNotShown } from './hub-rows.ts';

// The rows of one chart in each structure a profile may state, in a real browser: each reads
// as the same rows, and a structure the page does not use fails naming it. Skipped on a machine
// without the browser the hub suites use.

const HAS_BROWSER = existsSync(chromiumPath());

const ROWS = ['Anvil|15', 'Bolt|7'];

/** The same two rows and their heads in each markup. */
const MARKUP: Record<string, { html: string; structure: RowStructure }> = {
  table: {
    structure: { structure: 'table' },
    html: '<table><caption>Sales</caption><thead><tr><th>product</th><th>total</th></tr></thead><tbody><tr><td>Anvil</td><td>15</td></tr><tr><td>Bolt</td><td>7</td></tr></tbody></table>',
  },
  grid: {
    structure: { structure: 'grid' },
    html: '<div role="grid" aria-label="Sales"><div role="row"><span role="columnheader">product</span> <span role="columnheader">total</span></div><div role="row"><span role="gridcell">Anvil</span> <span role="gridcell">15</span></div><div role="row"><span role="gridcell">Bolt</span> <span role="gridcell">7</span></div></div>',
  },
  'list, cells by role': {
    structure: { structure: 'list', cell: { role: 'definition' } },
    html: '<ul aria-label="Sales"><li><dl><dt>product</dt><dd>Anvil</dd><dt>total</dt><dd>15</dd></dl></li><li><dl><dt>product</dt><dd>Bolt</dd><dt>total</dt><dd>7</dd></dl></li></ul>',
  },
  'list, cells by separator': {
    structure: { structure: 'list', separator: ' — ' },
    html: '<ol><li>Anvil — 15</li><li>Bolt — 7</li></ol>',
  },
};

describe.skipIf(!HAS_BROWSER)('rows read in the structure the profile states', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    page = await browser.newPage();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  const chart = async (html: string) => {
    await page.setContent(
      `<figure aria-label="Sales"><figcaption>Sales</figcaption>${html}</figure>`,
    );
    return page.getByRole('figure', { name: 'Sales' });
  };

  it.each(Object.entries(MARKUP))('%s: the body rows, cells joined by |', async (_k, m) => {
    expect(await rowsOf(await chart(m.html), m.structure, 'the chart').read()).toEqual(ROWS);
  });

  it('a table and a grid give their column heads; a list has none', async () => {
    const { table, grid } = MARKUP;
    const heads = async (m: (typeof MARKUP)[string]) =>
      rowsOf(await chart(m.html), m.structure, 'the chart').heads();
    expect(await heads(table!)).toEqual(['product', 'total']);
    expect(await heads(grid!)).toEqual(['product', 'total']);
    expect(await heads(MARKUP['list, cells by role']!)).toBeUndefined();
  });

  it.each([
    ['table', 'grid'],
    ['grid', 'table'],
    ['list, cells by role', 'grid'],
  ])('rows in a %s, read as a %s: a failure naming the structure', async (shown, stated) => {
    const within = await chart(MARKUP[shown]!.html);
    const reading = rowsOf(within, MARKUP[stated]!.structure, 'the chart', 300).read();
    await expect(reading).rejects.toBeInstanceOf(RowsNotShown);
    await expect(reading).rejects.toThrow(
      /^the chart shows no rows the profile's structure finds \((a table|an ARIA grid)/,
    );
  });
});
