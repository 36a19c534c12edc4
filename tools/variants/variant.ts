import { readdirSync } from 'node:fs';

/**
 * One wrong variant of the reference: a single rule broken on purpose by replacing `from`
 * (which must occur exactly once in `file`) with `to` in a scratch copy of the project.
 */
export interface Variant {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  /** `--only` values of the run that must catch it (default: identity). */
  readonly only?: readonly string[];
}

/** Loads every `export const …Variants` of the other files in this folder, in file order. */
export async function loadVariants(): Promise<Variant[]> {
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((f) => f.endsWith('.ts') && f !== 'variant.ts')
    .sort();
  const all: Variant[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, import.meta.url).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (name.endsWith('Variants') && Array.isArray(value)) all.push(...(value as Variant[]));
    }
  }
  return all;
}
