/**
 * Every command the README and the docs/ pages show in a code block runs as written: an `eac`
 * command line parses (the CLI's own parser, no usage error) and an npm script exists. Commands
 * are taken from fenced blocks only, from lines that start with `npx eac`, `eac` or `npm`
 * (also after a YAML `run:`), split at `&&`; a word `$NAME` takes the value a YAML `NAME:` line
 * of the block gives. A block marked `text` is output: only its `Test it:` line (the command
 * `eac serve` prints) is checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../runner/args.ts';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** Shell words of one command line: quotes removed, a `#` comment and `${{ … }}` dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line.replace(/\$\{\{[^}]*\}\}/g, '1')) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (char === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** The commands of a Markdown text's fenced blocks, each as its words. */
function commandsOf(markdown: string): string[][] {
  const commands: string[][] = [];
  let fence: string | undefined;
  let env = new Map<string, string>();
  for (const raw of markdown.split('\n')) {
    const opening = /^\s*```\s*(\S*)/.exec(raw);
    if (opening !== null) {
      fence = fence === undefined ? opening[1] : undefined;
      env = new Map();
      continue;
    }
    const variable = /^\s+([A-Z][A-Z0-9_]*):\s*(\S+)/.exec(raw);
    if (fence !== undefined && variable !== null) env.set(variable[1] ?? '', variable[2] ?? '');
    // A block marked `text` shows output: only `eac serve`'s suggested command is checked there.
    if (fence === undefined || (fence === 'text' && !raw.startsWith('Test it:'))) continue;
    const line = raw.replace(/^\s*(?:-\s*)?run:\s*/, '').replace(/^Test it:\s*/, '');
    if (!/^(?:npx eac|eac|npm)\s/.test(line)) continue;
    let current: string[] = [];
    for (const word of words(line).map((w) =>
      w.startsWith('$') ? (env.get(w.slice(1)) ?? w) : w,
    )) {
      if (word === '&&') {
        commands.push(current);
        current = [];
      } else current.push(word);
    }
    commands.push(current);
  }
  return commands.filter((c) => ['npx', 'eac', 'npm'].includes(c[0] ?? ''));
}

/** What is wrong with one command, or undefined when it would run. */
function problemOf(command: readonly string[]): string | undefined {
  const [tool, first, ...rest] = command;
  let eacArgs: string[] | undefined;
  if (tool === 'eac') eacArgs = [first ?? '', ...rest].filter((w) => w !== '');
  else if (tool === 'npx') eacArgs = first === 'eac' ? rest : undefined;
  else if (first === 'ci' || first === 'install' || first === 'pack') return undefined;
  else if (first === 'test') return scripts['test'] !== undefined ? undefined : 'no test script';
  else if (first === 'run' && rest[0] !== undefined) {
    if (scripts[rest[0]] === undefined) return `package.json has no script "${rest[0]}"`;
    if (rest[0] === 'eac' && rest[1] === '--') eacArgs = rest.slice(2);
    else return undefined;
  } else return `an npm command this test does not know: ${command.join(' ')}`;
  if (eacArgs === undefined) return `not an eac command: ${command.join(' ')}`;
  try {
    const parsed = parseCommand(eacArgs);
    const asked = eacArgs.some((w) => ['help', '--help', '-h', '--version'].includes(w));
    return parsed.kind === 'help' && !asked
      ? `parses as a request for help: ${eacArgs.join(' ')}`
      : undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const pages = ['README.md', ...readdirSync(new URL('docs/', root)).map((f) => `docs/${f}`)].filter(
  (f) => f.endsWith('.md'),
);

describe('the commands the README and docs/ show', () => {
  it('the README is at most 150 lines and shows eac run, eac serve and npm test', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length, 'README.md lines').toBeLessThanOrEqual(150);
    const shown = commandsOf(readme).map((c) => c.slice(0, 3).join(' '));
    expect(shown).toEqual(expect.arrayContaining(['npx eac run', 'npx eac serve', 'npm test']));
  });

  it.each(pages)('every command in %s runs as written', (page) => {
    const problems = commandsOf(read(page)).flatMap((command) => {
      const problem = problemOf(command);
      return problem !== undefined ? [`${command.join(' ')}\n  -> ${problem}`] : [];
    });
    expect(problems, `commands in ${page} that would not run`).toEqual([]);
  });

  it("the README's CI job runs the commands the kit's own CI runs on an installed kit", () => {
    const readme = read('README.md');
    const job = readme.slice(readme.indexOf('## In CI'), readme.indexOf('## More'));
    const lines = [...job.matchAll(/^\s*- run: ((?:npm install|npx eac) .*)$/gm)].map((m) => m[1]);
    expect(lines).toHaveLength(2);
    const ci = read('.ci/run');
    for (const line of lines) expect(ci, `.ci/run runs: ${line ?? ''}`).toContain(line);
  });

  it('finds what is wrong with a command', () => {
    expect(problemOf(['npx', 'eac', 'run', '--tagret', 'http://127.0.0.1:8080'])).toMatch(/tagret/);
    expect(problemOf(['npm', 'run', 'no-such-script'])).toMatch(/no script/);
    expect(commandsOf('```sh\nnpm ci && npx eac run --only "a b" # c\n```\n')).toEqual([
      ['npm', 'ci'],
      ['npx', 'eac', 'run', '--only', 'a b'],
    ]);
  });
});
