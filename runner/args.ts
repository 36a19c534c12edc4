/**
 * Command-line parsing of `eac`: argv in, a typed command out, or a UsageError (exit 2).
 * On commander: per-command help, `--version` and "did you mean" for commands and options come
 * with it, it runs on Node 20 (v14) with no dependency of its own, and its parse is synchronous.
 */
import { readFileSync } from 'node:fs';
import { Command as Program, CommanderError, Option } from 'commander';
import type { ClauseLevel } from '../spec/clauses/types.ts';
import type { RunOptions } from './run.ts';
import { parseShard } from './shard.ts';
import type { DoctorOptions } from './doctor.ts';
import { parseThresholds } from './thresholds.ts';
import { behaviourIds, chosenIds, parseVary, type LatitudeVary } from '../latitude/choice.ts';
import type { FreedomId } from '../spec/latitude.ts';
import { ConfigError, loadConfig, type LoadedConfig } from './config.ts';
import { paint } from './colour.ts';
import { readTargetWords, TargetWords, type TargetSpec } from './target-spec.ts';
import { UsageError } from './usage.ts';

/** `eac init`: the answers given as flags (asked on a terminal otherwise). */
export interface InitOptions {
  readonly target?: string;
  readonly hub?: string;
  readonly hooks?: string;
  /** The file to write, relative to the working folder. */
  readonly file: string;
  readonly force: boolean;
}

export interface ServeOptions {
  readonly port: number;
  /** Port of the hub's own origin (§4.17 pages); 0 = ephemeral. */
  readonly hubPort?: number;
  readonly host?: string;
  readonly hooks: boolean;
  readonly seed?: number;
  /** `--latitude id,id`: behaviour entries of the latitude catalogue the reference takes. */
  readonly latitude?: readonly FreedomId[];
  /** `--announce NAME`: the implementation name the hooks' capabilities give. */
  readonly announce?: string;
}

/** `eac latitude`: the latitude proxy in front of a target (the embedded reference by default). */
export interface LatitudeOptions {
  /** The target given: its API, its hub (the proxy relays both) and its hooks. */
  readonly target?: { readonly url: string; readonly hub: string; readonly hooks?: string };
  readonly port: number;
  readonly hubPort?: number;
  readonly vary: LatitudeVary;
  readonly seed?: number;
  /** `--print-profile FILE`: write the profile stating the shapes the proxy produces. */
  readonly printProfile?: string;
  /** `--open-points [--json]`: list the document's open points and what answers each; no proxy. */
  readonly openPoints?: { readonly json: boolean };
}

export interface ClausesOptions {
  readonly json: boolean;
  readonly section?: string;
  readonly level?: ClauseLevel;
}

export type Command =
  | { readonly kind: 'run'; readonly options: RunOptions }
  | { readonly kind: 'serve'; readonly options: ServeOptions }
  | { readonly kind: 'latitude'; readonly options: LatitudeOptions }
  | { readonly kind: 'clauses'; readonly options: ClausesOptions }
  | { readonly kind: 'report'; readonly runDir: string }
  | { readonly kind: 'merge'; readonly shards: readonly string[]; readonly out: string }
  | { readonly kind: 'doctor'; readonly options: DoctorOptions }
  | { readonly kind: 'compare'; readonly runs: readonly string[]; readonly out: string }
  | { readonly kind: 'expectations'; readonly from: string; readonly out?: string }
  | {
      readonly kind: 'diff';
      readonly base: string;
      readonly next: string;
      readonly json: boolean;
      readonly out?: string;
    }
  | { readonly kind: 'init'; readonly options: InitOptions }
  | { readonly kind: 'discover'; readonly options: DiscoverCommandOptions }
  /** Help or the version: the text to print on stdout, exit 0. */
  | { readonly kind: 'help'; readonly text: string };

/** What the parse may look at besides argv. */
export interface ParseContext {
  /** Where a config file is looked for; none is looked for when absent. */
  readonly cwd?: string;
  /** Colour in the help text (see colour.ts). */
  readonly colour?: boolean;
  /** Columns of the help text. */
  readonly width?: number;
}

const LEVELS: readonly ClauseLevel[] = ['must', 'observed', 'unspecified', 'security'];

type Values = Readonly<Record<string, unknown>>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function list(value: unknown): string[] | undefined {
  return Array.isArray(value) ? (value as string[]) : undefined;
}

