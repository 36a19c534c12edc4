import { inventories, leftOut, type InventoryClass, type InventoryRow } from './inventories.ts';

/** One variant's measured outcome, as bench/results/wrong-variants.json holds it. */
export interface Measured {
  readonly variant: string;
  readonly caught: boolean;
  readonly failing: readonly string[];
  readonly stale?: boolean;
  readonly error?: string;
  readonly measuredAt?: string;
}

export interface Unconfirmed {
  readonly class: InventoryClass;
  readonly instance: string;
  readonly why: string;
}

const CLASSES: readonly InventoryClass[] = [
  'keyed state',
  'property values',
  'refused v1 writes',
  'page error paths',
];

/** Why a row is not shown caught by its test, or undefined when it is. */
export function verdictOf(row: InventoryRow, measured: Measured | undefined): string | undefined {
  if (row.test === '') return 'no test names it (a gap)';
  if (measured === undefined) return 'its variant is not measured';
  if (measured.stale === true) return 'its variant no longer applies (stale)';
  if (measured.error !== undefined) return `its variant's run failed: ${measured.error}`;
  if (!measured.caught) return 'its variant is missed';
  if (!measured.failing.includes(row.test)) return 'its variant is caught, but not by that test';
  return undefined;
}

/** `|` and line breaks would end a table cell. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderInventories(outcomes: readonly Measured[]): {
  markdown: string;
  unconfirmed: Unconfirmed[];
} {
  const byName = new Map(outcomes.map((o) => [o.variant, o]));
  const unconfirmed: Unconfirmed[] = [];
  const lines = [
    '# Inventories (issue 34)',
    '',
    'One table per class of instances the document implies; each instance has a wrong variant of',
    'the reference that breaks it (tools/variants/) and the conformance test that catches it.',
    'Written by `npx tsx tools/inventories.ts` from tools/variants/inventories.ts and the',
    'variants\u2019 last measurements in bench/results/wrong-variants.json. "caught" means that',
    'measurement shows the named test failing on the variant.',
    '',
  ];
  for (const cls of CLASSES) {
    const rows = inventories.filter((r) => r.class === cls);
    const shown = rows.filter((r) => verdictOf(r, byName.get(r.variant)) === undefined).length;
    lines.push(`## ${cls} (${String(shown)} of ${String(rows.length)} caught)`, '');
    lines.push('| instance | § | wrong variant | caught by | measured |', '|---|---|---|---|---|');
    for (const row of rows) {
      const measured = byName.get(row.variant);
      const why = verdictOf(row, measured);
      if (why !== undefined) unconfirmed.push({ class: cls, instance: row.instance, why });
      lines.push(
        `| ${cell(row.instance)} | ${cell(row.section)} | ${cell(row.variant)} | ${cell(row.test === '' ? '\u2014' : row.test)} | ${why === undefined ? `caught${measured?.measuredAt === undefined ? '' : ` ${measured.measuredAt.slice(0, 10)}`}` : `**${why}**`} |`,
      );
    }
    const out = leftOut.filter((l) => l.class === cls);
    if (out.length > 0) {
      lines.push('', 'Left out:', '');
      for (const l of out) lines.push(`- ${l.instance}: ${l.why}`);
    }
    lines.push('');
  }
  return { markdown: `${lines.join('\n').trimEnd()}\n`, unconfirmed };
}
