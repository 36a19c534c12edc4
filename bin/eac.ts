/** `eac`: conformance kit CLI. See `eac help`, and suites/runner/cli.ts for the commands. */
import { main } from '../suites/runner/cli.ts';

/**
 * Resolves once everything written to `stream` so far has been handed to the OS. A pipe
 * (`eac clauses --json | head`) takes writes asynchronously, and exiting before they drain
 * cuts the output at the pipe's buffer size.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// A reader that stops early (`| head -c 100`) closes the pipe: that is not our error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

async function exit(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // Exit explicitly: a target's keep-alive sockets or a stray timer must not hold the process.
  process.exit(code);
}

try {
  await exit(await main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(
    `eac: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await exit(2);
}
