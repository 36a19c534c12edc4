import { describe, expect, it } from 'vitest';
import { expectOpenSuccess, madeEntry, successStatus } from './expect.ts';
import type { Reply } from './http.ts';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function reply(status: number, body: unknown, headers: Record<string, string> = JSON_TYPE): Reply {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers, body: body ?? '', text };
}

describe('a call whose answer the document does not show (spec/bodies.ts)', () => {
  it('takes 204 and an empty 2xx as a success with nothing to read', () => {
    expect(successStatus(204)).toBe(true);
    expect(expectOpenSuccess(reply(204, undefined, {}), 'v2.clone', 'clone')).toBeUndefined();
    expect(expectOpenSuccess(reply(200, undefined), 'v1.create', 'create')).toBeUndefined();
    expect(expectOpenSuccess(reply(201, 'Created', {}), 'v2.create', 'create')).toBeUndefined();
  });

  it('reads data from a JSON body in the success envelope', () => {
    const data = { id: 'd1' };
    expect(expectOpenSuccess(reply(201, { status: 'success', data }), 'v2.create', 'c')).toEqual(
      data,
    );
  });

  it('refuses a non-2xx, and a JSON body outside the envelope', () => {
    expect(() => expectOpenSuccess(reply(409, undefined), 'v2.create', 'c')).toThrow(/2xx/);
    expect(() => expectOpenSuccess(reply(200, { id: 'd1' }), 'v2.create', 'c')).toThrow(/success/);
  });
});

describe('madeEntry', () => {
  const before = [{ id: 'a' }, { id: 'b' }];

  it('finds the entry a Location header names, relative or absolute', () => {
    const after = [...before, { id: 'c' }, { id: 'd' }];
    const at = (location: string) => reply(201, undefined, { location });
    expect(madeEntry(at('/v2/api/applications/x/dashboards/c'), before, after, 'w').id).toBe('c');
    expect(madeEntry(at('https://h.example/dashboards/d?x=1'), before, after, 'w').id).toBe('d');
    expect(() => madeEntry(at('/dashboards/z'), before, after, 'w')).toThrow(/lacks/);
  });

  it('else takes the one entry the list gained, and fails on none or several', () => {
    const res = reply(204, undefined, {});
    expect(madeEntry(res, before, [{ id: 'c' }, ...before], 'w').id).toBe('c');
    expect(() => madeEntry(res, before, before, 'w')).toThrow(/gained 0 entries/);
    expect(() => madeEntry(res, before, [...before, { id: 'c' }, { id: 'd' }], 'w')).toThrow(
      /gained 2 entries/,
    );
  });
});
