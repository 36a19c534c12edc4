/**
 * Every citation of a decision names its clause id in the catalogue (spec/clauses): the clause
 * that records the choice, one with a `decision`. A citation is
 *
 * - the word `decision` or `decisions`, then (an opening parenthesis allowed) one id or a list
 *   of ids joined by `,`, `and` or `or`: `decision tokens.claims`, `(decisions
 *   roles.list.order and errors.not-found.status)`, `our decision (hub.filters.values)`;
 * - and, as the old vocabulary is refused wherever it stands, a letter code (`T3`, `E10`) in a
 *   parenthesis of its own (`(U4)`, `(E1, E2)`) or in one that says `decision`
 *   (`(the fields are a decision, U4)`).
 *
 * An id is a clause id's shape (`area.topic.detail`) or a letter code; a word after `decision`
 * that has neither shape is prose (`the decision is`) and no citation. Chart ids such as `C1` in
 * code, `ES256` and hexadecimal or ISO text are not citations: a letter code counts only in the
 * places above. The files read are the text files of the kit's rooms, this one excepted (its
 * examples cite on purpose).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clauseById } from '../spec/clauses/index.ts';

const CLAUSE_ID = String.raw`[a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+`;
const LETTER_CODE = String.raw`[A-Z][0-9]{1,3}`;
const ID = String.raw`(?:${CLAUSE_ID}|${LETTER_CODE}\b)`;
/** A line break inside a comment: the break and the next line's comment leader. */
const GAP = String.raw`\s+(?:(?:\*|\/\/|#)\s+)?`;
const LIST_JOIN = String.raw`(?:\s*,|${GAP}(?:and|or))${GAP}`;
const AFTER_WORD = new RegExp(
  String.raw`\b[Dd]ecisions?${GAP}\(?\s*(${ID}(?:${LIST_JOIN}${ID})*)`,
  'g',
);
const BARE_CODES = new RegExp(
  String.raw`(?:^|\s)\(\s*(${LETTER_CODE}(?:\s*,\s*${LETTER_CODE})*)\s*\)`,
  'g',
);
const PARENTHESIS_SAYING_DECISION = /\([^()]*\b[Dd]ecisions?\b[^()]*\)/g;
const ONE_ID = new RegExp(ID, 'g');
const ONE_CODE = new RegExp(String.raw`\b${LETTER_CODE}\b`, 'g');

interface Citation {
  readonly id: string;
  /** 1-based line of the citation in its text. */
  readonly line: number;
}

/** The decision citations of a text, in order, each id once per place it is cited. */
function decisionCitations(text: string): Citation[] {
  const found = new Map<number, string>();
  const add = (at: number, id: string) => found.set(at, id);
  for (const m of text.matchAll(AFTER_WORD)) {
    const list = m[1] ?? '';
    const start = m.index + m[0].length - list.length;
    for (const id of list.matchAll(ONE_ID)) add(start + id.index, id[0]);
  }
  for (const m of text.matchAll(BARE_CODES)) {
    const list = m[1] ?? '';
    const start = m.index + m[0].indexOf(list);
    for (const id of list.matchAll(ONE_CODE)) add(start + id.index, id[0]);
  }
  for (const m of text.matchAll(PARENTHESIS_SAYING_DECISION))
    for (const id of m[0].matchAll(ONE_CODE)) add(m.index + id.index, id[0]);
  return [...found]
    .sort(([a], [b]) => a - b)
    .map(([at, id]) => ({ id, line: text.slice(0, at).split('\n').length }));
}

/** Why a cited id does not name a decision of the catalogue, or undefined when it does. */
function unresolved(id: string): string | undefined {
  const clause = clauseById.get(id);
  if (clause === undefined)
    return new RegExp(`^${LETTER_CODE}$`).test(id)
      ? 'a letter code: cite the clause id that records the decision'
      : 'no clause of the catalogue has this id';
  if (clause.decision === undefined) return `clause ${id} (${clause.level}) records no decision`;
  return undefined;
}

const root = fileURLToPath(new URL('../', import.meta.url));
const ROOMS = [
  'spec',
  'reference',
  'suites',
  'runner',
  'reports',
  'latitude',
  'lib',
  'tools',
  'bench',
  'fixtures',
  'docs',
  'examples',
  'bin',
  'README.md',
];
const SKIP = new Set(['node_modules', 'runs', 'latest', 'mutation-runs', '.stryker-tmp']);
const TEXT = /\.(?:[cm]?[jt]s|ya?ml|md|json|patch|html|css|txt|sql)$/;
const SELF = relative(root, fileURLToPath(import.meta.url));

function textFiles(path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(full, { withFileTypes: true })
    .filter((e) => !SKIP.has(e.name) && !(path === 'reports' && e.name === 'mutation'))
    .flatMap((e) => textFiles(join(path, e.name)));
}

describe('decision citations', () => {
  it('finds the cited ids, lists and parentheses included', () => {
    const text = [
      '/** Decision roles.list.order: created_at, then id. */',
      '// decisions tenants.register.identity, tenants.migration.mapping and auth.header.format',
      'a token carries them (our decision (tokens.claims, §5 rule 8)),',
      '  (decision T3) and (decision, U4) and (E1, E2) and the decision N4.',
      ' * the reference does this (decision',
      ' * orgs.register.required-fields).',
    ].join('\n');
    expect(decisionCitations(text)).toEqual([
      { id: 'roles.list.order', line: 1 },
      { id: 'tenants.register.identity', line: 2 },
      { id: 'tenants.migration.mapping', line: 2 },
      { id: 'auth.header.format', line: 2 },
      { id: 'tokens.claims', line: 3 },
      { id: 'T3', line: 4 },
      { id: 'U4', line: 4 },
      { id: 'E1', line: 4 },
      { id: 'E2', line: 4 },
      { id: 'N4', line: 4 },
      { id: 'orgs.register.required-fields', line: 6 },
    ]);
  });

  it('reads no citation in chart ids, algorithms, hexadecimal, ISO text or prose', () => {
    const text = [
      "const C1 = '00000000-0000-4000-8000-0000000000c1'; expect(ids).toEqual(C1);",
      'charts C1..C3 (ES256 keys, HS256 secrets), 2026-01-01T00:00:00Z, 0xA1, (V8 cache)',
      'the decision is the reference’s; a decision of ours (see the catalogue); no decision names',
      "decision: 'auth.header.format', checkDecisions, throughDecision",
    ].join('\n');
    expect(decisionCitations(text)).toEqual([]);
  });

  it('refuses letter codes, unknown ids and clauses that record no decision', () => {
    expect(unresolved('tokens.claims')).toBeUndefined();
    expect(unresolved('T3')).toMatch(/letter code/);
    expect(unresolved('tokens.no-such-clause')).toMatch(/no clause/);
    expect(unresolved('users.update.response-')).toMatch(/no clause/);
    const must = [...clauseById.values()].find((c) => c.decision === undefined);
    expect(unresolved(must?.id ?? '')).toMatch(/records no decision/);
  });

  it('every decision the kit cites resolves to a clause of the catalogue that records it', () => {
    const files = ROOMS.flatMap(textFiles).filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(500);
    const problems = files.flatMap((file) =>
      decisionCitations(readFileSync(join(root, file), 'utf8')).flatMap(({ id, line }) => {
        const why = unresolved(id);
        return why === undefined ? [] : [`${file}:${line}: decision ${id}: ${why}`];
      }),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
