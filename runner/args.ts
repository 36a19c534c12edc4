/** Command-line parsing of `eac`: argv in, a typed command out, or a UsageError (exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ClauseLevel } from '../spec/clauses/types.ts';
import type { RunOptions } from './run.ts';
import { parseShard } from './shard.ts';
import { imageOptions } from './container.ts';
import type { DoctorOptions } from './doctor.ts';
import { parseThresholds } from './thresholds.ts';
import { behaviourIds, chosenIds, parseVary, type LatitudeVary } from '../latitude/choice.ts';
import type { FreedomId } from '../spec/latitude.ts';

export class UsageError extends Error {
  override readonly name = 'UsageError';
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
}

/** `eac latitude`: the latitude proxy in front of a target (the embedded reference by default). */
export interface LatitudeOptions {
  readonly target?: string;
  readonly hub?: string;
  readonly hooks?: string;
  readonly port: number;
  readonly hubPort?: number;
  readonly vary: LatitudeVary;
  readonly seed?: number;
  /** `--print-profile FILE`: write the profile stating the shapes the proxy produces. */
  readonly printProfile?: string;
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
  | { readonly kind: 'help'; readonly topic?: string };

export const USAGE = `Usage: eac <command> [options]

Commands:
  run       Run the conformance suites against a target and write reports
  doctor    Check a target before a long run: reachable, hooks, parts, expected not-runs
  serve     Start the reference simulator and keep it running
  latitude  Put the latitude proxy in front of a target: answers in other forms the document allows
  clauses   Print the clause catalogue
  report    Re-render junit.xml, summary.md and index.html of a run from its results.json
  compare   The ambiguity register of several runs side by side
  expectations  Write an expectations file that accepts a run as it is
  diff      What changed between two runs: regressions, fixes, new and vanished tests
  help      Show this text, or \`eac help <command>\`

eac run [options]
  --target URL          Base URL of the implementation under test
                        (default: start the embedded reference on an ephemeral port)
  --hub URL             Hub URL for embedded pages (default: the target URL)
  --hooks URL           Base URL of the target's host hooks (default: none)
  --credentials FILE    JSON {organizationId, userScopedKey?, orgBoundKey?, projectId?}
                        for a target without an accounts hook
  --profile FILE        What the target serves and how it answered the document's open
                        shapes (JSON or YAML, spec/profile.schema.json; default: the
                        reference's, fixtures/profiles/reference.json)
  --only AREA|CLAUSE    Run one suite area (a folder under suites/) or the tests citing a
                        clause id or id prefix, e.g. roles.update; repeatable, values add up
  --seed N              Seed of the run (0..4294967295; default: random)
  --report DIR          Reports root (default: reports); the run goes to DIR/runs/<stamp>/
                        and DIR/latest points at it
  --check-decisions     Hold probes to the reference's decisions (automatic for the reference)
  --quiet-progress      No live progress line on stderr
  --expectations FILE   Expected outcomes per test id or clause id (JSON or YAML,
                        spec/expectations.schema.json): the exit code counts only unexpected
                        results, and the reports show expected failures apart
  --image NAME[:TAG]    Start the target from a container image (testcontainers; the image
                        must be on the engine or pullable), test it, stop it; results.json
                        records the image id. TESTCONTAINERS_RYUK_DISABLED defaults to true
  --image-ports A[,H]   Container ports of the API and the hub (default 8080,8081)
  --image-hooks PATH    Hooks path on the API port (default /__eac; none for no hooks)
  --image-wait PATH     Path on the API port that answers 200 once it serves (default: the
                        hooks' capabilities, or / without hooks)
  --image-env K=V       Environment of the container; repeatable
  --bail                Stop at the first failing test: tests not yet run are left out of
                        the reports (a quick yes/no, as the fault catalogue asks)
  --concurrency N       Test files run at once (1..64; default: the number of CPUs, at
                        least 4); 1 runs them one after another
  --ca FILE             An extra certificate authority (PEM) to trust for a target on TLS
                        with a private one. The proxy variables HTTP_PROXY, HTTPS_PROXY and
                        NO_PROXY (or lowercase) are honoured for every request
  --shard i/n           Run shard i of n: the selected test files split by their paths and
                        sizes, the same on every machine; merge with eac report --merge
  --latitude VARY       Without --target: run against the embedded reference behind the
                        latitude proxy (all, random:SEED or catalogue ids; spec/latitude.ts),
                        with the profile the proxy prints; exits 1 when a chosen entry
                        changed no answer
  --max-not-run N|P%    Gate: exit 3 when more than N tests (or P% of them) end not-run
  --min-coverage KIND[@SECTION]=N|P%
                        Gate: exit 3 when fewer clauses are covered (KIND: portable,
                        covered = portable or through a decision, security, probed; a
                        section such as 4.6 or the whole document); repeatable
  --baseline RUN        After the run, diff it against RUN (a run folder or results.json):
                        prints the diff, writes diff.md and diff.json in the run folder, and
                        exits 1 on a regression (without --expectations, failures the
                        baseline already had do not count)

eac doctor [--target URL] [--hub URL] [--hooks URL] [--credentials FILE] [--profile FILE]
           [--only AREA|CLAUSE]... [--ca FILE] [--json]
  Without running a test: is the target (and its hub and hooks) reachable, which hooks does it
  offer, which parts does its profile serve, and how many of the selected tests will be
  not-run and why (the parts and hooks each test declares). Exits 0 when ready, 1 on a
  problem (an unreachable hub the profile serves, no test selected), 2 when the target
  cannot be reached.

eac serve [--port N] [--hub-port N] [--host H] [--hooks] [--seed N] [--latitude ID,...]
  Start the reference (default port 0 = ephemeral, host 127.0.0.1) and its hub on a port of
  its own (--hub-port, default ephemeral); stops on Ctrl-C. --latitude names behaviour entries
  of the latitude catalogue the reference takes (tenant.identity-name, tokens.hs256, ...;
  agent=second for chat.second-agent, an agent that reads no grammar the suites know).

eac latitude [--target URL --hub URL [--hooks URL]] [--port N] [--hub-port N]
             [--vary all|random:SEED|ID,...] [--seed N] [--print-profile FILE]
  An HTTP proxy in front of a target (default: the embedded reference, with the behaviour
  entries chosen) that rewrites the answers it relays into other forms the document allows
  (spec/latitude.ts). --print-profile writes the profile stating the shapes it produces; on
  Ctrl-C it prints how many answers each entry changed.

eac clauses [--json] [--section S] [--level must|observed|unspecified|security]
  One line per clause, grouped by section; --section 4 includes 4.1, 4.2, ...

eac report <run-dir>
  Re-render the reports of a run folder (e.g. reports/latest) from its results.json.
eac report --merge SHARD... --out DIR
  Merge the runs of \`eac run --shard i/n\` (folders or results.json files; every shard of
  one seed, once) into one run in DIR: results.json, junit.xml, summary.md, index.html.
  Exits as eac run would have: 1 on a failure (with expectations: an unexpected result).

eac compare RUN... [--out DIR]
  One table of every unspecified clause by run (run folders or results.json files): the
  distinct answers each target gave and whether they match the reference's decision.
  Writes DIR/compare.md and DIR/compare.html (default: the current folder) and prints the
  Markdown.

eac expectations --from RUN [--out FILE]
  Write an expectations file from a run (a run folder or results.json): every fail and
  not-run test expected as it was, with the run's reason. YAML when FILE ends in .yaml or
  .yml, JSON otherwise; stdout without --out.

eac diff BASE NEW [--json] [--out FILE]
  Regressions (pass or probe -> fail), fixes, new and vanished tests, other outcome changes,
  and probes whose recorded answers changed, between two runs (folders or results.json).
  Markdown (for a pull-request comment), JSON with --json; to FILE with --out, else stdout.
  Exits 1 on a regression.

Exit codes: 0 no failure, 1 at least one failure (with --expectations: an unexpected result;
with --baseline, and for eac diff: also a regression), 2 usage or target error.
`;

const LEVELS: readonly ClauseLevel[] = ['must', 'observed', 'unspecified', 'security'];

function parse(
  command: string,
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  allowPositionals = false,
): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`eac ${command}: ${message}`);
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
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

