import { describe, expect, it } from 'vitest';
import { renderHtml } from './html.ts';
import { sampleResults } from './sample-results.ts';

describe('renderHtml', () => {
  const run = sampleResults();
  const html = renderHtml(run);

  it('is one self-contained page without scripts or external resources', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link |src=/i);
  });

  it('escapes every piece of test-supplied text', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;/pre&gt;');
    expect(html).toContain('&amp; &#39;quoted&#39;');
    expect(html).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
    // The only <pre> closings are ours: one per <pre> opening.
    expect(html.match(/<pre>/g)?.length).toBe(html.match(/<\/pre>/g)?.length);
  });

  it('shows the counts and every top-level section 2 to 9', () => {
    expect(html).toContain('1 fail</span>');
    for (const top of ['2', '3', '4', '5', '6', '7', '8', '9']) {
      expect(html).toMatch(new RegExp(`<tr class="top"><td>§${top} `));
    }
  });

  it('shows the profile, coverage kinds, security apart, gaps, the register by clause and not-run causes', () => {
    expect(html).toContain('<tr><th>Profile</th><td>reference default</td></tr>');
    expect(html).toContain('<th>portable</th><th>through a decision</th>');
    expect(html).toContain('<h2>Security clauses</h2>');
    expect(html).toContain(
      '<h2>Covered only through a decision, and open clauses with no probe</h2>',
    );
    const register = html.slice(html.indexOf('Ambiguity register'), html.indexOf('Not run ('));
    expect(register).toContain('<span class="no">✗ departs</span><pre>answered 422</pre>');
    expect(register).toContain('<code>POST /v1/x/{id}</code>');
    expect(html).toContain('<tr><td>missing hook clock</td><td class="n">1</td></tr>');
    expect(html).toContain('<h2>State machines</h2>');
  });

  it('puts the exchanges of the failed test in a collapsible block', () => {
    expect(html).toContain('<summary>1 HTTP exchange</summary>');
    expect(html).toContain('POST http://t/&lt;x&gt; → 500 (4 ms)');
  });
});
