/**
 * `npm run build`: bundles the CLI (bin/cli-main.ts and everything it loads, the reference
 * included) with esbuild into one CommonJS file, dist/eac.cjs, so that `eac` starts without
 * compiling TypeScript, then runs a fresh `eac serve` warm-up once to write V8's code cache of
 * it (dist/eac.cjs.cache), so that a start does not even parse or compile what serving needs.
 * dist/.source-hash records the hash of the sources (bin/source-hash.mjs); bin/eac.mjs runs
 * the bundle only while that hash still matches, and the sources through tsx otherwise.
 * CommonJS because Node 20 offers a code cache only to scripts (vm.Script), not to modules.
 *
 *   npx tsx tools/build.ts [--if-stale]
 *
 * `--if-stale` does nothing when the bundle is fresh (what `prepare` runs after `npm ci`).
 */
import { build, type Plugin } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bundleIsFresh,
  CLI_BUNDLE,
  CODE_CACHE,
  DIST,
  HASH_FILE,
  isHashedSource,
  renderHashFile,
  ROOT,
  SOURCE_DIRS,
  sourceHash,
  statFingerprint,
} from '../bin/source-hash.mjs';

/**
 * Packages left to Node's loader: native modules cannot be bundled (@duckdb/*), and the test
 * machinery (vitest, vite, playwright, testcontainers) loads its own files by path at run time.
 * Everything else (fastify, zod, jose, ...) is bundled: one file read instead of hundreds.
 */
export const EXTERNAL = [
  '@duckdb/*',
  'vitest',
  'vitest/*',
  'vite',
  'playwright-core',
  'testcontainers',
  'tsx',
  'tsx/*',
  'esbuild',
];

/**
 * `import.meta.url` in a source file names that file (its data, the project root, fixtures are
 * found from it); a CommonJS bundle has no import.meta. Each use becomes the source file's URL
 * computed from the bundle's folder, so the bundle still works wherever the project is copied.
 */
export const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(DIST, args.path).split(path.sep).join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(relative)})).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/**
 * Packages the bundle loads on first use instead of at start-up (see lazyPackages): DuckDB's
 * native module, which only a chat needs, undici, which `eac serve` reaches through
 * runner/target.ts but never calls, and playwright-core, an optional part that only discover's
 * hub section opens (it says so, without loading it, where the part is not installed).
 */
export const LAZY_PACKAGES = ['@duckdb/node-api', 'undici', 'playwright-core'];

/**
 * A static import of such a package would load it (for DuckDB a dlopen and dozens of CommonJS
 * files) before `eac serve` listens. In the bundle each such import becomes an object with one
 * getter per export name, read from the installed package now, that loads the package from
 * node_modules on the first read. Only CommonJS packages qualify: the bundle reads their
 * exports through such an object at each use, never copies them at import. The sources
 * through tsx load them eagerly as written; a package that cannot be loaded here stays a plain
 * external import.
 */
