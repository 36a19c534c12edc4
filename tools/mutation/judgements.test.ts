import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { judge, loadJudgements, type Judgement, type NodePath } from './ignore.mjs';
import { globRegex } from './slices.ts';

// A judgement is about code that exists: once the judged code is edited away (or no longer
// holds a node its mutators mutate), the judgement is stale and this test names it.
const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
/** The two functions of @babel/core used here (the project has no types for it). */
interface Babel {
  parseSync(code: string, options: object): object | null;
  traverse(ast: object, visitor: { enter(path: NodePath): void }): void;
}
const babel = require('@babel/core') as Babel;
const config = JSON.parse(
  readFileSync(join(root, 'tools/mutation/stryker.config.json'), 'utf8'),
) as {
  mutate: string[];
};

/** The files Stryker mutates: the config's `mutate` globs (a `!` glob excludes). */
function mutatedFiles(): string[] {
  const take = config.mutate.filter((g) => !g.startsWith('!')).map(globRegex);
  const drop = config.mutate.filter((g) => g.startsWith('!')).map((g) => globRegex(g.slice(1)));
  return ['spec', 'reference']
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
    )
    .filter((f) => take.some((r) => r.test(f)) && !drop.some((r) => r.test(f)));
}

/** Stryker's parse of a TypeScript file (@babel/core with the TypeScript preset). */
function parse(file: string, code: string) {
  return babel.parseSync(code, {
    filename: join(root, file),
    configFile: false,
    babelrc: false,
    parserOpts: { ranges: true },
    presets: [[require.resolve('@babel/preset-typescript'), { allExtensions: true }]],
  });
}

/** The judgements that ignore no node of the given files. */
export function unfound(
  judgements: Judgement[],
  sources: ReadonlyMap<string, string>,
): Judgement[] {
  const judged = judge(judgements, (file) => sources.get(file));
  const found = new Set<Judgement>();
  for (const [file, code] of sources) {
    const ast = parse(file, code);
    if (ast === null) continue;
    babel.traverse(ast, {
      enter(path) {
        for (const j of judged(path, file, code)) found.add(j);
      },
    });
  }
  return judgements.filter((j) => !found.has(j));
}

const judgements = loadJudgements();
const sources = new Map(mutatedFiles().map((f) => [f, readFileSync(join(root, f), 'utf8')]));

// Parsing every mutated file takes seconds on a loaded machine.
describe('mutation judgements', { timeout: 120_000 }, () => {
  it('each names the file its code is in today (the file is a hint once code moves)', () => {
    expect(
      judgements.filter((j) => !sources.has(j.file)).map((j) => `${j.file}: ${j.codes[0] ?? ''}`),
      'judgements naming a file that is gone or not mutated: point them at where the code went',
    ).toEqual([]);
  });

  it('each judges code that exists, with a node its mutators mutate', () => {
    const stale = unfound(judgements, sources).map(
      (j) => `${j.file}: ${j.codes[0]?.slice(0, 60) ?? ''} (${j.reason})`,
    );
    expect(stale, 'judgements whose code is gone: edit or delete them').toEqual([]);
  });

  it('names a judgement whose code was edited away', () => {
    const j = judgements.find((x) => x.file === 'reference/tokens/jwt.ts' && x.code === "'JWT'");
    expect(j, 'the judgement this test edits away').toBeDefined();
    const edited = new Map(sources);
    const file = 'reference/tokens/jwt.ts';
    edited.set(file, (sources.get(file) ?? '').replaceAll("'JWT'", "'JOSE'"));
    expect(unfound(judgements, edited)).toEqual([j]);
  });
});
