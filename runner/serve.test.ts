import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { runLine, serveCommand } from './serve.ts';
import { REFERENCE_PROFILE_FILE, resolveTarget } from './target.ts';

describe('the run line eac serve prints', () => {
  it('names target, hub, hooks and the profile by absolute path, dialable on loopback', () => {
    expect(
      runLine(
        {
          url: 'http://0.0.0.0:8080',
          hubUrl: 'http://0.0.0.0:8081',
          hooksUrl: 'http://0.0.0.0:8080/__eac',
        },
        '/abs/reference.json',
      ),
    ).toBe(
      'npx eac run --target http://127.0.0.1:8080 --hub http://127.0.0.1:8081 --hooks http://127.0.0.1:8080/__eac --profile /abs/reference.json',
    );
    expect(runLine({ url: 'http://[::]:1', hubUrl: 'http://[::]:2' }, '/p q.json')).toBe(
      "npx eac run --target 'http://[::1]:1' --hub 'http://[::1]:2' --profile '/p q.json'",
    );
  });

  it('runs as printed: eac run takes it, and it resolves to the served reference and its hub', async () => {
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const out: string[] = [];
    let printed!: () => void;
    const ready = new Promise<void>((resolve) => (printed = resolve));
    const serving = serveCommand(
      { port: 0, hooks: true, seed: 7 },
      {
        stdout: {
          write: (text: string) => {
            out.push(text);
            printed();
          },
        },
        stopped,
      },
    );
    try {
      await ready;
      const line = /^Test it: (.*)$/m.exec(out.join(''))?.[1];
      expect(line).toBeDefined();
      const argv = (line ?? '').split(' ');
      expect(argv.slice(0, 2)).toEqual(['npx', 'eac']);
      const command = parseCommand(argv.slice(2));
      if (command.kind !== 'run') throw new Error(`parsed as ${command.kind}`);
      const spec = command.options.target;
      expect(spec.profile).toBe(REFERENCE_PROFILE_FILE);
      expect(spec.hub).toBeDefined();
      expect(spec.hub).not.toBe(spec.target);
      const resolved = await resolveTarget(spec, 1);
      expect(resolved.target.hubUrl).toBeDefined();
      expect(resolved.target.implementation).toBe('eac-reference');
      expect(resolved.target.hooks).toContain('accounts');
      expect(resolved.target.profile.serves).toContain('hub');
      // The hub answers its pages where the line says.
      const page = await fetch(`${resolved.target.hubUrl}/share/dashboard/x`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      await resolved.close();
    } finally {
      stop();
      expect(await serving).toBe(0);
    }
  }, 60_000);
});
