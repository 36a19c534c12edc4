/**
 * Starts a server kept in candidates/ (server.ts prints one JSON line {url, hubUrl, hooksUrl}
 * once listening) on free ports, for the tools that judge it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface Listening {
  readonly url: string;
  readonly hubUrl: string;
  readonly hooksUrl: string;
}

export interface Candidate {
  readonly at: Listening;
  readonly stop: () => Promise<void>;
}

export async function startCandidate(folder: string, name: string): Promise<Candidate> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(folder, 'server.ts'), '--port', '0', '--hub-port', '0'],
    { cwd: path.resolve(folder, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const at = await new Promise<Listening>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${name} printed no address in 60 s: ${out}`));
    }, 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as Listening);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${String(code)}) before listening: ${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { at, stop };
}
