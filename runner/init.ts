/**
 * `eac init`: writes an eac.config.yaml (runner/config.ts). On a terminal it asks for the target,
 * hub and hooks (the flags given become the defaults); elsewhere it takes the flags alone. An
 * existing file is overwritten only with --force.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { InitOptions } from './args.ts';
import { UsageError } from './usage.ts';
import { parseConfig } from './config.ts';

export interface InitIo {
  readonly cwd: string;
  readonly stdout: { write(text: string): unknown };
  /** Asks one question and resolves with the answer; absent when not on a terminal. */
  readonly ask?: (question: string) => Promise<string>;
  /** Where spec/config.schema.json is, for the editor hint in the file. */
  readonly schemaFile: string;
}

interface Answers {
  readonly target: string;
  readonly hub?: string;
  readonly hooks?: string;
}

async function answers(options: InitOptions, ask: InitIo['ask']): Promise<Answers> {
  if (ask === undefined) {
    if (options.target === undefined)
      throw new UsageError(
        'eac init: give --target URL (and --hub, --hooks), or run it on a terminal to be asked',
      );
    return options as Answers;
  }
  const question = async (text: string, given: string | undefined, fallback = '') => {
    const offered = given ?? fallback;
    const answer = (await ask(`${text}${offered !== '' ? ` [${offered}]` : ''}: `)).trim();
    return answer !== '' ? answer : offered;
  };
  const target = await question('Base URL of the server under test', options.target);
  if (target === '') throw new UsageError('eac init: a target URL is needed');
  const hub = await question(
    'Origin of its embedded pages, the hub (empty: none; hub tests are then not-run)',
    options.hub,
  );
  const hooks = await question(
    'Base URL of its host hooks (empty: none; tests that need a hook are then not-run)',
    options.hooks,
    new URL('/__eac', target).href,
  );
  return { target, ...(hub !== '' ? { hub } : {}), ...(hooks !== '' ? { hooks } : {}) };
}

/** The file's text: what was answered, and the other members as comments to fill in. */
export function renderConfig(given: Answers, schema: string): string {
  return [
    `# yaml-language-server: $schema=${schema}`,
    '# eac run and eac doctor read this file from the folder they start in; flags override it,',
    '# and paths in it are read from this folder. All members: spec/config.schema.json.',
    `target: ${given.target}`,
    given.hub !== undefined ? `hub: ${given.hub}` : '# hub: http://localhost:8081',
    given.hooks !== undefined ? `hooks: ${given.hooks}` : '# hooks: http://localhost:8080/__eac',
    '# profile: profile.yaml          # what the target serves and its answers to open shapes',
    '# credentials: credentials.json  # for a target without an accounts hook',
    '# expectations: expectations.yaml',
    '# report: reports',
    '# selection:',
    '#   only: [identity, hub]',
    '#   seed: 1',
    '#   concurrency: 4',
    '# gates:                         # exit 3 when the run tested too little',
    '#   maxNotRun: 10%',
    '#   minCoverage: [portable=60%]',
    '',
  ].join('\n');
}

export async function initCommand(options: InitOptions, io: InitIo): Promise<number> {
  const file = path.resolve(io.cwd, options.file);
  if (existsSync(file) && !options.force)
    throw new UsageError(`eac init: ${file} exists; keep it, or overwrite it with --force`);
  const given = await answers(options, io.ask);
  const schema = path.relative(path.dirname(file), io.schemaFile).split(path.sep).join('/');
  const text = renderConfig(given, schema);
  try {
    // What init writes must read back: a wrong URL is named now, not at the first run.
    parseConfig(file, text);
  } catch (error) {
    throw new UsageError(`eac init: ${(error as Error).message}`);
  }
  await writeFile(file, text);
  io.stdout.write(`eac: wrote ${file}; try eac doctor, then eac run\n`);
  return 0;
}

/**
 * The terminal's questions, when stdin and stdout are one. Answers are read as a stream of
 * lines, so a line typed (or pasted) ahead of its question is kept for it, not dropped.
 */
export function terminalAsk(): { ask: (q: string) => Promise<string>; close(): void } | undefined {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const lines = rl[Symbol.asyncIterator]();
  return {
    ask: async (question) => {
      process.stdout.write(question);
      const next = await lines.next();
      if (next.done === true) throw new UsageError('eac init: no answer (input closed)');
      return next.value;
    },
    close: () => rl.close(),
  };
}