function parseRun(argv: readonly string[]): Command {
  const { values } = parse('run', argv, {
    target: { type: 'string' },
    hub: { type: 'string' },
    hooks: { type: 'string' },
    credentials: { type: 'string' },
    profile: { type: 'string' },
    only: { type: 'string', multiple: true },
    seed: { type: 'string' },
    report: { type: 'string' },
    'check-decisions': { type: 'boolean' },
    'quiet-progress': { type: 'boolean' },
    expectations: { type: 'string' },
    baseline: { type: 'string' },
    shard: { type: 'string' },
    concurrency: { type: 'string' },
    bail: { type: 'boolean' },
    ca: { type: 'string' },
    image: { type: 'string' },
    'image-ports': { type: 'string' },
    'image-hooks': { type: 'string' },
    'image-wait': { type: 'string' },
    'image-env': { type: 'string', multiple: true },
    latitude: { type: 'string' },
    'max-not-run': { type: 'string' },
    'min-coverage': { type: 'string', multiple: true },
  });
  const thresholds = parseThresholds(
    str(values['max-not-run']),
    values['min-coverage'] as string[] | undefined,
  );
  if (typeof thresholds === 'string') throw new UsageError(`eac run: ${thresholds}`);
  const latitudeText = nonEmpty('run', '--latitude', str(values['latitude']));
  const latitude = latitudeText !== undefined ? vary('run', latitudeText) : undefined;
  const only = (values['only'] as string[] | undefined) ?? [];
  if (only.some((value) => value.trim() === ''))
    throw new UsageError('eac run: --only needs a value');
  const target = nonEmpty('run', '--target', str(values['target']));
  const hub = nonEmpty('run', '--hub', str(values['hub']));
  const hooks = nonEmpty('run', '--hooks', str(values['hooks']));
  const credentials = nonEmpty('run', '--credentials', str(values['credentials']));
  const profile = nonEmpty('run', '--profile', str(values['profile']));
  const expectations = nonEmpty('run', '--expectations', str(values['expectations']));
  const baseline = nonEmpty('run', '--baseline', str(values['baseline']));
  const seed = str(values['seed']);
  const concurrency = str(values['concurrency']);
  const ca = nonEmpty('run', '--ca', str(values['ca']));
  const shardText = str(values['shard']);
  const shard = shardText !== undefined ? parseShard(shardText) : undefined;
  if (typeof shard === 'string') throw new UsageError(`eac run: ${shard}`);
  const imageName = nonEmpty('run', '--image', str(values['image']));
  const imageGiven = {
    ...(str(values['image-ports']) !== undefined ? { ports: str(values['image-ports']) } : {}),
    ...(str(values['image-hooks']) !== undefined ? { hooks: str(values['image-hooks']) } : {}),
    ...(str(values['image-wait']) !== undefined ? { wait: str(values['image-wait']) } : {}),
    ...(values['image-env'] !== undefined ? { env: values['image-env'] as string[] } : {}),
  };
  if (imageName === undefined && Object.keys(imageGiven).length > 0)
    throw new UsageError(
      'eac run: --image-ports, --image-hooks, --image-wait and --image-env go with --image',
    );
  const image = imageName !== undefined ? imageOptions(imageName, imageGiven as never) : undefined;
  if (typeof image === 'string') throw new UsageError(`eac run: ${image}`);
  if (image !== undefined && (target !== undefined || hub !== undefined || hooks !== undefined))
    throw new UsageError(
      'eac run: --image starts the target; leave out --target, --hub and --hooks',
    );
  if (target === undefined && (hub !== undefined || hooks !== undefined)) {
    throw new UsageError('eac run: --hub and --hooks describe a --target; give --target too');
  }
  if (latitude !== undefined && (target !== undefined || image !== undefined))
    throw new UsageError(
      'eac run: --latitude puts the proxy in front of the embedded reference; for another target start `eac latitude --target URL` and run against it',
    );
  const options: RunOptions = {
    only,
    report: nonEmpty('run', '--report', str(values['report'])) ?? 'reports',
    checkDecisions: values['check-decisions'] === true,
    quietProgress: values['quiet-progress'] === true,
    ...(values['bail'] === true ? { bail: true } : {}),
    ...(target !== undefined ? { target } : {}),
    ...(hub !== undefined ? { hub } : {}),
    ...(hooks !== undefined ? { hooks } : {}),
    ...(credentials !== undefined ? { credentials } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(expectations !== undefined ? { expectations } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(shard !== undefined ? { shard } : {}),
    ...(ca !== undefined ? { ca } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(latitude !== undefined ? { latitude } : {}),
    ...(thresholds !== undefined ? { thresholds } : {}),
    ...(concurrency !== undefined
      ? { concurrency: positive('run', '--concurrency', concurrency, 64) }
      : {}),
    ...(seed !== undefined ? { seed: integer('run', '--seed', seed, 0xffffffff) } : {}),
  };
  return { kind: 'run', options };
}

function parseDoctor(argv: readonly string[]): Command {
  const { values } = parse('doctor', argv, {
    target: { type: 'string' },
    hub: { type: 'string' },
    hooks: { type: 'string' },
    credentials: { type: 'string' },
    profile: { type: 'string' },
    only: { type: 'string', multiple: true },
    ca: { type: 'string' },
    json: { type: 'boolean' },
  });
  const only = (values['only'] as string[] | undefined) ?? [];
  if (only.some((value) => value.trim() === ''))
    throw new UsageError('eac doctor: --only needs a value');
  const optional = (name: string) => {
    const value = nonEmpty('doctor', `--${name}`, str(values[name]));
    return value !== undefined ? { [name]: value } : {};
  };
  if (
    values['target'] === undefined &&
    (values['hub'] !== undefined || values['hooks'] !== undefined)
  )
    throw new UsageError('eac doctor: --hub and --hooks describe a --target; give --target too');
  return {
    kind: 'doctor',
    options: {
      only,
      json: values['json'] === true,
      ...optional('target'),
      ...optional('hub'),
      ...optional('hooks'),
      ...optional('credentials'),
      ...optional('profile'),
      ...optional('ca'),
    },
  };
}

function parseServe(argv: readonly string[]): Command {
  const { values } = parse('serve', argv, {
    port: { type: 'string' },
    'hub-port': { type: 'string' },
    host: { type: 'string' },
    hooks: { type: 'boolean' },
    seed: { type: 'string' },
    latitude: { type: 'string' },
  });
  const port = str(values['port']);
  const hubPort = str(values['hub-port']);
  const host = nonEmpty('serve', '--host', str(values['host']));
  const seed = str(values['seed']);
  const latitudeText = nonEmpty('serve', '--latitude', str(values['latitude']));
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
    },
  };
}

function vary(command: string, text: string): LatitudeVary {
  try {
    return parseVary(text);
  } catch (error) {
    throw new UsageError(`eac ${command}: ${(error as Error).message}`);
  }
}

function parseLatitude(argv: readonly string[]): Command {
  const { values } = parse('latitude', argv, {
    target: { type: 'string' },
    hub: { type: 'string' },
    hooks: { type: 'string' },
    port: { type: 'string' },
    'hub-port': { type: 'string' },
    vary: { type: 'string' },
    seed: { type: 'string' },
    'print-profile': { type: 'string' },
  });
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
  const hubPort = str(values['hub-port']);
  const seed = str(values['seed']);
  const printProfile = nonEmpty('latitude', '--print-profile', str(values['print-profile']));
  return {
    kind: 'latitude',
    options: {
      port: port !== undefined ? integer('latitude', '--port', port, 65535) : 0,
      ...(hubPort !== undefined
        ? { hubPort: integer('latitude', '--hub-port', hubPort, 65535) }
        : {}),
      vary: vary('latitude', str(values['vary']) ?? 'all'),
      ...(target !== undefined ? { target } : {}),
      ...(hub !== undefined ? { hub } : {}),
      ...(hooks !== undefined ? { hooks } : {}),
      ...(seed !== undefined ? { seed: integer('latitude', '--seed', seed, 0xffffffff) } : {}),
      ...(printProfile !== undefined ? { printProfile } : {}),
    },
  };
}

function parseClauses(argv: readonly string[]): Command {
  const { values } = parse('clauses', argv, {
    json: { type: 'boolean' },
    section: { type: 'string' },
    level: { type: 'string' },
  });
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

function parseReport(argv: readonly string[]): Command {
  const { values, positionals } = parse(
    'report',
    argv,
    { merge: { type: 'boolean' }, out: { type: 'string' } },
    true,
  );
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

function parseCompare(argv: readonly string[]): Command {
  const { values, positionals } = parse('compare', argv, { out: { type: 'string' } }, true);
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

function parseExpectationsCommand(argv: readonly string[]): Command {
  const { values, positionals } = parse(
    'expectations',
    argv,
    { from: { type: 'string' }, out: { type: 'string' } },
    true,
  );
  const from = nonEmpty('expectations', '--from', str(values['from']));
  if (from === undefined || positionals.length > 0) {
    throw new UsageError(
      'eac expectations: give the run with --from, e.g. eac expectations --from reports/latest --out expectations.yaml',
    );
  }
  const out = nonEmpty('expectations', '--out', str(values['out']));
  return { kind: 'expectations', from, ...(out !== undefined ? { out } : {}) };
}

function parseDiff(argv: readonly string[]): Command {
  const { values, positionals } = parse(
    'diff',
    argv,
    { json: { type: 'boolean' }, out: { type: 'string' } },
    true,
  );
  const [base, next] = positionals;
  if (positionals.length !== 2 || base === undefined || next === undefined) {
    throw new UsageError(
      'eac diff: give two runs (folders or results.json files), e.g. eac diff reports/runs/A reports/latest',
    );
  }
  const out = nonEmpty('diff', '--out', str(values['out']));
  return {
    kind: 'diff',
    base,
    next,
    json: values['json'] === true,
    ...(out !== undefined ? { out } : {}),
  };
}

export function parseCommand(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? rest[0] : undefined;
    return topic !== undefined ? { kind: 'help', topic } : { kind: 'help' };
  }
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', topic: command };
  switch (command) {
    case 'run':
      return parseRun(rest);
    case 'serve':
      return parseServe(rest);
    case 'latitude':
      return parseLatitude(rest);
    case 'doctor':
      return parseDoctor(rest);
    case 'clauses':
      return parseClauses(rest);
    case 'report':
      return parseReport(rest);
    case 'compare':
      return parseCompare(rest);
    case 'expectations':
      return parseExpectationsCommand(rest);
    case 'diff':
      return parseDiff(rest);
    default:
      throw new UsageError(`eac: unknown command "${command}"; try eac help`);
  }
}
