import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bundleIsFresh,
  distOf,
  isHashedSource,
  renderHashFile,
  sourceFiles,
  sourceHash,
  statFingerprint,
} from './source-hash.mjs';

/** A small project tree: two sources, a test, data, the lock file, and a bundle built from it. */
async function project(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'eac-source-hash-'));
  const files: Record<string, string> = {
    'bin/eac.ts': 'export {};\n',
    'reference/server.ts': 'export const a = 1;\n',
    'reference/server.test.ts': 'test\n',
    'fixtures/profiles/reference.json': '{}\n',
    'package-lock.json': '{"lockfileVersion":3}\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

async function build(root: string): Promise<void> {
  const { dist, hashFile, bundle } = distOf(root);
  await mkdir(dist, { recursive: true });
  await writeFile(bundle, '');
  await writeFile(
    hashFile,
    renderHashFile(sourceHash(root), statFingerprint(root), sourceHash(root, { lock: false })),
  );
}

describe('the source hash that tells a stale bundle', () => {
  const roots: string[] = [];
  const fresh = async () => {
    const root = await project();
    roots.push(root);
    await build(root);
    return root;
  };
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
  });

  it('hashes TypeScript sources and the lock file, not tests, declarations or data', async () => {
    expect(isHashedSource('a.ts')).toBe(true);
    expect(isHashedSource('a.mts')).toBe(true);
    expect(isHashedSource('a.test.ts')).toBe(false);
    expect(isHashedSource('a.d.ts')).toBe(false);
    expect(isHashedSource('a.d.mts')).toBe(false);
    expect(isHashedSource('a.json')).toBe(false);
    const root = await fresh();
    expect(sourceFiles(root)).toEqual(['bin/eac.ts', 'package-lock.json', 'reference/server.ts']);
  });

  it('a bundle is fresh right after its build, and stale without dist/ or its hash', async () => {
    const root = await fresh();
    expect(bundleIsFresh(root)).toBe(true);
    await rm(distOf(root).bundle);
    expect(bundleIsFresh(root)).toBe(false);
    await build(root);
    await rm(distOf(root).hashFile);
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('goes stale when a source or the lock file changes, or a source is added or removed', async () => {
    for (const change of [
      (root: string) => writeFile(path.join(root, 'reference/server.ts'), 'export const a = 2;\n'),
      (root: string) => writeFile(path.join(root, 'package-lock.json'), '{}\n'),
      (root: string) => writeFile(path.join(root, 'reference/new.ts'), 'export {};\n'),
      (root: string) => rm(path.join(root, 'bin/eac.ts')),
    ]) {
      const root = await fresh();
      await change(root);
      expect(bundleIsFresh(root)).toBe(false);
    }
  });

  it('stays fresh when only a test, data or a modification time changed', async () => {
    const root = await fresh();
    await writeFile(path.join(root, 'reference/server.test.ts'), 'another test\n');
    await writeFile(path.join(root, 'fixtures/profiles/reference.json'), '{"x":1}\n');
    expect(bundleIsFresh(root)).toBe(true);
    // A checkout that rewrites a file unchanged: the fingerprint differs, the content does not.
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'reference/server.ts'), later, later);
    const [, built] = (await readFile(distOf(root).hashFile, 'utf8')).split('\n');
    expect(statFingerprint(root)).not.toBe(built);
    expect(bundleIsFresh(root)).toBe(true);
  });

  it('in an installed copy (npm packs no lock file) the sources alone decide', async () => {
    const root = await fresh();
    await rm(path.join(root, 'package-lock.json'));
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'reference/server.ts'), later, later);
    expect(bundleIsFresh(root)).toBe(true);
    await writeFile(path.join(root, 'reference/server.ts'), 'export const a = 2;\n');
    expect(bundleIsFresh(root)).toBe(false);
  });
});
