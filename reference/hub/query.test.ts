import { describe, expect, it } from 'vitest';
import { shown, text } from './html.ts';
import { exactOrigin, readQuery } from './query.ts';

describe('hub query', () => {
  it('takes a parentOrigin only when it is a bare http(s) origin', () => {
    expect(exactOrigin('https://app.example')).toBe('https://app.example');
    expect(exactOrigin('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    for (const bad of ['*', 'https://app.example/path', 'javascript:alert(1)', 'app.example', ''])
      expect(exactOrigin(bad), bad).toBeUndefined();
  });

  it('reads filter_{controlKey} as JSON, first occurrence, and drops what is not JSON', () => {
    const q = readQuery(
      new URLSearchParams('filter_a="x"&filter_a="y"&filter_b=3&filter_c=not-json&filter_=1'),
    );
    expect([...q.filters]).toEqual([
      ['a', 'x'],
      ['b', 3],
    ]);
  });

  it('reads a drill-down point as chart id and JSON value, or not at all', () => {
    expect(readQuery(new URLSearchParams('drillChart=ABC&drillValue="Anvil"')).drill).toEqual({
      chartId: 'abc',
      value: 'Anvil',
    });
    expect(readQuery(new URLSearchParams('drillChart=a&drillValue=null')).drill).toEqual({
      chartId: 'a',
      value: null,
    });
    for (const q of ['drillChart=a&drillValue=Anvil', 'drillValue="x"', 'drillChart=&drillValue=1'])
      expect(readQuery(new URLSearchParams(q)).drill, q).toBeUndefined();
  });

  it('reads the switches only as the text true', () => {
    expect(readQuery(new URLSearchParams('hideHeader=true&hideDownloadButton=1')).hideHeader).toBe(
      true,
    );
    expect(readQuery(new URLSearchParams('hideDownloadButton=1')).hideDownloadButton).toBe(false);
  });
});

describe('hub html', () => {
  it('escapes every character that could open markup or close an attribute', () => {
    expect(text(`<img src=x onerror="alert(1)">&'`)).toBe(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;',
    );
    expect(shown({ a: 1 })).toBe('{"a":1}');
    expect(shown('x')).toBe('x');
  });
});
