import { readFileSync } from 'node:fs';

/** The small word lists the seeded dataset picks from (fixtures/words/). */
export interface Words {
  readonly organizations: readonly string[];
  readonly regions: readonly string[];
  readonly channels: readonly string[];
  readonly products: readonly { name: string; category: string; price: number }[];
}

const lines = (file: string): string[] =>
  readFileSync(new URL(`../../fixtures/words/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

/**
 * Read anew each time (a few small files, once per dataset seeded): nothing kept at the
 * module's top level, so a reference started afresh in mutation mode shares nothing with the
 * one before it (reference/module-state.test.ts).
 */
export function words(): Words {
  return {
    organizations: lines('organizations.txt'),
    regions: lines('regions.txt'),
    channels: lines('channels.txt'),
    products: lines('products.txt').map((l) => {
      const fields = l.split(',');
      const [name = '', category = '', price = '0'] = fields;
      return { name, category, price: Number(price) };
    }),
  };
}
