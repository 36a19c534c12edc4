import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closest, PROJECT_ROOT, selectionMistake } from './cli.ts';

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
}

/** `eac ARGS` from the sources, as a user runs it, with stdout and stderr on pipes. */
function eac(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'eac.mjs'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, EAC_BUNDLE: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        out: Buffer.concat(out).toString('utf8'),
        err: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
      }),
    );
  });
}

describe('did you mean', () => {
  it('names the nearest candidate of a typo, and nothing for a word far from all', () => {
    expect(closest('identiy', ['identity', 'hub', 'chat'])).toBe('identity');
    expect(closest('users.updte', ['users', 'users.update', 'users.get'])).toBe('users.update');
    expect(closest('zzzzzz', ['identity', 'hub'])).toBeUndefined();
    expect(closest('hub', ['hub'])).toBeUndefined();
  });

  it('turns --only values that select nothing into one usage line, with suggestions', () => {
    const areas = ['hub', 'identity'];
    const ids = ['users.update.path', 'roles.list'];
    const unmatched = (values: readonly string[]) =>
      values.filter((v) => !areas.includes(v) && !ids.some((id) => id.startsWith(v)));
    expect(selectionMistake('run', ['identity', 'users.update'], areas, ids, unmatched)).toBe(
      undefined,
    );
    expect(selectionMistake('doctor', ['identiy', 'rols', 'qqqqqqqq'], areas, ids, unmatched)).toBe(
      'eac doctor: --only identiy (did you mean identity?), rols (did you mean roles?), qqqqqqqq matches no suite area (hub, identity) and no clause id; see `eac clauses`',
    );
  });
});

describe('eac, as a user runs it', () => {
  it('exits 2 on the same mistake in every command, at once', async () => {
    const [rn, tagret, doctor, run, section] = await Promise.all([
      eac(['rn']),
      eac(['doctor', '--tagret', 'http://x']),
      eac(['doctor', '--only', 'identiy', '--target', 'http://127.0.0.1:9']),
      eac(['run', '--only', 'identiy']),
      eac(['clauses', '--section', '4.99']),
    ]);
    expect(rn).toMatchObject({ code: 2, out: '' });
    expect(rn.err).toMatch(/^eac: unknown command 'rn' \(did you mean run\?\)\n/);
    expect(tagret.code).toBe(2);
    expect(tagret.err).toMatch(/did you mean --target\?/);
    for (const ran of [doctor, run]) {
      expect(ran.code).toBe(2);
      expect(ran.err).toMatch(/--only identiy \(did you mean identity\?\) matches no suite area/);
    }
    // Before anything is reached: doctor never waits for the (closed) port.
    expect(doctor.ms).toBeLessThan(20_000);
    expect(section).toMatchObject({ code: 2, out: '' });
    expect(section.err).toBe(
      'eac clauses: no clause matches --section 4.99; `eac clauses` lists them all\n',
    );
  }, 60_000);

  it('says in one line, without a stack, that the port of serve is taken', async () => {
    const holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as AddressInfo;
    try {
      const [api, hub] = await Promise.all([
        eac(['serve', '--port', String(port)]),
        eac(['serve', '--hub-port', String(port)]),
      ]);
      expect(api).toMatchObject({
        code: 2,
        err: `eac serve: port ${port} is in use; pick another with --port or 0 for any\n`,
      });
      expect(hub).toMatchObject({
        code: 2,
        err: `eac serve: port ${port} is in use; pick another with --hub-port or 0 for any\n`,
      });
    } finally {
      holder.close();
    }
  }, 60_000);

  it('prints help and the version on stdout, without colour off a terminal', async () => {
    const [runHelp, version] = await Promise.all([
      eac(['run', '--help'], { FORCE_COLOR: '1' }),
      eac(['--version']),
    ]);
    expect(runHelp).toMatchObject({ code: 0, err: '' });
    expect(runHelp.out).toMatch(/^Usage: eac run \[options\]/);
    expect(runHelp.out).not.toContain('\x1b[');
    const { version: expected } = JSON.parse(
      readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'),
    ) as { version: string };
    expect(version).toMatchObject({ code: 0, out: `${expected}\n`, err: '' });
  }, 60_000);
});