function integer(command: string, option: string, text: string, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > max) {
    throw new UsageError(
      `eac ${command}: ${option} must be an integer from 0 to ${max}, got "${text}"`,
    );
  }
  return value;
}

function positive(command: string, option: string, text: string, max: number): number {
  const value = integer(command, option, text, max);
  if (value === 0) throw new UsageError(`eac ${command}: ${option} must be at least 1`);
  return value;
}

function nonEmpty(command: string, option: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`eac ${command}: ${option} needs a value`);
  }
  return value;
}

function vary(command: string, text: string): LatitudeVary {
  try {
    return parseVary(text);
  } catch (error) {
    throw new UsageError(`eac ${command}: ${(error as Error).message}`);
  }
}

/** `--only` values: flags win over the config's list; none means everything. */
function onlyOf(command: string, values: Values, config: LoadedConfig | undefined): string[] {
  const only = list(values['only']);
  if (only?.some((value) => value.trim() === ''))
    throw new UsageError(`eac ${command}: --only needs a value`);
  return only ?? [...(config?.config.selection?.only ?? [])];
}

/**
 * The target and the files that describe it, read (target-spec.ts). The target, hub and hooks
 * go together: the config's are taken only when no flag names a target (--target, --image,
 * --latitude), so a config's hooks never meet another target. Files and the CA override one by
 * one, and so does --check-decisions.
 */
function targetOf(command: string, values: Values, config: LoadedConfig | undefined): TargetSpec {
  const flags = Object.fromEntries(
    TargetWords.keyof().options.flatMap((name) =>
      values[name] !== undefined ? [[name, values[name]]] : [],
    ),
  );
  const flagged = ['target', 'hub', 'hooks', 'image', 'latitude'].some(
    (name) => values[name] !== undefined,
  );
  const settings = config?.config;
  const words: TargetWords = {
    ...defined({
      ...(flagged ? {} : { target: settings?.target, hub: settings?.hub, hooks: settings?.hooks }),
      credentials: settings?.credentials,
      profile: settings?.profile,
      ca: settings?.ca,
    }),
    ...(settings?.selection?.checkDecisions === true ? { checkDecisions: true } : {}),
    ...flags,
  };
  const spec = readTargetWords(words);
  if (typeof spec === 'string') throw new UsageError(`eac ${command}: ${spec}`);
  return spec;
}

function defined<T extends Record<string, unknown>>(
  object: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as never;
}

function config(values: Values, context: ParseContext): LoadedConfig | undefined {
  const explicit = nonEmpty('run', '--config', str(values['config']));
  try {
    return loadConfig(explicit, context.cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`eac: ${error.message}`);
    throw error;
  }
}

function buildRun(values: Values, context: ParseContext): Command {
  const loaded = config(values, context);
  const settings = loaded?.config;
  const maxNotRun = str(values['maxNotRun']) ?? settings?.gates?.maxNotRun?.toString();
  const minCoverage = list(values['minCoverage']) ?? settings?.gates?.minCoverage;
  const thresholds = parseThresholds(maxNotRun, minCoverage);
  if (typeof thresholds === 'string') throw new UsageError(`eac run: ${thresholds}`);
  const only = onlyOf('run', values, loaded);
  const target = targetOf('run', values, loaded);
  const expectations =
    nonEmpty('run', '--expectations', str(values['expectations'])) ?? settings?.expectations;
  const baseline = nonEmpty('run', '--baseline', str(values['baseline']));
  const seed = str(values['seed']);
  const concurrency = str(values['concurrency']);
  const shardText = str(values['shard']);
  const shard = shardText !== undefined ? parseShard(shardText) : undefined;
  if (typeof shard === 'string') throw new UsageError(`eac run: ${shard}`);
  const bail = values['bail'] === true || settings?.selection?.bail === true;
  const options: RunOptions = {
    only,
    target,
    report: nonEmpty('run', '--report', str(values['report'])) ?? settings?.report ?? 'reports',
    quietProgress: values['quietProgress'] === true,
    ...(bail ? { bail: true } : {}),
    ...defined({ expectations, baseline, shard, thresholds }),
    ...(concurrency !== undefined
      ? { concurrency: positive('run', '--concurrency', concurrency, 64) }
      : settings?.selection?.concurrency !== undefined
        ? { concurrency: settings.selection.concurrency }
        : {}),
    ...(seed !== undefined
      ? { seed: integer('run', '--seed', seed, 0xffffffff) }
      : settings?.selection?.seed !== undefined
        ? { seed: settings.selection.seed }
        : {}),
  };
  return { kind: 'run', options };
}

