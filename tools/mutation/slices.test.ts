import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globRegex, SLICES } from './slices.ts';

const root = join(import.meta.dirname, '..', '..');

/** Every file under `dir`, as a path from the project's root. */
const filesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)));

// A whole mutation run is every slice in turn: a file of the config's `mutate` that no slice
// names is never measured, and a file two slices name is measured twice, each time with a
// different set of tests.
describe('mutation slices', () => {
  const config = JSON.parse(
    readFileSync(join(root, 'tools/mutation/stryker.config.json'), 'utf8'),
  ) as {
    mutate: string[];
  };
  const included = config.mutate.filter((g) => !g.startsWith('!')).map(globRegex);
  const excluded = config.mutate.filter((g) => g.startsWith('!')).map((g) => globRegex(g.slice(1)));
  const mutated = [...filesUnder('spec/machines'), ...filesUnder('reference')].filter(
    (f) => included.some((r) => r.test(f)) && !excluded.some((r) => r.test(f)),
  );

  it('the config mutates the machines and the reference, without their tests', () => {
    expect(mutated).toContain('spec/machines/identity.ts');
    expect(mutated).toContain('reference/server.ts');
    expect(mutated.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(mutated).not.toContain('reference/test-client.ts');
  });

  it.each(Object.entries(SLICES))('%s names only files that exist', (_name, slice) => {
    for (const glob of slice.mutate) {
      const re = globRegex(glob);
      expect(
        mutated.some((f) => re.test(f)),
        glob,
      ).toBe(true);
    }
  });

  it('every mutated file is in exactly one slice', () => {
    const owners = (f: string) =>
      Object.entries(SLICES)
        .filter(([, s]) => s.mutate.some((g) => globRegex(g).test(f)))
        .map(([name]) => name);
    const wrong = mutated.map((f) => [f, owners(f)] as const).filter(([, o]) => o.length !== 1);
    expect(wrong).toEqual([]);
  });
});
