/**
 * The CLI as a function: what bin/eac.ts runs from the sources and the bundle (dist/eac.cjs,
 * `npm run build`) runs from bin/eac.mjs. No top-level await here, so it bundles as CommonJS,
 * which Node lets us load with a V8 code cache (see tools/build.ts).
 */
import type * as Library from '../lib/index.ts';
import { main } from '../runner/cli.ts';

/**
 * Resolves once everything written to `stream` so far has been handed to the OS. A pipe
 * (`eac clauses --json | head`) takes writes asynchronously, and exiting before they drain
 * cuts the output at the pipe's buffer size.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

async function exit(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // Exit explicitly: a target's keep-alive sockets or a stray timer must not hold the process.
  process.exit(code);
}

/** Runs `eac <argv>` and exits the process with its code. */
export async function runCli(argv: readonly string[]): Promise<never> {
  // A reader that stops early (`| head -c 100`) closes the pipe: that is not our error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  try {
    return await exit(await main(argv));
  } catch (error) {
    process.stderr.write(
      `eac: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return exit(2);
  }
}

/**
 * The library API (lib/index.ts) as the bundle holds it: lib/index.mjs loads it through here,
 * so that an installed kit's library runs from the bundle too (the reference's Fastify is
 * in it, not in the dependent's node_modules). Imported on demand: a CLI start pays nothing.
 */
export function loadLibrary(): Promise<typeof Library> {
  return import('../lib/index.ts');
}

/**
 * What a fresh `eac serve` runs, once, so that the code cache tools/build.ts writes holds
 * those functions compiled: parse the command line, start the reference with its hooks,
 * answer one request, stop.
 */
export async function warmUp(): Promise<void> {
  const [{ parseCommand }, { start }] = await Promise.all([
    import('../runner/args.ts'),
    import('../reference/server.ts'),
  ]);
  parseCommand(['serve', '--hooks', '--port', '0', '--seed', '1']);
  const running = await start({ hooks: true, seed: 1 });
  try {
    const response = await fetch(`${running.hooksUrl ?? running.url}/capabilities`);
    await response.text();
  } finally {
    await running.close();
  }
}
