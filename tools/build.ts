/**
 * `npm run build`: bundles the CLI (bin/eac.ts and everything it loads, the reference
 * included) with esbuild into dist/, so that `eac` starts without compiling TypeScript.
 * dist/.source-hash records the hash of the sources (bin/source-hash.mjs); bin/eac.mjs runs
 * the bundle only while that hash still matches, and the sources through tsx otherwise.
 *
 *   npx tsx tools/build.ts [--if-stale]
 *
 * `--if-stale` does nothing when the bundle is fresh (what `prepare` runs after `npm ci`).
 */
import { build, type Plugin } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  bundleIsFresh,
  CLI_BUNDLE,
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
 * found from it); in the bundle it would name the chunk. Each use becomes the source file's URL
 * computed from the chunk's, so the bundle still works wherever the project is copied.
 */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(DIST, args.path).split(path.sep).join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/** Bundled CommonJS packages call require(); ESM output has none unless we give it one. */
const REQUIRE_SHIM = [
  "import { createRequire as __eacCreateRequire } from 'node:module';",
  'const require = __eacCreateRequire(import.meta.url);',
].join('\n');

/** Builds dist/ and returns the source hash it was built from. */
export async function buildBundle(): Promise<{ hash: string; inputs: number; ms: number }> {
  const started = performance.now();
  // Fingerprint first: a file changed after it, even during the build, makes the bundle stale.
  const fingerprint = statFingerprint();
  const hash = sourceHash();
  // The hash file is written last: a failed or interrupted build leaves no bundle that looks fresh.
  await rm(DIST, { recursive: true, force: true });
  await mkdir(DIST, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { eac: 'bin/eac.ts' },
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Chunks sit beside eac.mjs: the rewritten import.meta.url counts on that depth.
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    banner: { js: REQUIRE_SHIM },
    plugins: [sourceUrls],
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
      !input.startsWith('node_modules/') &&
      !(isHashedSource(input) && SOURCE_DIRS.some((dir) => input.startsWith(`${dir}/`))),
  );
  if (outside.length > 0) {
    throw new Error(
      `the bundle takes sources the hash does not cover (add their folder to SOURCE_DIRS in bin/source-hash.mjs): ${outside.join(', ')}`,
    );
  }
  await writeFile(HASH_FILE, renderHashFile(hash, fingerprint));
  return {
    hash,
    inputs: Object.keys(result.metafile.inputs).length,
    ms: Math.round(performance.now() - started),
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--if-stale');
  if (unknown.length > 0) {
    process.stderr.write(
      `usage: tsx tools/build.ts [--if-stale] (unknown: ${unknown.join(' ')})\n`,
    );
    return 2;
  }
  if (argv.includes('--if-stale') && bundleIsFresh()) {
    process.stdout.write(`eac build: ${path.relative(ROOT, CLI_BUNDLE)} is up to date\n`);
    return 0;
  }
  const { hash, inputs, ms } = await buildBundle();
  process.stdout.write(
    `eac build: ${path.relative(ROOT, CLI_BUNDLE)} from ${inputs} inputs in ${ms} ms (sources ${hash.slice(0, 12)})\n`,
  );
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && path.resolve(entry) === path.resolve(ROOT, 'tools/build.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
