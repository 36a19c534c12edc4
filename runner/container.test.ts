import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { imageArgs, imageOptions } from './container.ts';
import { targetArgsOf } from '../reports/replay.ts';

describe('--image and its options', () => {
  it('fills in the reference image defaults: API 8080, hub 8081, hooks /__eac, wait on capabilities', () => {
    expect(imageOptions('eac-reference:local', {})).toEqual({
      image: 'eac-reference:local',
      apiPort: 8080,
      hubPort: 8081,
      hooksPath: '/__eac',
      waitPath: '/__eac/capabilities',
      env: {},
      startupTimeoutMs: 60_000,
    });
    expect(
      imageOptions('x', { ports: '3000', hooks: 'none', env: ['A=1', 'B=x=y'] }),
    ).toMatchObject({
      apiPort: 3000,
      waitPath: '/',
      env: { A: '1', B: 'x=y' },
    });
    expect(imageOptions('x', { ports: '3000' })).not.toHaveProperty('hubPort');
  });

  it('refuses what it cannot use', () => {
    expect(imageOptions('x', { ports: '0' })).toMatch(/--image-ports takes API\[,HUB\]/);
    expect(imageOptions('x', { ports: '1,2,3' })).toMatch(/--image-ports/);
    expect(imageOptions('x', { env: ['=1'] })).toMatch(/--image-env takes NAME=VALUE/);
    expect(imageOptions('x', { wait: 'health' })).toMatch(/--image-wait takes a path/);
    expect(imageOptions('-x', {})).toMatch(/--image takes NAME\[:TAG\]/);
    expect(() => parseCommand(['run', '--image', 'x', '--target', 'http://t'])).toThrow(
      /leave out --target/,
    );
    expect(() => parseCommand(['run', '--image-ports', '1'])).toThrow(/go with --image/);
  });

  it('replays a run with the image arguments, not the addresses the container happened to get', () => {
    const options = imageOptions('cand:1', { ports: '9000,9001', env: ['MODE=test'] });
    if (typeof options === 'string') throw new Error(options);
    const args = imageArgs(options);
    expect(args).toEqual([
      '--image',
      'cand:1',
      '--image-ports',
      '9000,9001',
      '--image-env',
      'MODE=test',
    ]);
    const command = parseCommand(['run', ...args]);
    expect(command.kind === 'run' && command.options.target.image).toEqual(options);
    expect(
      targetArgsOf({
        baseUrl: 'http://localhost:32769',
        hubUrl: 'http://localhost:32768',
        embedded: false,
        image: { args },
      }),
    ).toEqual(args);
    const plain = imageOptions('eac-reference:local', {});
    expect(typeof plain !== 'string' && imageArgs(plain)).toEqual([
      '--image',
      'eac-reference:local',
    ]);
  });
});
