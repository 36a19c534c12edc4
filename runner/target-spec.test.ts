import { describe, expect, it } from 'vitest';
import { ConformanceError, runConformance } from '../lib/index.ts';
import { parseCommand } from './args.ts';
import { IMAGE_DEFAULTS } from './container.ts';
import { readTargetWords, TargetWords } from './target-spec.ts';

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe('TargetSpec: the target of a run as given', () => {
  it('reads the words: addresses and files as given, --image* and --latitude parsed', () => {
    expect(readTargetWords({})).toEqual({ checkDecisions: false });
    expect(
      readTargetWords({
        target: 'http://x:1/',
        hub: 'http://h:2',
        credentials: 'c.json',
        ca: 'ca.pem',
        checkDecisions: true,
      }),
    ).toEqual({
      target: 'http://x:1/',
      hub: 'http://h:2',
      credentials: 'c.json',
      ca: 'ca.pem',
      checkDecisions: true,
    });
    expect(readTargetWords({ image: 'cand:1', imagePorts: '9000' })).toMatchObject({
      image: { image: 'cand:1', apiPort: 9000, hooksPath: IMAGE_DEFAULTS.hooksPath },
    });
    expect(readTargetWords({ latitude: 'random:7' })).toEqual({
      checkDecisions: false,
      latitude: { random: 7 },
    });
  });

  it('refuses what does not go together, one rule at a time, in the words of the CLI', () => {
    expect(readTargetWords({ hub: 'http://h' })).toBe(
      '--hub and --hooks describe a --target; give --target too',
    );
    expect(readTargetWords({ image: 'cand', target: 'http://x' })).toBe(
      '--image starts the target; leave out --target, --hub and --hooks',
    );
    expect(readTargetWords({ imageEnv: ['A=1'] })).toMatch(/go with --image$/);
    expect(readTargetWords({ image: 'cand', imageEnv: ['A'] })).toMatch(/NAME=VALUE/);
    expect(readTargetWords({ latitude: 'all', target: 'http://x' })).toMatch(
      /^--latitude puts the proxy in front of the embedded reference/,
    );
    expect(readTargetWords({ latitude: 'random:x' })).toMatch(/random|latitude/i);
    expect(readTargetWords({ profile: ' ' })).toBe('--profile needs a value');
  });

  it('is what eac run and eac doctor read, and the CLI names the command in a refusal', () => {
    const run = parseCommand(['run', '--target', 'http://x', '--ca', 'ca.pem']);
    expect(run.kind === 'run' && run.options.target).toEqual(
      readTargetWords({ target: 'http://x', ca: 'ca.pem' }),
    );
    const doctor = parseCommand(['doctor', '--target', 'http://x', '--profile', 'p.yaml']);
    expect(doctor.kind === 'doctor' && doctor.options.target).toEqual(
      readTargetWords({ target: 'http://x', profile: 'p.yaml' }),
    );
    expect(() => parseCommand(['doctor', '--hub', 'http://h'])).toThrow(
      'eac doctor: --hub and --hooks describe a --target; give --target too',
    );
    expect(() => parseCommand(['run', '--latitude', 'all', '--target', 'http://x'])).toThrow(
      /^eac run: --latitude puts the proxy/,
    );
  });

  it('has a flag of eac run for every word, so a new word is a field here and a flag there', () => {
    const help = parseCommand(['run', '--help']);
    const text = help.kind === 'help' ? help.text : '';
    for (const name of TargetWords.keyof().options) expect(text).toContain(`--${kebab(name)} `);
  });

  it('is what the library reads: a refusal is a ConformanceError before anything starts', async () => {
    await expect(runConformance({ image: 'cand', target: 'http://x' })).rejects.toThrow(
      new ConformanceError('--image starts the target; leave out --target, --hub and --hooks'),
    );
    await expect(runConformance({ hooks: 'http://x/__eac' })).rejects.toBeInstanceOf(
      ConformanceError,
    );
  });
});
