import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { anchorAt, applyVariant, loadVariants, locate, type Variant } from './variant.ts';

// Every wrong variant (and fault) is a text replacement that must find its text exactly once
// in the declaration it names, in the reference as it is now: an edit of the reference (a
// refactor, a comment put between two lines a variant spans) can otherwise leave a variant that
// no longer applies, which the catalogue would only find in its long run.
const root = join(import.meta.dirname, '..', '..');
const variants = await loadVariants();

describe('wrong variants', () => {
  it('have distinct names', () => {
    const names = variants.map((v) => v.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it.each(variants.map((v) => [v.name, v] as const))('%s applies exactly once', (_, v) => {
    const source = readFileSync(join(root, v.file), 'utf8');
    const at = source.indexOf(v.from);
    expect(
      v.within,
      `name the declaration around the text: within: '${at < 0 ? '?' : anchorAt(v.file, source, at, v.from.length)}'`,
    ).toBeDefined();
    const found = locate(source, v);
    expect('problem' in found ? found.problem : undefined, v.file).toBeUndefined();
    expect(v.to, 'it changes something').not.toBe(v.from);
  });
});

describe('a variant anchored in its declaration', () => {
  const a = 'export function first() {\n  return limit + 1;\n}\n';
  const b = 'const second = (limit: number) => {\n  return limit + 1;\n};\n';
  const v: Variant = {
    name: 'planted',
    file: 'planted.ts',
    within: 'second',
    from: 'return limit + 1;',
    to: 'return limit;',
  };

  it('finds its text inside that declaration though the file holds it twice', () => {
    expect(applyVariant(a + b, v)).toEqual({
      source: `${a}const second = (limit: number) => {\n  return limit;\n};\n`,
    });
  });

  it('still applies when the declaration moved in the file', () => {
    expect(applyVariant(`${b}\n// moved above\n${a}`, v)).toEqual({
      source: `const second = (limit: number) => {\n  return limit;\n};\n\n// moved above\n${a}`,
    });
  });

  it('says by name when its declaration is gone', () => {
    expect(applyVariant(a, v)).toEqual({
      problem: 'second (its anchor) is no longer declared in planted.ts',
    });
  });

  it('without an anchor, the whole file must hold the text once', () => {
    const { within: _, ...loose } = v;
    expect(locate(a + b, loose)).toEqual({
      problem: 'its text occurs 2 times in planted.ts, not once',
    });
  });

  it('is the nearest declaration around the text whose name is declared once', () => {
    const source = a + b;
    expect(anchorAt('planted.ts', source, source.lastIndexOf(v.from), v.from.length)).toBe(
      'second',
    );
  });
});
