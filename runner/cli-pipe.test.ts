import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../spec/clauses/index.ts';
import { shellQuote } from '../reports/replay.ts';
import { PROJECT_ROOT } from './cli.ts';

/**
 * Runs the CLI in a shell pipeline: a real pipe (64 KiB of buffer; Node's own child pipes are
 * sockets with more) to a reader that starts reading only after a pause.
 */
function slowlyRead(args: readonly string[]): Promise<{ out: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const cli = [process.execPath, path.join(PROJECT_ROOT, 'bin', 'eac.mjs'), ...args]
      .map(shellQuote)
      .join(' ');
    const child = spawn('sh', ['-c', `${cli} 2>/dev/null | (sleep 1.5; cat)`], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ out: Buffer.concat(chunks).toString('utf8'), code }));
  });
}

describe('eac on a pipe', () => {
  it('writes the whole of a large output before exiting (more than a pipe buffer holds)', async () => {
    const { out, code } = await slowlyRead(['clauses', '--json']);
    expect(code).toBe(0);
    expect(Buffer.byteLength(out)).toBeGreaterThan(65_536);
    expect(JSON.parse(out)).toHaveLength(catalogue.length);
  }, 30_000);
});
