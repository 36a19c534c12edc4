import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadVariants } from './variant.ts';

// Every wrong variant (and fault) is a text replacement that must find its text exactly once
// in the reference as it is now: an edit of the reference (a refactor, a comment put between
// two lines a variant spans) can otherwise leave a variant that no longer applies, which the
// catalogue would only find in its long run.
const root = join(import.meta.dirname, '..', '..');
const variants = await loadVariants();

describe('wrong variants', () => {
  it('have distinct names', () => {
    const names = variants.map((v) => v.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it.each(variants.map((v) => [v.name, v] as const))('%s applies exactly once', (_, v) => {
    const source = readFileSync(join(root, v.file), 'utf8');
    expect(source.split(v.from).length - 1, `${v.file}: occurrences of its text`).toBe(1);
    expect(v.to, 'it changes something').not.toBe(v.from);
  });
});
