import { describe, expect, it } from 'vitest';
import { canonicalId, canonicalIds, mentionsId, sameId } from './ids.ts';

const ID = '0b6f3c8e-52a1-4f3e-9d7c-2a4b6c8d0e1f';
const UP = ID.toUpperCase();

describe('ids', () => {
  it('compare a UUID in either case, and any other id as written', () => {
    expect(sameId(ID, UP)).toBe(true);
    expect(sameId(ID, '1b6f3c8e-52a1-4f3e-9d7c-2a4b6c8d0e1f')).toBe(false);
    expect(sameId('chat-chart-AB', 'chat-chart-ab')).toBe(false);
    expect(canonicalId('chat-chart-AB')).toBe('chat-chart-AB');
  });

  it('find a UUID in text whatever its case, so a leak in upper case is seen', () => {
    expect(mentionsId(`{"id":"${UP}"}`, ID)).toBe(true);
    expect(mentionsId(`{"id":"${ID}"}`, UP)).toBe(true);
    expect(mentionsId('{"id":"x"}', ID)).toBe(false);
    expect(mentionsId('Board One', 'Board One')).toBe(true);
    expect(mentionsId('board one', 'Board One')).toBe(false);
  });

  it("read an answer's UUIDs in lower case, the callers' data as sent", () => {
    expect(
      canonicalIds({
        data: {
          id: UP,
          chartIds: [UP],
          externalId: UP,
          properties: { owner: UP },
          chartConfig: { title: UP },
          name: 'Board',
        },
      }),
    ).toEqual({
      data: {
        id: ID,
        chartIds: [ID],
        externalId: UP,
        properties: { owner: UP },
        chartConfig: { title: UP },
        name: 'Board',
      },
    });
    expect(Object.keys(canonicalIds(JSON.parse('{"__proto__":{"a":1}}')) as object)).toEqual([
      '__proto__',
    ]);
  });
});
