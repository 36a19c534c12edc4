/**
 * The project's Stryker ignorer (stryker.config.json `ignorers`), used by sampled runs only
 * (EAC_MUTATION_SAMPLE names a file written by tools/mutation-sample.ts; without it the ignorer
 * ignores nothing).
 *
 * Stryker mutates every node inside a `--mutate` span, so a drawn mutant whose span encloses
 * others (a block, a function, a compound condition) would run them too. The file lists the
 * drawn spans as Babel gives them ([startLine, startColumn, endLine, endColumn], lines from 1,
 * columns from 0); a node strictly inside one of them that holds no drawn span itself is
 * ignored, with its subtree, so only the drawn mutants (and the other mutants of the same
 * nodes) run. The spans carry no file name: a span of another file can only keep an extra
 * mutant running, never hide a drawn one.
 *
 * (An earlier rule ignored free-text error messages as unobservable; it was wrong: the suites
 * check that messages are not empty, and some messages carry a decision of ours.)
 *
 * Plain JavaScript: Stryker loads plugins with Node's own loader, without tsx.
 */
import { readFileSync } from 'node:fs';

import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const sampleFile = process.env['EAC_MUTATION_SAMPLE'];
const drawn = sampleFile ? JSON.parse(readFileSync(sampleFile, 'utf8')) : [];
const before = (l1, c1, l2, c2) => l1 < l2 || (l1 === l2 && c1 <= c2);
/** Whether span a holds span b (equal spans hold each other). */
const holds = (a, b) => before(a[0], a[1], b[0], b[1]) && before(b[2], b[3], a[2], a[3]);
const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
const REASON = 'not drawn: inside a drawn mutant of a sampled run';

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'eac', {
    shouldIgnore(path) {
      const node = path.node;
      if (drawn.length === 0 || !node.loc) return undefined;
      const span = [
        node.loc.start.line,
        node.loc.start.column,
        node.loc.end.line,
        node.loc.end.column,
      ];
      if (!drawn.some((d) => holds(d, span) && !same(d, span))) return undefined;
      return drawn.some((d) => holds(span, d)) ? undefined : REASON;
    },
  }),
];
