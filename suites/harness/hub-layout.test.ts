import { describe, expect, it } from 'vitest';
import { titlePattern } from './hub-layout.ts';

describe('titlePattern', () => {
  it('takes any title where the name is the title alone', () => {
    expect(titlePattern('{title}').test('Sales by region')).toBe(true);
    expect(titlePattern('{title}').test('')).toBe(false);
  });

  it('keeps what surrounds the title, its special characters literal', () => {
    const p = titlePattern('Chart: {title} (bar)');
    expect(p.test('Chart: Sales (bar)')).toBe(true);
    expect(p.test('Chart: Sales bar')).toBe(false);
    expect(p.test('Chart Sales (bar)')).toBe(false);
    expect(p.test('Chart: Sales (bar) more')).toBe(false);
  });
});
