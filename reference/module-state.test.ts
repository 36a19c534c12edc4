import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Mutation mode (tools/mutation/global-setup.ts) starts a fresh reference for each mutant from
 * modules it loaded once. That judges a mutant alone only if nothing the modules hold at their
 * top level is filled in while requests are served (a lazily filled cache would carry one
 * mutant's results into the next, or hide a mutant behind an earlier, unmutated result).
 * State belongs to the store a reference start makes. This test keeps it so for the reference
 * and the machines it runs: no top-level `let`/`var`, and a top-level Map/Set/WeakMap, array or
 * object is never changed after it is built.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIRS = ['reference', 'spec/machines'];

/** Top-level collections changed on purpose, each with why that is safe across mutants. */
const ALLOWED: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

const CHANGERS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'splice']);

function findings(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const collections = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const flags = st.declarationList.flags;
    const isConst = (flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      const name = d.name.getText(sf);
      if (!isConst) out.push(`${file}: top-level let/var ${name}`);
      const init = d.initializer;
      if (
        init !== undefined &&
        ((ts.isNewExpression(init) &&
          /^(Map|Set|WeakMap|WeakSet)$/.test(init.expression.getText(sf))) ||
          ts.isArrayLiteralExpression(init) ||
          ts.isObjectLiteralExpression(init))
      )
        collections.add(name);
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      collections.has(node.expression.expression.text) &&
      CHANGERS.has(node.expression.name.text)
    ) {
      const key = `${file} ${node.expression.expression.text}`;
      if (ALLOWED[key] === undefined)
        out.push(
          `${file}: top-level ${node.expression.expression.text} changed (.${node.expression.name.text})`,
        );
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
      (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
      ts.isIdentifier(node.left.expression) &&
      collections.has(node.left.expression.text) &&
      ALLOWED[`${file} ${node.left.expression.text}`] === undefined
    )
      out.push(`${file}: top-level ${node.left.expression.text} changed (assignment)`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...new Set(out)];
}

describe('module state of the reference (mutation mode reuses its modules)', () => {
  it('no module of reference/ or spec/machines/ fills top-level state while serving', () => {
    const all = DIRS.flatMap(sources);
    expect(all.length).toBeGreaterThan(20);
    expect(all.flatMap((f) => findings(f))).toEqual([]);
  });

  it('the check finds a lazily filled cache and a changed top-level map', () => {
    const sample = [
      'let cached: string | undefined;',
      'const seen = new Map<string, number>();',
      'const FIXED = new Set([1, 2]);',
      'const memo: Record<string, number> = {};',
      'export const f = (k: string) => { seen.set(k, FIXED.size); memo[k] = 1; return (cached ??= k); };',
    ].join('\n');
    expect(findings('reference/sample.ts', sample)).toEqual([
      'reference/sample.ts: top-level let/var cached',
      'reference/sample.ts: top-level seen changed (.set)',
      'reference/sample.ts: top-level memo changed (assignment)',
    ]);
  });
});
