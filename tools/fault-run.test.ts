import { describe, expect, it } from 'vitest';

import { parseCommand } from '../runner/args.ts';
import { serveCommand } from '../runner/serve.ts';
import { REFERENCE_IMPLEMENTATION, resolveTarget } from '../runner/target.ts';
import { FAULT_CANDIDATE, ownFailures, restOf, serveArgs } from './fault-run.ts';

// The fault catalogue and the blind rounds judge a broken reference as an outside candidate
// only because it announces another implementation's name. If that stopped working, every
// fault would be judged as the reference (decisions checked) or the tool would throw: this
// starts the reference with the very arguments the tool gives `eac serve` and asks the runner
// what it sees.
describe('a fault candidate', () => {
  it('is served under another name, and a run judges it as an outside target', async () => {
    const command = parseCommand(serveArgs());
    if (command.kind !== 'serve') throw new Error(`parsed as ${command.kind}`);
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const out: string[] = [];
    let printed!: () => void;
    const ready = new Promise<void>((resolve) => (printed = resolve));
    const serving = serveCommand(command.options, {
      stdout: {
        write: (text: string) => {
          out.push(text);
          printed();
        },
      },
      stopped,
    });
    try {
      await ready;
      const banner = out.join('');
      const url = /url\s+(http:\/\/\S+)/.exec(banner)?.[1];
      const hooks = /hooksUrl\s+(http:\/\/\S+)/.exec(banner)?.[1];
      expect(url).toBeDefined();
      expect(hooks).toBeDefined();
      const capabilities = (await (await fetch(`${hooks ?? ''}/capabilities`)).json()) as {
        data: { implementation: string };
      };
      expect(capabilities.data.implementation).toBe(FAULT_CANDIDATE);
      expect(FAULT_CANDIDATE).not.toBe(REFERENCE_IMPLEMENTATION);
      const resolved = await resolveTarget(
        { target: url ?? '', ...(hooks !== undefined ? { hooks } : {}), checkDecisions: false },
        1,
      );
      try {
        expect(resolved.target.implementation).toBe(FAULT_CANDIDATE);
        expect(resolved.target.checkDecisions).toBe(false);
      } finally {
        await resolved.close();
      }
    } finally {
      stop();
      expect(await serving).toBe(0);
    }
  }, 60_000);
});

describe('the stages of a fault run', () => {
  it('leaves the areas a selection names to the second stage, and every area for clause ids', () => {
    expect(restOf(['chat', 'hub'], ['chat', 'dashboards', 'hub'])).toEqual(['dashboards']);
    expect(restOf(['chat.thread'], ['chat', 'hub'])).toEqual(['chat', 'hub']);
  });

  it('counts only failures the unbroken reference does not have', () => {
    const baseline = { pass: 1, fail: 1, failing: ['a'], seconds: 1, loadAverage: 0 };
    expect(ownFailures({ pass: 0, fail: 2, failing: ['a', 'b'] }, baseline)).toEqual(['b']);
    expect(ownFailures({ pass: 0, fail: 1, failing: ['a'] }, undefined)).toEqual(['a']);
  });
});
