import { describe, expect, it } from 'vitest';
import { escapeXml } from './escape.ts';
import { renderJunit } from './junit.ts';
import { HOSTILE, sampleResults } from './sample-results.ts';

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/**
 * A strict little XML reader, enough to prove well-formedness of what we emit: balanced tags,
 * quoted attributes, only the five predefined entities, no raw `<` or `&` in text.
 */
function parseXml(xml: string): Element {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at}: ${xml.slice(at, at + 40)}`);
  };
  const checkText = (text: string): string => {
    if (/[<]/.test(text)) fail('raw < in text');
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) fail('bare & in text');
    // eslint-disable-next-line no-control-regex -- the point is to find control characters
    if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) fail('control character');
    return text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  };
  const declaration = /^<\?xml [^?]*\?>\s*/.exec(xml);
  if (!declaration) fail('no XML declaration');
  at = declaration?.[0].length ?? 0;
  const element = (): Element => {
    const open = /^<([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(at));
    if (!open) return fail('expected a start tag');
    at += open[0].length;
    const attributes: Record<string, string> = {};
    for (const m of (open[2] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) {
      attributes[m[1] ?? ''] = checkText(m[2] ?? '');
    }
    const node: Element = { name: open[1] ?? '', attributes, children: [], text: '' };
    if (open[3] === '/') return node;
    for (;;) {
      const textEnd = xml.indexOf('<', at);
      if (textEnd < 0) fail('unclosed element');
      node.text += checkText(xml.slice(at, textEnd));
      at = textEnd;
      if (xml.startsWith(`</${node.name}>`, at)) {
        at += node.name.length + 3;
        return node;
      }
      if (xml.startsWith('</', at)) fail(`mismatched end tag for ${node.name}`);
      node.children.push(element());
    }
  };
  const root = element();
  if (xml.slice(at).trim() !== '') fail('content after the root element');
  return root;
}

describe('renderJunit', () => {
  const run = sampleResults();
  const root = parseXml(renderJunit(run));
  const suites = root.children.filter((c) => c.name === 'testsuite');
  const cases = suites.flatMap((s) => s.children.filter((c) => c.name === 'testcase'));

  it('says a run given no --hub tested no hub', () => {
    const { hubUrl: _hub, ...target } = run.target;
    void _hub;
    expect(renderJunit({ ...run, target })).toContain(
      '<property name="hub" value="none (not tested)"/>',
    );
    expect(renderJunit(run)).toContain('<property name="hub" value="http://127.0.0.1:4000/hub"/>');
  });

  it('is well-formed XML with a testsuites root', () => {
    expect(root.name).toBe('testsuites');
  });

  it('has one testsuite per area with counts that add up', () => {
    expect(suites.map((s) => s.attributes['name']).sort()).toEqual([
      'errors',
      'roles',
      'security',
      'tokens',
    ]);
    expect(root.attributes['tests']).toBe(String(run.summary.total));
    expect(root.attributes['failures']).toBe(String(run.summary.fail));
    expect(root.attributes['skipped']).toBe(String(run.summary.notRun));
    const roles = suites.find((s) => s.attributes['name'] === 'roles');
    expect(roles?.attributes).toMatchObject({ tests: '2', failures: '1', skipped: '0' });
    expect(cases).toHaveLength(run.results.length);
  });

  it('marks a failure with its message, a not-run as skipped, a probe as a passing case with its observation', () => {
    const failed = cases.filter((c) => c.children.some((e) => e.name === 'failure'));
    const skipped = cases.filter((c) => c.children.some((e) => e.name === 'skipped'));
    expect(failed).toHaveLength(1);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.children[0]?.attributes['message']).toBe(
      'the target lacks the host hook clock',
    );
    const probe = cases.find((c) => c.attributes['name']?.startsWith('validation status'));
    expect(probe?.children.map((c) => c.name)).toEqual(['system-out']);
    expect(probe?.children[0]?.text).toContain('answered 422');
    expect(probe?.children[0]?.text).toContain('400 VALIDATION_ERROR');
    expect(probe?.children[0]?.text).toContain(
      'probe (POST /v1/x/{id}): answered 422 [departs from the decision]',
    );
  });

  it('puts the clause ids in the test case name', () => {
    const pass = run.results.find((r) => r.outcome === 'pass');
    const name = cases.find((c) => c.attributes['name']?.startsWith('renames a role'))?.attributes[
      'name'
    ];
    expect(name).toBe(`renames a role {${pass?.clauses.join(' ')}}`);
  });

  it('keeps hostile text intact after unescaping, with control characters made visible', () => {
    const failure = cases.flatMap((c) => c.children).find((e) => e.name === 'failure');
    const visible = HOSTILE.replace('\u0001', '\\u0001');
    expect(failure?.attributes['message']).toBe('expected 200, got 500');
    expect(failure?.text).toContain(visible);
    expect(failure?.text).toContain('replay: npx eac run');
    expect(cases.some((c) => c.attributes['name']?.includes(visible))).toBe(true);
  });
});

describe('escapeXml', () => {
  it('escapes the five special characters and drops lone surrogates', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;',
    );
    expect(escapeXml('a\uD800b')).toBe('a\\ud800b');
    expect(escapeXml('emoji 😀 stays')).toBe('emoji 😀 stays');
  });
});
