import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './cli.ts';

/** `eac <args>` run from `cwd`, as a user does from the folder of their own project. */
function eacIn(
  cwd: string,
  args: readonly string[],
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'eac.mjs'), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(chunks).toString('utf8') }));
  });
}

describe('paths a user gives eac run', () => {
  it("are read and written in the user's folder, not the kit's", async () => {
    const user = await mkdtemp(path.join(tmpdir(), 'eac-user-'));
    const report = `out-${path.basename(user)}`;
    await writeFile(
      path.join(user, 'expected.yaml'),
      'expectations:\n  - test: identity/none\n    outcome: fail\n    reason: a test that does not exist\n',
    );
    const { code, out } = await eacIn(user, [
      'run',
      '--only',
      'resources.uuid.format',
      '--quiet-progress',
      '--seed',
      '1',
      '--report',
      report,
      '--expectations',
      'expected.yaml',
    ]);
    const stray = path.join(PROJECT_ROOT, report);
    const strayed = existsSync(stray);
    await rm(stray, { recursive: true, force: true });
    expect(code, out).toBe(0);
    expect(strayed, 'nothing written in the kit').toBe(false);
    const latest = path.join(user, report, 'latest');
    expect(await readlink(latest)).toMatch(/^runs[/\\]/);
    const results = JSON.parse(await readFile(path.join(latest, 'results.json'), 'utf8')) as {
      gate?: { expectationsFile: string };
    };
    expect(results.gate?.expectationsFile).toBe(path.join(user, 'expected.yaml'));
  }, 60_000);
});
