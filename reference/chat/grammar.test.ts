import { describe, expect, it } from 'vitest';
import { ORDERS } from '../data/seed.ts';
import { chartFor, chartType, readQuestion, type ChartSpec } from './grammar.ts';

const columns = ORDERS.columns;
const spec = (
  question: string,
  previous?: ChartSpec,
  filters: { column: string; value: string }[] = [],
) => chartFor('orders', columns, readQuestion(question, columns), filters, previous);

describe('the reference agent grammar', () => {
  it('reads a measure and a dimension', () => {
    expect(spec('Total amount by region?')).toMatchObject({
      measure: { aggregation: 'sum', column: 'amount' },
      dimension: { column: 'region', bucket: null },
      top: null,
      type: null,
    });
    expect(spec('average quantity per channel')?.measure).toEqual({
      aggregation: 'avg',
      column: 'quantity',
    });
    expect(spec('how many orders by category')?.measure).toEqual({
      aggregation: 'count',
      column: null,
    });
    expect(spec('revenue by product')?.measure).toEqual({ aggregation: 'sum', column: 'amount' });
  });

  it('reads time buckets, top N, a year and chart types', () => {
    const s = spec('max amount by quarter only 2024 as an area chart');
    expect(s).toMatchObject({
      measure: { aggregation: 'max', column: 'amount' },
      dimension: { column: 'order_date', bucket: 'quarter' },
      year: { column: 'order_date', value: 2024 },
      type: 'area',
    });
    expect(spec('top 5 products by total amount')).toMatchObject({
      top: 5,
      dimension: { column: 'product', bucket: null },
    });
    expect(spec('top 3 region by amount')?.top).toBe(3);
  });

  it('draws a number without a dimension, a line for time, a bar otherwise', () => {
    expect(chartType(spec('count') as ChartSpec)).toBe('number');
    expect(chartType(spec('total amount monthly') as ChartSpec)).toBe('line');
    expect(chartType(spec('total amount by region') as ChartSpec)).toBe('bar');
    expect(chartType(spec('total amount by region as a pie') as ChartSpec)).toBe('pie');
  });

  it('refines the previous chart with a follow-up and starts anew with a measure', () => {
    const first = spec('total amount by region', undefined, [
      { column: 'channel', value: 'Online' },
    ]) as ChartSpec;
    expect(spec('as a bar chart', first)).toEqual({ ...first, type: 'bar' });
    expect(spec('only 2025', first)).toEqual({
      ...first,
      year: { column: 'order_date', value: 2025 },
    });
    expect(spec('by channel instead', first)?.dimension).toEqual({
      column: 'channel',
      bucket: null,
    });
    expect(spec('without filters', first)?.filters).toEqual([]);
    expect(spec('average quantity', first)).toMatchObject({ dimension: null, filters: [] });
  });

  it('says nothing for free text, with or without a previous chart', () => {
    expect(spec('hello, how are you')).toBeUndefined();
    expect(spec('what is the weather like', spec('count') as ChartSpec)).toBeUndefined();
  });

  it('offers filter phrases after in, for and only', () => {
    expect(readQuestion('total amount in North America for online', columns).phrases).toEqual(
      expect.arrayContaining(['north', 'north america', 'online']),
    );
  });
});