function buildDoctor(values: Values, context: ParseContext): Command {
  const loaded = config(values, context);
  return {
    kind: 'doctor',
    options: {
      target: targetOf('doctor', values, loaded),
      only: onlyOf('doctor', values, loaded),
      json: values['json'] === true,
      observe: values['observe'] === true,
    },
  };
}

function buildServe(values: Values): Command {
  const port = str(values['port']);
  const hubPort = str(values['hubPort']);
  const host = nonEmpty('serve', '--host', str(values['host']));
  const seed = str(values['seed']);
  const latitudeText = nonEmpty('serve', '--latitude', str(values['latitude']));
  const announce = nonEmpty('serve', '--announce', str(values['announce']));
  const latitude = latitudeText !== undefined ? chosenIds(vary('serve', latitudeText)) : undefined;
  if (latitude !== undefined) {
    const forms = latitude.filter((id) => !behaviourIds([id]).length);
    if (forms.length > 0)
      throw new UsageError(
        `eac serve: ${forms.join(', ')} ${forms.length > 1 ? 'are forms' : 'is a form'} of answers, which the latitude proxy produces (eac latitude); --latitude takes behaviour entries only`,
      );
  }
  return {
    kind: 'serve',
    options: {
      port: port !== undefined ? integer('serve', '--port', port, 65535) : 0,
      ...(hubPort !== undefined ? { hubPort: integer('serve', '--hub-port', hubPort, 65535) } : {}),
      hooks: values['hooks'] === true,
      ...(host !== undefined ? { host } : {}),
      ...(seed !== undefined ? { seed: integer('serve', '--seed', seed, 0xffffffff) } : {}),
      ...(latitude !== undefined ? { latitude } : {}),
      ...(announce !== undefined ? { announce } : {}),
    },
  };
}

function buildLatitude(values: Values): Command {
  const target = nonEmpty('latitude', '--target', str(values['target']));
  const hub = nonEmpty('latitude', '--hub', str(values['hub']));
  const hooks = nonEmpty('latitude', '--hooks', str(values['hooks']));
  if (target === undefined && (hub !== undefined || hooks !== undefined))
    throw new UsageError('eac latitude: --hub and --hooks describe a --target; give --target too');
  if (target !== undefined && hub === undefined)
    throw new UsageError(
      'eac latitude: give --hub with --target (the proxy relays the hub on a port of its own)',
    );
  const port = str(values['port']);
  const hubPort = str(values['hubPort']);
  const seed = str(values['seed']);
  const printProfile = nonEmpty('latitude', '--print-profile', str(values['printProfile']));
  const openPoints = values['openPoints'] === true;
  if (values['json'] === true && !openPoints)
    throw new UsageError('eac latitude: --json goes with --open-points (the proxy prints no JSON)');
  return {
    kind: 'latitude',
    options: {
      ...(openPoints ? { openPoints: { json: values['json'] === true } } : {}),
      port: port !== undefined ? integer('latitude', '--port', port, 65535) : 0,
      ...(hubPort !== undefined
        ? { hubPort: integer('latitude', '--hub-port', hubPort, 65535) }
        : {}),
      vary: vary('latitude', str(values['vary']) ?? 'all'),
      ...(target !== undefined && hub !== undefined
        ? { target: { url: target, hub, ...defined({ hooks }) } }
        : {}),
      ...defined({ printProfile }),
      ...(seed !== undefined ? { seed: integer('latitude', '--seed', seed, 0xffffffff) } : {}),
    },
  };
}

function buildClauses(values: Values): Command {
  const section = str(values['section'])?.replace(/^§/, '');
  if (section !== undefined && !/^\d+(\.\d+)*$/.test(section)) {
    throw new UsageError(
      `eac clauses: --section takes a section number such as 4 or 4.10, got "${section}"`,
    );
  }
  const level = str(values['level']);
  if (level !== undefined && !LEVELS.includes(level as ClauseLevel)) {
    throw new UsageError(`eac clauses: --level is one of ${LEVELS.join(', ')}, got "${level}"`);
  }
  return {
    kind: 'clauses',
    options: {
      json: values['json'] === true,
      ...(section !== undefined ? { section } : {}),
      ...(level !== undefined ? { level: level as ClauseLevel } : {}),
    },
  };
}

