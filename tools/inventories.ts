/**
 * Renders issue 34's inventories (tools/variants/inventories.ts) with the measured outcomes of
 * their wrong variants (bench/results/wrong-variants.json) to bench/results/inventories.md: one
 * table per class, each instance with its variant, the test that must catch it, and whether the
 * last measurement shows that test failing on that variant.
 *
 *   npx tsx tools/inventories.ts [--check]
 *
 * `--check` exits 1 when an instance is not shown caught by its test (no test named, the
 * variant not measured, measured stale, or caught by other tests only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { root } from './fault-run.ts';
import { renderInventories, type Measured } from './variants/inventories-render.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean' } } });

const results = JSON.parse(
  readFileSync(join(root, 'bench', 'results', 'wrong-variants.json'), 'utf8'),
) as { outcomes: Measured[] };
const { markdown, unconfirmed } = renderInventories(results.outcomes);
const out = join(root, 'bench', 'results', 'inventories.md');
writeFileSync(out, markdown);
console.log(`written to ${out}`);
for (const u of unconfirmed)
  console.log(`  not shown caught: [${u.class}] ${u.instance}: ${u.why}`);
if (values.check === true && unconfirmed.length > 0) process.exitCode = 1;
