// The hash that ties dist/ (the bundled CLI and reference, `npm run build`) to the sources it
// was built from. Plain JavaScript: bin/eac.mjs runs it before anything can load TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: one folder up from bin/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the bundle lives, and the file holding the hash of the sources it was built from. */
export const DIST = path.join(ROOT, 'dist');
export const HASH_FILE = path.join(DIST, '.source-hash');
export const CLI_BUNDLE = path.join(DIST, 'eac.cjs');
/** V8's code cache of the bundle, written by the build after a warm-up run of `eac serve`. */
export const CODE_CACHE = path.join(DIST, 'eac.cjs.cache');
// (distOf(root), below, gives the same paths for another root: the unit tests use it.)

/**
 * The folders whose TypeScript the bundle is built from. tools/build.ts refuses a bundle that
 * takes a source file from anywhere else, so a change outside them cannot go unnoticed.
 */
export const SOURCE_DIRS = [
  'bin',
  'runner',
  'suites/harness',
  'reference',
  'spec',
  'fixtures',
  'reports',
  'latitude',
  'lib',
];

/** The other files the bundle depends on: the installed versions of the bundled packages. */
export const SOURCE_FILES = ['package-lock.json'];

/** Whether a file belongs to the hashed sources: TypeScript that is not a test. */
export function isHashedSource(file) {
  return /\.m?ts$/.test(file) && !/\.test\.ts$/.test(file) && !/\.d\.m?ts$/.test(file);
}

/** A plain recursive walk: several times faster here than `readdirSync(..., {recursive})`. */
function listSources(root, dir, out = []) {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return out;
    throw error;
  }
  for (const entry of entries) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) listSources(root, file, out);
    else if (entry.isFile() && isHashedSource(entry.name)) out.push(file);
  }
  return out;
}

/**
 * Every hashed file, relative to the root with `/` separators, in a stable order; with
 * `{ lock: false }` the sources alone, without SOURCE_FILES.
 */
export function sourceFiles(root = ROOT, { lock = true } = {}) {
  const files = [
    ...SOURCE_DIRS.flatMap((dir) => listSources(root, dir)),
    ...(lock ? SOURCE_FILES : []),
  ];
  return files.sort();
}

/** sha256 over the path and content of every hashed file (a missing file hashes as absent). */
export function sourceHash(root = ROOT, options = {}) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root, options)) {
    let content;
    try {
      content = readFileSync(path.join(root, file));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      content = null;
    }
    hash.update(`${file}\0${content === null ? '-' : String(content.length)}\0`);
    if (content !== null) hash.update(content);
  }
  return hash.digest('hex');
}

/**
 * A cheap stand-in for the content hash: path, size and modification time of every hashed
 * file. Equal fingerprints mean unchanged sources; a different one (a fresh checkout, a
 * touched file) only sends bundleIsFresh() on to the content hash.
 */
export function statFingerprint(root = ROOT) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root)) {
    let stat;
    try {
      stat = statSync(path.join(root, file));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      stat = null;
    }
    hash.update(`${file}\0${stat === null ? '-' : `${stat.size}:${stat.mtimeMs}`}\0`);
  }
  return hash.digest('hex');
}

/**
 * dist/.source-hash: the content hash, the stat fingerprint, then the hash of the sources
 * without the lock file (what an installed copy checks), one a line.
 */
export function renderHashFile(contentHash, fingerprint, sourcesOnly = '') {
  return `${contentHash}\n${fingerprint}\n${sourcesOnly}\n`;
}

/** Where `root`'s bundle and hash file are (the exported constants for this project). */
export function distOf(root = ROOT) {
  const dist = path.join(root, 'dist');
  return {
    dist,
    hashFile: path.join(dist, '.source-hash'),
    bundle: path.join(dist, 'eac.cjs'),
    codeCache: path.join(dist, 'eac.cjs.cache'),
  };
}

function readHashFile(root) {
  try {
    const [content, fingerprint, sourcesOnly] = readFileSync(distOf(root).hashFile, 'utf8').split(
      '\n',
    );
    return { content, fingerprint, sourcesOnly };
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The content hash the bundle was built from, or undefined when there is no bundle. */
export function builtHash(root = ROOT) {
  return readHashFile(root)?.content || undefined;
}

/** Whether dist/ holds a bundle built from the sources as they are now. */
export function bundleIsFresh(root = ROOT) {
  const built = readHashFile(root);
  if (built === undefined || !built.content || !existsSync(distOf(root).bundle)) return false;
  if (built.fingerprint && built.fingerprint === statFingerprint(root)) return true;
  // An installed copy has no lock file (npm packs none): the bundle carries the packages it
  // was built with, so the sources alone tell whether it is still theirs.
  if (built.sourcesOnly && SOURCE_FILES.every((file) => !existsSync(path.join(root, file))))
    return built.sourcesOnly === sourceHash(root, { lock: false });
  return built.content === sourceHash(root);
}

/**
 * tsx's API, which runs the TypeScript sources when the bundle cannot be used, or undefined
 * after saying why on stderr: tsx, like commander and fastify that the sources import, is a
 * devDependency of the kit's clone, which an installed kit has no need of while its bundle,
 * built when it was packed, is fresh. `forced`: EAC_BUNDLE=0 asked for the sources.
 */
export async function sourcesLoader(forced) {
  try {
    return await import('tsx/esm/api');
  } catch (error) {
    if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const why = forced
      ? 'EAC_BUNDLE=0 asks for the TypeScript sources'
      : 'dist/ holds no bundle built from these sources';
    process.stderr.write(
      `eac: ${why}, and running them needs the kit's devDependencies (tsx, commander, fastify), not installed here: reinstall the kit for a fresh bundle, or run the sources from a clone (npm ci)\n`,
    );
    return undefined;
  }
}
