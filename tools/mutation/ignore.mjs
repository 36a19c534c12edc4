/**
 * The project's Stryker ignorer (tools/mutation/stryker.config.json `ignorers`). It does two things:
 *
 * 1. It ignores the mutants judged in tools/mutation/judgements.json: each judgement names the
 *    source text of the nodes it is about (`code`), the mutators it covers and why their
 *    mutants are equivalent or only change free text. A node is ignored, with its subtree,
 *    when its text is one of a judgement's codes and one of the judgement's mutators mutates
 *    it. The text is the key, not a line: code that moves to another line or file keeps its
 *    judgement. `file` is only a hint: a judgement applies in its own file, and in another
 *    file only once its code has left its own (a move). `within`, when given, is the text of
 *    an enclosing node (or several, from the inside out), for code that occurs elsewhere in
 *    the file unjudged.
 *    tools/mutation/judgements.test.ts reports a judgement whose code no longer exists.
 *
 * 2. Sampled runs (EAC_MUTATION_SAMPLE names a file written by tools/mutation/sample.ts):
 *    Stryker mutates every node inside a `--mutate` span, so a drawn mutant whose span
 *    encloses others (a block, a function, a compound condition) would run them too. The file
 *    lists the drawn spans as Babel gives them ([startLine, startColumn, endLine, endColumn],
 *    lines from 1, columns from 0); a node strictly inside one of them that holds no drawn
 *    span itself is ignored, with its subtree, so only the drawn mutants (and the other
 *    mutants of the same nodes) run. The spans carry no file name: a span of another file can
 *    only keep an extra mutant running, never hide a drawn one.
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Stryker's own mutators decide whether a judged mutator mutates a node (the package exports
// only its entry point, so the module is loaded by its path).
const instrumenter = dirname(
  createRequire(import.meta.url).resolve('@stryker-mutator/instrumenter/package.json'),
);
const { allMutators } = await import(
  pathToFileURL(join(instrumenter, 'dist', 'src', 'mutators', 'mutate.js')).href
);

/** The judgements, each with its codes as a list. */
export function loadJudgements(file = join(root, 'tools', 'mutation', 'judgements.json')) {
  return JSON.parse(readFileSync(file, 'utf8')).map((j) => ({
    ...j,
    codes: Array.isArray(j.code) ? j.code : [j.code],
  }));
}

/** Whether one of the named mutators (or any, for 'all') mutates the node at path. */
export function mutatedBy(mutators, path) {
  const names = mutators === 'all' ? undefined : new Set(mutators);
  return allMutators.some(
    (m) => (names === undefined || names.has(m.name)) && !m.mutate(path).next().done,
  );
}

/** The source text of the node at path, or undefined when it has no position. */
export function textOf(path, code = path.hub?.file?.code) {
  const { start, end } = path.node;
  return typeof start === 'number' && typeof end === 'number' && typeof code === 'string'
    ? code.slice(start, end)
    : undefined;
}

/**
 * Whether the ancestors of path have these texts (one text, or several from the inside out:
 * for code whose every single enclosing node also occurs unjudged).
 */
function inside(path, within, source) {
  const texts = Array.isArray(within) ? within : [within];
  let i = 0;
  for (let p = path.parentPath; p && i < texts.length; p = p.parentPath) {
    const { start, end } = p.node;
    if (end - start === texts[i].length && textOf(p, source) === texts[i]) i++;
  }
  return i === texts.length;
}

/**
 * A judge of nodes: the judgements that ignore the node at path (none, mostly) of a file whose
 * text is `source`. `home(file)` is a file's text, for the rule that a judgement leaves its
 * own file only with its code.
 */
export function judge(judgements, home = (file) => readSource(file)) {
  const byCode = new Map();
  for (const j of judgements) for (const c of j.codes) byCode.set(c, [...(byCode.get(c) ?? []), j]);
  const lengths = new Set([...byCode.keys()].map((c) => c.length));
  const moved = new Map();
  const hasMoved = (j) => {
    if (!moved.has(j)) moved.set(j, !j.codes.some((c) => home(j.file)?.includes(c)));
    return moved.get(j);
  };
  return (path, file, source = path.hub?.file?.code) => {
    const { start, end } = path.node;
    if (typeof start !== 'number' || !lengths.has(end - start)) return [];
    return (byCode.get(textOf(path, source)) ?? []).filter(
      (j) =>
        (j.file === file || hasMoved(j)) &&
        (j.within === undefined || inside(path, j.within, source)) &&
        mutatedBy(j.mutators, path),
    );
  };
}

