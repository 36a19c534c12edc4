/** `eac latitude`: the latitude proxy as a long-running process, until SIGINT or SIGTERM. */
import { writeFile } from 'node:fs/promises';
import type { LatitudeOptions } from './args.ts';
import { chosenIds, varyText } from '../latitude/choice.ts';
import { latitudeReport } from './run.ts';
import { firstSignal, type ServeIo } from './serve.ts';
import { missingPart } from './parts.ts';
import { DOCUMENT_ONLY_PROFILE, randomSeed, TargetError } from './target.ts';

export async function latitudeCommand(options: LatitudeOptions, io: ServeIo): Promise<number> {
  if (options.openPoints !== undefined) {
    const { openPointsCommand } = await import('./open-points-command.ts');
    return openPointsCommand(options.openPoints, io);
  }
  const seed = options.seed ?? randomSeed();
  const ports = {
    port: options.port,
    ...(options.hubPort !== undefined ? { hubPort: options.hubPort } : {}),
  };
  let running: {
    readonly url: string;
    readonly hubUrl: string;
    readonly hooksUrl?: string;
    readonly profile: unknown;
    counts(): Readonly<Record<string, number>>;
    close(): Promise<void>;
  };
  if (options.target === undefined) {
    const missing = missingPart('reference');
    if (missing !== undefined) throw new TargetError(missing);
    const { startLatitudeOnReference } = await import('../latitude/embedded.ts');
    const started = await startLatitudeOnReference({ vary: options.vary, seed, ...ports });
    running = {
      ...started,
      counts: () => started.counts(),
      close: () => started.close(),
      profile: started.printedProfile,
    };
  } else {
    const { startLatitude } = await import('../latitude/proxy.ts');
    const started = await startLatitude({
      target: options.target.url,
      hub: options.target.hub,
      ...(options.target.hooks !== undefined ? { hooks: options.target.hooks } : {}),
      vary: options.vary,
      seed,
      ...ports,
    });
    running = {
      url: started.url,
      hubUrl: started.hubUrl,
      ...(started.hooksUrl !== undefined ? { hooksUrl: started.hooksUrl } : {}),
      profile: started.profile(DOCUMENT_ONLY_PROFILE),
      counts: () => started.counts(),
      close: () => started.close(),
    };
  }
  if (options.printProfile !== undefined)
    await writeFile(options.printProfile, `${JSON.stringify(running.profile, null, 2)}\n`);
  const run = [
    'npx eac run',
    `--target ${running.url}`,
    `--hub ${running.hubUrl}`,
    ...(running.hooksUrl !== undefined ? [`--hooks ${running.hooksUrl}`] : []),
    ...(options.printProfile !== undefined ? [`--profile ${options.printProfile}`] : []),
  ].join(' ');
  io.stdout.write(
    [
      `eac latitude proxy listening (${varyText(options.vary)}, seed ${seed})`,
      `  in front of ${options.target?.url ?? 'the embedded reference'}`,
      `  taking ${chosenIds(options.vary).join(', ')}`,
      `  url      ${running.url}`,
      `  hubUrl   ${running.hubUrl}`,
      `  hooksUrl ${running.hooksUrl ?? '(none)'}`,
      ...(options.printProfile !== undefined
        ? [`  profile  ${options.printProfile} (the shapes the proxy produces)`]
        : []),
      `Test it: ${run}`,
      'Stop with Ctrl-C; the answers each entry changed are printed then.',
      '',
    ].join('\n'),
  );
  const signal = await (io.stopped ?? firstSignal());
  io.stdout.write(`eac: ${typeof signal === 'string' ? signal : 'stop'} received, closing\n`);
  const report = latitudeReport({
    vary: varyText(options.vary),
    chosen: chosenIds(options.vary),
    counts: () => running.counts(),
  });
  io.stdout.write(report.text);
  await running.close();
  return report.idle.length > 0 ? 1 : 0;
}
