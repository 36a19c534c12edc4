import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { UsageError } from './usage.ts';
import {
  CONFIG_SCHEMA_FILE,
  ConfigError,
  generateConfigSchema,
  loadConfig,
  parseConfig,
} from './config.ts';
import type { InitOptions } from './args.ts';
import { initCommand, renderConfig } from './init.ts';

function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'eac-config-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function usageError(argv: string[], cwd: string): string {
  try {
    parseCommand(argv, { cwd });
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${argv.join(' ')}`);
}

const FULL = `
target: http://api.example:8080
hub: http://hub.example:8081
hooks: http://api.example:8080/__eac
profile: profiles/mine.yaml
credentials: creds.json
expectations: ../shared/expectations.yaml
ca: ca.pem
report: out
selection:
  only: [identity, roles.update]
  seed: 7
  concurrency: 2
  bail: true
gates:
  maxNotRun: 10%
  minCoverage: [portable=60%, covered@4.6=3]
`;

describe('the config file', () => {
  it('spec/config.schema.json is the JSON Schema generated from runner/config.ts', async () => {
    const checkedIn = await readFile(CONFIG_SCHEMA_FILE, 'utf8');
    expect(
      checkedIn,
      "regenerate: npx tsx -e \"import('./runner/config.ts').then(async (m) => (await import('node:fs')).writeFileSync(m.CONFIG_SCHEMA_FILE, m.generateConfigSchema()))\"",
    ).toBe(generateConfigSchema());
  });

  it('gives eac run everything it holds, its paths read from its own folder', () => {
    const dir = folder({ 'eac.config.yaml': FULL });
    expect(parseCommand(['run'], { cwd: dir })).toEqual({
      kind: 'run',
      options: {
        target: {
          target: 'http://api.example:8080',
          hub: 'http://hub.example:8081',
          hooks: 'http://api.example:8080/__eac',
          profile: path.join(dir, 'profiles/mine.yaml'),
          credentials: path.join(dir, 'creds.json'),
          ca: path.join(dir, 'ca.pem'),
          checkDecisions: false,
        },
        expectations: path.resolve(dir, '../shared/expectations.yaml'),
        report: path.join(dir, 'out'),
        only: ['identity', 'roles.update'],
        seed: 7,
        concurrency: 2,
        bail: true,
        quietProgress: false,
        thresholds: {
          maxNotRun: { percent: 10 },
          minCoverage: [
            { kind: 'portable', floor: { percent: 60 } },
            { kind: 'covered', section: '4.6', floor: { count: 3 } },
          ],
        },
      },
    });
  });

  it('yields to the flags: each file, the selection and the gates', () => {
    const dir = folder({ 'eac.config.yaml': FULL });
    const command = parseCommand(
      [
        ...['run', '--profile', 'p.json', '--only', 'hub', '--seed', '1', '--concurrency', '4'],
        ...['--max-not-run', '5', '--min-coverage', 'security=1', '--report', 'r'],
      ],
      { cwd: dir },
    );
    expect(command.kind === 'run' && command.options).toMatchObject({
      target: {
        target: 'http://api.example:8080',
        profile: 'p.json',
        credentials: path.join(dir, 'creds.json'),
      },
      only: ['hub'],
      seed: 1,
      concurrency: 4,
      report: 'r',
      thresholds: { maxNotRun: { count: 5 }, minCoverage: [{ kind: 'security' }] },
    });
  });

  it("takes the target, hub and hooks as one: a flag naming a target drops the config's", () => {
    const dir = folder({ 'eac.config.yaml': FULL });
    const other = parseCommand(['run', '--target', 'http://other:1'], { cwd: dir });
    expect(other.kind === 'run' && other.options.target).toMatchObject({
      target: 'http://other:1',
    });
    expect(other.kind === 'run' && other.options.target.hub).toBeUndefined();
    expect(other.kind === 'run' && other.options.target.hooks).toBeUndefined();
    const embedded = parseCommand(['run', '--latitude', 'all'], { cwd: dir });
    expect(embedded.kind === 'run' && embedded.options.target.target).toBeUndefined();
  });

  it('serves eac doctor too', () => {
    const dir = folder({
      'eac.config.json': JSON.stringify({ target: 'http://t:1', ca: 'x.pem' }),
    });
    expect(parseCommand(['doctor', '--json'], { cwd: dir })).toEqual({
      kind: 'doctor',
      options: {
        only: [],
        json: true,
        observe: false,
        target: { target: 'http://t:1', ca: path.join(dir, 'x.pem'), checkDecisions: false },
      },
    });
  });

  it('is named with --config, relative to the working folder, wherever it lies', () => {
    const dir = folder({ 'ci/eac.yaml': 'target: http://t:1\nprofile: p.yaml\n' });
    const command = parseCommand(['run', '--config', 'ci/eac.yaml'], { cwd: dir });
    expect(command.kind === 'run' && command.options.target).toMatchObject({
      target: 'http://t:1',
      profile: path.join(dir, 'ci', 'p.yaml'),
    });
    expect(usageError(['run', '--config', 'none.yaml'], dir)).toMatch(
      /cannot read the config file .*none\.yaml: ENOENT/,
    );
  });

  it('is looked for only in the working folder given, and one of the names at most', () => {
    expect(parseCommand(['run'], { cwd: folder() })).toMatchObject({
      options: { only: [], report: 'reports' },
    });
    const two = folder({ 'eac.config.yaml': 'target: http://a:1\n', 'eac.config.json': '{}' });
    expect(usageError(['run'], two)).toMatch(/eac\.config\.yaml and eac\.config\.json are both/);
    expect(loadConfig(undefined, undefined)).toBeUndefined();
  });

  it('names the file and the member of every mistake', () => {
    const file = '/x/eac.config.yaml';
    const error = (text: string) => {
      try {
        parseConfig(file, text);
      } catch (caught) {
        expect(caught).toBeInstanceOf(ConfigError);
        return (caught as Error).message;
      }
      throw new Error(`expected a config error for: ${text}`);
    };
    expect(error('target: localhost:8080')).toMatch(/^\/x\/eac\.config\.yaml: target: /);
    expect(error('selection:\n  seed: -1')).toMatch(/^\/x\/eac\.config\.yaml: selection\.seed: /);
    expect(error('selection:\n  concurrency: 65')).toMatch(/selection\.concurrency: /);
    expect(error('gates:\n  maxNotRun: 150%')).toMatch(/gates\.maxNotRun: /);
    expect(error('gates:\n  minCoverage: [portable]')).toMatch(
      /gates\.minCoverage\.0: takes KIND\[@SECTION\]=N/,
    );
    expect(error('tagret: http://t:1')).toBe(`${file}: unknown member tagret`);
    expect(error('selection:\n  onyl: [hub]')).toBe(`${file}: unknown member selection.onyl`);
    expect(error('hooks: http://t:1/__eac')).toMatch(/hooks: hooks describes a target/);
    expect(error('target: [')).toMatch(/^\/x\/eac\.config\.yaml: not YAML: /);
    expect(() => parseConfig('/x/eac.config.json', '{')).toThrow(/eac\.config\.json: not JSON/);
    expect(error('- a list')).toMatch(/\(top level\): /);
  });

  it('reaches the command line as a usage error naming the file', () => {
    const dir = folder({ 'eac.config.yaml': 'selection:\n  seed: x\n' });
    expect(usageError(['run'], dir)).toMatch(
      new RegExp(`^eac: ${path.join(dir, 'eac.config.yaml')}: selection\\.seed: `),
    );
  });
});

describe('eac init', () => {
  const io = (cwd: string, answers?: string[]) => {
    const out: string[] = [];
    const asked: string[] = [];
    return {
      out,
      asked,
      io: {
        cwd,
        stdout: { write: (text: string) => out.push(text) },
        schemaFile: path.join(cwd, 'schemas', 'config.schema.json'),
        ...(answers !== undefined
          ? {
              ask: (question: string) => {
                asked.push(question);
                return Promise.resolve(answers.shift() ?? '');
              },
            }
          : {}),
      },
    };
  };
  const options = (given: Partial<InitOptions>): InitOptions => ({
    file: 'eac.config.yaml',
    force: false,
    ...given,
  });

  it('writes a config from the flags that reads back as the flags said', async () => {
    const dir = folder();
    const { io: given, out } = io(dir);
    const flags = { target: 'http://t:8080', hub: 'http://t:8081', hooks: 'http://t:8080/__eac' };
    expect(await initCommand(options(flags), given)).toBe(0);
    const file = path.join(dir, 'eac.config.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=schemas\/config\.schema\.json\n/);
    expect(parseConfig(file, text).config).toEqual(flags);
    expect(out.join('')).toContain(`wrote ${file}`);
    expect(parseCommand(['run'], { cwd: dir })).toMatchObject({ options: { target: flags } });
  });

  it('never overwrites a file without --force', async () => {
    const dir = folder({ 'eac.config.yaml': 'target: http://old:1\n' });
    await expect(initCommand(options({ target: 'http://new:1' }), io(dir).io)).rejects.toThrow(
      /exists; keep it, or overwrite it with --force/,
    );
    expect(readFileSync(path.join(dir, 'eac.config.yaml'), 'utf8')).toBe('target: http://old:1\n');
    await initCommand(options({ target: 'http://new:1', force: true }), io(dir).io);
    expect(readFileSync(path.join(dir, 'eac.config.yaml'), 'utf8')).toContain(
      'target: http://new:1',
    );
  });

  it('without a terminal, needs --target', async () => {
    await expect(initCommand(options({}), io(folder()).io)).rejects.toThrow(/give --target URL/);
  });

  it('refuses what would not read back, before writing', async () => {
    const dir = folder();
    await expect(initCommand(options({ target: 'localhost' }), io(dir).io)).rejects.toThrow(
      /eac init: .*eac\.config\.yaml: target: /,
    );
    expect(() => readFileSync(path.join(dir, 'eac.config.yaml'))).toThrow();
  });

  it('on a terminal asks for the target, hub and hooks, the flags and /__eac as defaults', async () => {
    const dir = folder();
    const session = io(dir, ['http://t:9000', '', '']);
    await initCommand(options({ hub: 'http://h:9001' }), session.io);
    expect(session.asked).toEqual([
      'Base URL of the server under test: ',
      'Origin of its embedded pages, the hub (empty: none; hub tests are then not-run) [http://h:9001]: ',
      'Base URL of its host hooks (empty: none; tests that need a hook are then not-run) [http://t:9000/__eac]: ',
    ]);
    const file = path.join(dir, 'eac.config.yaml');
    expect(parseConfig(file, readFileSync(file, 'utf8')).config).toEqual({
      target: 'http://t:9000',
      hub: 'http://h:9001',
      hooks: 'http://t:9000/__eac',
    });
  });

  it('leaves the members not given as comments', () => {
    const text = renderConfig({ target: 'http://t:1' }, 'spec/config.schema.json');
    expect(text).toContain('# hub: ');
    expect(text).toContain('# hooks: ');
    expect(parseConfig('/x/eac.config.yaml', text).config).toEqual({ target: 'http://t:1' });
  });
});
