import { describe, expect, it } from 'vitest';
import type { TargetProfile } from '../../spec/profile.ts';
import type { NotRunCause } from './causes.ts';
import { wholeList, type Page } from './pages.ts';

const page = (ids: string[], next: string | null): Page => {
  const body = { status: 'success', data: { userRoles: ids.map((id) => ({ id })), next } };
  return { status: 200, headers: {}, body, text: JSON.stringify(body) };
};
const BOOK: Readonly<Record<string, Page>> = {
  p2: page(['c', 'd'], 'p3'),
  p3: page(['e'], null),
};
const paged: TargetProfile = {
  serves: [],
  shapes: { paging: { cursor: { pointer: '/data/next', parameter: 'after' } } },
};
const stop = (reason: string, causes: NotRunCause): never => {
  throw new Error(`not-run ${causes.entry}: ${reason}`);
};
const ids = (p: Page) =>
  ((p.body as { data: { userRoles: { id: string }[] } }).data.userRoles ?? []).map((r) => r.id);

describe('wholeList', () => {
  it('asks nothing more of a target whose profile states no paging', async () => {
    const asked: string[] = [];
    const first = page(['a', 'b'], 'p2');
    const got = await wholeList(
      first,
      { serves: [], shapes: {} },
      (_p, c) => {
        asked.push(c);
        return Promise.resolve(BOOK[c] ?? page([], null));
      },
      stop,
    );
    expect(got).toBe(first);
    expect(asked).toEqual([]);
  });

  it('follows every page by the stated cursor and joins the lists', async () => {
    const asked: string[] = [];
    const got = await wholeList(
      page(['a', 'b'], 'p2'),
      paged,
      (parameter, cursor) => {
        asked.push(`${parameter}=${cursor}`);
        return Promise.resolve(BOOK[cursor] ?? page([], null));
      },
      stop,
    );
    expect(asked).toEqual(['after=p2', 'after=p3']);
    expect(ids(got)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(JSON.parse(got.text)).toEqual(got.body);
  });

  it('ends the test not-run when the profile says paged but not how', async () => {
    await expect(
      wholeList(
        page(['a'], null),
        { serves: [], shapes: { paging: {} } },
        () => Promise.resolve(page([], null)),
        stop,
      ),
    ).rejects.toThrow(/not-run shapes\.paging\.cursor/);
  });

  it('ends the test not-run when a list names a next page in a Link header and the profile states no paging', async () => {
    const linked = (link: string): Page => ({ ...page(['a'], null), headers: { link } });
    const none: TargetProfile = { serves: [], shapes: {} };
    const next = () => Promise.resolve(page([], null));
    await expect(
      wholeList(linked('</r?after=p2>; rel="next", </r>; rel="first"'), none, next, stop),
    ).rejects.toThrow(/not-run shapes\.paging: .*Link header/);
    await expect(wholeList(linked('</r?after=p2>; rel=next'), none, next, stop)).rejects.toThrow(
      /not-run shapes\.paging/,
    );
    const other = linked('</r>; rel="first", </docs>; rel="help next-archive"');
    expect(await wholeList(other, none, next, stop)).toBe(other);
  });

  it('leaves an answer that holds no list as it is, and stops a cursor that comes back', async () => {
    const refused: Page = { status: 400, headers: {}, body: {}, text: '{}' };
    expect(await wholeList(refused, paged, () => Promise.resolve(refused), stop)).toBe(refused);
    await expect(
      wholeList(page(['a'], 'p2'), paged, () => Promise.resolve(page(['b'], 'p2')), stop),
    ).rejects.toThrow(/without end/);
  });
});
