import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentSections } from '../clauses/index.ts';
import { MACHINE_TABLES } from './tables.ts';
import { issueLifetime, tokenState, tokenTransitions } from './token.ts';

// The transition tables are data the reports draw (reports/machines.ts): every row must
// name its command, its states and where the move comes from, and the states a table names
// must be those its machine's functions produce.
/** A section of the document, a decision of ours (DECISIONS) or a host hook. */
const SOURCES = new Set<string>([...documentSections, 'decision', 'hook']);

it('lists the table of every machine of spec/machines', async () => {
  const dir = dirname(fileURLToPath(import.meta.url));
  const listed = new Set(MACHINE_TABLES.map(([, table]) => table));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const names = [
      ...readFileSync(join(dir, file), 'utf8').matchAll(/^export const (\w+Transitions)\b/gm),
    ];
    const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const [, name] of names) {
      expect(listed.has(module[name ?? ''] as never), `${file}: ${String(name)} is listed`).toBe(
        true,
      );
    }
  }
});

describe.each(MACHINE_TABLES)('the %s transition table', (_name, table) => {
  it('has rows', () => {
    expect(table.length).toBeGreaterThan(0);
  });

  it('names the command, both states and the source of every row', () => {
    for (const row of table) {
      expect(row.command, JSON.stringify(row)).toMatch(/^[a-z][A-Za-z-]*$/);
      expect(row.from, JSON.stringify(row)).toMatch(/^[a-z][A-Za-z-]*$/);
      expect(row.to, JSON.stringify(row)).toMatch(/^[a-z][A-Za-z-]*$/);
      expect(SOURCES, JSON.stringify(row)).toContain(row.section);
      if (row.note !== undefined) expect(row.note.trim(), JSON.stringify(row)).not.toBe('');
    }
  });

  it('lists no row twice', () => {
    const keys = table.map((r) => JSON.stringify([r.command, r.from, r.to, r.note ?? '']));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the token table and the token machine', () => {
  it('issues from absent to the state a fresh token is in', () => {
    const issued = tokenTransitions.filter((r) => r.command === 'issue');
    const { iat, exp } = issueLifetime(1_000_000);
    expect(issued.map((r) => [r.from, r.to])).toEqual([['absent', tokenState(exp, iat * 1000)]]);
  });

  it('ticks from valid into exactly the states tokenState answers', () => {
    const ticks = tokenTransitions.filter((r) => r.command === 'tick');
    const { exp } = issueLifetime(1_000_000);
    const answers = new Set([tokenState(exp, exp * 1000 - 1), tokenState(exp, exp * 1000)]);
    expect(ticks.every((r) => r.from === 'valid')).toBe(true);
    expect(new Set(ticks.map((r) => r.to))).toEqual(answers);
    expect(ticks).toHaveLength(answers.size);
    // Each tick row says under which condition it applies.
    for (const row of ticks) expect(row.note).toBeDefined();
  });

  it('has no command but issue and tick', () => {
    expect(new Set(tokenTransitions.map((r) => r.command))).toEqual(new Set(['issue', 'tick']));
  });
});
