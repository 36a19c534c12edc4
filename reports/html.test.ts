import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { clauseById } from '../spec/clauses/index.ts';
import type { Results } from './schema.ts';
import { screenshotFile } from './escape.ts';
import { htmlContext, readable, renderHtml } from './html.ts';
import { clauseOf, hublessResults, sampleResults } from './sample-results.ts';

/** The page without its script and packed blob: the part built from escaped text. */
function markup(html: string): string {
  return html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
}

function unpacked(html: string): string[] {
  const blob = /<script type="application\/octet-stream" id="packed">([^<]*)<\/script>/.exec(html);
  if (blob?.[1] === undefined) return [];
  return JSON.parse(gunzipSync(Buffer.from(blob[1], 'base64')).toString('utf8')) as string[];
}

/** The sample with a probe that recorded exchanges (the sample's probe has none). */
function sampleWithProbeExchanges(): Results {
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
                response: { status: 422, headers: { 'x-h': `</script>&` }, body: { a: 1 } },
                ms: 2,
              },
            ],
          }
        : r,
    ),
  };
}

describe('renderHtml', () => {
  const run = sampleResults();
  const html = renderHtml(run);

  it('is one self-contained page: inline style and script, nothing fetched', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<link |src=|@import|url\(/i);
    // What a page with screenshots fetches: its own run folder's files, nothing else.
    const shot = renderHtml(run, { screenshots: new Set(['roles/hostile']) });
    expect(shot.match(/src="[^"]*"/g)).toEqual(['src="screenshots/roles_hostile.png"']);
    expect(html.match(/<script>/g)?.length).toBe(1);
  });

  it('escapes every piece of test-supplied text', () => {
    const text = markup(html);
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(text).toContain('&lt;/pre&gt;');
    expect(text).toContain('&amp; &#39;quoted&#39;');
    expect(text).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
    expect(text).not.toMatch(/<script/);
    // The only <pre> closings are ours: one per <pre> opening.
    expect(text.match(/<pre>/g)?.length).toBe(text.match(/<\/pre>/g)?.length);
  });

  it('opens on the failures by cause: counts, then each cause with its test, replay line and exchanges', () => {
    expect(html).toContain('1 fail</span>');
    const failures = html.indexOf('<h2 class="fail" id="failures">Failures (1)</h2>');
    expect(failures).toBeGreaterThan(0);
    const block = html.slice(failures, html.indexOf('id="not-run"'));
    expect(block).toContain('<h3 class="cause">1 test: <code>expected 200, got 500</code></h3>');
    expect(block).toContain(
      `Replay: <code>npx eac run --seed 1 --only ${clauseOf('must', 2)}</code>`,
    );
    expect(block).toContain('<details open><summary>1 HTTP exchange with the API</summary>');
    expect(block).toContain('POST http://t/&lt;x&gt; → 500 (4 ms)');
  });

  it('says a run given no --hub tested no hub, and counts one test as one', () => {
    const page = renderHtml(hublessResults(run));
    expect(page).toContain('<tr><th>Hub</th><td>none (not tested)</td></tr>');
    expect(page).toContain(
      '<tr><td>part</td><td><code>part:hub</code></td><td>--hub URL (the hub pages were not tested) would run 1 test</td><td class="n">1</td></tr>',
    );
    expect(page).toContain('<span>1 test</span>');
    expect(html).toContain('<tr><th>Hub</th><td>http://127.0.0.1:4000/hub</td></tr>');
  });

  it('reads in order: failures, not-run causes, register, coverage, then the test table, collapsed', () => {
    const at = [
      'id="failures"',
      'id="not-run"',
      'id="register"',
      'id="coverage"',
      'id="tests"',
    ].map((anchor) => html.indexOf(anchor));
    expect(at.every((n) => n > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).toContain('<details id="all-tests"><summary>');
  });

  it('groups failures of one cause under one heading, the first in full and the rest closed', () => {
    const run = sampleResults();
    const [failing] = run.results.filter((r) => r.outcome === 'fail');
    if (failing === undefined) throw new Error('the sample has no failure');
    const more = Array.from({ length: 54 }, (_, i) => ({
      ...failing,
      id: `roles/more-${i}`,
      reason: `expected 200, got ${500 + i}`,
    }));
    const page = renderHtml({ ...run, results: [...run.results, ...more] });
    expect(page.match(/<h3 class="cause">/g)).toHaveLength(1);
    // The status every test expected stays; the one that varies is marked.
    expect(page).toContain('<h3 class="cause">55 tests: <code>expected 200, got N</code></h3>');
    expect(page).toContain('<details><summary>54 more tests of this cause</summary>');
  });

  it("keeps a failing test's set-up through the host hooks apart from its exchanges with the API", () => {
    const run = sampleResults();
    const hooks = run.target.hooksUrl ?? '';
    const results = run.results.map((r) =>
      r.outcome === 'fail'
        ? {
            ...r,
            exchanges: [
              { request: { method: 'POST', url: `${hooks}/accounts`, headers: {} }, ms: 1 },
              { request: { method: 'GET', url: 'http://t/page', headers: {} }, ms: 2 },
              { request: { method: 'POST', url: `${hooks}/clock`, headers: {} }, ms: 3 },
            ],
          }
        : r,
    );
    const block = renderHtml({ ...run, results }).split('id="failures"')[1] ?? '';
    expect(block).toContain('<summary>1 HTTP exchange with the API (and 2 set-up)</summary>');
    expect(block).toMatch(/<details open><summary><code>#2 GET http:\/\/t\/page/);
    expect(block).toContain(
      '<details><summary>2 set-up exchanges through the host hooks</summary>',
    );
    expect(block).toContain('<details><summary><code>#3 POST http://127.0.0.1:4000/__eac/clock');
  });

  it('shows JSON in a register answer pretty-printed', () => {
    expect(readable('rows [{"a":1}]')).toBe('rows\n[\n  {\n    "a": 1\n  }\n]');
    expect(readable('{"b":[1]}')).toBe('{\n  "b": [\n    1\n  ]\n}');
    expect(readable('addChart false on {"hideHeader":true}')).toContain('"hideHeader": true');
    expect(readable('403 FORBIDDEN [x] not json')).toBe('403 FORBIDDEN [x] not json');
  });

  it('draws a coverage bar per section, every top-level section 2 to 9 with a row to link to', () => {
    for (const top of ['2', '3', '4', '5', '6', '7', '8', '9']) {
      expect(html).toMatch(new RegExp(`<tr id="sec-${top}" class="top"><td>§${top} `));
    }
    // The sample passes must #0 and #1 portably, and fails must #2: green and red segments.
    const sectionOfPassed = clauseById.get(clauseOf('must', 0))?.section ?? '';
    const row = html.slice(html.indexOf(`<tr id="sec-${sectionOfPassed}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/<i class="k-portable" style="width:\d/);
    expect(html).toMatch(/<i class="k-failing" style="width:\d/);
    expect(html).toContain('<i class="k-decision"');
  });

  it('links each clause to its section row, and to the document when a URL is given', () => {
    const id = clauseOf('must', 2);
    const section = clauseById.get(id)?.section ?? '';
    expect(html).toContain(
      `<a class="sec" href="#sec-${section}">§${section}</a> <code>${id}</code>`,
    );
    expect(html).toContain(`id="sec-${section}"`);
    const linked = renderHtml(run, { documentUrl: 'https://doc.test/api.html#s-{section}' });
    expect(linked).toContain(`<a href="https://doc.test/api.html#s-${section}">§${section} `);
  });

  it('lists every test once in the filterable table, failures first, with what the filters read', () => {
    const table = html.slice(html.indexOf('id="tests"'), html.indexOf('id="run"'));
    const rows = table.match(/<tr data-outcome="[^"]+"/g) ?? [];
    expect(rows).toHaveLength(run.results.length);
    expect(rows[0]).toBe('<tr data-outcome="fail"');
    expect(table).toContain(
      '<button type="button" data-filter-outcome="fail" aria-pressed="false">fail (1)</button>',
    );
    expect(table).toContain('<option value="roles">roles</option>');
    expect(table).toMatch(/data-area="tokens" data-clauses="[^"]+" data-sections="\d/);
  });

  it('shows the profile, coverage kinds, security apart, gaps, the register by clause and not-run causes', () => {
    expect(html).toContain('<tr><th>Profile</th><td>reference default</td></tr>');
    expect(html).toContain(
      '<th>portable</th><th>through a decision</th><th>no portable check</th>',
    );
    expect(html).toContain('<h2>Security clauses</h2>');
    expect(html).toMatch(
      /<h2 id="gaps">Covered only through a decision, and open clauses with no probe<\/h2><details><summary>\d+ must\/observed clauses covered only through a decision, \d+ open clauses with no probe, in \d+ sections<\/summary>/,
    );
    const register = html.slice(html.indexOf('Ambiguity register'), html.indexOf('id="coverage"'));
    expect(register).toContain(
      '<td class="answer"><span class="no">✗ departs</span><pre>answered 422</pre>',
    );
    expect(register).toContain('<code>POST /v1/x/{id}</code>');
    expect(html).toContain(
      '<tr><td>hook</td><td><code>hook:clock</code></td><td>the hook clock would run 1 test</td><td class="n">1</td></tr>',
    );
    expect(html).toContain('<h2>State machines</h2>');
  });

  it("packs a probe's exchanges into one gzipped blob, escaped inside", () => {
    const page = renderHtml(sampleWithProbeExchanges());
    expect(page).toContain('<details data-packed="0"><summary>1 HTTP exchange</summary></details>');
    expect(markup(page)).not.toContain('http://t/&lt;probe&gt;');
    const [piece] = unpacked(page);
    expect(piece).toContain('GET http://t/&lt;probe&gt; → 422 (2 ms)');
    expect(piece).toContain('x-h: &lt;/script&gt;&amp;');
    expect(unpacked(html)).toEqual([]);
    expect(html).not.toContain('id="packed"');
  });

  it("links a failing test's screenshot when the run folder holds one", async () => {
    const failing = run.results.find((r) => r.outcome === 'fail');
    if (failing === undefined) throw new Error('the sample has no failure');
    expect(screenshotFile(failing.id)).toBe('screenshots/roles_hostile.png');
    const dir = await mkdtemp(path.join(tmpdir(), 'eac-html-'));
    expect(await htmlContext(dir, run, {})).toEqual({ screenshots: new Set() });
    await mkdir(path.join(dir, 'screenshots'));
    await writeFile(path.join(dir, screenshotFile(failing.id)), '');
    const context = await htmlContext(dir, run, { EAC_DOCUMENT_URL: 'https://d.test/#{section}' });
    expect(context.screenshots).toEqual(new Set([failing.id]));
    expect(context.documentUrl).toBe('https://d.test/#{section}');
    const page = renderHtml(run, context);
    expect(page).toContain(
      'Screenshot of the page it last had open: <a href="screenshots/roles_hostile.png">screenshots/roles_hostile.png</a>',
    );
    expect(page).toContain(
      '<img class="shot" loading="lazy" alt="the page the test last had open" src="screenshots/roles_hostile.png">',
    );
    expect(html).not.toContain('Screenshot');
  });
});
