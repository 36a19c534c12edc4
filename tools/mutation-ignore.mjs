/**
 * The project's Stryker ignorer (stryker.config.json `ignorers`). Two rules:
 *
 * 1. Free text: mutants no server-agnostic test may see (always on).
 *
 * The document types every `message` it shows (the §7 error envelope's, and the success
 * bodies of §4.3, §4.5 and §4.9) as a string and nothing more, so its wording is ours; a mutant
 * that changes it (to "", or a template to ``) alters nothing the document lets a conformance
 * suite judge, and a suite that pinned our wording would fail servers written by others. Such
 * mutants are reported as Ignored, with the reason below, instead of being counted as
 * survivors or listed one by one as equivalent.
 *
 * What counts as free text, by the shape of the code (nothing else is ignored):
 * - the second argument of `specError(code, message, details?)` and of the reference's
 *   wrappers that take the message second (`unauthorized(reason, message)`);
 * - a `message:` property whose value is a string or template literal (success bodies, the
 *   messages of `details.issues` entries, and the explanation beside a clause id in the
 *   verdicts of spec/machines/chat-stream.ts).
 * Codes, details keys and values, statuses and every other string stay mutated.
 *
 * 2. Sampling (only when EAC_MUTATION_SAMPLE names a file, written by tools/mutation-sample.ts):
 * Stryker mutates every node inside a `--mutate` span, so a drawn mutant whose span encloses
 * others (a block, a function, a compound condition) would run them too. The file lists the
 * drawn spans; a node strictly inside one of them that holds no drawn span itself is ignored,
 * with its subtree, so only the drawn mutants run.
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { readFileSync } from 'node:fs';

import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const MESSAGE_SECOND = new Set(['specError', 'unauthorized']);
const REASON =
  'free text: the document types a message only as a string, so its wording is not observable by a conformance test';

const isText = (node) => node.type === 'StringLiteral' || node.type === 'TemplateLiteral';

/** Drawn spans as [startLine, startColumn, endLine, endColumn] (Babel's: lines from 1). */
const sampleFile = process.env['EAC_MUTATION_SAMPLE'];
const drawn = sampleFile ? JSON.parse(readFileSync(sampleFile, 'utf8')) : [];
const before = (l1, c1, l2, c2) => l1 < l2 || (l1 === l2 && c1 <= c2);
/** Whether span [a] holds span [b] (equal spans hold each other). */
const holds = (a, b) => before(a[0], a[1], b[0], b[1]) && before(b[2], b[3], a[2], a[3]);
const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
const SAMPLE_REASON = 'not drawn: inside a drawn mutant of a sampled run';

function outsideSample(node) {
  if (drawn.length === 0 || !node.loc) return undefined;
  const span = [node.loc.start.line, node.loc.start.column, node.loc.end.line, node.loc.end.column];
  const inside = drawn.some((d) => holds(d, span) && !same(d, span));
  if (!inside) return undefined;
  return drawn.some((d) => holds(span, d)) ? undefined : SAMPLE_REASON;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'eac', {
    shouldIgnore(path) {
      const sampled = outsideSample(path.node);
      if (sampled !== undefined) return sampled;
      const parent = path.parentPath;
      if (parent === null || parent === undefined) return undefined;
      const { node } = path;
      if (
        parent.node.type === 'CallExpression' &&
        parent.node.callee.type === 'Identifier' &&
        MESSAGE_SECOND.has(parent.node.callee.name) &&
        parent.node.arguments[1] === node
      )
        return REASON;
      if (
        parent.node.type === 'ObjectProperty' &&
        parent.node.value === node &&
        isText(node) &&
        !parent.node.computed &&
        ((parent.node.key.type === 'Identifier' && parent.node.key.name === 'message') ||
          (parent.node.key.type === 'StringLiteral' && parent.node.key.value === 'message'))
      )
        return REASON;
      return undefined;
    },
  }),
];
