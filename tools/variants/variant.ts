import { readdirSync } from 'node:fs';
import ts from 'typescript';

/**
 * One wrong variant of the reference: a single rule broken on purpose by replacing `from`
 * (which must occur exactly once in the declaration `within` names, in `file`) with `to` in a
 * scratch copy of the project.
 */
export interface Variant {
  readonly name: string;
  readonly file: string;
  /**
   * The nearest named declaration around `from` whose name is declared once in `file` (a
   * function, method, class, a function-valued variable or a module-level one): the text is
   * looked for there, so code moved around it in the file does not unanchor the variant, and a
   * variant whose declaration is gone says so by name. For a new variant, variants.test.ts names
   * the one to write.
   */
  readonly within?: string;
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

/** A declaration a variant can be anchored in, with its name and the text it spans. */
interface Named {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

const functionLike = (node: ts.Node | undefined): boolean =>
  node !== undefined &&
  (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isClassExpression(node));

/**
 * The declarations of `source` a variant may name: functions, methods, classes, interfaces,
 * types and enums anywhere; variables and properties whose value is a function; and every
 * variable of the module's top level.
 */
function declarations(file: string, source: string): Named[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: Named[] = [];
  const add = (name: ts.Node | undefined, node: ts.Node) => {
    if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)))
      found.push({ name: name.text, start: node.getStart(sf), end: node.getEnd() });
  };
  const visit = (node: ts.Node, topLevel: boolean): void => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isEnumDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      (ts.isFunctionExpression(node) && node.name !== undefined)
    )
      add(node.name, node);
    else if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations)
        if (topLevel || functionLike(d.initializer)) add(d.name, topLevel ? node : d);
    } else if (ts.isPropertyAssignment(node) && functionLike(node.initializer))
      add(node.name, node);
    ts.forEachChild(node, (child) => visit(child, false));
  };
  for (const statement of sf.statements) visit(statement, true);
  return found;
}

/** Where a variant's text is in `source`, or why it is not there exactly once. */
export function locate(
  source: string,
  v: Pick<Variant, 'file' | 'from' | 'within'>,
): { readonly at: number } | { readonly problem: string } {
  let start = 0;
  let end = source.length;
  let where = v.file;
  if (v.within !== undefined) {
    const named = declarations(v.file, source).filter((d) => d.name === v.within);
    if (named.length === 0)
      return { problem: `${v.within} (its anchor) is no longer declared in ${v.file}` };
    if (named.length > 1)
      return {
        problem: `${v.within} (its anchor) is declared ${named.length} times in ${v.file}: anchor in one declared once`,
      };
    ({ start, end } = named[0] as Named);
    where = `${v.within} in ${v.file}`;
  }
  const scope = source.slice(start, end);
  const count = scope.split(v.from).length - 1;
  if (count !== 1) return { problem: `its text occurs ${count} times in ${where}, not once` };
  return { at: start + scope.indexOf(v.from) };
}

/** `source` with the variant's change made, or why it cannot be made. */
export function applyVariant(
  source: string,
  v: Pick<Variant, 'file' | 'from' | 'to' | 'within'>,
): { readonly source: string } | { readonly problem: string } {
  const found = locate(source, v);
  if ('problem' in found) return found;
  return {
    source: source.slice(0, found.at) + v.to + source.slice(found.at + v.from.length),
  };
}

/**
 * The anchor for text at `at` in `source`: the nearest declaration around it whose name is
 * declared once in the file; undefined when none is (text at the module's top level).
 */
export function anchorAt(file: string, source: string, at: number, length: number) {
  const all = declarations(file, source);
  const once = (name: string) => all.filter((d) => d.name === name).length === 1;
  return all
    .filter((d) => d.start <= at && at + length <= d.end && once(d.name))
    .sort((a, b) => a.end - a.start - (b.end - b.start))[0]?.name;
}
