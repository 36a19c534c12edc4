/** `eac`: conformance kit CLI from the sources. See `eac help`, and runner/cli.ts. */
import { runCli } from './cli-main.ts';

await runCli(process.argv.slice(2));
