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

describe('hub query: every §4.17 parameter', () => {
  const read = (q: string) => readQuery(new URLSearchParams(q));

  it('reads each parameter, and holds nothing for one not given', () => {
    const q = read(
      'jwt=a.b.c&dashboardId=0A1B2C3D-0000-4000-8000-00000000000F&hideHeader=true' +
        '&hideDownloadButton=true&autoHeight=true&parentOrigin=https%3A%2F%2Fapp.example%3A8443' +
        '&dbAuthToken=db-secret&filter_channel=%22online%22&drillChart=C1&drillValue=7',
    );
    expect(q).toStrictEqual({
      jwt: 'a.b.c',
      // A UUID's hex digits are case-insensitive (RFC 9562): the pages compare them in one case.
      dashboardId: '0a1b2c3d-0000-4000-8000-00000000000f',
      hideHeader: true,
      hideDownloadButton: true,
      filters: new Map([['channel', 'online']]),
      autoHeight: true,
      parentOrigin: 'https://app.example:8443',
      dbAuthToken: 'db-secret',
      drill: { chartId: 'c1', value: 7 },
    });
    expect(read('')).toStrictEqual({
      hideHeader: false,
      hideDownloadButton: false,
      filters: new Map(),
      autoHeight: false,
    });
  });

  it('turns a switch on only for the text true (§4.17 hideHeader=true, hideDownloadButton=true, autoHeight=true)', () => {
    for (const name of ['hideHeader', 'hideDownloadButton', 'autoHeight'] as const) {
      expect(read(`${name}=true`)[name], name).toBe(true);
      for (const other of ['false', '1', 'TRUE', '', 'yes'])
        expect(read(`${name}=${other}`)[name], `${name}=${other}`).toBe(false);
      // Each switch is its own: the others stay off.
      for (const rest of ['hideHeader', 'hideDownloadButton', 'autoHeight'] as const)
        if (rest !== name) expect(read(`${name}=true`)[rest], `${name} -> ${rest}`).toBe(false);
    }
  });

  it('reads the first occurrence of a repeated parameter', () => {
    expect(read('jwt=first&jwt=second').jwt).toBe('first');
    expect(read('hideHeader=true&hideHeader=false').hideHeader).toBe(true);
    expect(read('hideHeader=false&hideHeader=true').hideHeader).toBe(false);
    expect(read('dbAuthToken=x&dbAuthToken=y').dbAuthToken).toBe('x');
  });

  it('keeps an empty jwt as given (the page then tells the token is missing)', () => {
    expect(read('jwt=').jwt).toBe('');
  });

  it('drops a parentOrigin that is not exactly an http(s) origin (decision hub.events.target-origin)', () => {
    expect(read('parentOrigin=http%3A%2F%2Flocalhost%3A3000').parentOrigin).toBe(
      'http://localhost:3000',
    );
    for (const bad of [
      'ftp://files.example',
      'ws://app.example',
      'file:///etc/passwd',
      'https://user:pw@app.example',
      'https://app.example?x=1',
      'https://app.example#top',
      'https://app.example//',
      'https://APP.example',
      'https://app.example:443',
      'https://app.example/a/',
      'null',
    ]) {
      expect(exactOrigin(bad), bad).toBeUndefined();
      expect(read(`parentOrigin=${encodeURIComponent(bad)}`).parentOrigin, bad).toBeUndefined();
      expect('parentOrigin' in read(`parentOrigin=${encodeURIComponent(bad)}`), bad).toBe(false);
    }
    expect(exactOrigin(undefined)).toBeUndefined();
  });

  it('reads every filter_ parameter as its JSON value, whatever the JSON (decision hub.filters.values)', () => {
    const q = read(
      'filter_s=%22x%22&filter_n=-2.5&filter_b=false&filter_z=null&filter_a=%5B1%2C%22y%22%5D' +
        '&filter_o=%7B%22k%22%3A1%7D&filterx=1&xfilter_y=1&Filter_c=1&filter_=2',
    );
    expect([...q.filters]).toEqual([
      ['s', 'x'],
      ['n', -2.5],
      ['b', false],
      ['z', null],
      ['a', [1, 'y']],
      ['o', { k: 1 }],
    ]);
    // A key is taken as written after the prefix.
    expect([...read('filter_Channel_2=1').filters]).toEqual([['Channel_2', 1]]);
    // The first JSON value wins; one that is not JSON does not hide a later good one.
    expect([...read('filter_k=bad&filter_k=%22good%22&filter_k=%22late%22').filters]).toEqual([
      ['k', 'good'],
    ]);
  });

  it('drills only with a chart id and a JSON value', () => {
    expect(read('drillChart=c&drillValue=%7B%22a%22%3A1%7D').drill).toEqual({
      chartId: 'c',
      value: { a: 1 },
    });
    for (const q of ['drillChart=c', 'drillChart=c&drillValue=', 'drillValue=1', ''])
      expect('drill' in read(q), q).toBe(false);
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

describe('hub query: a filter value that is not JSON', () => {
  const search = () => new URLSearchParams('filter_channel=store&filter_region=%22north%22');
  it('sets nothing by the decision, the text itself when the server takes it so', () => {
    expect(readQuery(search()).filters).toEqual(new Map([['region', 'north']]));
    expect(readQuery(search(), 'text').filters).toEqual(
      new Map([
        ['channel', 'store'],
        ['region', 'north'],
      ]),
    );
  });
});
