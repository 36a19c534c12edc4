/** `eac serve`: the reference simulator as a long-running process, until SIGINT or SIGTERM. */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServeOptions } from './args.ts';
import { shellQuote, targetArgsOf } from '../reports/replay.ts';
import { missingPart } from './parts.ts';
import { randomSeed, REFERENCE_PROFILE_FILE, TargetError } from './target.ts';

export interface ServeIo {
  readonly stdout: { write(text: string): unknown };
  /** Resolves when the process should stop; defaults to the first SIGINT or SIGTERM. */
  readonly stopped?: Promise<unknown>;
}

export function firstSignal(): Promise<NodeJS.Signals> {
  const controller = new AbortController();
  const wait = (signal: NodeJS.Signals) =>
    once(process, signal, { signal: controller.signal }).then(() => signal);
  return Promise.race([wait('SIGINT'), wait('SIGTERM')]).finally(() => controller.abort());
}

/** What `eac serve` started, as the run line needs it. */
export interface Served {
  readonly url: string;
  readonly hubUrl: string;
  readonly hooksUrl?: string;
}

/** An address a client can dial: a server listening on every interface is reached on loopback. */
function dialable(address: string): string {
  return address.replace(/^http:\/\/(?:0\.0\.0\.0|\[::\])(?=:)/, (all) =>
    all.includes('[') ? 'http://[::1]' : 'http://127.0.0.1',
  );
}

/**
 * The `eac run` line that tests what `eac serve` started, to paste as it is: the target, its hub
 * (on a port of its own: a run never takes the target for its hub), the hooks when on, and the
 * profile by absolute path, so it runs from any folder.
 */
export function runLine(served: Served, profile: string): string {
  const target = targetArgsOf({
    baseUrl: dialable(served.url),
    hubUrl: dialable(served.hubUrl),
    ...(served.hooksUrl !== undefined ? { hooksUrl: dialable(served.hooksUrl) } : {}),
    embedded: false,
    profileFile: profile,
  });
  return ['npx', 'eac', 'run', ...target].map(shellQuote).join(' ');
}

export async function serveCommand(options: ServeOptions, io: ServeIo): Promise<number> {
  const missing = missingPart('reference');
  if (missing !== undefined) throw new TargetError(missing);
  const { start } = await import('../reference/server.ts');
  const seed = options.seed ?? randomSeed();
  const running = await start({
    port: options.port,
    ...(options.hubPort !== undefined ? { hubPort: options.hubPort } : {}),
    hooks: options.hooks,
    seed,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.latitude !== undefined ? { latitude: options.latitude } : {}),
    ...(options.announce !== undefined ? { announce: options.announce } : {}),
  });
  // With behaviour entries on, the reference answers where the document is silent otherwise
  // than its own profile says: the profile to run with is restated and written beside.
  let profile = REFERENCE_PROFILE_FILE;
  if (options.latitude !== undefined && options.latitude.length > 0) {
    const { behaviourProfile } = await import('../latitude/embedded.ts');
    profile = join(tmpdir(), `eac-serve-profile-${String(process.pid)}.json`);
    writeFileSync(
      profile,
      `${JSON.stringify({ ...behaviourProfile(options.latitude), description: `eac-reference taking ${options.latitude.join(', ')}` }, null, 2)}\n`,
    );
  }
  io.stdout.write(
    [
      `eac reference listening (seed ${seed})`,
      `  url      ${running.url}`,
      `  hubUrl   ${running.hubUrl}`,
      `  hooksUrl ${running.hooksUrl ?? '(hooks off; start with --hooks)'}`,
      ...(options.latitude !== undefined && options.latitude.length > 0
        ? [`  taking   ${options.latitude.join(', ')} (latitude)`]
        : []),
      ...(options.announce !== undefined
        ? [`  announce ${options.announce} (implementation)`]
        : []),
      `Test it: ${runLine(running, profile)}`,
      'Stop with Ctrl-C.',
      '',
    ].join('\n'),
  );
  const signal = await (io.stopped ?? firstSignal());
  io.stdout.write(`eac: ${typeof signal === 'string' ? signal : 'stop'} received, closing\n`);
  await running.close();
  return 0;
}
