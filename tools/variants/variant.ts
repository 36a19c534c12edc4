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
  /**
   * The kind of implementer bug it stands for, where it is one of the kinds the fault
   * catalogue counts apart (issue 11): a sibling's data for one's own, a cache that goes
   * stale, a boundary off by one, a value encoded wrongly.
   */
  readonly kind?: FaultKind;
  /**
   * The decision clause this variant breaks when that is all it breaks: it changes a choice of
   * ours the document leaves open, which only a probe sees. Against the embedded reference the
   * probe is held to the decision and catches it; the fault catalogue (`--faults`) judges an
   * outside candidate, whose probes only record, so it leaves such a variant out of its count.
   */
  readonly decision?: string;
  /**
   * Behaviour entries of the latitude catalogue the broken reference runs with (`eac run
   * --latitude <ids>`): for variants of code only such an entry reaches, e.g. the second chat
   * agent (`chat.second-agent`). The run then goes through the latitude proxy and reads its
   * printed profile.
   */
  readonly latitude?: readonly string[];
}

export type FaultKind = 'sibling' | 'stale-cache' | 'boundary' | 'encoding' | 'forged-token';

/** A variant with the area it belongs to: the name of its file in this folder. */
export interface AreaVariant extends Variant {
  readonly area: string;
}

/** Loads every `export const …Variants` of the other files in this folder, in file order. */
export async function loadVariants(): Promise<AreaVariant[]> {
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((f) => f.endsWith('.ts') && f !== 'variant.ts' && !f.endsWith('.test.ts'))
    .sort();
  const all: AreaVariant[] = [];
  for (const file of files) {
    const module = (await import(new URL(file, import.meta.url).href)) as Record<string, unknown>;
    const area = file.replace(/\.ts$/, '');
    for (const [name, value] of Object.entries(module)) {
      if (name.endsWith('Variants') && Array.isArray(value))
        all.push(...(value as Variant[]).map((v) => ({ ...v, area })));
    }
  }
  return all;
}