function readSource(file) {
  const at = join(root, file);
  return existsSync(at) ? readFileSync(at, 'utf8') : undefined;
}

const judged = judge(loadJudgements());

const sampleFile = process.env['EAC_MUTATION_SAMPLE'];
const drawn = sampleFile ? JSON.parse(readFileSync(sampleFile, 'utf8')) : [];
const before = (l1, c1, l2, c2) => l1 < l2 || (l1 === l2 && c1 <= c2);
/** Whether span a holds span b (equal spans hold each other). */
const holds = (a, b) => before(a[0], a[1], b[0], b[1]) && before(b[2], b[3], a[2], a[3]);
const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
const NOT_DRAWN = 'not drawn: inside a drawn mutant of a sampled run';

/** Outside a sampled run's drawn spans (see 2. above). */
function notDrawn(node) {
  if (drawn.length === 0 || !node.loc) return undefined;
  const span = [node.loc.start.line, node.loc.start.column, node.loc.end.line, node.loc.end.column];
  if (!drawn.some((d) => holds(d, span) && !same(d, span))) return undefined;
  return drawn.some((d) => holds(span, d)) ? undefined : NOT_DRAWN;
}

/**
 * Stryker's ignorer works per node, with the node's whole subtree, while a judgement is about
 * some mutators of some nodes only. So the judgements do not ignore nodes themselves: when the
 * ignorer meets a file's Program (the first node Stryker visits), it marks each judged node
 * with the directive a comment in the source would give, `disable next-line <mutators>:
 * <reason>`, which Stryker reads on entering the node. Such a directive holds for the whole
 * line, so a node after it on the same line that is not judged gets `restore next-line` for
 * the mutators that mutate it: a judgement ignores the mutants of its own nodes only.
 * Stryker reads a node's directives on entering it, before it asks the ignorer about the node.
 */
const MARK = Symbol('judgement');

function markJudged(program, file) {
  const source = program.hub?.file?.code;
  /** Per line, the mutators a directive disabled so far (Stryker visits nodes in this order). */
  const disabled = new Map();
  program.traverse({
    enter(path) {
      const line = path.node.loc?.start.line;
      if (line === undefined) return;
      const comments = [];
      const judgedHere = new Set();
      for (const j of judged(path, file, source)) {
        const names = j.mutators === 'all' ? allMutators.map((m) => m.name) : j.mutators;
        comments.push(`disable next-line ${names.join(',')}: ${j.reason}`);
        for (const n of names) judgedHere.add(n);
      }
      const off = disabled.get(line) ?? new Set();
      const restore = [...off].filter((n) => !judgedHere.has(n) && mutatedBy([n], path));
      if (restore.length > 0) comments.unshift(`restore next-line ${restore.join(',')}`);
      for (const n of restore) off.delete(n);
      for (const n of judgedHere) off.add(n);
      if (off.size > 0) disabled.set(line, off);
      if (comments.length === 0) return;
      path.node.leadingComments = [
        ...(path.node.leadingComments ?? []),
        ...comments.map((c) => ({ type: 'CommentLine', value: ` Stryker ${c}`, [MARK]: true })),
      ];
    },
  });
}

/** The ignorer itself, also for the tools that list mutants with Stryker's instrumenter. */
export const ignorer = {
  shouldIgnore(path) {
    if (path.isProgram()) {
      const filename = path.hub?.file?.opts?.filename;
      const file =
        typeof filename !== 'string'
          ? undefined
          : isAbsolute(filename)
            ? relative(root, filename)
            : filename;
      markJudged(path, file);
    }
    // Stryker has read the node's directives before asking: they go again, so that neither
    // the mutants' replacements nor the instrumented code carry them.
    const comments = path.node.leadingComments;
    if (comments?.some((c) => c[MARK]))
      path.node.leadingComments = comments.filter((c) => !c[MARK]);
    return notDrawn(path.node);
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'eac', ignorer)];
