import { describe, expect, it } from 'vitest';

import { inventories } from './inventories.ts';
import { renderInventories, verdictOf } from './inventories-render.ts';
import { loadVariants } from './variant.ts';

// Issue 34's inventories: every instance names a wrong variant the catalogue holds and the test
// that catches it; the renderer marks an instance caught only when the variant's measurement
// shows that very test failing.
const names = new Set((await loadVariants()).map((v) => v.name));

describe('inventories', () => {
  it('name variants that exist', () => {
    expect(inventories.filter((r) => !names.has(r.variant)).map((r) => r.variant)).toEqual([]);
  });

  it('name a catching test for every instance', () => {
    expect(inventories.filter((r) => r.test === '').map((r) => r.instance)).toEqual([]);
  });

  it('hold each instance of a class once', () => {
    const keys = inventories.map((r) => `${r.class}: ${r.instance}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('count an instance caught only when its own test failed on its variant', () => {
    const row = { ...inventories[0]!, test: 'the named test' };
    expect(verdictOf(row, undefined)).toMatch(/not measured/);
    expect(verdictOf(row, { variant: row.variant, caught: false, failing: [] })).toMatch(/missed/);
    expect(
      verdictOf(row, { variant: row.variant, caught: true, failing: ['another test'] }),
    ).toMatch(/not by that test/);
    expect(
      verdictOf(row, { variant: row.variant, caught: true, failing: ['the named test'] }),
    ).toBeUndefined();
    expect(verdictOf({ ...row, test: '' }, undefined)).toMatch(/gap/);
  });

  it('render one table per class, with every instance', () => {
    const { markdown, unconfirmed } = renderInventories([]);
    for (const cls of new Set(inventories.map((r) => r.class)))
      expect(markdown).toContain(`## ${cls} (0 of`);
    expect(unconfirmed).toHaveLength(inventories.length);
  });
});
