/**
 * A Stryker ignorer (stryker.config.json `ignorers`): mutants no server-agnostic test may see.
 *
 * The document types every `message` it shows (the §7 error envelope's, and the success
 * bodies of §4.3, §4.5 and §4.9) as a string and nothing more, so its wording is ours; a mutant
 * that changes it (to "", or a template to ``) alters nothing the document lets a conformance
 * suite judge, and a suite that pinned our wording would fail servers written by others. Such mutants are reported as Ignored, with the reason below, instead of being
 * counted as survivors or listed one by one as equivalent.
 *
 * What counts as free text, by the shape of the code (nothing else is ignored):
 * - the second argument of `specError(code, message, details?)` and of the reference's
 *   wrappers that take the message second (`unauthorized(reason, message)`);
 * - a `message:` property whose value is a string or template literal (success bodies, the
 *   messages of `details.issues` entries, and the explanation beside a clause id in the
 *   verdicts of spec/machines/chat-stream.ts).
 * Codes, details keys and values, statuses and every other string stay mutated.
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const MESSAGE_SECOND = new Set(['specError', 'unauthorized']);
const REASON =
  'free text: the document types a message only as a string, so its wording is not observable by a conformance test';

const isText = (node) => node.type === 'StringLiteral' || node.type === 'TemplateLiteral';

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'eac-free-text', {
    shouldIgnore(path) {
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