export const lazyPackages: Plugin = {
  name: 'lazy-native',
  setup(context) {
    const load = createRequire(path.join(ROOT, 'package.json'));
    const filter = new RegExp(
      `^(${LAZY_PACKAGES.map((p) => p.replace(/[/.]/g, '\\$&')).join('|')})$`,
    );
    context.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-native'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'lazy-native' },
    );
    context.onLoad({ filter: /.*/, namespace: 'lazy-native' }, (args) => {
      let real: Record<string, unknown>;
      try {
        real = load(args.path) as Record<string, unknown>;
      } catch (error) {
        process.stderr.write(
          `eac build: ${args.path} does not load here (${(error as Error).message}); it stays an eager import\n`,
        );
        return {
          contents: `module.exports = require(${JSON.stringify(args.path)});`,
          loader: 'js',
        };
      }
      const members = Object.keys(real).map((name) => {
        const value = real[name];
        const key = JSON.stringify(name);
        // An enum (a plain object of primitives) is copied as data: reading DuckDBTypeId.BIGINT
        // while a module loads then needs no package. package-lock.json is in the source
        // hash, so another installed version makes the bundle stale.
        return isEnum(value)
          ? `  ${key}: ${JSON.stringify(value)},`
          : `  get ${key}() { return load()[${key}]; },`;
      });
      return {
        contents: [
          'let real;',
          `const load = () => (real ??= require(${JSON.stringify(args.path)}));`,
          `module.exports = {\n${members.join('\n')}\n};`,
          real['__esModule'] === true
            ? "Object.defineProperty(module.exports, '__esModule', { value: true });"
            : '',
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * `import()` calls left in the bundle, and why each may stay. bin/eac.mjs runs the bundle in a
 * vm.Script whose dynamic imports go through vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER, and
 * Node prints an ExperimentalWarning the first time one runs: a built-in or a bundled module
 * must be imported statically or bundled instead.
 */
export const DYNAMIC_IMPORTS: Readonly<Record<string, string>> = {
  testcontainers: 'only for --image; loading it eagerly would slow every start',
};

export function checkDynamicImports(bundle: string): void {
  const left = [...bundle.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)]
    .map((m) => m[1] ?? '')
    .filter((specifier) => !(specifier in DYNAMIC_IMPORTS));
  if (left.length > 0)
    throw new Error(
      `the bundle keeps import() of ${[...new Set(left)].join(', ')}: each prints an ExperimentalWarning from bin/eac.mjs's loader; import it statically, or list it in DYNAMIC_IMPORTS with the reason`,
    );
}

function isEnum(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
  );
}

/** Builds dist/ and returns the source hash it was built from. */
export async function buildBundle(): Promise<{
  hash: string;
  cache: string;
  inputs: number;
  ms: number;
}> {
  const started = performance.now();
  // Fingerprint first: a file changed after it, even during the build, makes the bundle stale.
  const fingerprint = statFingerprint();
  const hash = sourceHash();
  const sourcesOnly = sourceHash(ROOT, { lock: false });
  // The hash file is written last: a failed or interrupted build leaves no bundle that looks fresh.
  await rm(DIST, { recursive: true, force: true });
  await mkdir(DIST, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['bin/cli-main.ts'],
    outfile: CLI_BUNDLE,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    plugins: [lazyPackages, sourceUrls],
    metafile: true,
    legalComments: 'none',
    // Less to parse at start-up; identifiers are kept, so stacks and class names still read.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  const outside = Object.keys(result.metafile.inputs).filter(
    (input) =>
      !/(^|\/)node_modules\//.test(input) &&
      !input.startsWith('lazy-native:') &&
      !(isHashedSource(input) && SOURCE_DIRS.some((dir) => input.startsWith(`${dir}/`))),
  );
  if (outside.length > 0) {
    throw new Error(
      `the bundle takes sources the hash does not cover (add their folder to SOURCE_DIRS in bin/source-hash.mjs): ${outside.slice(0, 5).join(', ')}${outside.length > 5 ? `, and ${outside.length - 5} more` : ''}`,
    );
  }
  checkDynamicImports(await readFile(CLI_BUNDLE, 'utf8'));
  await writeFile(HASH_FILE, renderHashFile(hash, fingerprint, sourcesOnly));
  const cache = writeCodeCache();
  return {
    hash,
    cache,
    inputs: Object.keys(result.metafile.inputs).length,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Runs the warm-up in a plain `node` (the code cache is only taken by the same Node and V8
 * flags). A failure leaves the bundle without a cache: slower to start, still right.
 */
function writeCodeCache(): string {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'eac.mjs')], {
    cwd: ROOT,
    env: { ...process.env, EAC_WRITE_CODE_CACHE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status === 0 && existsSync(CODE_CACHE)) return path.relative(ROOT, CODE_CACHE);
  process.stderr.write(
    `eac build: no code cache (the warm-up exited ${String(run.status ?? run.signal)}): ${run.stderr.trim()}\n`,
  );
  return 'none';
}

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--if-stale');
  if (unknown.length > 0) {
    process.stderr.write(
      `usage: tsx tools/build.ts [--if-stale] (unknown: ${unknown.join(' ')})\n`,
    );
    return 2;
  }
  const ifStale = argv.includes('--if-stale');
  if (ifStale && bundleIsFresh()) {
    process.stdout.write(`eac build: ${path.relative(ROOT, CLI_BUNDLE)} is up to date\n`);
    return 0;
  }
  let built: Awaited<ReturnType<typeof buildBundle>>;
  try {
    built = await buildBundle();
  } catch (error) {
    // `--if-stale` is what `prepare` runs: a failed bundle must not fail `npm ci`. Without
    // dist/ the CLI runs from the sources, as before there was a bundle.
    if (!ifStale) throw error;
    await rm(DIST, { recursive: true, force: true });
    process.stderr.write(
      `eac build: no bundle (${(error as Error).message}); eac runs from the sources\n`,
    );
    return 0;
  }
  const { hash, cache, inputs, ms } = built;
  process.stdout.write(
    `eac build: ${path.relative(ROOT, CLI_BUNDLE)} from ${inputs} inputs, code cache ${cache}, in ${ms} ms (sources ${hash.slice(0, 12)})\n`,
  );
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && path.resolve(entry) === path.resolve(ROOT, 'tools/build.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
