import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { listMutants, type Listed } from './list.ts';

// A file holding equal mutants at different places (the same literal twice).
const FILE = 'reference/http/auth.ts';
const root = join(import.meta.dirname, '..', '..');

/**
 * An incremental file holding FILE as it was with `dropped` lines fewer on top, its mutants
 * listed in the order given (a report need not list them in file order).
 */
function incremental(
  mutants: readonly (Listed & { readonly last: string })[],
  dropped: number,
): string {
  const source = readFileSync(join(root, FILE), 'utf8').split('\n').slice(dropped).join('\n');
  const at = (line: number, column: number) => ({ line: line - dropped, column });
  const path = join(mkdtempSync(join(tmpdir(), 'eac-mutation-list-')), 'incremental.json');
  writeFileSync(
    path,
    JSON.stringify({
      files: {
        [FILE]: {
          source,
          mutants: mutants.map((m) => ({
            mutatorName: m.mutator,
            replacement: m.replacement,
            location: { start: at(m.line, m.column), end: at(m.endLine, m.endColumn) },
            status: m.last,
          })),
        },
      },
    }),
  );
  return path;
}

describe('mutation-list', () => {
  it('gives each mutant its last result though its lines moved and the report lists them out of order', async () => {
    // As a report holds them: every mutant, those a comment covers as Ignored.
    const now = await listMutants([FILE], join(tmpdir(), 'none.json'));
    expect(now.length).toBeGreaterThan(5);
    expect(new Set(now.map((m) => m.status))).toEqual(new Set(['new', 'Ignored']));
    // Each mutant's last result told apart by its place; the first line of the file is new.
    const last = now.map((m, i) => ({
      ...m,
      last: m.status === 'Ignored' ? 'Ignored' : (['Killed', 'Survived', 'Timeout'][i % 3] ?? ''),
    }));
    const kept = last.filter((m) => m.line > 1);
    const again = await listMutants([FILE], incremental([...kept].reverse(), 1));
    const byPlace = new Map(
      kept.map((m) => [
        `${m.line}:${m.column}-${m.endLine}:${m.endColumn}:${m.replacement}`,
        m.last,
      ]),
    );
    for (const m of again.filter((x) => x.status !== 'Ignored' && x.line > 1))
      expect(m.status, `${m.line}:${m.column} ${m.mutator}`).toBe(
        byPlace.get(`${m.line}:${m.column}-${m.endLine}:${m.endColumn}:${m.replacement}`),
      );
  });

  it('lists a mutant a disable comment covers as Ignored, with the reason', async () => {
    const all = await listMutants([FILE], join(tmpdir(), 'none.json'));
    const ignored = all.filter((m) => m.status === 'Ignored');
    expect(ignored.length).toBeGreaterThan(0);
    for (const m of ignored) expect(m.reason).toMatch(/^(equivalent|free text):/);
  });
});
