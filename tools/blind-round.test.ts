import { describe, expect, it } from 'vitest';

import { catalogueLevels, firstPass, parseSlips, rateOf, selectionOf } from './blind-round.ts';

const slip = {
  id: 's01',
  patch: 's01.patch',
  section: '4.6',
  clauses: ['users.update.properties-replace'],
  level: 'must',
  description: 'properties merged instead of replaced',
};

describe('a round’s slips.json', () => {
  it('reads the tagged slips, a single clause given as a string too', () => {
    const slips = parseSlips(
      JSON.stringify([
        slip,
        { ...slip, id: 's02', section: 8, clauses: 'rate', level: 'Observed' },
      ]),
    );
    expect(slips.map((s) => [s.id, s.section, s.clauses, s.level])).toEqual([
      ['s01', '4.6', ['users.update.properties-replace'], 'must'],
      ['s02', '8', ['rate'], 'observed'],
    ]);
  });

  it('says which entry and field is wrong', () => {
    expect(() =>
      parseSlips(JSON.stringify([slip, { ...slip, id: 's02', level: 'should' }])),
    ).toThrow(/\[1\.level\]/);
    expect(() => parseSlips(JSON.stringify([{ ...slip, patch: undefined }]))).toThrow(
      /\[0\.patch\]/,
    );
    expect(() => parseSlips(JSON.stringify([slip, slip]))).toThrow(/ids used twice: s01/);
    expect(() => parseSlips('{')).toThrow(/not JSON/);
  });
});

describe('a slip’s first stage', () => {
  const ids = ['users.update.properties-replace', 'users.update.name', 'rate.window.per-user'];

  it('selects the clause ids and prefixes the catalogue holds and records the others', () => {
    const parsed = parseSlips(
      JSON.stringify([{ ...slip, clauses: ['users.update', 'rate.window.per-user', 'no.such'] }]),
    )[0];
    if (parsed === undefined) throw new Error('no slip');
    expect(selectionOf(parsed, ids)).toEqual({
      only: ['users.update', 'rate.window.per-user'],
      unknown: ['no.such'],
    });
  });

  it('reads the catalogue’s levels of its clauses', () => {
    const parsed = parseSlips(JSON.stringify([{ ...slip, clauses: ['users.update'] }]))[0];
    if (parsed === undefined) throw new Error('no slip');
    expect(
      catalogueLevels(parsed, [
        { id: 'users.update.name', level: 'observed' },
        { id: 'users.update.properties-replace', level: 'must' },
        { id: 'rate.window.per-user', level: 'security' },
      ]),
    ).toEqual(['must', 'observed']);
  });
});

describe('first-pass rates', () => {
  it('count caught over judged, errors neither', () => {
    expect(rateOf([{ status: 'caught' }, { status: 'missed' }, { status: 'error' }])).toEqual({
      caught: 1,
      judged: 2,
      rate: 0.5,
      errors: 1,
    });
    expect(rateOf([{ status: 'error' }]).rate).toBeNull();
  });

  it('restrict to slips tagged must or observed', () => {
    const rates = firstPass([
      { status: 'caught', level: 'must' },
      { status: 'missed', level: 'observed' },
      { status: 'caught', level: 'observed' },
      { status: 'missed', level: 'security' },
      { status: 'missed', level: 'unspecified' },
    ]);
    expect(rates.overall).toEqual({ caught: 2, judged: 5, rate: 0.4, errors: 0 });
    expect(rates.mustOrObserved).toEqual({ caught: 2, judged: 3, rate: 0.667, errors: 0 });
  });
});
