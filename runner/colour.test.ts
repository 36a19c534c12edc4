import { describe, expect, it } from 'vitest';
import { colourOn, paint } from './colour.ts';

describe('colour', () => {
  it('is on only for a terminal, with NO_COLOR unset or empty and TERM not dumb', () => {
    expect(colourOn({ isTTY: true }, {})).toBe(true);
    expect(colourOn({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourOn({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourOn({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colourOn({ isTTY: false }, {})).toBe(false);
    expect(colourOn({}, {})).toBe(false);
  });

  it('paints with pairs that close only what they opened, and not at all when off', () => {
    expect(paint(true).red(`a ${paint(true).bold('b')} c`)).toBe(
      '\x1b[31ma \x1b[1mb\x1b[22m c\x1b[39m',
    );
    expect(paint(false).red('plain')).toBe('plain');
  });
});
