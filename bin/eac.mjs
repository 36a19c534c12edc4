#!/usr/bin/env node
// Package bin. Runs the bundled CLI in dist/ (`npm run build`) when it was built from the
// sources as they are now, else the TypeScript sources through tsx: a stale or missing bundle
// costs start-up time, never a wrong answer. EAC_BUNDLE=0 forces the sources; EAC_BUNDLE=1
// insists on the bundle (exit 2 when it is stale or missing), for benchmarks and CI.
import { bundleIsFresh, CLI_BUNDLE, CODE_CACHE, DIST, sourcesLoader } from './source-hash.mjs';

const wanted = process.env.EAC_BUNDLE;
// tools/build.ts runs this with EAC_WRITE_CODE_CACHE=1 right after bundling.
const writeCache = process.env.EAC_WRITE_CODE_CACHE === '1';

/**
 * Loads dist/eac.cjs the way Node loads a CommonJS file, but through vm.Script, which takes
 * V8's code cache: functions compiled in the build's warm-up run are not parsed or compiled
 * again. A missing or rejected cache (another Node version) only costs that time.
 */
async function loadBundle() {
  const [{ readFileSync }, vm, { createRequire }] = await Promise.all([
    import('node:fs'),
    import('node:vm'),
    import('node:module'),
  ]);
  let cachedData;
  // The cache only for `serve`, whose start-up it is for: V8 compiles functions taken from a
  // code cache without the script's dynamic-import callback, so an `import()` inside one
  // (testcontainers for --image) throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on Node 20.
  if (!writeCache && process.argv[2] === 'serve') {
    try {
      cachedData = readFileSync(CODE_CACHE);
    } catch {
      cachedData = undefined;
    }
  }
  const source = readFileSync(CLI_BUNDLE, 'utf8');
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    {
      filename: CLI_BUNDLE,
      ...(cachedData !== undefined ? { cachedData } : {}),
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(CLI_BUNDLE), module, CLI_BUNDLE, DIST);
  return { cli: module.exports, script };
}

if (writeCache) {
  const [{ writeFileSync }, { cli, script }] = await Promise.all([import('node:fs'), loadBundle()]);
  await cli.warmUp();
  writeFileSync(CODE_CACHE, script.createCachedData());
} else if (wanted !== '0' && bundleIsFresh()) {
  const { cli } = await loadBundle();
  await cli.runCli(process.argv.slice(2));
} else if (wanted === '1') {
  process.stderr.write(
    'eac: EAC_BUNDLE=1 but dist/ is missing or was built from other sources; run `npm run build`\n',
  );
  process.exitCode = 2;
} else {
  const tsx = await sourcesLoader(wanted === '0');
  if (tsx === undefined) {
    process.exitCode = 2;
  } else {
    tsx.register();
    await import('./eac.ts');
  }
}
