/**
 * `--only` selection. A value naming a suite folder selects that area's files; a value
 * `<area>/<slug>` is a test id as results.json records it and selects that one test (what a
 * replay line names); any other value is a clause id or id prefix matched against the `{...}`
 * suffix of test names. Values add up: `--only roles --only tokens.expiration` runs all of
 * roles plus every test citing a `tokens.expiration*` clause, wherever it lives.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Folders under suites/ that hold plumbing, not tests. */
export const NOT_AREAS: ReadonlySet<string> = new Set(['harness']);

export interface Selection {
  readonly areas: readonly string[];
  readonly clausePrefixes: readonly string[];
  /** Test ids, `<area>/<slug of the test's name>` (reports/results.ts assignIds). */
  readonly tests?: readonly string[];
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
  const picked = {
    areas: new Set<string>(),
    clausePrefixes: new Set<string>(),
    tests: new Set<string>(),
  };
  for (const raw of values) {
    const value = raw.trim().replace(/\/+$/, '');
    if (known.has(value)) picked.areas.add(value);
    else if (testIdParts(value, known) !== undefined) picked.tests.add(value);
    else picked.clausePrefixes.add(value);
  }
  return {
    areas: [...picked.areas],
    clausePrefixes: [...picked.clausePrefixes],
    ...(picked.tests.size > 0 ? { tests: [...picked.tests] } : {}),
  };
}

/** `hub/opens-a-page` -> area and slug, when the area is a known one and the slug a slug. */
function testIdParts(
  value: string,
  areas: ReadonlySet<string>,
): { area: string; slug: string } | undefined {
  const at = value.indexOf('/');
  if (at <= 0) return undefined;
  const area = value.slice(0, at);
  const slug = value.slice(at + 1);
  return areas.has(area) && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) ? { area, slug } : undefined;
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

/**
 * A name pattern that matches exactly the test whose name slugs to `slug` (results.json's id
 * less its area): each `-` of the slug stands for the run of other characters it replaced,
 * letters match in either case, and the name runs from its start to its `{...}` clause
 * suffix (suites register their tests at top level, so vitest's full name is the name). A test
 * with an explicit id (ConformanceOptions.id) carries it as ` [id]` before that suffix, and is
 * matched by it whatever its name says.
 */
export function testPattern(slug: string): RegExp {
  const letters = (word: string) =>
    [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
  const words = slug.split('-').map(letters).join('[^A-Za-z0-9]+');
  const byName = `^[^A-Za-z0-9]*${words}[^A-Za-z0-9{]*\\{[^{}]*\\}\\s*$`;
  const byId = ` \\[${escapeRegExp(slug)}\\] \\{[^{}]*\\}\\s*$`;
  return new RegExp(`(?:${byName})|(?:${byId})`);
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
  const tests = selection.tests ?? [];
  const everything =
    selection.areas.length === 0 && selection.clausePrefixes.length === 0 && tests.length === 0;
  if (everything || (area !== undefined && selection.areas.includes(area))) return { run: true };
  const patterns = [
    clausePattern(selection.clausePrefixes),
    ...tests
      .filter((id) => area !== undefined && id.startsWith(`${area}/`))
      .map((id) => testPattern(id.slice(id.indexOf('/') + 1))),
  ].filter((p) => p !== undefined);
  if (patterns.length === 0) return { run: false };
  if (patterns.length === 1) return { run: true, pattern: patterns[0] as RegExp };
  return { run: true, pattern: new RegExp(patterns.map((p) => `(?:${p.source})`).join('|')) };
}

/** Values that match neither an area nor any known clause id (likely typos). */
export function unmatchedValues(selection: Selection, clauseIds: readonly string[]): string[] {
  return selection.clausePrefixes.filter(
    (prefix) => !clauseIds.some((id) => id.startsWith(prefix)),
  );
}
