import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { UsageError } from './usage.ts';

function help(argv: string[]): string {
  const command = parseCommand(argv);
  if (command.kind !== 'help') throw new Error(`expected help for: ${argv.join(' ')}`);
  return command.text;
}

function usageError(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${argv.join(' ')}`);
}

describe('parseCommand', () => {
  it("reads profile discover's target as eac run reads one", () => {
    expect(
      parseCommand([
        'profile',
        'discover',
        '--target',
        'http://x:1',
        '--hooks',
        'http://x:1/__eac',
        '--ca',
        'ca.pem',
        '--out',
        'd.json',
        '--seed',
        '3',
      ]),
    ).toEqual({
      kind: 'discover',
      options: {
        spec: {
          target: 'http://x:1',
          hooks: 'http://x:1/__eac',
          ca: 'ca.pem',
          checkDecisions: false,
        },
        out: 'd.json',
        seed: 3,
      },
    });
    const proxied = parseCommand(['profile', 'discover', '--latitude', 'all', '--out', 'd.json']);
    expect(proxied).toMatchObject({ kind: 'discover', options: { spec: { latitude: {} } } });
    expect(usageError(['profile', 'discover', '--target', 'http://x:1'])).toMatch(/--out FILE/);
    expect(usageError(['profile', 'discover', '--hub', 'http://h:2', '--out', 'd.json'])).toMatch(
      /give --target too/,
    );
  });

  it('parses a full run command', () => {
    const command = parseCommand([
      'run',
      '--target',
      'http://x:1',
      '--hub',
      'http://h:2',
      '--hooks',
      'http://x:1/__eac',
      '--credentials',
      'c.json',
      '--only',
      'roles',
      '--only',
      'tokens.user',
      '--seed',
      '4294967295',
      '--report',
      'out',
      '--check-decisions',
    ]);
    expect(command).toEqual({
      kind: 'run',
      options: {
        target: {
          target: 'http://x:1',
          hub: 'http://h:2',
          hooks: 'http://x:1/__eac',
          credentials: 'c.json',
          checkDecisions: true,
        },
        only: ['roles', 'tokens.user'],
        seed: 4294967295,
        report: 'out',
        quietProgress: false,
      },
    });
  });

  it('defaults the reports root and leaves the seed unset', () => {
    const command = parseCommand(['run']);
    expect(command).toEqual({
      kind: 'run',
      options: {
        target: { checkDecisions: false },
        only: [],
        report: 'reports',
        quietProgress: false,
      },
    });
  });

  it('rejects unknown options, bad seeds and ports, and options missing their value', () => {
    expect(usageError(['run', '--bogus'])).toMatch(/--bogus/);
    expect(usageError(['run', '--seed', '-1'])).toMatch(/--seed/);
    expect(usageError(['run', '--seed', '4294967296'])).toMatch(/--seed must be an integer/);
    expect(usageError(['run', '--seed', '1.5'])).toMatch(/--seed/);
    expect(usageError(['run', '--only'])).toMatch(/--only/);
    expect(usageError(['run', '--only', ''])).toMatch(/--only needs a value/);
    expect(usageError(['serve', '--port', '70000'])).toMatch(/--port/);
  });

  it('refuses --hub or --hooks without --target', () => {
    expect(usageError(['run', '--hooks', 'http://x/__eac'])).toMatch(/give --target too/);
  });

  it('validates clauses filters', () => {
    expect(usageError(['clauses', '--level', 'should'])).toMatch(/must, observed, unspecified/);
    expect(usageError(['clauses', '--section', 'four'])).toMatch(/section number/);
    expect(parseCommand(['clauses', '--section', '§4.10', '--level', 'must', '--json'])).toEqual({
      kind: 'clauses',
      options: { json: true, section: '4.10', level: 'must' },
    });
  });

  it('needs exactly one run folder for report', () => {
    expect(usageError(['report'])).toMatch(/exactly one run folder/);
    expect(usageError(['report', 'a', 'b'])).toMatch(/exactly one run folder/);
    expect(parseCommand(['report', 'reports/latest'])).toEqual({
      kind: 'report',
      runDir: 'reports/latest',
    });
  });

  it('parses compare: one or more runs, --out defaulting to the current folder', () => {
    expect(parseCommand(['compare', 'runs/a', 'runs/b/results.json'])).toEqual({
      kind: 'compare',
      runs: ['runs/a', 'runs/b/results.json'],
      out: '.',
    });
    expect(parseCommand(['compare', 'a', '--out', 'tmp'])).toMatchObject({ out: 'tmp' });
    expect(() => parseCommand(['compare'])).toThrow(/one or more run folders/);
    expect(() => parseCommand(['compare', 'a', '--out', ' '])).toThrow(/--out needs a value/);
  });

  it('routes help and unknown commands', () => {
    expect(help([])).toMatch(/^Usage: eac \[options\] \[command\]/);
    expect(help([])).toMatch(/\nExit codes:\n {2}0 {2}no failure\n/);
    expect(help([])).toBe(help(['help']));
    expect(help(['--help'])).toMatch(/Commands:[\s\S]*run[\s\S]*doctor[\s\S]*init/);
    expect(usageError(['frobnicate'])).toMatch(/unknown command 'frobnicate'/);
  });

  it('gives each command its own help, with examples, as `--help` or `help <command>`', () => {
    for (const name of ['run', 'doctor', 'serve', 'latitude', 'clauses', 'report', 'init']) {
      const text = help([name, '--help']);
      expect(text, name).toMatch(new RegExp(`^Usage: eac ${name} `));
      expect(text, name).toMatch(/\nExamples:\n {2}eac /);
      expect(help(['help', name]), name).toBe(text);
    }
    expect(help(['run', '-h'])).toMatch(/--max-not-run/);
    expect(help(['serve', '--help'])).not.toMatch(/--max-not-run/);
  });

  it('says in the help of --hub that without it the hub tests are not-run', () => {
    for (const name of ['run', 'doctor'])
      expect(help([name, '--help']).replace(/\s+/g, ' ')).toContain(
        '--hub <url> origin of its embedded pages, §4.17 (default: none — hub tests are not-run without it)',
      );
  });

  it('prints the version of package.json', () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(help(['--version'])).toBe(`${version}\n`);
    expect(help(['-V'])).toBe(`${version}\n`);
  });

  it('suggests the command or option a typo meant', () => {
    expect(usageError(['rn'])).toBe("eac: unknown command 'rn' (did you mean run?)");
    expect(usageError(['doctr'])).toMatch(/did you mean doctor\?/);
    expect(usageError(['run', '--tagret', 'http://x'])).toBe(
      "eac run: unknown option '--tagret' (did you mean --target?)",
    );
    expect(usageError(['serve', '--prot', '1'])).toMatch(/did you mean --port\?/);
  });

  it('paints the help only when asked to (a terminal without NO_COLOR)', () => {
    expect(help(['run', '--help'])).not.toContain('\x1b[');
    const painted = parseCommand(['run', '--help'], { colour: true });
    expect(painted.kind === 'help' && painted.text).toContain('\x1b[1mUsage:\x1b[22m');
  });

  it('parses init: the flags, the file to write, --force', () => {
    expect(parseCommand(['init'])).toEqual({
      kind: 'init',
      options: { file: 'eac.config.yaml', force: false },
    });
    expect(
      parseCommand([
        'init',
        '--target',
        'http://t',
        '--hub',
        'http://h',
        '--config',
        'c.yaml',
        '--force',
      ]),
    ).toEqual({
      kind: 'init',
      options: { target: 'http://t', hub: 'http://h', file: 'c.yaml', force: true },
    });
  });

  it('parses serve with defaults', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', options: { port: 0, hooks: false } });
    expect(
      parseCommand(['serve', '--port', '8080', '--hooks', '--seed', '3', '--host', '0.0.0.0']),
    ).toEqual({
      kind: 'serve',
      options: { port: 8080, hooks: true, seed: 3, host: '0.0.0.0' },
    });
  });

  it('parses --concurrency, --ca and report --merge', () => {
    const run = parseCommand(['run', '--concurrency', '2', '--ca', 'ca.pem']);
    expect(run.kind === 'run' && [run.options.concurrency, run.options.target.ca]).toEqual([
      2,
      'ca.pem',
    ]);
    expect(usageError(['run', '--concurrency', '0'])).toMatch(/--concurrency must be at least 1/);
    expect(usageError(['run', '--concurrency', '65'])).toMatch(/from 0 to 64/);
    const bail = parseCommand(['run', '--bail']);
    expect(bail.kind === 'run' && bail.options.bail).toBe(true);
    expect(run.kind === 'run' && run.options.bail).toBeUndefined();
    expect(parseCommand(['report', '--merge', 'a', 'b', '--out', 'm'])).toEqual({
      kind: 'merge',
      shards: ['a', 'b'],
      out: 'm',
    });
    expect(usageError(['report', '--merge', 'a'])).toMatch(/give the shard runs and --out/);
    expect(usageError(['report', 'a', '--out', 'm'])).toMatch(/--out goes with --merge/);
  });
});
