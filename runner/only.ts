/**
 * `--only` selection. A value naming a suite folder selects that area's files; any other value
 * is a clause id or id prefix matched against the `{...}` suffix of test names. Values add up:
 * `--only roles --only tokens.expiration` runs all of roles plus every test citing a
 * `tokens.expiration*` clause, wherever it lives.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Folders under suites/ that hold plumbing, not tests. */
export const NOT_AREAS: ReadonlySet<string> = new Set(['harness']);

export interface Selection {
  readonly areas: readonly string[];
  readonly clausePrefixes: readonly string[];
}

/** The test areas: folders directly under `suitesDir`, less the plumbing ones. */
export function listAreas(suitesDir: string): string[] {
  try {
    return readdirSync(suitesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_AREAS.has(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

export function resolveOnly(values: readonly string[], areas: readonly string[]): Selection {
  const known = new Set(areas);
  const picked = { areas: new Set<string>(), clausePrefixes: new Set<string>() };
  for (const raw of values) {
    const value = raw.trim().replace(/\/+$/, '');
    if (known.has(value)) picked.areas.add(value);
    else picked.clausePrefixes.add(value);
  }
  return { areas: [...picked.areas], clausePrefixes: [...picked.clausePrefixes] };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A name pattern that matches a test whose `{...}` suffix holds an id starting with one of
 * the prefixes; `undefined` when there are none.
 */
export function clausePattern(prefixes: readonly string[]): RegExp | undefined {
  if (prefixes.length === 0) return undefined;
  const alternatives = prefixes.map(escapeRegExp).join('|');
  return new RegExp(`\\{(?:[^{}]*\\s)?(?:${alternatives})[^{}\\s]*(?:\\s[^{}]*)?\\}\\s*$`);
}

/** Area of a test file, `suites/<area>/...`, relative to `suitesDir`. */
export function areaOfFile(suitesDir: string, file: string): string | undefined {
  const relative = path.relative(suitesDir, file).split(path.sep);
  return relative.length > 1 && relative[0] !== '..' ? relative[0] : undefined;
}

/** How one test file takes part in the run: whole, filtered by name, or not at all. */
export function planFile(
  selection: Selection,
  area: string | undefined,
): { run: false } | { run: true; pattern?: RegExp } {
  const everything = selection.areas.length === 0 && selection.clausePrefixes.length === 0;
  if (everything || (area !== undefined && selection.areas.includes(area))) return { run: true };
  const pattern = clausePattern(selection.clausePrefixes);
  return pattern !== undefined ? { run: true, pattern } : { run: false };
}

/** Values that match neither an area nor any known clause id (likely typos). */
export function unmatchedValues(selection: Selection, clauseIds: readonly string[]): string[] {
  return selection.clausePrefixes.filter(
    (prefix) => !clauseIds.some((id) => id.startsWith(prefix)),
  );
}