function buildReport(values: Values, positionals: readonly string[]): Command {
  if (values['merge'] === true) {
    const out = nonEmpty('report', '--out', str(values['out']));
    if (positionals.length === 0 || out === undefined) {
      throw new UsageError(
        'eac report --merge: give the shard runs and --out, e.g. eac report --merge shard-1 shard-2 --out merged',
      );
    }
    return { kind: 'merge', shards: positionals, out };
  }
  if (values['out'] !== undefined) throw new UsageError('eac report: --out goes with --merge');
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new UsageError('eac report: give exactly one run folder, e.g. eac report reports/latest');
  }
  return { kind: 'report', runDir: positionals[0] };
}

function buildCompare(values: Values, positionals: readonly string[]): Command {
  if (positionals.length === 0) {
    throw new UsageError(
      'eac compare: give one or more run folders or results.json files, e.g. eac compare reports/runs/A reports/runs/B',
    );
  }
  return {
    kind: 'compare',
    runs: positionals,
    out: nonEmpty('compare', '--out', str(values['out'])) ?? '.',
  };
}

function buildExpectations(values: Values): Command {
  const from = nonEmpty('expectations', '--from', str(values['from']));
  if (from === undefined) {
    throw new UsageError(
      'eac expectations: give the run with --from, e.g. eac expectations --from reports/latest --out expectations.yaml',
    );
  }
  const out = nonEmpty('expectations', '--out', str(values['out']));
  return { kind: 'expectations', from, ...(out !== undefined ? { out } : {}) };
}

function buildDiff(values: Values, positionals: readonly string[]): Command {
  const [base, next] = positionals;
  if (positionals.length !== 2 || base === undefined || next === undefined) {
    throw new UsageError(
      'eac diff: give two runs (folders or results.json files), e.g. eac diff reports/runs/A reports/latest',
    );
  }
  const out = nonEmpty('diff', '--out', str(values['out']));
  return { kind: 'diff', base, next, json: values['json'] === true, ...defined({ out }) };
}

/** `eac profile discover`: the target, as `eac run` names one, and where the draft goes. */
export interface DiscoverCommandOptions {
  readonly spec: TargetSpec;
  readonly out: string;
  readonly seed?: number;
}

function buildDiscover(values: Values): Command {
  const out = nonEmpty('profile discover', '--out', str(values['out']));
  if (out === undefined)
    throw new UsageError(
      'eac profile discover: give --out FILE, and the target as eac run takes it (--target URL --hooks URL [--hub URL]; none for the embedded reference, --latitude for it behind the proxy)',
    );
  const seed = str(values['seed']);
  return {
    kind: 'discover',
    options: {
      spec: targetOf('profile discover', values, undefined),
      out,
      ...(seed === undefined
        ? {}
        : { seed: integer('profile discover', '--seed', seed, 0xffffffff) }),
    },
  };
}

function buildInit(values: Values): Command {
  const given = defined({
    target: nonEmpty('init', '--target', str(values['target'])),
    hub: nonEmpty('init', '--hub', str(values['hub'])),
    hooks: nonEmpty('init', '--hooks', str(values['hooks'])),
  });
  return {
    kind: 'init',
    options: {
      ...given,
      file: nonEmpty('init', '--config', str(values['config'])) ?? 'eac.config.yaml',
      force: values['force'] === true,
    },
  };
}

/** A repeatable option: each use adds its value. */
function repeatable(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string, previous: unknown) => [
    ...((previous as string[] | undefined) ?? []),
    value,
  ]);
}

