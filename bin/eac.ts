/** `eac`: conformance kit CLI. See `eac help`, and suites/runner/cli.ts for the commands. */
import { main } from '../suites/runner/cli.ts';

try {
  const code = await main(process.argv.slice(2));
  // Exit explicitly: a target's keep-alive sockets or a stray timer must not hold the process.
  process.exit(code);
} catch (error) {
  process.stderr.write(
    `eac: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(2);
}
