/** `eac clauses`: the catalogue as text (grouped by section) or JSON. */
import type { Clause } from '../spec/clauses/types.ts';
import type { ClausesOptions } from './args.ts';
import { compareSections, type SectionTitle } from '../reports/coverage.ts';

export function selectClauses(clauses: readonly Clause[], options: ClausesOptions): Clause[] {
  return clauses.filter(
    (c) =>
      (options.section === undefined ||
        c.section === options.section ||
        c.section.startsWith(`${options.section}.`)) &&
      (options.level === undefined || c.level === options.level),
  );
}

export function renderClauses(
  clauses: readonly Clause[],
  sections: readonly SectionTitle[],
  options: ClausesOptions,
): string {
  const chosen = selectClauses(clauses, options);
  if (options.json) return `${JSON.stringify(chosen, null, 2)}\n`;
  if (chosen.length === 0) return '';
  const titles = new Map(sections.map((s) => [s.section, s.title]));
  const idWidth = Math.max(...chosen.map((c) => c.id.length));
  const sectionWidth = Math.max(...chosen.map((c) => c.section.length)) + 1;
  const bySection = new Map<string, Clause[]>();
  for (const clause of chosen) {
    const list = bySection.get(clause.section) ?? [];
    list.push(clause);
    bySection.set(clause.section, list);
  }
  const blocks = [...bySection.entries()]
    .sort(([a], [b]) => compareSections(a, b))
    .map(([section, list]) => {
      const title = titles.get(section);
      const header = `§${section}${title !== undefined ? ` ${title}` : ''}`;
      const lines = list.map(
        (c) =>
          `${c.id.padEnd(idWidth)}  ${`§${c.section}`.padEnd(sectionWidth)}  ${c.level.padEnd(11)}  ${c.summary}`,
      );
      return [header, ...lines].join('\n');
    });
  return `${blocks.join('\n\n')}\n`;
}