function version(): string {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

const TARGET_OPTIONS = {
  target: [
    '--target <url>',
    'base URL of the implementation under test (default: the embedded reference on a free port)',
  ],
  hub: [
    '--hub <url>',
    'origin of its embedded pages, §4.17 (default: none — hub tests are not-run without it)',
  ],
  hooks: [
    '--hooks <url>',
    "base URL of the target's host hooks (default: none — tests that need a hook are not-run)",
  ],
  credentials: [
    '--credentials <file>',
    'JSON {organizationId, userScopedKey?, orgBoundKey?, projectId?} for a target without an accounts hook',
  ],
  profile: [
    '--profile <file>',
    "what the target serves and how it answers the document's open shapes (JSON or YAML, spec/profile.schema.json); without it the reference is read with its own profile, any other target is read with the document-only profile (nothing beyond the document assumed)",
  ],
  only: [
    '--only <area|clause>',
    'one suite area (identity, hub, ...) or the tests citing a clause id or id prefix (roles.update); repeatable, values add up',
  ],
  ca: [
    '--ca <file>',
    'an extra certificate authority (PEM) to trust; HTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured',
  ],
  config: [
    '--config <file>',
    'the config file (default: eac.config.yaml, .yml or .json in the current folder); flags override it',
  ],
} as const;

function targetOptions(program: Program, names: readonly (keyof typeof TARGET_OPTIONS)[]): void {
  for (const name of names) {
    const [flags, description] = TARGET_OPTIONS[name];
    program.addOption(
      name === 'only' ? repeatable(flags, description) : new Option(flags, description),
    );
  }
}

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

const EXIT_CODES = `
Exit codes:
  0  no failure
  1  a failure (with --expectations: an unexpected result; with --baseline, and for eac diff:
     a regression)
  2  a usage or target error
  3  a breached gate (--max-not-run, --min-coverage)
`;

/** The program: every command and option, its help, and what each command's action builds. */
function program(
  context: ParseContext,
  output: { out: string; err: string },
  done: (command: Command) => void,
): Program {
  const colour = context.colour === true;
  const { bold } = paint(colour);
  const eac = new Program('eac')
    .description('Conformance kit for the Embedded Analytics Service API')
    .version(version(), '-V, --version', 'print the version of eac')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .configureOutput({
      writeOut: (text) => (output.out += text),
      writeErr: (text) => (output.err += text),
      getOutHasColors: () => colour,
      getErrHasColors: () => colour,
      getOutHelpWidth: () => context.width ?? 100,
      getErrHelpWidth: () => context.width ?? 100,
    })
    .configureHelp({ styleTitle: bold, styleCommandText: bold, showGlobalOptions: false })
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText('after', EXIT_CODES);

  const run = eac
    .command('run')
    .description('run the conformance suites against a target and write reports')
    .addHelpText(
      'after',
      examples(
        'eac run                                  the embedded reference, every test',
        'eac run --target http://localhost:8080 --hub http://localhost:8081 --hooks http://localhost:8080/__eac',
        'eac run --only identity --max-not-run 10%   one area, failing when over 10% is not run',
      ),
    );
  targetOptions(run, ['config', 'target', 'hub', 'hooks', 'credentials', 'profile', 'only']);
  run
    .option('--seed <n>', 'seed of the run, 0..4294967295 (default: random)')
    .option(
      '--report <dir>',
      'reports root: the run goes to DIR/runs/<stamp>/, DIR/latest points at it (default: reports)',
    )
    .option('--check-decisions', "hold probes to the reference's decisions (automatic for it)")
    .option('--quiet-progress', 'no live progress line on stderr')
    .option(
      '--expectations <file>',
      'expected outcomes per test or clause id (JSON or YAML, spec/expectations.schema.json): only unexpected results count',
    )
    .option(
      '--baseline <run>',
      'after the run, diff it against RUN (a run folder or results.json); exit 1 on a regression',
    )
    .option(
      '--max-not-run <n|p%>',
      'gate: exit 3 when more than N tests (or P% of them) end not-run',
    )
    .addOption(
      repeatable(
        '--min-coverage <kind[@section]=n|p%>',
        'gate: exit 3 when fewer clauses are covered (kind: portable, covered, security, probed); repeatable',
      ),
    )
    .option(
      '--concurrency <n>',
      'test files run at once, 1..64 (default: the number of CPUs, at least 4)',
    )
    .option('--bail', 'stop at the first failing test; later tests are left out of the reports')
    .option('--shard <i/n>', 'run shard i of n (merge them with eac report --merge)');
  targetOptions(run, ['ca']);
  run
    .option('--image <name[:tag]>', 'start the target from a container image, test it, stop it')
    .option(
      '--image-ports <api[,hub]>',
      'container ports of the API and the hub (default 8080,8081)',
    )
    .option(
      '--image-hooks <path>',
      'hooks path on the API port (default /__eac; none for no hooks)',
    )
    .option(
      '--image-wait <path>',
      "path on the API port that answers 200 once it serves (default: the hooks' capabilities, or /)",
    )
    .addOption(repeatable('--image-env <k=v>', 'environment of the container; repeatable'))
    .option(
      '--latitude <vary>',
      'without --target: the embedded reference behind the latitude proxy (all, random:SEED or catalogue ids); exits 1 when a chosen entry changed no answer',
    )
    .action((values: Values) => done(buildRun(values, context)));

  const doctor = eac
    .command('doctor')
    .description(
      'check a target before a long run: reachable, hub, hooks, parts, and the not-runs to expect',
    )
    .addHelpText(
      'after',
      `${examples(
        'eac doctor --target http://localhost:8080 --hub http://localhost:8081 --hooks http://localhost:8080/__eac',
        'eac doctor --only hub --json',
        'eac doctor --observe   the profile against what the target shows (builds a world through the hooks)',
      )}\nExits 0 when ready, 1 on a problem (a hub that does not answer like one, no test selected),\n2 when the target cannot be reached.\n`,
    )
    .option('--json', 'the report as JSON')
    .option(
      '--observe',
      'also watch the target as eac profile discover does and show how the profile differs from what it saw',
    );
  targetOptions(doctor, [
    'config',
    'target',
    'hub',
    'hooks',
    'credentials',
    'profile',
    'only',
    'ca',
  ]);
  doctor.action((values: Values) => done(buildDoctor(values, context)));

  eac
    .command('serve')
    .description('start the reference simulator (and its hub on a port of its own) until Ctrl-C')
    .option('--port <n>', 'API port (default 0: any free port)')
    .option('--hub-port <n>', "the hub's port (default 0: any free port)")
    .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
    .option('--hooks', 'serve the host hooks (under /__eac)')
    .option('--seed <n>', "seed of the reference's ids and HS256 secret (default: random)")
    .option(
      '--latitude <ids>',
      'behaviour entries of the latitude catalogue the reference takes (tenant.identity-name, agent=second, ...)',
    )
    .option(
      '--announce <name>',
      "the implementation name the hooks' capabilities give (default eac-reference): a run then judges it as any outside target",
    )
    .addHelpText(
      'after',
      examples(
        'eac serve --hooks                      prints the eac run line that tests it',
        'eac serve --port 8080 --hub-port 8081 --hooks --seed 1',
      ),
    )
    .action((values: Values) => done(buildServe(values)));

  eac
    .command('latitude')
    .description(
      'put the latitude proxy in front of a target: answers in other forms the document allows',
    )
    .option('--target <url>', 'the target to relay (default: the embedded reference)')
    .option('--hub <url>', "the target's hub (needed with --target)")
    .option('--hooks <url>', "the target's hooks")
    .option('--port <n>', 'API port of the proxy (default 0: any free port)')
    .option('--hub-port <n>', "the proxy's hub port (default 0: any free port)")
    .option('--vary <vary>', 'all, random:SEED or catalogue ids (default: all)')
    .option('--seed <n>', 'seed (default: random)')
    .option('--print-profile <file>', 'write the profile stating the shapes the proxy produces')
    .option(
      '--open-points',
      'start no proxy: list every point the document leaves open with the entries that vary it or the reason none can; exits 1 while one has neither',
    )
    .option('--json', 'with --open-points: as JSON')
    .addHelpText(
      'after',
      examples(
        'eac latitude --vary all --print-profile /tmp/latitude.json',
        'eac latitude --open-points',
        'eac latitude --target http://localhost:8080 --hub http://localhost:8081 --vary random:7',
      ),
    )
    .action((values: Values) => done(buildLatitude(values)));

  eac
    .command('clauses')
    .description('print the clause catalogue, grouped by section')
    .option('--json', 'as JSON')
    .option('--section <s>', 'one section and its subsections (4 includes 4.1, 4.2, ...)')
    .option('--level <level>', `one level: ${LEVELS.join(', ')}`)
    .addHelpText(
      'after',
      examples('eac clauses --section 4.6', 'eac clauses --level security --json'),
    )
    .action((values: Values) => done(buildClauses(values)));

  eac
    .command('report')
    .description('re-render the reports of a run from its results.json, or merge shards')
    .argument('[runs...]', 'a run folder (with --merge: the shard runs)')
    .option('--merge', 'merge the runs of eac run --shard i/n into one')
    .option('--out <dir>', 'the merged run (with --merge)')
    .addHelpText(
      'after',
      `${examples('eac report reports/latest', 'eac report --merge shard-1 shard-2 --out merged')}\nA merge exits as eac run would have: 1 on a failure (with expectations: an unexpected\nresult).\n`,
    )
    .action((runs: string[], values: Values) => done(buildReport(values, runs)));

  eac
    .command('compare')
    .description('the ambiguity register of several runs side by side')
    .argument('[runs...]', 'run folders or results.json files')
    .option('--out <dir>', 'where compare.md and compare.html go (default: the current folder)')
    .addHelpText('after', examples('eac compare reports/runs/A reports/runs/B --out /tmp/compare'))
    .action((runs: string[], values: Values) => done(buildCompare(values, runs)));

  eac
    .command('expectations')
    .description('write an expectations file that accepts a run as it is')
    .option('--from <run>', 'the run (a run folder or results.json)')
    .option('--out <file>', 'YAML when it ends in .yaml or .yml, JSON otherwise (default: stdout)')
    .addHelpText(
      'after',
      examples('eac expectations --from reports/latest --out expectations.yaml'),
    )
    .action((values: Values) => done(buildExpectations(values)));

  eac
    .command('diff')
    .description('what changed between two runs: regressions, fixes, new and vanished tests')
    .argument('[runs...]', 'BASE and NEW: run folders or results.json files')
    .option('--json', 'as JSON instead of Markdown')
    .option('--out <file>', 'write to FILE (default: stdout)')
    .addHelpText(
      'after',
      `${examples('eac diff reports/runs/A reports/latest --out diff.md')}\nExits 1 on a regression (pass or probe -> fail).\n`,
    )
    .action((runs: string[], values: Values) => done(buildDiff(values, runs)));

  eac
    .command('init')
    .description(
      'write an eac.config.yaml: asks on a terminal, takes the flags otherwise; never overwrites without --force',
    )
    .option('--target <url>', 'base URL of the implementation under test')
    .option('--hub <url>', 'origin of its embedded pages')
    .option('--hooks <url>', "base URL of the target's host hooks")
    .option('--config <file>', 'the file to write (default: eac.config.yaml)')
    .option('--force', 'overwrite an existing file')
    .addHelpText(
      'after',
      examples(
        'eac init',
        'eac init --target http://localhost:8080 --hub http://localhost:8081 --hooks http://localhost:8080/__eac',
      ),
    )
    .action((values: Values) => done(buildInit(values)));

  const discoverCommand = eac
    .command('profile')
    .description("work with a target's profile")
    .command('discover')
    .description(
      'write a draft profile by watching a target: the parts that answer, token claims, key set, header forms, embed-token members, the chat version report; prints what it could not decide',
    );
  targetOptions(discoverCommand, ['target', 'hub', 'hooks', 'credentials', 'ca']);
  discoverCommand
    .option('--out <file>', 'where the draft goes (JSON)')
    .option('--seed <n>', 'seed for the names and values sent')
    .option(
      '--latitude <vary>',
      'without --target: the embedded reference behind the latitude proxy (all, random:SEED or catalogue ids)',
    )
    .addHelpText(
      'after',
      examples(
        'eac profile discover --target http://localhost:8080 --hooks http://localhost:8080/__eac --out profile.json',
        'eac profile discover --latitude all --out draft.json   the reference behind the latitude proxy',
      ),
    )
    .action((values: Values) => done(buildDiscover(values)));

  return eac;
}

/** Commander's error text as one line: `eac run: unknown option '--tagret' (did you mean --target?)`. */
function usageMessage(text: string, command: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  const hint = rest
    .map((line) => line.trim().replace(/^\((.*)\)$/, '$1'))
    .filter((line) => line !== '')
    .map((line) => line.charAt(0).toLowerCase() + line.slice(1))
    .join('; ');
  const message = first.replace(/^error: /, '');
  return `${command}: ${message}${hint !== '' ? ` (${hint})` : ''}`;
}

export function parseCommand(argv: readonly string[], context: ParseContext = {}): Command {
  const output = { out: '', err: '' };
  let command: Command | undefined;
  const eac = program(context, output, (built) => (command = built));
  if (argv.length === 0) {
    eac.outputHelp();
    return { kind: 'help', text: output.out };
  }
  try {
    eac.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return { kind: 'help', text: output.out };
    const name = argv[0] !== undefined && eac.commands.some((c) => c.name() === argv[0]);
    throw new UsageError(
      usageMessage(output.err || error.message, name ? `eac ${argv[0]}` : 'eac'),
    );
  }
  if (command === undefined) throw new UsageError('eac: no command; try eac help');
  return command;
}
